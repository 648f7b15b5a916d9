package api

import (
	"encoding/json"
	"errors"
	"net/url"
	"path"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/orgctl/orgctl/cmd/cli"
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
		checkSentPath(t, typed, p)
		if host != "" && !strings.HasPrefix(typed, "http") {
			t.Fatalf("accepted %q with host %q", typed, host)
		}
		if _, err := url.ParseQuery(q.Encode()); err != nil {
			t.Fatalf("accepted %q: query %q does not read back: %v", typed, q.Encode(), err)
		}
	})
}

// checkSentPath fails t unless the accepted path p reaches exactly one
// endpoint under /api/v2, sent as typed, with nothing smuggled into it.
func checkSentPath(t *testing.T, typed, p string) {
	t.Helper()
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
	fac := cli.NewFactory("test")
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
			var ue *cli.UsageError
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
