package settings

import (
	"net/url"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// FuzzSettingParse reads any text as any setting's value, as a file,
// variable or flag gives it: what is accepted has the setting's type and
// range, what is refused says what is accepted, and a URL's user info is
// never shown.
func FuzzSettingParse(f *testing.F) {
	// One setting of each type, and values a person might type for it.
	seen := map[Type]bool{}
	for i, s := range table {
		if seen[s.Type] {
			continue
		}
		seen[s.Type] = true
		for _, text := range []string{"", "abc", "30s", "-5s", "0", "-1", "300", "xml", "json", "true",
			"https://acme.example", "http://u:SECRET@acme.example/", "redis://u:SECRET@h:6379/0", "file",
			"9223372036854775807ns", "99999999999999999999", "a: b"} {
			f.Add(uint8(i), text)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		s := table[int(which)%len(table)]
		v, err := s.Parse(text)
		if err != nil {
			checkRefusal(t, s, text, err)
			return
		}
		checkAccepted(t, s, text, v)
	})
}

// checkRefusal fails t unless a refused value's message says what is
// accepted and does not show a URL's password.
func checkRefusal(t *testing.T, s Setting, text string, err error) {
	t.Helper()
	want := WhatIsAccepted(err)
	if s.Type != TypeURL && want != "expected "+s.Accepts() {
		t.Fatalf("%s %q: the message says %q, not what is accepted", s.Key, text, want)
	}
	if s.Type != TypeURL {
		return
	}
	shown := ShownValue(s, text) + " " + want
	u, perr := url.Parse(strings.TrimSpace(text))
	if perr != nil || u.User == nil {
		return
	}
	// A password that the rest of the value also holds
	// ("//:CRET@0CRET", "//:0000@:0000") cannot be told apart
	// from it. Otherwise what gives it away is the password still
	// in place, after a colon or before an @: the rest, escaped,
	// may make new runs of its characters ("\x80000" shown as
	// "%80000").
	if pw, ok := u.User.Password(); ok && len(pw) > 3 && !strings.Contains(s.Key+s.Accepts(), pw) &&
		!strings.Contains(strings.Replace(text, pw, "", 1), pw) &&
		(strings.Contains(shown, ":"+pw) || strings.Contains(shown, pw+"@")) {
		t.Fatalf("%s %q: the message %q shows the password", s.Key, text, shown)
	}
}

// checkAccepted fails t unless an accepted value has the setting's type
// and range.
func checkAccepted(t *testing.T, s Setting, text string, v any) {
	t.Helper()
	switch s.Type {
	case TypeDuration:
		d, ok := v.(time.Duration)
		if !ok || int64(d) < s.Min || (s.Max > 0 && int64(d) > s.Max) {
			t.Fatalf("%s %q accepted as %v (%T)", s.Key, text, v, v)
		}
	case TypeInt:
		n, ok := v.(int64)
		if !ok || n < s.Min || (s.Max > 0 && n > s.Max) {
			t.Fatalf("%s %q accepted as %v (%T)", s.Key, text, v, v)
		}
	case TypeBool:
		if _, ok := v.(bool); !ok {
			t.Fatalf("%s %q accepted as %v (%T)", s.Key, text, v, v)
		}
	case TypeEnum:
		found := false
		for _, e := range s.Enum {
			found = found || v == e
		}
		if !found {
			t.Fatalf("%s %q accepted as %v, not one of %v", s.Key, text, v, s.Enum)
		}
	case TypeURL:
		str, _ := v.(string)
		if u, err := url.Parse(str); err == nil && u.User != nil && (u.Scheme == "http" || u.Scheme == "https") {
			t.Fatalf("%s %q accepted with user info", s.Key, text)
		}
	}
}

// FuzzConfigFile reads any YAML as the config file: every unknown key is
// warned about with its line, and every value found is checked.
func FuzzConfigFile(f *testing.F) {
	for _, seed := range []string{
		"timeout: abc\n",
		"output: json\ntimeout: -5s\n",
		"base_url: https://acme.example\ntimout: 5s\nbudget:\n  points: lots\n  costs:\n    users: \"x\"\n    usres: 3\n",
		"profiles:\n  work:\n    timeout: zz\n    base_ulr: x\n    profile: other\n  bad: 3\n",
		"profiles: [1, 2]\n",
		"budget: 5\ncompletion:\n  cache_ttl: [1]\n",
		"token: nope\nsandbox: maybe\n",
		"a: &x {b: 1}\nc: *x\n",
		"? [complex, key]\n: 1\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var n yaml.Node
		if yaml.Unmarshal(data, &n) != nil || len(n.Content) != 1 || n.Content[0].Kind != yaml.MappingNode {
			return // LoadDoc refuses these as a whole, with a usage error
		}
		doc := &Doc{path: "config.yaml", doc: &n}
		for _, w := range UnknownKeys(doc, func() []string { return []string{"usage", "organization"} }) {
			if !strings.HasPrefix(w, "config.yaml:") {
				t.Fatalf("warning %q does not say where", w)
			}
		}
		for _, s := range table {
			if s.Family {
				continue
			}
			for _, profile := range []string{"", "work"} {
				for _, fv := range ValuesOf(s, s.Key, nil, doc, profile) {
					if fv.Where == "" {
						t.Fatalf("%s: a value with no source", s.Key)
					}
					if fv.Bad == "" {
						s.Parse(fv.Text)
					}
				}
			}
		}
	})
}
