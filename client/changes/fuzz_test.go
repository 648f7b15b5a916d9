package changes

import (
	"strings"
	"testing"
)

// FuzzODBCConnectionString reads any paramsFromConnectionString text and
// checks it against the allowlist: every attribute accepted is on the
// list, and the accepted attributes written back as KEY=VALUE; read as
// exactly themselves, so no value can smuggle in another attribute.
func FuzzODBCConnectionString(f *testing.F) {
	for _, seed := range []string{
		"APP=orgctl;Connect Timeout=30",
		"app={my;app}; LoginTimeout = 5 ;",
		"Packet Size={a}}b};WSID=x",
		"APP={unclosed;Trusted_Connection=yes",
		"APP=a;Encrypt=no;UID=sa;PWD=secret",
		"APP={x}y;LoginTimeout=1",
		"APP=ok;;;  ;KeepAlive={}",
		"noequals;APP=1",
		"app=1;APP=2",
		"APP\u202e=x",
		"APP=\x00;",
		"=v",
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		params, err := ParseConnectionString(s)
		if err != nil {
			return
		}
		m := map[string]string{}
		for _, p := range params {
			m[p.Key] = p.Value // a later duplicate wins, as a map would take it
		}
		accepted, rejected := CheckODBCParams(m)
		if len(accepted)+len(rejected) != len(m) {
			t.Fatalf("%d accepted and %d rejected of %d keys", len(accepted), len(rejected), len(m))
		}
		var b strings.Builder
		for k, v := range accepted {
			if c, ok := CheckODBCKey(k); !ok || c != k {
				t.Fatalf("accepted %q, which is not a canonical allowlisted name", k)
			}
			b.WriteString(k + "=" + v + ";")
		}
		back, err := ParseConnectionString(b.String())
		if err != nil {
			t.Fatalf("accepted attributes %q do not read back: %v", b.String(), err)
		}
		if len(back) != len(accepted) {
			t.Fatalf("accepted %d attributes, %q reads as %d: %q", len(accepted), b.String(), len(back), back)
		}
		for _, p := range back {
			if v, ok := accepted[p.Key]; !ok || v != p.Value {
				t.Fatalf("%q reads as %q=%q, not what was accepted (%q)", b.String(), p.Key, p.Value, v)
			}
		}
		for _, r := range rejected {
			if r.Category == "" || r.Replacement == "" || !strings.HasPrefix(r.Message(), "Unsupported ODBC connection string parameter ") {
				t.Fatalf("rejection %+v says too little", r)
			}
		}
	})
}

// FuzzODBCParamsJSON reads any connection params given as a JSON object.
func FuzzODBCParamsJSON(f *testing.F) {
	for _, seed := range []string{
		`{"APP":"orgctl","Connect Timeout":30,"KeepAlive":true}`,
		`{"APP":"a","APP":"b"}`,
		`{"APP":{"nested":1}}`,
		`{"APP":null}`,
		`[1,2]`,
		`{"APP":"x"} {}`,
		`{"a\u0000":"\ud800"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		params, err := ParseParamsJSON(b)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		m := map[string]string{}
		for _, p := range params {
			if seen[p.Key] {
				t.Fatalf("key %q accepted twice from %s", p.Key, b)
			}
			seen[p.Key] = true
			m[p.Key] = p.Value
		}
		accepted, rejected := CheckODBCParams(m)
		if len(accepted)+len(rejected) != len(m) {
			t.Fatalf("%d accepted and %d rejected of %d keys", len(accepted), len(rejected), len(m))
		}
		// Written out as a connection string, the accepted values read back
		// as themselves (bar the spaces ODBC trims around a plain value).
		var sb strings.Builder
		for k, v := range accepted {
			sb.WriteString(k + "=" + v + ";")
		}
		back, err := ParseConnectionString(sb.String())
		if err != nil || len(back) != len(accepted) {
			t.Fatalf("accepted %q reads back as %q (%v)", sb.String(), back, err)
		}
		for _, p := range back {
			if v, ok := accepted[p.Key]; !ok || strings.TrimSpace(v) != p.Value {
				t.Fatalf("%q reads as %q=%q, not what was accepted (%q)", sb.String(), p.Key, p.Value, v)
			}
		}
	})
}
