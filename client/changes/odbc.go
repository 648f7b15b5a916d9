package changes

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ODBCAttribute is one allowlisted paramsFromConnectionString key: the canonical attribute name
// and the alternate spellings the service also accepts for it.
type ODBCAttribute struct {
	Canonical  string
	Alternates []string
}

// odbcAllowlist is the service's published table of accepted connection parameters, in its order,
// so that listings read like the service's own documentation.
var odbcAllowlist = []ODBCAttribute{
	{"APP", []string{"app"}},
	{"ApplicationIntent", []string{"applicationintent"}},
	{"ColumnEncryption", []string{"columnencryption"}},
	{"ConnectRetryCount", []string{"connectretrycount"}},
	{"ConnectRetryInterval", []string{"connectretryinterval"}},
	{"Connect Timeout", []string{"ConnectTimeout", "connecttimeout"}},
	{"Failover_Partner", []string{"failoverpartner"}},
	{"FailoverPartnerSPN", []string{"failoverpartnerspn"}},
	{"HostnameInCertificate", []string{"hostnameincertificate"}},
	{"IpAddressPreference", []string{"ipaddresspreference"}},
	{"KeepAlive", []string{"keepalive"}},
	{"Language", []string{"language"}},
	{"LoginTimeout", []string{"logintimeout"}},
	{"MARS_Connection", []string{"marsconnection"}},
	{"MultiSubnetFailover", []string{"multisubnetfailover"}},
	{"Packet Size", []string{"PacketSize", "packetsize"}},
	{"QueryLog_On", []string{"querylogon"}},
	{"QueryLogTime", []string{"querylogtime"}},
	{"Regional", []string{"regional"}},
	{"ServerSPN", []string{"serverspn", "Server_SPN"}},
	{"Workstation ID", []string{"WorkstationID", "workstationid"}},
	{"WSID", []string{"wsid"}},
}

// odbcCanonical is the canonical name of an accepted spelling (canonical or alternate). The
// allowlist is searched in place: a map of it would be built when every orgctl command starts, or
// need a guard, for two dozen entries.
func odbcCanonical(key string) (string, bool) {
	for _, a := range odbcAllowlist {
		if a.Canonical == key {
			return a.Canonical, true
		}
		for _, alt := range a.Alternates {
			if alt == key {
				return a.Canonical, true
			}
		}
	}
	return "", false
}

// odbcFolded is the canonical name of the allowlist spelling that folds (see foldODBCKey) to
// folded, only to suggest the right spelling for a near miss; acceptance never uses it.
func odbcFolded(folded string) (string, bool) {
	for _, a := range odbcAllowlist {
		if foldODBCKey(a.Canonical) == folded {
			return a.Canonical, true
		}
		for _, alt := range a.Alternates {
			if foldODBCKey(alt) == folded {
				return a.Canonical, true
			}
		}
	}
	return "", false
}

// Rejection categories, one per category the service blocks plus "not-allowed" for the rest.
const (
	CategoryEncryption     = "encryption"
	CategoryLoginRetry     = "login-retry"
	CategoryCredentials    = "credentials"
	CategoryInjection      = "injection"
	CategoryServiceManaged = "service-managed"
	CategoryNotAllowed     = "not-allowed"
)

// Replacement advice per category, worded as the service words it so that users recognise it.
const (
	replaceEncryption     = "use the resource's SSL/TLS settings"
	replaceLoginRetry     = "use ConnectRetryCount/ConnectRetryInterval"
	replaceServiceManaged = "set by the service from the resource's own fields; remove it"
	replaceNotAllowed     = "remove it; only the allowlisted ODBC attributes are accepted"
	replaceInjectionKey   = "remove it; a key must be a single attribute name without ';', '=', braces, control characters or surrounding spaces"
	replaceValueSemicolon = "the value contains ';' outside braces: remove it, or wrap the whole value in braces ({...}) with every '}' inside doubled"
	replaceValueBraces    = "the value has unbalanced braces: wrap the whole value in braces ({...}) with every '}' inside doubled, or remove them"
	replaceValueControl   = "the value contains control or invisible characters: remove them"
)

// blockedCategory classifies well-known blocked attributes by folded name (see foldODBCKey), so
// that "encrypt", "Trust_Server_Certificate" and "TrustServerCertificate" get the same advice; ""
// for any other name.
func blockedCategory(folded string) string {
	switch folded {
	// Encryption and certificate trust: the resource's SSL/TLS settings own these.
	case "encrypt", "trustservercertificate", "servercertificate", "useencryptionfordata",
		"clientcertificate", "clientkey", "ssl", "sslmode", "tls":
		return CategoryEncryption
	case "loginretrycount", "loginretryinterval":
		return CategoryLoginRetry
	case "uid", "pwd", "user", "userid", "username", "password", "accesstoken",
		"keystoreauthentication", "keystoreprincipalid", "keystoresecret":
		return CategoryCredentials
	// Set by the service from the resource's own fields (where to connect and how to log in).
	case "driver", "dsn", "filedsn", "savefile", "trustedconnection", "integratedsecurity",
		"authentication", "server", "address", "addr", "datasource", "network", "net",
		"database", "initialcatalog", "attachdbfilename":
		return CategoryServiceManaged
	}
	return ""
}

// CheckODBCKey applies the allowlist of paramsFromConnectionString keys for Windows-auth T-SQL
// resources. ok=true: canonical is the canonical attribute name (alternates map to it: "packetsize" ->
// "Packet Size", "Server_SPN" -> "ServerSPN", ...). Match is exact against the canonical names and the
// listed alternates (the service accepts exactly those spellings, so folding case here would pass keys it
// rejects).
func CheckODBCKey(key string) (canonical string, ok bool) {
	return odbcCanonical(key)
}

// ODBCAllowlist returns the allowlist in the service's order; the caller owns the returned slice.
func ODBCAllowlist() []ODBCAttribute {
	out := make([]ODBCAttribute, len(odbcAllowlist))
	for i, a := range odbcAllowlist {
		out[i] = ODBCAttribute{Canonical: a.Canonical, Alternates: append([]string(nil), a.Alternates...)}
	}
	return out
}

// Rejection is one paramsFromConnectionString entry that the service refuses (or that orgctl refuses
// to pass on because its value could inject attributes).
type Rejection struct {
	Key         string // the key as supplied
	Category    string // one of the Category* constants
	Replacement string // what to do instead
}

// Message returns the service's error text for the key. The key is quoted Go-style, which is
// byte-identical to the service's text for ordinary keys and keeps control characters off terminals.
func (r Rejection) Message() string {
	return "Unsupported ODBC connection string parameter " + strconv.Quote(r.Key) +
		". Only a fixed set of ODBC attributes may be supplied via connection params."
}

// CheckODBCParams splits params into accepted entries (keyed by canonical name) and rejections
// sorted by key. Besides the service's key allowlist it rejects, as "injection", values that could
// end the attribute early (see the package doc), and, as "not-allowed", a second spelling of an
// attribute already accepted under another key (the first key in byte order wins).
func CheckODBCParams(params map[string]string) (accepted map[string]string, rejected []Rejection) {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	accepted = make(map[string]string)
	acceptedFrom := make(map[string]string) // canonical -> key that supplied it
	for _, k := range keys {
		v := params[k]
		if !validODBCKeyShape(k) {
			rejected = append(rejected, Rejection{Key: k, Category: CategoryInjection, Replacement: replaceInjectionKey})
			continue
		}
		canonical, ok := CheckODBCKey(k)
		if !ok {
			rejected = append(rejected, classifyBlockedKey(k))
			continue
		}
		if advice, bad := unsafeODBCValue(v); bad {
			rejected = append(rejected, Rejection{Key: k, Category: CategoryInjection, Replacement: advice})
			continue
		}
		if first, dup := acceptedFrom[canonical]; dup {
			rejected = append(rejected, Rejection{
				Key:         k,
				Category:    CategoryNotAllowed,
				Replacement: fmt.Sprintf("duplicate of %q (both mean %q); keep only one of them", first, canonical),
			})
			continue
		}
		accepted[canonical] = v
		acceptedFrom[canonical] = k
	}
	return accepted, rejected
}

// classifyBlockedKey gives a well-shaped key that is not on the allowlist its category and advice.
func classifyBlockedKey(key string) Rejection {
	folded := foldODBCKey(key)
	switch cat := blockedCategory(folded); cat {
	case CategoryEncryption:
		return Rejection{Key: key, Category: cat, Replacement: replaceEncryption}
	case CategoryLoginRetry:
		return Rejection{Key: key, Category: cat, Replacement: replaceLoginRetry}
	case CategoryCredentials, CategoryServiceManaged:
		return Rejection{Key: key, Category: cat, Replacement: replaceServiceManaged}
	}
	if canonical, near := odbcFolded(folded); near {
		return Rejection{Key: key, Category: CategoryNotAllowed,
			Replacement: fmt.Sprintf("spelling not accepted; use %q", canonical)}
	}
	return Rejection{Key: key, Category: CategoryNotAllowed, Replacement: replaceNotAllowed}
}

// foldODBCKey lower-cases and drops spaces and underscores, for classification and suggestions only.
func foldODBCKey(key string) string {
	var b strings.Builder
	for _, r := range key {
		if r == ' ' || r == '_' {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// validODBCKeyShape reports whether key could be a single attribute name: a key carrying ';', '=',
// braces, control or invisible characters, invalid UTF-8 or surrounding spaces could smuggle in
// another attribute (or impersonate an allowed one), whatever its name.
func validODBCKeyShape(key string) bool {
	if key == "" {
		return false
	}
	if !utf8.ValidString(key) {
		return false
	}
	first, _ := utf8.DecodeRuneInString(key)
	last, _ := utf8.DecodeLastRuneInString(key)
	if unicode.IsSpace(first) || unicode.IsSpace(last) {
		return false
	}
	for _, r := range key {
		switch {
		case r == ';', r == '=', r == '{', r == '}':
			return false
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r):
			return false
		}
	}
	return true
}

// unsafeODBCValue reports whether v could end its attribute early and inject another one. A value
// is safe when it has no control/invisible characters and either contains none of ';', '{', '}' or
// is one ODBC braced value: '{' ... '}' with every '}' inside doubled.
func unsafeODBCValue(v string) (advice string, bad bool) {
	if !utf8.ValidString(v) {
		return replaceValueControl, true
	}
	for _, r := range v {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return replaceValueControl, true
		}
	}
	if strings.HasPrefix(v, "{") {
		if len(v) < 2 || !strings.HasSuffix(v, "}") {
			return replaceValueBraces, true
		}
		inner := v[1 : len(v)-1]
		for i := 0; i < len(inner); i++ {
			if inner[i] != '}' {
				continue
			}
			if i+1 < len(inner) && inner[i+1] == '}' {
				i++
				continue
			}
			return replaceValueBraces, true
		}
		return "", false
	}
	if strings.ContainsRune(v, ';') {
		return replaceValueSemicolon, true
	}
	if strings.ContainsAny(v, "{}") {
		return replaceValueBraces, true
	}
	return "", false
}
