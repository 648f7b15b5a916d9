package opdef_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/families/familytest"
	"github.com/orgctl/orgctl/output"
)

func TestFieldValueKinds(t *testing.T) {
	for _, tc := range []struct {
		name string
		fd   opdef.Field
		raw  []string
		want string // JSON of the value
	}{
		{"string kept as typed", opdef.Field{Flag: "f"}, []string{" spaced, with comma "}, `" spaced, with comma "`},
		{"string last occurrence wins", opdef.Field{Flag: "f"}, []string{"a", "b"}, `"b"`},
		{"int", opdef.Field{Flag: "f", Type: opdef.TInt}, []string{" 42 "}, `42`},
		{"negative int", opdef.Field{Flag: "f", Type: opdef.TInt}, []string{"-7"}, `-7`},
		{"number keeps its text", opdef.Field{Flag: "f", Type: opdef.TNumber}, []string{"1.50"}, `1.50`},
		{"number exponent", opdef.Field{Flag: "f", Type: opdef.TNumber}, []string{"2e3"}, `2e3`},
		{"bool true", opdef.Field{Flag: "f", Type: opdef.TBool}, []string{"true"}, `true`},
		{"bool false", opdef.Field{Flag: "f", Type: opdef.TBool}, []string{"false"}, `false`},
		{"bool last wins", opdef.Field{Flag: "f", Type: opdef.TBool}, []string{"true", "0"}, `false`},
		{"strings split on commas", opdef.Field{Flag: "f", Type: opdef.TStrings}, []string{"a, b", "c,,", " d "}, `["a","b","c","d"]`},
		{"strings empty", opdef.Field{Flag: "f", Type: opdef.TStrings}, []string{""}, `[]`},
		{"strings enum per element", opdef.Field{Flag: "f", Type: opdef.TStrings, Enum: []string{"x", "y"}}, []string{"x,y", "y"}, `["x","y","y"]`},
		{"texts keep commas", opdef.Field{Flag: "f", Type: opdef.TTexts}, []string{"a,b", " c "}, `["a,b"," c "]`},
		{"kv loose JSON values", opdef.Field{Flag: "f", Type: opdef.TKV},
			[]string{"n=3", "b=true", "z=null", "o={\"a\":1}", "l=[1,2]", "s=plain", "e=", "eq=a=b", "q=\"quoted\""},
			`{"b":true,"e":"","eq":"a=b","l":[1,2],"n":3,"o":{"a":1},"q":"quoted","s":"plain","z":null}`},
		{"kv later key wins", opdef.Field{Flag: "f", Type: opdef.TKV}, []string{"k=1", "k=2"}, `{"k":2}`},
		{"json object", opdef.Field{Flag: "f", Type: opdef.TJSON}, []string{`{"a":[1,"x"]}`}, `{"a":[1,"x"]}`},
		{"json scalar", opdef.Field{Flag: "f", Type: opdef.TJSON}, []string{`"s"`}, `"s"`},
		{"enum accepted", opdef.Field{Flag: "f", Enum: []string{"use", "edit"}}, []string{"edit"}, `"edit"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := opdef.FieldValue(tc.fd, tc.raw)
			if err != nil {
				t.Fatalf("fieldValue(%q): %v", tc.raw, err)
			}
			if got := familytest.JSON(t, v); got != tc.want {
				t.Errorf("fieldValue(%q) = %s, want %s", tc.raw, got, tc.want)
			}
		})
	}
}

func TestFieldValueRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		fd   opdef.Field
		raw  []string
		want string
	}{
		{"int text", opdef.Field{Flag: "count", Type: opdef.TInt}, []string{"ten"}, `invalid value "ten" for --count: expected a whole number`},
		{"int fraction", opdef.Field{Flag: "count", Type: opdef.TInt}, []string{"1.5"}, `expected a whole number`},
		{"number text", opdef.Field{Flag: "n", Type: opdef.TNumber}, []string{"abc"}, `invalid value "abc" for --n: expected a number`},
		{"number not JSON", opdef.Field{Flag: "n", Type: opdef.TNumber}, []string{"0x10"}, `expected a number`},
		{"number NaN", opdef.Field{Flag: "n", Type: opdef.TNumber}, []string{"NaN"}, `expected a number`},
		{"bool", opdef.Field{Flag: "active", Type: opdef.TBool}, []string{"maybe"}, `invalid value "maybe" for --active: expected true or false`},
		{"kv without =", opdef.Field{Flag: "metadata", Type: opdef.TKV}, []string{"team"}, `invalid --metadata "team": expected KEY=VALUE`},
		{"kv empty key", opdef.Field{Flag: "metadata", Type: opdef.TKV}, []string{"=x"}, `expected KEY=VALUE`},
		{"json", opdef.Field{Flag: "options", Type: opdef.TJSON}, []string{"{"}, `invalid JSON for --options`},
		{"enum int not a number", opdef.Field{Flag: "n", Type: opdef.TInt, Enum: []string{"1", "2"}}, []string{"three"}, `invalid value "three" for --n: expected a whole number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := opdef.FieldValue(tc.fd, tc.raw)
			if err == nil {
				t.Fatalf("fieldValue(%q) = %v, want an error", tc.raw, v)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q lacks %q", err, tc.want)
			}
		})
	}
}

// TestBuildPlacesEveryKindAndIn declares one op per placement and checks the
// request that comes out.
func TestBuildPlacesEveryKindAndIn(t *testing.T) {
	body := &opdef.Op{Method: http.MethodPost, Path: "/things", Fields: []opdef.Field{
		{Flag: "name", Key: "name"},
		{Flag: "sha", Key: "deploy_params.commit_sha"},
		{Flag: "full", Key: "deploy_params.is_full_sync", Type: opdef.TBool},
		{Flag: "count", Key: "count", Type: opdef.TInt},
		{Flag: "ratio", Key: "ratio", Type: opdef.TNumber},
		{Flag: "tag", Key: "tags", Type: opdef.TStrings},
		{Flag: "line", Key: "lines", Type: opdef.TTexts},
		{Flag: "meta", Key: "meta", Type: opdef.TKV},
		{Flag: "opts", Key: "opts", Type: opdef.TJSON},
		{Flag: "mine", In: opdef.InLocal},
		{Flag: "mine-list", In: opdef.InLocal, Type: opdef.TStrings},
		{Flag: "mine-bool", In: opdef.InLocal, Type: opdef.TBool},
	}}
	c := familytest.Build(t, opdef.Alone(body), familytest.Input("things create", nil,
		"name", "Ada", "sha", "abc123", "full", "true", "count", "3", "ratio", "0.25",
		"tag", "a,b", "tag", "c", "line", "x,y", "meta", "n=1", "meta", "s=t", "opts", `{"k":[true]}`,
		"mine", "local text", "mine-list", "p,q", "mine-bool", "true"))
	r := c.Request()
	if r.Method != http.MethodPost || r.Path != "/things" || len(r.Query) != 0 {
		t.Errorf("request = %s %s ?%v", r.Method, r.Path, r.Query)
	}
	want := `{"count":3,"deploy_params":{"commit_sha":"abc123","is_full_sync":true},"lines":["x,y"],"meta":{"n":1,"s":"t"},"name":"Ada","opts":{"k":[true]},"ratio":0.25,"tags":["a","b","c"]}`
	if got := familytest.JSON(t, r.Body); got != want {
		t.Errorf("body = %s\nwant   %s", got, want)
	}
	if c.LocalString("mine") != "local text" || !c.LocalBool("mine-bool") || !reflect.DeepEqual(c.LocalStrings("mine-list"), []string{"p", "q"}) {
		t.Errorf("local = %#v", c.Given.Local)
	}
	for _, f := range []string{"name", "mine", "mine-bool"} {
		if !c.Has(f) {
			t.Errorf("Has(%q) = false", f)
		}
	}
	if c.Has("nope") || c.LocalString("nope") != "" || c.LocalBool("nope") || len(c.LocalStrings("nope")) != 0 {
		t.Error("an unset field reads as set")
	}

	query := &opdef.Op{Method: http.MethodGet, Path: "/things", Fields: []opdef.Field{
		{Flag: "email", Key: "email", In: opdef.InQuery},
		{Flag: "status", Key: "statuses", In: opdef.InQuery, Type: opdef.TStrings},
		{Flag: "include", Key: "includeGroups", In: opdef.InQuery, Type: opdef.TBool},
		{Flag: "n", Key: "n", In: opdef.InQuery, Type: opdef.TInt},
		{Flag: "meta", Key: "meta", In: opdef.InQuery, Type: opdef.TKV},
	}}
	c = familytest.Build(t, opdef.Alone(query), familytest.Input("things list", nil,
		"email", "a+b@example.com", "status", "pending,expired", "status", "submitted", "include", "false", "n", "5", "meta", "a=1"))
	r = c.Request()
	wantQ := url.Values{"email": {"a+b@example.com"}, "statuses": {"pending", "expired", "submitted"}, "includeGroups": {"false"}, "n": {"5"}, "meta": {`{"a":1}`}}
	if !reflect.DeepEqual(r.Query, wantQ) {
		t.Errorf("query = %v, want %v", r.Query, wantQ)
	}
	if r.Body != nil {
		t.Errorf("a query-only call has a body: %v", r.Body)
	}

	patch := &opdef.Op{Method: http.MethodPatch, Path: "/things/{id}", Patch: true, Args: opdef.Args{Params: []string{"id"}}, Fields: []opdef.Field{
		{Flag: "name", Key: "name", In: opdef.InPatch},
		{Flag: "host", Key: "options.host", In: opdef.InPatch},
		{Flag: "active", Key: "active", In: opdef.InPatch, Type: opdef.TBool},
		{Flag: "links", Key: "links", In: opdef.InPatch, Type: opdef.TStrings},
		{Flag: "meta", Key: "metadata", In: opdef.InPatch, Type: opdef.TKV},
	}}
	c = familytest.Build(t, opdef.Alone(patch), familytest.Input("things update", []string{"t/1"},
		"name", "Ada", "host", "db", "active", "false", "links", "u1,u2", "meta", "a/b=1", "meta", "x~y=z"))
	r = c.Request()
	if r.Path != "/things/t%2F1" {
		t.Errorf("path = %q, want the argument escaped as one segment", r.Path)
	}
	wantOps := `{"operations":[` +
		`{"op":"replace","path":"/name","value":"Ada"},` +
		`{"op":"replace","path":"/options/host","value":"db"},` +
		`{"op":"replace","path":"/active","value":false},` +
		`{"op":"replace","path":"/links","value":["u1","u2"]},` +
		`{"op":"add","path":"/metadata/a~1b","value":1},` +
		`{"op":"add","path":"/metadata/x~0y","value":"z"}]}`
	if got := familytest.JSON(t, r.Body); got != wantOps {
		t.Errorf("patch body = %s\nwant         %s", got, wantOps)
	}
}

func TestSetPathThenLookup(t *testing.T) {
	m := map[string]any{"a": "scalar"}
	opdef.SetPath(m, "a.b.c", 1)
	opdef.SetPath(m, "a.b.d", 2)
	opdef.SetPath(m, "top", true)
	if got := familytest.JSON(t, m); got != `{"a":{"b":{"c":1,"d":2}},"top":true}` {
		t.Errorf("setPath: %s (a scalar in the way must become an object)", got)
	}
	if output.Lookup(m, "a.b.d") != 2 || output.Lookup(m, "a.x.y") != nil || output.Lookup(m, "top.x") != nil {
		t.Errorf("lookupPath misreads %v", m)
	}
}

func TestBuildReportsEveryProblemTogether(t *testing.T) {
	op := familytest.Op(t, "users", "create")
	msg := familytest.BuildErr(t, op, familytest.Input("users create", nil, "email", "nope", "active", "yes"))
	for _, want := range []string{
		"orgctl users create: 3 problems:",
		`invalid value "nope" for --email: expected an email address`,
		`invalid value "yes" for --active: expected true or false`,
		"required flags --first-name, --last-name not set",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}

	msg = familytest.BuildErr(t, op, familytest.Input("users create", nil, "email", "a@b.c", "first-name", "A"))
	if msg != "orgctl users create: required flag --last-name not set" {
		t.Errorf("one missing flag: %q", msg)
	}

	// A value that fails to convert is reported once, not also as missing.
	msg = familytest.BuildErr(t, familytest.Op(t, "environments", "create"), familytest.Input("environments create", nil, "name", "R", "color", "red"))
	if strings.Contains(msg, "not set") || !strings.Contains(msg, `invalid value "red" for --color`) {
		t.Errorf("bad value on a required flag: %q", msg)
	}
}

// A value the description does not list for an enum is sent, with one
// notice that names the flag and the allowed value it most likely meant:
// the instance may know values this orgctl does not.
func TestBuildSendsUnlistedEnumValuesWithANotice(t *testing.T) {
	c := familytest.Build(t, familytest.Op(t, "folders", "create"), familytest.Input("folders create", nil, "name", "R", "type", "dashbaord"))
	if got := c.Req.Body["folder_type"]; got != "dashbaord" {
		t.Errorf("folder_type sent as %v, want the value as typed", got)
	}
	want := `--type "dashbaord" is not a value this orgctl knows; sending it anyway`
	if len(c.Notices) != 1 || c.Notices[0] != want {
		t.Errorf("notices %q, want [%q]", c.Notices, want)
	}
	c = familytest.Build(t, familytest.Op(t, "users", "create"), familytest.Input("users create", nil,
		"email", "a@b.co", "first-name", "A", "last-name", "B", "user-type", "embedd"))
	if len(c.Notices) != 1 || !strings.Contains(c.Notices[0], "(did you mean embed?)") || c.Req.Body["user_type"] != "embedd" {
		t.Errorf("user-type embedd: notices %q, body %v", c.Notices, c.Req.Body)
	}
	// Each element of a list is its own value; a listed one says nothing.
	c = familytest.Build(t, familytest.Op(t, "user-tasks", "list"), familytest.Input("user-tasks list", nil, "status", "pending,archived"))
	if len(c.Notices) != 1 || !strings.HasPrefix(c.Notices[0], `--status "archived" is not a value`) {
		t.Errorf("user-tasks --status pending,archived: notices %q", c.Notices)
	}
	if c := familytest.Build(t, familytest.Op(t, "user-tasks", "list"), familytest.Input("user-tasks list", nil, "status", "pending")); len(c.Notices) != 0 {
		t.Errorf("a listed value: notices %q", c.Notices)
	}
	// An option of orgctl's own, sent nowhere, has no other values.
	local := opdef.Alone(&opdef.Op{Use: "list", Method: "GET", Path: "/things", Fields: []opdef.Field{{Flag: "mode", In: opdef.InLocal, Enum: []string{"fast", "slow"}}}})
	if msg := familytest.BuildErr(t, local, familytest.Input("things list", nil, "mode", "warp")); !strings.Contains(msg, `invalid value "warp" for --mode: allowed values are fast, slow`) {
		t.Errorf("a local option: %q", msg)
	}
}

func TestBuildLimitAndAll(t *testing.T) {
	op := familytest.Op(t, "users", "list")
	for _, bad := range []string{"0", "101", "ten", "-1", "2.5", ""} {
		in := familytest.Input("users list", nil)
		in.Limit = &bad
		msg := familytest.BuildErr(t, op, in)
		if !strings.Contains(msg, "--limit takes a whole number") || !strings.Contains(msg, "got") {
			t.Errorf("--limit %q: %q", bad, msg)
		}
	}
	good := " 50 "
	input := familytest.Input("users list", nil)
	input.Limit = &good
	c := familytest.Build(t, op, input)
	if c.Req.Query.Get("limit") != "50" || c.Pages.All {
		t.Errorf("--limit 50: query %v, all %v", c.Req.Query, c.Pages.All)
	}
	input.All = true
	if c := familytest.Build(t, op, input); c.Req.Query.Get("limit") != "50" || !c.Pages.All {
		t.Errorf("--limit 50 --all: query %v, all %v", c.Req.Query, c.Pages.All)
	}
	input = familytest.Input("users list", nil)
	input.All = true
	if c := familytest.Build(t, op, input); c.Req.Query.Has("limit") || !c.Pages.All {
		t.Errorf("--all alone: query %v, all %v; want no limit (the API then answers every item at once)", c.Req.Query, c.Pages.All)
	}
	// A bad limit joins the other problems.
	bad := "x"
	input = familytest.Input("users list", nil, "active", "maybe")
	input.Limit = &bad
	if msg := familytest.BuildErr(t, op, input); !strings.Contains(msg, "2 problems") {
		t.Errorf("bad --active and --limit: %q", msg)
	}
}

func TestBuildRefusesEmptyArguments(t *testing.T) {
	op := familytest.Op(t, "groups", "members", "remove")
	msg := familytest.BuildErr(t, op, familytest.Input("groups members remove", []string{"7", "  "}))
	if msg != "orgctl groups members remove: argument 2 (USER_ID) is empty" {
		t.Errorf("empty argument: %q", msg)
	}
	msg = familytest.BuildErr(t, op, familytest.Input("groups members remove", []string{"", ""}))
	if !strings.Contains(msg, "2 problems") || !strings.Contains(msg, "argument 1 (GROUP_ID) is empty") {
		t.Errorf("two empty arguments: %q", msg)
	}
	// Without a Use naming it, the argument is called by its path parameter.
	bare := &opdef.Op{Use: "get", Method: http.MethodGet, Path: "/x/{xId}", Args: opdef.Args{Params: []string{"xId"}}}
	if msg := familytest.BuildErr(t, opdef.Alone(bare), familytest.Input("x get", []string{""})); !strings.Contains(msg, "argument 1 (xId) is empty") {
		t.Errorf("unnamed argument: %q", msg)
	}
}

func TestBuildPatchNeedsSomethingToChange(t *testing.T) {
	msg := familytest.BuildErr(t, familytest.Op(t, "users", "update"), familytest.Input("users update", []string{"user_1"}))
	if !strings.Contains(msg, "nothing to change") || !strings.Contains(msg, "--body") {
		t.Errorf("empty patch: %q", msg)
	}
	// Ops with a Shape are checked after it.
	msg = familytest.BuildErr(t, familytest.Op(t, "resource-configs", "update"), familytest.Input("resource-configs update", []string{"5a4d0099-0000-4000-8000-000000000001"}))
	if !strings.Contains(msg, "nothing to change") {
		t.Errorf("empty patch after Shape: %q", msg)
	}
}

// BodyObject writes content to a temp file and returns an Input naming it in --body.
func TestBuildBody(t *testing.T) {
	create := familytest.Op(t, "users", "create")

	// An object: flags override its fields, and it satisfies required flags.
	input := familytest.Input("users create", nil, "first-name", "Flag")
	input.Body = familytest.BodyFile(t, `{"email":"a@b.c","first_name":"Body","last_name":"L","metadata":{"n":12345678901234567890}}`)
	c := familytest.Build(t, create, input)
	if got := familytest.JSON(t, c.Request().Body); got != `{"email":"a@b.c","first_name":"Flag","last_name":"L","metadata":{"n":12345678901234567890}}` {
		t.Errorf("body with a flag over it = %s (numbers must keep their digits)", got)
	}
	if !c.Given.FromBody {
		t.Error("FromBody = false")
	}

	// From stdin.
	input = familytest.Input("users create", nil)
	input.Body = "-"
	c, err := create.Build(input, strings.NewReader(`{"email":"s@b.c","first_name":"S","last_name":"In"}`))
	if err != nil || c.Req.Body["email"] != "s@b.c" {
		t.Fatalf("--body -: %v %v", c, err)
	}
	input.Body = "-"
	if _, err := create.Build(input, nil); err == nil || !strings.Contains(err.Error(), "no standard input") {
		t.Errorf("--body - without stdin: %v", err)
	}

	// Patch operations, as an array or as {"operations": [...]}.
	update := familytest.Op(t, "users", "update")
	for _, body := range []string{
		`[{"op":"remove","path":"/metadata/team"}]`,
		`{"operations":[{"op":"remove","path":"/metadata/team"}]}`,
	} {
		input = familytest.Input("users update", []string{"user_1"}, "first-name", "Ada")
		input.Body = familytest.BodyFile(t, body)
		c = familytest.Build(t, update, input)
		want := `{"operations":[{"op":"remove","path":"/metadata/team"},{"op":"replace","path":"/first_name","value":"Ada"}]}`
		if got := familytest.JSON(t, c.Request().Body); got != want {
			t.Errorf("patch --body %s: %s", body, got)
		}
	}

	// An array where fields exist, or for a DELETE, is refused; elsewhere it is sent as is.
	input = familytest.Input("users create", nil)
	input.Body = familytest.BodyFile(t, `[{"email":"a@b.c"}]`)
	if msg := familytest.BuildErr(t, create, input); !strings.Contains(msg, "must be a JSON object (got an array); the fields go inside it") {
		t.Errorf("array body with fields: %q", msg)
	}
	raw := &opdef.Op{Method: http.MethodPost, Path: "/bulk", Body: true}
	input = familytest.Input("bulk", nil)
	input.Body = familytest.BodyFile(t, `[1, 2]`)
	c = familytest.Build(t, opdef.Alone(raw), input)
	if string(c.Request().Body.(json.RawMessage)) != `[1, 2]` {
		t.Errorf("array body without fields = %v", c.Request().Body)
	}

	for _, tc := range []struct {
		op   *opdef.Placed
		body string
		want string
	}{
		{create, `{"email": `, "is not valid JSON"},
		{create, ``, "is not valid JSON"},
		{create, `"just a string"`, "must be a JSON object"},
		{create, `42`, "must be a JSON object"},
		{update, `{"ops":[]}`, `--body must be a JSON array of JSON Patch operations or {"operations": [...]}`},
		{update, `"x"`, `--body must be a JSON array of JSON Patch operations`},
		{update, `{"operations": {}}`, `--body must be a JSON array of JSON Patch operations`},
	} {
		input := familytest.Input("x", []string{"user_1"})
		input.Body = familytest.BodyFile(t, tc.body)
		if msg := familytest.BuildErr(t, tc.op, input); !strings.Contains(msg, tc.want) {
			t.Errorf("--body %q: %q, want %q", tc.body, msg, tc.want)
		}
	}

	input = familytest.Input("users create", nil)
	input.Body = filepath.Join(t.TempDir(), "missing.json")
	if msg := familytest.BuildErr(t, create, input); !strings.Contains(msg, "--body:") || !strings.Contains(msg, "missing.json") {
		t.Errorf("missing file: %q", msg)
	}
}

// endless is a reader of its text repeated forever.
type endless []byte

func (e endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], e)
	}
	return n, nil
}

func TestBuildBodyOverSizeIsRefused(t *testing.T) {
	// An object that never ends on stdin: refused at the limit, not cut or read forever.
	input := familytest.Input("apps create", nil, "name", "n")
	input.Body = "-"
	_, err := familytest.Op(t, "apps", "create").Build(input, io.MultiReader(strings.NewReader(`{"x":"`), endless(bytes.Repeat([]byte("a"), 64<<10))))
	if !clitest.IsUsage(err) || !strings.Contains(err.Error(), "--body: --body - is larger than the 16 MiB limit") {
		t.Errorf("over-size body: %v", err)
	}
}

func TestBuildBodyRefusesTrailingData(t *testing.T) {
	for _, tc := range []struct {
		op   *opdef.Placed
		body string
	}{
		{familytest.Op(t, "apps", "create"), `{"name":"a"} {"name":"b"}`},
		{familytest.Op(t, "apps", "create"), `{"name":"a"} trailing`},
		{familytest.Op(t, "users", "update"), `[{"op":"remove","path":"/a"}] ]`},
		{opdef.Alone(&opdef.Op{Method: http.MethodPost, Path: "/bulk", Body: true}), `[1, 2] junk`},
	} {
		input := familytest.Input("x", []string{"user_1"})
		input.Body = familytest.BodyFile(t, tc.body)
		if msg := familytest.BuildErr(t, tc.op, input); !strings.Contains(msg, "is not valid JSON") {
			t.Errorf("--body %q: %q", tc.body, msg)
		}
	}
	// Whitespace after the value is fine.
	input := familytest.Input("apps create", nil)
	input.Body = familytest.BodyFile(t, "{\"name\":\"a\"}\n\n")
	familytest.Build(t, familytest.Op(t, "apps", "create"), input)
}
