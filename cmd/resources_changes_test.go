package cmd

import (
	"reflect"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/changes"
)

func TestParseConnectionString(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []odbcParam
	}{
		{"APP=x;Packet Size=4096", []odbcParam{{"APP", "x"}, {"Packet Size", "4096"}}},
		// ';' inside braces belongs to the value; '}}' is a literal '}' and does not close it.
		{"Workstation ID={a;b}}c};APP=y", []odbcParam{{"Workstation ID", "{a;b}}c}"}, {"APP", "y"}}},
		{"APP={x} ;\n", []odbcParam{{"APP", "{x}"}}},
		// Whitespace and empty segments around ';' are ignored; before '=' it stays part of the key.
		{" ;;APP=x ;\n  wsid = 7\n", []odbcParam{{"APP", "x"}, {"wsid ", "7"}}},
		// An unclosed brace takes the rest; text after a closing brace makes it an unbraced value.
		{"APP=ok;WSID={a;Encrypt=yes\n", []odbcParam{{"APP", "ok"}, {"WSID", "{a;Encrypt=yes"}}},
		{"WSID={a}b;APP=z", []odbcParam{{"WSID", "{a}b"}, {"APP", "z"}}},
		{"APP=", []odbcParam{{"APP", ""}}},
		{"", nil},
	} {
		got, err := parseConnectionString(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseConnectionString(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"APP", "APP=x;Encrypt", "APP=x;;wsid\n"} {
		if got, err := parseConnectionString(bad); err == nil {
			t.Errorf("parseConnectionString(%q) = %q, want an error", bad, got)
		}
	}
	// An empty key is passed on, for the allowlist check to reject as injection.
	if got, _ := parseConnectionString("=x"); !reflect.DeepEqual(got, []odbcParam{{"", "x"}}) {
		t.Errorf("parseConnectionString(\"=x\") = %q", got)
	}
	// What the parser keeps is what the check sees: braced values with ';' pass, broken ones do not.
	params, _ := parseConnectionString("Workstation ID={a;b}}c};APP={x;Encrypt=yes")
	m := map[string]string{}
	for _, p := range params {
		m[p.Key] = p.Value
	}
	acc, rej := changes.CheckODBCParams(m)
	if acc["Workstation ID"] != "{a;b}}c}" || len(rej) != 1 || rej[0].Key != "APP" || rej[0].Category != changes.CategoryInjection {
		t.Errorf("check of parsed params: accepted %q, rejected %+v", acc, rej)
	}
}

func TestParseODBCJSON(t *testing.T) {
	got, err := parseODBCJSON([]byte(`{"wsid": 7, "APP": "x", "KeepAlive": true}`))
	want := []odbcParam{{"wsid", "7"}, {"APP", "x"}, {"KeepAlive", "true"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, %v; want %q in input order", got, err, want)
	}
	for _, bad := range []string{`{"APP":"x","APP":"y"}`, `{"APP":null}`, `{"APP":[1]}`, `{"APP":"x"} {}`, `{"APP":`, `[]`} {
		if got, err := parseODBCJSON([]byte(bad)); err == nil {
			t.Errorf("parseODBCJSON(%s) = %q, want an error", bad, got)
		}
	}
}

// The audit reads single resources only for optionTypes; this pins that set to the types whose findings
// changes.Audit actually derives from options, so a change there cannot silently go unread (or cost
// reads for nothing).
func TestOptionTypesAreExactlyTheOptionDependentTypes(t *testing.T) {
	asOf := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	variants := []map[string]any{
		{"connector_version": "1.0", "windows_auth": true, "params_from_connection_string": map[string]any{"Encrypt": "yes"}},
		{"connector_version": "3.0", "windows_auth": false},
		{"server_version": "3.4"},
		{"server_version": "4.4"},
		{"custom_auth": true},
		{"custom_auth": false, "authentication_type": "oauth2"},
	}
	for _, typ := range resourceTypes {
		base := changes.Audit([]changes.Resource{{ID: "r", Name: "r", Type: typ}}, asOf)
		depends := false
		for _, opts := range variants {
			got := changes.Audit([]changes.Resource{{ID: "r", Name: "r", Type: typ, Options: opts}}, asOf)
			if !reflect.DeepEqual(got, base) {
				depends = true
			}
		}
		if depends != optionTypes[typ] {
			t.Errorf("type %s: findings depend on options = %v, but optionTypes says %v", typ, depends, optionTypes[typ])
		}
	}
}

func TestDeadlineText(t *testing.T) {
	days := func(n int) *int { return &n }
	for _, tc := range []struct {
		f    changes.Finding
		want string
	}{
		{changes.Finding{Deadline: "2026-Q4", DaysLeft: days(40)}, "2026-Q4, in 40 days"},
		{changes.Finding{Deadline: "2026-08-24", DaysLeft: days(-51)}, "2026-08-24, 51 days ago"},
		{changes.Finding{Deadline: "2027-01-01", DaysLeft: days(1)}, "2027-01-01, in 1 day"},
		{changes.Finding{Deadline: "2027-01-01", DaysLeft: days(-1)}, "2027-01-01, 1 day ago"},
		{changes.Finding{Deadline: "2027-01-01", DaysLeft: days(0)}, "2027-01-01, today"},
		{changes.Finding{}, "in effect now"},
	} {
		if got := deadlineText(tc.f); got != tc.want {
			t.Errorf("deadlineText(%+v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}
