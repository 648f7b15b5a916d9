package redact

import (
	"strings"
	"testing"
	"unicode"
)

func TestURLMasksWholePassword(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"redis://orgctl:pa/SECRETpw@127.0.0.1:6379/0", "redis://orgctl:xxxxx@127.0.0.1:6379/0"},
		{"redis://orgctl:1234/SECRETpw@127.0.0.1:6379/0", "redis://orgctl:xxxxx@127.0.0.1:6379/0"},
		{"redis://orgctl:pa?SECRET#pw@host:6379", "redis://orgctl:xxxxx@host:6379"},
		{"redis://orgctl:p@SECRET/pw@host:6379/1", "redis://orgctl:xxxxx@host:6379/1"},
		{"redis://:SECRETpw@host", "redis://:xxxxx@host"},
		{"rediss://SECRETpw@host", "rediss://xxxxx@host"},
		{"redis://a/SECRET:pw@host", "redis://xxxxx@host"},
		{"http://u:SEC RET@host/%zz", "http://u:xxxxx@host/%zz"},
		{"//u:SECRET/pw@host!x ", "//u:xxxxx@host!x "},
		{" //u:SECRET@host/p", " //u:xxxxx@host/p"},
		{"u:SECRET@host/x//y", "u:xxxxx@host/x//y"},
		{"u:SEC/RET@host", "u:xxxxx@host"},
		{"redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"},
		{"https://acme.example.com/api/v2", "https://acme.example.com/api/v2"},
		{"file", "file"},
		{"not a url", "not a url"},
		{"ada@example.com", "ada@example.com"},
		// An '@' past the host is taken for the end of a password: the
		// message loses detail rather than risk a secret.
		{"https://host/users/ada@example.com", "https://xxxxx@example.com"},
	} {
		if got := URL(tc.in); got != tc.want {
			t.Errorf("URL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTextMasksEveryURL(t *testing.T) {
	for in, want := range map[string]string{
		`invalid budget.store "redis://orgctl:pa/SECRETpw@127.0.0.1:6379/0": expected`: `invalid budget.store "redis://orgctl:xxxxx@127.0.0.1:6379/0": expected`,
		"no url here, a@b.c": "no url here, a@b.c",
		`Get "https://u:pw@acme.example/api/v2/users": EOF`: `Get "https://u:xxxxx@acme.example/api/v2/users": EOF`,
		"to http://x@h:1 and redis://a:b/c@c:6379/0 then":   "to http://xxxxx@h:1 and redis://a:xxxxx@c:6379/0 then",
		"ends with https://u:p@":                            "ends with https://u:xxxxx@",
		"mail ada@example.com at https://acme.example/":     "mail ada@example.com at https://acme.example/",
		"want redis://[user:password@]host:port/db":         "want redis://[user:password@]host:port/db",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzRedactURLsIn: no part of a URL's password survives in a message,
// whatever it holds but the characters that end a URL in free text.
func FuzzRedactURLsIn(f *testing.F) {
	f.Add("x ", "SECRETpw")
	f.Add(`"`, "pa/SEC?RET#p@w")
	f.Fuzz(func(t *testing.T, around, secret string) {
		if len(secret) < 6 || strings.ContainsAny(secret, "\"'`<>") || strings.Contains(around, secret) {
			return
		}
		for _, r := range secret {
			if unicode.IsSpace(r) {
				return
			}
		}
		url := "https://user:" + secret + "@acme.example/x"
		msg := around + " " + url + " " + around
		got := Text(msg)
		for _, part := range strings.FieldsFunc(secret, func(r rune) bool { return strings.ContainsRune("/?#@:", r) }) {
			if len(part) >= 4 && strings.Contains(got, part) && !strings.Contains(around, part) && !strings.Contains("https://user:xxxxx@acme.example/x", part) {
				t.Fatalf("Text(%q) = %q keeps %q of the password", msg, got, part)
			}
		}
		if u := URL(url); strings.Contains(u, secret) {
			t.Fatalf("URL(%q) = %q keeps the password", url, u)
		}
	})
}
