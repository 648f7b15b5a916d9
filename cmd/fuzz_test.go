package cmd

import (
	"encoding/json"
	"errors"
	"net/url"
	"path"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	yaml "go.yaml.in/yaml/v3"
)

// FuzzAPIPath types any PATH to `orgctl api`: what is accepted reaches
// exactly one endpoint under /api/v2, the one the URL shows (the client
// sends the escaped path as given), with no query, fragment, dot segment
// or control character smuggled into it.
func FuzzAPIPath(f *testing.F) {
	for _, seed := range []string{
		"users", "/users/user_1", "/api/v2/folders/app_1?recursive=true", "users/a%41b%2Fc?email=x%2By&limit=2",
		"users/café", "users/a b", "https://acme.example/api/v2/users/u%3F1?x=%26", "users/user_1%zz", "folders%",
		"users\n", "users/a\\b", "users/\u202e", "users/../groups", "users/%2e%2e/groups", "users//x", "users#frag",
		"https://u:SECRET@acme.example/api/v2/users", "https://u:SECRET@acme.example/api/v2/users ", "https://u:SECRET@acme.example/api/v2/u%zz", "http://acme.example/other", "/api/v2", "?x=1", "users/%00", "%2F", "users/a%2F..%2Fgroups", "users/a%2Fb",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, typed string) {
		p, q, host, err := splitAPIPath(typed)
		if err != nil {
			if info := userInfo(typed); len(info) >= 6 && (strings.Contains(err.Error(), info) || strings.Contains(err.Error(), strings.Trim(strconv.Quote(info), `"`))) {
				t.Fatalf("the error shows the URL's user info %q: %v", info, err)
			}
			return
		}
		if !strings.HasPrefix(p, "/") || p == "/" {
			t.Fatalf("accepted %q as path %q", typed, p)
		}
		for _, r := range p {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\\' || r == '#' || r == '?' {
				t.Fatalf("accepted %q: path %q holds %U", typed, p, r)
			}
		}
		base := "https://acme.example/api/v2"
		u, err := url.Parse(base + p)
		if err != nil {
			t.Fatalf("accepted %q, but %q is no URL: %v", typed, base+p, err)
		}
		if u.RawQuery != "" || u.Fragment != "" || u.Host != "acme.example" {
			t.Fatalf("accepted %q: %q reaches host %q query %q fragment %q", typed, base+p, u.Host, u.RawQuery, u.Fragment)
		}
		if dec, err := url.PathUnescape(p); err != nil || u.Path != "/api/v2"+dec {
			t.Fatalf("accepted %q: sent as %q, not %q (%v)", typed, u.Path, "/api/v2"+dec, err)
		}
		if clean := path.Clean(u.Path); !strings.HasPrefix(clean, "/api/v2/") || clean == "/api/v2/" {
			t.Fatalf("accepted %q: %q reaches %q, outside the API's endpoints", typed, u.Path, clean)
		}
		// Decoded (as a server that decodes %2F would), the path is already
		// clean: no normalization can turn it into another endpoint.
		if clean := path.Clean(u.Path); clean != strings.TrimSuffix(u.Path, "/") {
			t.Fatalf("accepted %q: %q may be read as %q", typed, u.Path, clean)
		}
		for _, seg := range strings.Split(u.Path, "/") {
			if seg == "." || seg == ".." {
				t.Fatalf("accepted %q: dot segment in %q", typed, u.Path)
			}
		}
		if host != "" && !strings.HasPrefix(typed, "http") {
			t.Fatalf("accepted %q with host %q", typed, host)
		}
		if _, err := url.ParseQuery(q.Encode()); err != nil {
			t.Fatalf("accepted %q: query %q does not read back: %v", typed, q.Encode(), err)
		}
	})
}

// userInfo is what stands between "://" and the last "@" of the authority
// of a URL typed as PATH, as a careless reader would take it; "" if none.
func userInfo(s string) string {
	if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
		return "" // not a URL to api, whatever it holds
	}
	_, rest, _ := strings.Cut(s, "://")
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	if at := strings.LastIndex(rest, "@"); at >= 0 && !strings.Contains(s[strings.Index(s, "://")+3+at+1:], rest[:at]) {
		return rest[:at]
	}
	return ""
}

// FuzzAPIFields gives `orgctl api` any -f/-F fields (KEY[SUB][]=VALUE): a
// field is refused as usage or lands in a body that encodes as JSON, or in
// the query of a GET.
func FuzzAPIFields(f *testing.F) {
	for _, seed := range [][3]string{
		{"name=Ada", "age=42", "POST"},
		{"ids[]=1", "ids[]=2", "POST"},
		{"a[b][c]=x", "a[b][d]=true", "PATCH"},
		{"items[][name]=x", "items[][name]=y", "POST"},
		{"items[][name]=x", "items[][size]=3", "POST"},
		{"a=1", "a[b]=2", "POST"},
		{"a[b]=1", "a[]=2", "POST"},
		{"a[=1", "[x]=2", "POST"},
		{"a]b=1", "a[b]c=1", "POST"},
		{"email=a@b.c", "ids[]=1", "GET"},
		{"q[x][y]=1", "n=null", "GET"},
		{"=x", "noequals", "POST"},
		{"n=1e400", "m=-0", "POST"},
		{"s=\"quoted\"", "t=[1,2]", "PUT"},
	} {
		f.Add(seed[0], seed[1], seed[2], true)
	}
	fac := NewFactory("test")
	f.Fuzz(func(t *testing.T, a, b, method string, typedB bool) {
		var raw, typed []string
		raw = append(raw, a)
		if typedB {
			if _, v, _ := strings.Cut(b, "="); strings.HasPrefix(v, "@") {
				return // reads a file or stdin: not what this target is about
			}
			typed = append(typed, b)
		} else {
			raw = append(raw, b)
		}
		o, err := parseAPI(fac, method, "things", raw, typed, "")
		if err != nil {
			var ue *UsageError
			if !errors.As(err, &ue) {
				t.Fatalf("fields %q %q: %T %v, want a usage error", a, b, err, err)
			}
			return
		}
		if o.Body != nil {
			out, err := json.Marshal(o.Body)
			if err != nil {
				t.Fatalf("fields %q %q make a body that does not encode: %v", a, b, err)
			}
			var back map[string]any
			if err := json.Unmarshal(out, &back); err != nil {
				t.Fatalf("fields %q %q make %s, not a JSON object: %v", a, b, out, err)
			}
			if o.Method == "GET" {
				t.Fatalf("a GET got a body %s", out)
			}
		}
	})
}

// FuzzSettingParse reads any text as any setting's value, as a file,
// variable or flag gives it: what is accepted has the setting's type and
// range, what is refused says what is accepted, and a URL's user info is
// never shown.
func FuzzSettingParse(f *testing.F) {
	// One setting of each type, and values a person might type for it.
	seen := map[SettingType]bool{}
	for i, s := range settings {
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
		s := settings[int(which)%len(settings)]
		v, err := s.Parse(text)
		if err != nil {
			want := whatIsAccepted(err)
			if s.Type != SettingURL && want != "expected "+s.Accepts() {
				t.Fatalf("%s %q: the message says %q, not what is accepted", s.Key, text, want)
			}
			shown := shownValue(s, text) + " " + want
			if s.Type == SettingURL {
				if u, perr := url.Parse(strings.TrimSpace(text)); perr == nil && u.User != nil {
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
			}
			return
		}
		switch s.Type {
		case SettingDuration:
			d, ok := v.(time.Duration)
			if !ok || int64(d) < s.Min || (s.Max > 0 && int64(d) > s.Max) {
				t.Fatalf("%s %q accepted as %v (%T)", s.Key, text, v, v)
			}
		case SettingInt:
			n, ok := v.(int64)
			if !ok || n < s.Min || (s.Max > 0 && n > s.Max) {
				t.Fatalf("%s %q accepted as %v (%T)", s.Key, text, v, v)
			}
		case SettingBool:
			if _, ok := v.(bool); !ok {
				t.Fatalf("%s %q accepted as %v (%T)", s.Key, text, v, v)
			}
		case SettingEnum:
			found := false
			for _, e := range s.Enum {
				found = found || v == e
			}
			if !found {
				t.Fatalf("%s %q accepted as %v, not one of %v", s.Key, text, v, s.Enum)
			}
		case SettingURL:
			str, _ := v.(string)
			if u, err := url.Parse(str); err == nil && u.User != nil && (u.Scheme == "http" || u.Scheme == "https") {
				t.Fatalf("%s %q accepted with user info", s.Key, text)
			}
		}
	})
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
			return // loadConfigDoc refuses these as a whole, with a usage error
		}
		doc := &configDoc{path: "config.yaml", doc: &n}
		for _, w := range unknownKeys(doc) {
			if !strings.HasPrefix(w, "config.yaml:") {
				t.Fatalf("warning %q does not say where", w)
			}
		}
		for _, s := range settings {
			if s.Family {
				continue
			}
			for _, profile := range []string{"", "work"} {
				for _, fv := range valuesOf(s, s.Key, nil, doc, profile) {
					if fv.where == "" {
						t.Fatalf("%s: a value with no source", s.Key)
					}
					if fv.bad == "" {
						s.Parse(fv.text)
					}
				}
			}
		}
	})
}
