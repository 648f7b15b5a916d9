// Package changes owns the service's announced changes to resource types (seed sections 7 and 9)
// as pure logic: the ODBC allowlist for Windows-auth T-SQL resources and the audit of a list of
// resources against the announced deprecations and removals. It does no HTTP and no formatting
// beyond strings; it must not import net/http, cobra, viper, output, ratebudget, cmd or client.
//
// # ODBC allowlist (odbc.go)
//
// The service accepts a paramsFromConnectionString key only when it is, byte for byte, a canonical
// attribute name or one of the alternate spellings listed in the seed (CheckODBCKey). No case
// folding beyond the listed spellings: "App" and "PACKETSIZE" are rejected, as the service does.
//
// CheckODBCParams checks a whole map. Each rejected key gets one category, tried in this order:
//
//   - "injection": the key is empty, not valid UTF-8, has leading/trailing whitespace, or contains
//     ';', '=', '{', '}', a control character (NUL included) or an invisible format character
//     (e.g. U+200B), whatever the name around it ("APP;Encrypt" is injection, not encryption).
//   - "encryption": Encrypt, TrustServerCertificate and similar certificate trust settings; use the
//     resource's SSL/TLS settings.
//   - "login-retry": LoginRetryCount, LoginRetryInterval; use ConnectRetryCount/ConnectRetryInterval.
//   - "credentials": Uid, Pwd, User, Password and similar; "service-managed": Driver,
//     Trusted_Connection, Server, Database and similar. Both are set by the service from the
//     resource's own fields; remove them.
//   - "not-allowed": anything else. When the key differs from an allowed attribute only by case,
//     spaces or underscores, the advice names the accepted spelling.
//
// Categories other than "injection" are matched on a folded key (lower case, no spaces or
// underscores) so that "encrypt" and "Trust Server Certificate" get the right advice; folding never
// makes a key acceptable.
//
// Values: orgctl is stricter than the seed, which only restricts keys. A value of an allowed key is
// rejected as "injection" when it could end the attribute early and append another one: it contains
// a control or invisible character, or, unless it is one properly braced ODBC value, it contains
// ';', '{' or '}'. A properly braced value starts with '{', ends with '}', and doubles every '}'
// inside ("{a;b}}c}" is the value "a;b}c"); ';' and '=' are fine inside braces. '=' in an unbraced
// value is fine: ODBC splits an attribute at its first '='.
//
// Two keys that spell the same attribute ("packetsize" and "Packet Size") cannot both be passed on
// unambiguously: the first in byte order is accepted, the other is rejected as "not-allowed".
//
// Rejection.Message is the service's error text. The key is quoted with strconv.Quote: identical
// to the service's text for every printable key without '"' or '\', and safe for terminals otherwise.
package changes
