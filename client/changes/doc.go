// Package changes owns the service's announced changes to resource types as pure
// logic: the ODBC allowlist for Windows-auth T-SQL resources and the audit of a list of
// resources against the announced deprecations and removals. It does no HTTP and no formatting
// beyond strings; it must not import net/http, cobra, viper, output, ratebudget, cmd or client.
//
// # ODBC allowlist (odbc.go)
//
// The service accepts a paramsFromConnectionString key only when it is, byte for byte, a canonical
// attribute name or one of the alternate spellings the service lists (CheckODBCKey). No case
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
// Values: orgctl is stricter than the service, which only restricts keys. A value of an allowed key is
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
//
// # Audit (audit.go)
//
// Audit matches resources against the service's announced changes, by the exact type
// strings of the spec's resource type enum (the API's spelling; "MSSQL" is not "mssql"). It reads
// only what the caller puts in Resource.Options, which the API does not expose today; an option is
// looked up at the top level, then under "database_options", in snake_case or the service's camelCase
// (connector_version/connectorVersion, windows_auth/windowsAuth,
// params_from_connection_string/paramsFromConnectionString, server_version/serverVersion,
// custom_auth/customAuth, authentication_type or authentication_options.authentication_type).
// Whatever decides a finding but is missing or unrecognized gives status "check" with what to look
// at, never a guess.
//
// Statuses, most urgent first (StatusRank 4..1, unknown strings 0): "removed" (gone: queries fail),
// "breaking" (fails now, or removal is under way this quarter), "deprecated" (works, end announced),
// "check" (a person must look). Findings sort by rank, then days left (undated last), then resource
// name, ID and change.
//
// Dates: asOf counts as its calendar day in its own location. A quarter deadline starts on its first
// day (2026-Q4 = 2026-10-01); DaysLeft counts whole days from asOf's day to that first day and is
// negative once passed. Deadline is the change's next announced milestone, the last one once all
// have passed; "" (with DaysLeft nil) when the change has no announced date because it is in effect.
// The dates are the cloud dates; self-hosted follows in later releases, so they are the earliest.
//
// Changes and decisions:
//
//   - tsql-connector-v1-v2-removed (mssql): version 3.0: nothing. 1.0/2.0: "deprecated" before
//     2026-08-24 (deadline 2026-08-24) and until 2026-Q4 starts (deadline 2026-Q4); "breaking" during
//     2026-Q4, since no day was announced and the removal may land on its first; "removed" from
//     2027-01-01. Unknown or unrecognized version: "check" with the same deadline.
//   - tsql-windows-auth-deprecated (mssql, self-hosted only): windows_auth true: "deprecated" before
//     2027-Q2, "breaking" from 2027-04-01 (hardened images by default; no removal date was announced,
//     so never "removed"). false: nothing. Unknown: "check" (cloud resources cannot use it, but the
//     deployment is not known here).
//   - tsql-odbc-params-rejected (mssql): keys CheckODBCParams rejects, each with its replacement.
//     "breaking" with Windows Auth on (setup, save and test connection fail today), "check" when
//     Windows Auth is unknown, nothing when it is off or when no params are given. Undated.
//   - columnar-db-type-removed (vertica) and data-governance-type-removed (bigid): "deprecated"
//     before 2027-Q1, "removed" from 2027-01-01 (only the quarter was announced, so the whole
//     quarter counts as removed). Options are irrelevant: the whole type goes.
//   - document-db-server-3.4-removed (mongodb): server version below 3.6 (the minimum supported):
//     "removed" at any date, because cloud support is already gone and the deployment is not known
//     here; deadline 2026-Q3 (the self-hosted removal). 3.6 or later: nothing. Unknown: "check".
//   - custom-auth-libraries-removed (restapi, graphql, openapi, grpc): always "check" (deadline
//     2027-Q2), because the custom-auth steps and their require() calls are not exposed; nothing when
//     the options show an authentication type other than custom, or custom_auth false.
//   - builtin-email-free-plan-removed (retoolEmail, the built-in email sender's resource type):
//     always "check" (deadline 2027-01-01), because the organization's plan is not a resource field
//     and only Free plan organizations lose it.
//
// Not covered: T-SQL integration 3.0 availability (an opportunity, folded into the connector
// advice) and access policies (a beta feature, not a removal). Every other type gives no finding.
package changes
