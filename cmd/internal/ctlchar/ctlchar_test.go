package ctlchar

import "testing"

func TestFind(t *testing.T) {
	for in, want := range map[string]string{
		"tok\r\nX-Injected: 1": "CR",
		"tok\n":                "LF",
		"a\tb":                 "TAB",
		"\x1b]52;c;x\a":        "ESC",
		"a\x7f":                "DEL",
		"a\u0085b":             "U+0085",
		"a\x9bb":               "byte 0x9B",
		"\x00":                 "NUL",
		"\x01":                 "U+0001",
		"ok\u009f":             "U+009F",
	} {
		if got, bad := Find(in); !bad || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, bad, want)
		}
	}
	for _, ok := range []string{"", "tok_abc-123", "https://acme.example.com/x", "Café ünïcode ✓", "\xff\xfe"} {
		if got, bad := Find(ok); bad {
			t.Errorf("%q: found %q", ok, got)
		}
	}
}
