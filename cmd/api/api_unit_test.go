package api

import (
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

func TestSplitAPIPath(t *testing.T) {
	for _, tc := range []struct {
		in, path, query, host string
	}{
		{"users", "/users", "", ""},
		{"/users/user_abc", "/users/user_abc", "", ""},
		{"/api/v2/users?limit=2&email=a%2Bb%40c", "/users", "email=a%2Bb%40c&limit=2", ""},
		{"api/v2/groups/7", "/groups/7", "", ""},
		{"/api/v2x/users", "/api/v2x/users", "", ""},
		{"https://acme.example.com/api/v2/folders/app_1?recursive=true", "/folders/app_1", "recursive=true", "acme.example.com"},
		{"http://127.0.0.1:8080/api/v2/apps", "/apps", "", "127.0.0.1:8080"},
		{"/users/a%2Fb", "/users/a%2Fb", "", ""},
		{"/users/", "/users/", "", ""},
		{"/users/a b%20c", "/users/a b%20c", "", ""},
		{"users/caf\u00e9", "/users/caf\u00e9", "", ""},
	} {
		p, q, host, err := splitAPIPath(tc.in)
		if err != nil || p != tc.path || q.Encode() != tc.query || host != tc.host {
			t.Errorf("splitAPIPath(%q) = %q %q %q %v; want %q %q %q", tc.in, p, q.Encode(), host, err, tc.path, tc.query, tc.host)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"", "empty PATH"},
		{"  ", "empty PATH"},
		{"/", "PATH names no endpoint"},
		{"/api/v2", "PATH names no endpoint"},
		{"/api/v2/?x=1", "PATH names no endpoint"},
		{"https://acme.example.com/users", `is not under /api/v2`},
		{"https://user:secret@acme.example.com/other", `"https://user:xxxxx@acme.example.com/other" carries user info`},
		{"https://user:secret@acme.example.com/api/v2/users", `"https://user:xxxxx@acme.example.com/api/v2/users" carries user info`},
		{"https://user:se/cret@acme.example.com/api/v2/users", `invalid URL "https://user:xxxxx@acme.example.com/api/v2/users"`},
		{"users/user_1%zz", "invalid escape at byte 13"},
		{"folders%", "invalid escape at byte 8"},
		{"users/%4", "invalid escape"},
		{"users\n", "control or invisible character U+000A"},
		{"users/\u202egnp.exe", "U+202E"},
		{"users/a\\b", `escape '\' as %5C`},
		{" users", "leading or trailing spaces"},
		{"users//x", "empty segment"},
		{"users/\xff", "not valid UTF-8"},
		{"https:///api/v2/users", "invalid URL"},
		{"users/../access_tokens", `".." segments are not allowed`},
		{"users/%2e%2E/x", `segments are not allowed`},
		{"users/./x", `"." segments are not allowed`},
		{"users?a=%zz", "invalid escape"},
		{"users?a=b;c", "invalid query in PATH"},
	} {
		_, _, _, err := splitAPIPath(tc.in)
		if err == nil || !isUsage(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("splitAPIPath(%q): %v, want exit 2 with %q", tc.in, err, tc.want)
		}
	}
}

func TestFieldKeys(t *testing.T) {
	for in, want := range map[string][]string{
		"name":              {"name"},
		"a[b]":              {"a", "b"},
		"ops[][op]":         {"ops", "", "op"},
		"a[b][c][]":         {"a", "b", "c", ""},
		"weird key[with ]]": nil,
	} {
		got, err := fieldKeys(in)
		if want == nil {
			if err == nil {
				t.Errorf("fieldKeys(%q) = %q, want an error", in, got)
			}
			continue
		}
		if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("fieldKeys(%q) = %q %v, want %q", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"[x]":   "invalid field key",
		"a[b":   "missing ]",
		"a[b]c": "expected KEY[SUB]",
	} {
		if _, err := fieldKeys(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("fieldKeys(%q): %v, want %q", in, err, want)
		}
	}
}

func TestSetFieldBuildsNestedBodies(t *testing.T) {
	body := map[string]any{}
	for _, kv := range [][2]string{
		{"operations[][op]", "replace"}, {"operations[][path]", "/active"}, {"operations[][value]", "false"},
		{"operations[][op]", "add"}, {"operations[][path]", "/metadata/x"},
		{"tags[]", "a"}, {"tags[]", "b"},
		{"a[b][c]", "1"}, {"a[b][d]", "2"},
	} {
		keys, err := fieldKeys(kv[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := setField(body, keys, kv[1], kv[0]); err != nil {
			t.Fatalf("%s: %v", kv[0], err)
		}
	}
	want := `{"a":{"b":{"c":"1","d":"2"}},"operations":[{"op":"replace","path":"/active","value":"false"},{"op":"add","path":"/metadata/x"}],"tags":["a","b"]}`
	if got := asText(t, body); got != want {
		t.Errorf("body = %s\nwant   %s", got, want)
	}
	for _, tc := range []struct{ key, want string }{
		{"tags[x]", "is not an object"},
		{"a[b][c][]", "is not an array"},
	} {
		keys, _ := fieldKeys(tc.key)
		if err := setField(body, keys, "v", tc.key); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("setField(%s): %v, want %q", tc.key, err, tc.want)
		}
	}
}

func TestParseAPI(t *testing.T) {
	dir := t.TempDir()
	note := filepath.Join(dir, "note.txt")
	os.WriteFile(note, []byte("line one\nline two\n"), 0o600)
	input := filepath.Join(dir, "body.json")
	os.WriteFile(input, []byte(" {\"name\": \"from file\"}\n"), 0o600)
	f := stdinFactory("from stdin\n")

	o, err := parseAPI(f, "get", "users", []string{"email=a@b.c", "ids[]=1", "ids[]=2"}, []string{"active=true"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if o.Method != "GET" || o.Path != "/users" || o.Body != nil ||
		o.Query.Encode() != (url.Values{"email": {"a@b.c"}, "ids": {"1", "2"}, "active": {"true"}}).Encode() {
		t.Errorf("GET fields: %+v", o)
	}

	o, err = parseAPI(f, "POST", "/api/v2/things?dry=1", []string{"name=007", "n=1"},
		[]string{"n2=1.5", "big=12345678901234567890", "hex=0x10", "zero=007", "on=true", "off=false", "nothing=null", "text=@" + note, "in=@-", "nested[k]=2"}, "")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"big":12345678901234567890,"hex":"0x10","in":"from stdin","n":"1","n2":1.5,"name":"007","nested":{"k":2},"nothing":null,"off":false,"on":true,"text":"line one\nline two","zero":"007"}`
	if got := asText(t, o.Body); got != want || o.Query.Get("dry") != "1" {
		t.Errorf("POST body = %s, query %v\nwant %s", got, o.Query, want)
	}

	// With --input the file is the body and the fields go in the query.
	o, err = parseAPI(f, "PUT", "things/1", []string{"force=yes"}, nil, input)
	if err != nil {
		t.Fatal(err)
	}
	if string(o.Body.(json.RawMessage)) != `{"name": "from file"}` || o.Query.Get("force") != "yes" {
		t.Errorf("--input: body %v, query %v", o.Body, o.Query)
	}
	empty := filepath.Join(dir, "empty.json")
	os.WriteFile(empty, []byte("\n"), 0o600)
	if o, err := parseAPI(f, "POST", "things", nil, nil, empty); err != nil || o.Body != nil {
		t.Errorf("empty --input: %v %v", o.Body, err)
	}
	f = stdinFactory(`[1,2]`)
	if o, err := parseAPI(f, "POST", "things", nil, nil, "-"); err != nil || string(o.Body.(json.RawMessage)) != "[1,2]" {
		t.Errorf("--input -: %v %v", o, err)
	}

	arrayFile := filepath.Join(dir, "array.json")
	os.WriteFile(arrayFile, []byte(`[{"email":"a@b.c"}]`), 0o600)
	// Sparse files: their size is refused before a byte is read.
	big, half := filepath.Join(dir, "big.bin"), filepath.Join(dir, "half.bin")
	os.WriteFile(big, nil, 0o600)
	os.Truncate(big, opdef.MaxBodyBytes+1)
	os.WriteFile(half, nil, 0o600)
	os.Truncate(half, opdef.MaxBodyBytes/2+1)
	for _, tc := range []struct {
		method, path string
		raw, typed   []string
		input, want  string
	}{
		{"FETCH", "users", nil, nil, "", `invalid method "FETCH": expected one of GET, POST, PUT, PATCH, DELETE`},
		{"GET", "users/..", nil, nil, "", "segments are not allowed"},
		{"GET", "users", []string{"novalue"}, nil, "", `invalid field "novalue": expected KEY=VALUE`},
		{"GET", "users", []string{"=x"}, nil, "", `invalid field "=x"`},
		{"GET", "users", []string{"a[b]=1"}, nil, "", `field "a[b]": nested keys need a JSON body`},
		{"POST", "things", []string{"a[b=1"}, nil, "", "missing ]"},
		{"POST", "things", nil, []string{"f=@" + filepath.Join(dir, "missing")}, "", "-F @" + filepath.Join(dir, "missing")},
		{"POST", "things", nil, nil, filepath.Join(dir, "missing.json"), "--input " + filepath.Join(dir, "missing.json") + ": no such file or directory"},
		{"POST", "users", nil, nil, arrayFile, "--input " + arrayFile + " must be a JSON object: POST /users takes one, and an array would replace it"},
		{"PATCH", "users/user_1", nil, nil, arrayFile, "must be a JSON object"},
		{"POST", "things", nil, []string{"a=@" + big}, "", "-F @" + big + " is 16.0 MiB, larger than the 16 MiB limit for request bodies"},
		{"POST", "things", nil, []string{"a=@" + half, "b=@" + half}, "", "the body from -F KEY=@FILE files is 16.0 MiB"},
		{"POST", "things", nil, nil, big, "--input " + big + " is 16.0 MiB, larger than the 16 MiB limit"},
		{"POST", "things", nil, nil, note, "is not valid JSON"},
	} {
		_, err := parseAPI(f, tc.method, tc.path, tc.raw, tc.typed, tc.input)
		if err == nil || !isUsage(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("api %s %s %v %v --input %q: %v, want exit 2 with %q", tc.method, tc.path, tc.raw, tc.typed, tc.input, err, tc.want)
		}
	}
}

func TestKnownScope(t *testing.T) {
	for _, tc := range []struct{ method, path, want string }{
		{"GET", "/users", "Users > Read"},
		{"GET", "/users/user_abc", "Users > Read"},
		{"PATCH", "/users/user_abc/", "Users > Write"},
		{"POST", "/groups/7/members", "Groups > Write"},
		{"GET", "/role_permissions/roles", "Permissions > Read"},
		{"PUT", "/users/reset2fa/user_abc", "Users > Write"},
		{"POST", "/user_invites", "Users > Write"},
		{"GET", "/no/such/endpoint", ""},
		{"TRACE", "/users", ""},
	} {
		if got := knownScope(tc.method, tc.path); got != tc.want {
			t.Errorf("knownScope(%s %s) = %q, want %q", tc.method, tc.path, got, tc.want)
		}
	}
}

func isUsage(err error) bool {
	var ue *cli.UsageError
	return errors.As(err, &ue)
}

func asText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// stdinFactory is a Factory whose standard input holds text.
func stdinFactory(text string) *cli.Factory {
	f := cli.NewFactory("test")
	f.IO = &output.IO{In: strings.NewReader(text), Out: io.Discard, Err: io.Discard}
	return f
}
