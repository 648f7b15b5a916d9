package changes

import (
	"reflect"
	"sort"
	"testing"
)

// publishedAllowlist is the service's published table re-typed here, so a change to the package's table must be
// deliberate on both sides.
var publishedAllowlist = map[string][]string{
	"APP":                   {"app"},
	"ApplicationIntent":     {"applicationintent"},
	"ColumnEncryption":      {"columnencryption"},
	"ConnectRetryCount":     {"connectretrycount"},
	"ConnectRetryInterval":  {"connectretryinterval"},
	"Connect Timeout":       {"ConnectTimeout", "connecttimeout"},
	"Failover_Partner":      {"failoverpartner"},
	"FailoverPartnerSPN":    {"failoverpartnerspn"},
	"HostnameInCertificate": {"hostnameincertificate"},
	"IpAddressPreference":   {"ipaddresspreference"},
	"KeepAlive":             {"keepalive"},
	"Language":              {"language"},
	"LoginTimeout":          {"logintimeout"},
	"MARS_Connection":       {"marsconnection"},
	"MultiSubnetFailover":   {"multisubnetfailover"},
	"Packet Size":           {"PacketSize", "packetsize"},
	"QueryLog_On":           {"querylogon"},
	"QueryLogTime":          {"querylogtime"},
	"Regional":              {"regional"},
	"ServerSPN":             {"serverspn", "Server_SPN"},
	"Workstation ID":        {"WorkstationID", "workstationid"},
	"WSID":                  {"wsid"},
}

func TestCheckODBCKeyAcceptsEverySeedSpelling(t *testing.T) {
	n := 0
	for canonical, alts := range publishedAllowlist {
		for _, spelling := range append([]string{canonical}, alts...) {
			n++
			got, ok := CheckODBCKey(spelling)
			if !ok || got != canonical {
				t.Errorf("CheckODBCKey(%q) = %q, %v; want %q, true", spelling, got, ok, canonical)
			}
		}
	}
	if n != 48 {
		t.Fatalf("seed table re-typed wrongly: %d spellings, want 48", n)
	}
}

func TestODBCAllowlistMatchesSeed(t *testing.T) {
	list := ODBCAllowlist()
	got := make(map[string][]string, len(list))
	for _, a := range list {
		got[a.Canonical] = a.Alternates
	}
	if !reflect.DeepEqual(got, publishedAllowlist) {
		t.Fatalf("ODBCAllowlist() = %v\nwant %v", got, publishedAllowlist)
	}
	if list[0].Canonical != "APP" || list[len(list)-1].Canonical != "WSID" {
		t.Errorf("not in the service's order: first %q, last %q", list[0].Canonical, list[len(list)-1].Canonical)
	}
	// The caller owns the copy.
	list[0].Alternates[0] = "mutated"
	list[1].Canonical = "mutated"
	if c, ok := CheckODBCKey("app"); !ok || c != "APP" {
		t.Fatal("mutating the returned slice changed the allowlist")
	}
	if again := ODBCAllowlist(); again[0].Alternates[0] != "app" || again[1].Canonical != "ApplicationIntent" {
		t.Fatal("mutating the returned slice changed later results")
	}
}

func TestCheckODBCKeyRejectsUnlistedSpellings(t *testing.T) {
	for _, key := range []string{
		"App", "aPP", "PACKETSIZE", "Packetsize", "packet size", "Packet_Size", "ServerSpn", "server_spn",
		"SERVER_SPN", "workstation id", "Workstation_ID", "ConnectTimeOut", "connect timeout", "Wsid",
		"MARSConnection", "mars_connection", "QueryLogOn", "Failoverpartner", "failover_partner",
		"Encrypt", "Driver", "", " APP", "APP ", "APP;Encrypt", "APP=x", "{APP}", "APP\x00",
	} {
		if c, ok := CheckODBCKey(key); ok {
			t.Errorf("CheckODBCKey(%q) = %q, true; want rejected", key, c)
		}
	}
}

func TestCheckODBCParamsCategories(t *testing.T) {
	tests := []struct {
		key         string
		category    string
		replacement string
	}{
		{"Encrypt", CategoryEncryption, "use the resource's SSL/TLS settings"},
		{"encrypt", CategoryEncryption, "use the resource's SSL/TLS settings"},
		{"TrustServerCertificate", CategoryEncryption, "use the resource's SSL/TLS settings"},
		{"Trust Server Certificate", CategoryEncryption, "use the resource's SSL/TLS settings"},
		{"ServerCertificate", CategoryEncryption, "use the resource's SSL/TLS settings"},
		{"LoginRetryCount", CategoryLoginRetry, "use ConnectRetryCount/ConnectRetryInterval"},
		{"LoginRetryInterval", CategoryLoginRetry, "use ConnectRetryCount/ConnectRetryInterval"},
		{"loginretryinterval", CategoryLoginRetry, "use ConnectRetryCount/ConnectRetryInterval"},
		{"Uid", CategoryCredentials, "set by the service from the resource's own fields; remove it"},
		{"UID", CategoryCredentials, "set by the service from the resource's own fields; remove it"},
		{"Pwd", CategoryCredentials, "set by the service from the resource's own fields; remove it"},
		{"User", CategoryCredentials, "set by the service from the resource's own fields; remove it"},
		{"User ID", CategoryCredentials, "set by the service from the resource's own fields; remove it"},
		{"Password", CategoryCredentials, "set by the service from the resource's own fields; remove it"},
		{"Driver", CategoryServiceManaged, "set by the service from the resource's own fields; remove it"},
		{"Trusted_Connection", CategoryServiceManaged, "set by the service from the resource's own fields; remove it"},
		{"Server", CategoryServiceManaged, "set by the service from the resource's own fields; remove it"},
		{"Database", CategoryServiceManaged, "set by the service from the resource's own fields; remove it"},
		{"Initial Catalog", CategoryServiceManaged, "set by the service from the resource's own fields; remove it"},
		{"DSN", CategoryServiceManaged, "set by the service from the resource's own fields; remove it"},
		{"Authentication", CategoryServiceManaged, "set by the service from the resource's own fields; remove it"},
		{"Foo", CategoryNotAllowed, "remove it; only the allowlisted ODBC attributes are accepted"},
		{"AnsiNPW", CategoryNotAllowed, "remove it; only the allowlisted ODBC attributes are accepted"},
		// Near misses of allowed keys name the accepted spelling.
		{"App", CategoryNotAllowed, `spelling not accepted; use "APP"`},
		{"PACKETSIZE", CategoryNotAllowed, `spelling not accepted; use "Packet Size"`},
		{"server_spn", CategoryNotAllowed, `spelling not accepted; use "ServerSPN"`},
		{"Workstation_ID", CategoryNotAllowed, `spelling not accepted; use "Workstation ID"`},
		{"Mars_Connection", CategoryNotAllowed, `spelling not accepted; use "MARS_Connection"`},
	}
	for _, tt := range tests {
		accepted, rejected := CheckODBCParams(map[string]string{tt.key: "x"})
		if len(accepted) != 0 {
			t.Errorf("%q: accepted %v", tt.key, accepted)
		}
		want := []Rejection{{Key: tt.key, Category: tt.category, Replacement: tt.replacement}}
		if !reflect.DeepEqual(rejected, want) {
			t.Errorf("%q: rejected = %#v\nwant %#v", tt.key, rejected, want)
		}
	}
}

func TestCheckODBCParamsInjectionKeys(t *testing.T) {
	for _, key := range []string{
		"APP;Encrypt", "APP=x;Pwd", "APP;", ";APP", "APP=", "=APP", "{APP}", "APP}", "{Encrypt",
		" APP", "APP ", "\tAPP", "APP\n", "APP\x00", "\x00", "AP\x00P", "APP\u200b", "\u00a0APP",
		"APP\r\nEncrypt", "Encrypt=no;APP", "", "APP\xff",
	} {
		accepted, rejected := CheckODBCParams(map[string]string{key: "v"})
		if len(accepted) != 0 {
			t.Errorf("%q: accepted %v", key, accepted)
		}
		if len(rejected) != 1 || rejected[0].Category != CategoryInjection || rejected[0].Key != key {
			t.Errorf("%q: rejected = %#v; want one injection rejection", key, rejected)
			continue
		}
		if rejected[0].Replacement == "" {
			t.Errorf("%q: no replacement advice", key)
		}
	}
}

func TestCheckODBCParamsValues(t *testing.T) {
	tests := []struct {
		value string
		ok    bool
	}{
		{"orgctl", true},
		{"", true},
		{"4096", true},
		{"a=b", true},        // ODBC splits at the first '=' only
		{"  spaced  ", true}, // whitespace in a value cannot inject
		{"{a;b}", true},
		{"{a;Pwd=x}", true},
		{"{a}}b}", true}, // '}}' is an escaped '}'
		{"{a}}}}b}", true},
		{"{}", true},
		{"{a=b;c}", true},
		{"a;Pwd=x", false},
		{";", false},
		{"a;", false},
		{"{a;b", false},  // unterminated: would swallow the following attributes
		{"{a}b}", false}, // first '}' ends the value early
		{"{a}};Encrypt=no}x", false},
		{"{a}}", false}, // the '}' before the last is not doubled
		{"{", false},
		{"a}", false},
		{"a{b", false},
		{"a\x00b", false},
		{"a\nEncrypt=no", false},
		{"{a\x00}", false},
		{"a\u200bb", false},
		{"\xff", false},
	}
	for _, tt := range tests {
		accepted, rejected := CheckODBCParams(map[string]string{"APP": tt.value})
		if tt.ok {
			if len(rejected) != 0 || accepted["APP"] != tt.value || len(accepted) != 1 {
				t.Errorf("value %q: accepted=%v rejected=%#v; want accepted", tt.value, accepted, rejected)
			}
			continue
		}
		if len(accepted) != 0 || len(rejected) != 1 || rejected[0].Category != CategoryInjection || rejected[0].Key != "APP" {
			t.Errorf("value %q: accepted=%v rejected=%#v; want one injection rejection", tt.value, accepted, rejected)
		}
	}
}

func TestCheckODBCParamsMixed(t *testing.T) {
	params := map[string]string{
		"packetsize":          "4096",
		"Server_SPN":          "MSSQLSvc/db.example.com:1433",
		"Workstation ID":      "ci-runner",
		"Encrypt":             "no",
		"Pwd":                 "hunter2",
		"LoginRetryCount":     "3",
		"APP;Trusted_Connec":  "yes",
		"Zeta":                "1",
		"app":                 "orgctl",
		"MultiSubnetFailover": "Yes",
	}
	accepted, rejected := CheckODBCParams(params)
	wantAccepted := map[string]string{
		"Packet Size":         "4096",
		"ServerSPN":           "MSSQLSvc/db.example.com:1433",
		"Workstation ID":      "ci-runner",
		"APP":                 "orgctl",
		"MultiSubnetFailover": "Yes",
	}
	if !reflect.DeepEqual(accepted, wantAccepted) {
		t.Errorf("accepted = %v\nwant %v", accepted, wantAccepted)
	}
	var keys []string
	for _, r := range rejected {
		keys = append(keys, r.Key)
	}
	wantKeys := []string{"APP;Trusted_Connec", "Encrypt", "LoginRetryCount", "Pwd", "Zeta"}
	if !reflect.DeepEqual(keys, wantKeys) {
		t.Errorf("rejected keys = %q; want %q (sorted)", keys, wantKeys)
	}
	if !sort.StringsAreSorted(keys) {
		t.Errorf("rejections not sorted by key: %q", keys)
	}
}

func TestCheckODBCParamsDuplicateSpellings(t *testing.T) {
	accepted, rejected := CheckODBCParams(map[string]string{"packetsize": "512", "Packet Size": "4096", "PacketSize": "8192"})
	// Byte order: "Packet Size" < "PacketSize" < "packetsize"; the first wins.
	if !reflect.DeepEqual(accepted, map[string]string{"Packet Size": "4096"}) {
		t.Errorf("accepted = %v", accepted)
	}
	if len(rejected) != 2 || rejected[0].Key != "PacketSize" || rejected[1].Key != "packetsize" {
		t.Fatalf("rejected = %#v", rejected)
	}
	for _, r := range rejected {
		if r.Category != CategoryNotAllowed || r.Replacement != `duplicate of "Packet Size" (both mean "Packet Size"); keep only one of them` {
			t.Errorf("duplicate rejection = %#v", r)
		}
	}
}

func TestCheckODBCParamsEmpty(t *testing.T) {
	accepted, rejected := CheckODBCParams(nil)
	if len(accepted) != 0 || rejected != nil {
		t.Fatalf("nil params: accepted=%v rejected=%v", accepted, rejected)
	}
	if accepted == nil {
		t.Fatal("accepted should be an empty map, not nil, so callers can write to it")
	}
}

func TestRejectionMessage(t *testing.T) {
	tests := []struct{ key, want string }{
		{"Encrypt", `Unsupported ODBC connection string parameter "Encrypt". Only a fixed set of ODBC attributes may be supplied via connection params.`},
		{"Trusted_Connection", `Unsupported ODBC connection string parameter "Trusted_Connection". Only a fixed set of ODBC attributes may be supplied via connection params.`},
		{"APP;Encrypt", `Unsupported ODBC connection string parameter "APP;Encrypt". Only a fixed set of ODBC attributes may be supplied via connection params.`},
		{"User ID", `Unsupported ODBC connection string parameter "User ID". Only a fixed set of ODBC attributes may be supplied via connection params.`},
		{"APP\x00", `Unsupported ODBC connection string parameter "APP\x00". Only a fixed set of ODBC attributes may be supplied via connection params.`},
	}
	for _, tt := range tests {
		r := Rejection{Key: tt.key, Category: CategoryNotAllowed, Replacement: "ignored"}
		if got := r.Message(); got != tt.want {
			t.Errorf("Message() = %q\nwant %q", got, tt.want)
		}
	}
}
