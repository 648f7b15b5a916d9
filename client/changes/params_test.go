package changes

import (
	"reflect"
	"testing"
)

func TestParseConnectionString(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Param
	}{
		{"APP=x;Packet Size=4096", []Param{{"APP", "x"}, {"Packet Size", "4096"}}},
		// ';' inside braces belongs to the value; '}}' is a literal '}' and does not close it.
		{"Workstation ID={a;b}}c};APP=y", []Param{{"Workstation ID", "{a;b}}c}"}, {"APP", "y"}}},
		{"APP={x} ;\n", []Param{{"APP", "{x}"}}},
		// Whitespace and empty segments around ';' are ignored; before '=' it stays part of the key.
		{" ;;APP=x ;\n  wsid = 7\n", []Param{{"APP", "x"}, {"wsid ", "7"}}},
		// An unclosed brace takes the rest; text after a closing brace makes it an unbraced value.
		{"APP=ok;WSID={a;Encrypt=yes\n", []Param{{"APP", "ok"}, {"WSID", "{a;Encrypt=yes"}}},
		{"WSID={a}b;APP=z", []Param{{"WSID", "{a}b"}, {"APP", "z"}}},
		{"APP=", []Param{{"APP", ""}}},
		{"", nil},
	} {
		got, err := ParseConnectionString(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseConnectionString(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"APP", "APP=x;Encrypt", "APP=x;;wsid\n"} {
		if got, err := ParseConnectionString(bad); err == nil {
			t.Errorf("ParseConnectionString(%q) = %q, want an error", bad, got)
		}
	}
	// An empty key is passed on, for the allowlist check to reject as injection.
	if got, _ := ParseConnectionString("=x"); !reflect.DeepEqual(got, []Param{{"", "x"}}) {
		t.Errorf("ParseConnectionString(\"=x\") = %q", got)
	}
	// What the parser keeps is what the check sees: braced values with ';' pass, broken ones do not.
	params, _ := ParseConnectionString("Workstation ID={a;b}}c};APP={x;Encrypt=yes")
	m := map[string]string{}
	for _, p := range params {
		m[p.Key] = p.Value
	}
	acc, rej := CheckODBCParams(m)
	if acc["Workstation ID"] != "{a;b}}c}" || len(rej) != 1 || rej[0].Key != "APP" || rej[0].Category != CategoryInjection {
		t.Errorf("check of parsed params: accepted %q, rejected %+v", acc, rej)
	}
}

func TestParseODBCJSON(t *testing.T) {
	got, err := ParseParamsJSON([]byte(`{"wsid": 7, "APP": "x", "KeepAlive": true}`))
	want := []Param{{"wsid", "7"}, {"APP", "x"}, {"KeepAlive", "true"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, %v; want %q in input order", got, err, want)
	}
	for _, bad := range []string{`{"APP":"x","APP":"y"}`, `{"APP":null}`, `{"APP":[1]}`, `{"APP":"x"} {}`, `{"APP":`, `[]`} {
		if got, err := ParseParamsJSON([]byte(bad)); err == nil {
			t.Errorf("ParseParamsJSON(%s) = %q, want an error", bad, got)
		}
	}
}
