package engine_test

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

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families/familytest"
	"github.com/spf13/cobra"
)

func TestFieldValueKinds(t *testing.T) {
	for _, tc := range []struct {
		name string
		fd   engine.Field
		raw  []string
		want string // JSON of the value
	}{
		{"string kept as typed", engine.Field{Flag: "f"}, []string{" spaced, with comma "}, `" spaced, with comma "`},
		{"string last occurrence wins", engine.Field{Flag: "f"}, []string{"a", "b"}, `"b"`},
		{"int", engine.Field{Flag: "f", Kind: engine.KInt}, []string{" 42 "}, `42`},
		{"negative int", engine.Field{Flag: "f", Kind: engine.KInt}, []string{"-7"}, `-7`},
		{"number keeps its text", engine.Field{Flag: "f", Kind: engine.KNumber}, []string{"1.50"}, `1.50`},
		{"number exponent", engine.Field{Flag: "f", Kind: engine.KNumber}, []string{"2e3"}, `2e3`},
		{"bool true", engine.Field{Flag: "f", Kind: engine.KBool}, []string{"true"}, `true`},
		{"bool false", engine.Field{Flag: "f", Kind: engine.KBool}, []string{"false"}, `false`},
		{"bool last wins", engine.Field{Flag: "f", Kind: engine.KBool}, []string{"true", "0"}, `false`},
		{"strings split on commas", engine.Field{Flag: "f", Kind: engine.KStrings}, []string{"a, b", "c,,", " d "}, `["a","b","c","d"]`},
		{"strings empty", engine.Field{Flag: "f", Kind: engine.KStrings}, []string{""}, `[]`},
		{"strings enum per element", engine.Field{Flag: "f", Kind: engine.KStrings, Enum: []string{"x", "y"}}, []string{"x,y", "y"}, `["x","y","y"]`},
		{"texts keep commas", engine.Field{Flag: "f", Kind: engine.KTexts}, []string{"a,b", " c "}, `["a,b"," c "]`},
		{"kv loose JSON values", engine.Field{Flag: "f", Kind: engine.KKV},
			[]string{"n=3", "b=true", "z=null", "o={\"a\":1}", "l=[1,2]", "s=plain", "e=", "eq=a=b", "q=\"quoted\""},
			`{"b":true,"e":"","eq":"a=b","l":[1,2],"n":3,"o":{"a":1},"q":"quoted","s":"plain","z":null}`},
		{"kv later key wins", engine.Field{Flag: "f", Kind: engine.KKV}, []string{"k=1", "k=2"}, `{"k":2}`},
		{"json object", engine.Field{Flag: "f", Kind: engine.KJSON}, []string{`{"a":[1,"x"]}`}, `{"a":[1,"x"]}`},
		{"json scalar", engine.Field{Flag: "f", Kind: engine.KJSON}, []string{`"s"`}, `"s"`},
		{"enum accepted", engine.Field{Flag: "f", Enum: []string{"use", "edit"}}, []string{"edit"}, `"edit"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := engine.FieldValue(tc.fd, tc.raw)
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
		fd   engine.Field
		raw  []string
		want string
	}{
		{"int text", engine.Field{Flag: "count", Kind: engine.KInt}, []string{"ten"}, `invalid value "ten" for --count: expected a whole number`},
		{"int fraction", engine.Field{Flag: "count", Kind: engine.KInt}, []string{"1.5"}, `expected a whole number`},
		{"number text", engine.Field{Flag: "n", Kind: engine.KNumber}, []string{"abc"}, `invalid value "abc" for --n: expected a number`},
		{"number not JSON", engine.Field{Flag: "n", Kind: engine.KNumber}, []string{"0x10"}, `expected a number`},
		{"number NaN", engine.Field{Flag: "n", Kind: engine.KNumber}, []string{"NaN"}, `expected a number`},
		{"bool", engine.Field{Flag: "active", Kind: engine.KBool}, []string{"maybe"}, `invalid value "maybe" for --active: expected true or false`},
		{"kv without =", engine.Field{Flag: "metadata", Kind: engine.KKV}, []string{"team"}, `invalid --metadata "team": expected KEY=VALUE`},
		{"kv empty key", engine.Field{Flag: "metadata", Kind: engine.KKV}, []string{"=x"}, `expected KEY=VALUE`},
		{"json", engine.Field{Flag: "options", Kind: engine.KJSON}, []string{"{"}, `invalid JSON for --options`},
		{"enum", engine.Field{Flag: "type", Enum: []string{"app", "workflow"}}, []string{"apps"}, `invalid value "apps" for --type: allowed values are app, workflow`},
		{"enum per element", engine.Field{Flag: "status", Kind: engine.KStrings, Enum: []string{"pending", "expired"}}, []string{"pending,done"}, `invalid value "done" for --status`},
		{"enum before int", engine.Field{Flag: "n", Kind: engine.KInt, Enum: []string{"1", "2"}}, []string{"3"}, `allowed values are 1, 2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := engine.FieldValue(tc.fd, tc.raw)
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
	body := &engine.Op{Method: http.MethodPost, Path: "/things", Fields: []engine.Field{
		{Flag: "name", Key: "name"},
		{Flag: "sha", Key: "deploy_params.commit_sha"},
		{Flag: "full", Key: "deploy_params.is_full_sync", Kind: engine.KBool},
		{Flag: "count", Key: "count", Kind: engine.KInt},
		{Flag: "ratio", Key: "ratio", Kind: engine.KNumber},
		{Flag: "tag", Key: "tags", Kind: engine.KStrings},
		{Flag: "line", Key: "lines", Kind: engine.KTexts},
		{Flag: "meta", Key: "meta", Kind: engine.KKV},
		{Flag: "opts", Key: "opts", Kind: engine.KJSON},
		{Flag: "mine", In: engine.InLocal},
		{Flag: "mine-list", In: engine.InLocal, Kind: engine.KStrings},
		{Flag: "mine-bool", In: engine.InLocal, Kind: engine.KBool},
	}}
	c := familytest.Build(t, body, familytest.Input("things create", nil,
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
		t.Errorf("local = %#v", c.Local)
	}
	for _, f := range []string{"name", "mine", "mine-bool"} {
		if !c.Has(f) {
			t.Errorf("Has(%q) = false", f)
		}
	}
	if c.Has("nope") || c.LocalString("nope") != "" || c.LocalBool("nope") || len(c.LocalStrings("nope")) != 0 {
		t.Error("an unset field reads as set")
	}

	query := &engine.Op{Method: http.MethodGet, Path: "/things", Fields: []engine.Field{
		{Flag: "email", Key: "email", In: engine.InQuery},
		{Flag: "status", Key: "statuses", In: engine.InQuery, Kind: engine.KStrings},
		{Flag: "include", Key: "includeGroups", In: engine.InQuery, Kind: engine.KBool},
		{Flag: "n", Key: "n", In: engine.InQuery, Kind: engine.KInt},
		{Flag: "meta", Key: "meta", In: engine.InQuery, Kind: engine.KKV},
	}}
	c = familytest.Build(t, query, familytest.Input("things list", nil,
		"email", "a+b@example.com", "status", "pending,expired", "status", "submitted", "include", "false", "n", "5", "meta", "a=1"))
	r = c.Request()
	wantQ := url.Values{"email": {"a+b@example.com"}, "statuses": {"pending", "expired", "submitted"}, "includeGroups": {"false"}, "n": {"5"}, "meta": {`{"a":1}`}}
	if !reflect.DeepEqual(r.Query, wantQ) {
		t.Errorf("query = %v, want %v", r.Query, wantQ)
	}
	if r.Body != nil {
		t.Errorf("a query-only call has a body: %v", r.Body)
	}

	patch := &engine.Op{Method: http.MethodPatch, Path: "/things/{id}", Args: []string{"id"}, Patch: true, Fields: []engine.Field{
		{Flag: "name", Key: "name", In: engine.InPatch},
		{Flag: "host", Key: "options.host", In: engine.InPatch},
		{Flag: "active", Key: "active", In: engine.InPatch, Kind: engine.KBool},
		{Flag: "links", Key: "links", In: engine.InPatch, Kind: engine.KStrings},
		{Flag: "meta", Key: "metadata", In: engine.InPatch, Kind: engine.KKV},
	}}
	c = familytest.Build(t, patch, familytest.Input("things update", []string{"t/1"},
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

func TestSetPathAndLookupPath(t *testing.T) {
	m := map[string]any{"a": "scalar"}
	engine.SetPath(m, "a.b.c", 1)
	engine.SetPath(m, "a.b.d", 2)
	engine.SetPath(m, "top", true)
	if got := familytest.JSON(t, m); got != `{"a":{"b":{"c":1,"d":2}},"top":true}` {
		t.Errorf("setPath: %s (a scalar in the way must become an object)", got)
	}
	if engine.LookupPath(m, "a.b.d") != 2 || engine.LookupPath(m, "a.x.y") != nil || engine.LookupPath(m, "top.x") != nil {
		t.Errorf("lookupPath misreads %v", m)
	}
}

func TestBuildReportsEveryProblemTogether(t *testing.T) {
	op := familytest.Op(t, "users", "create")
	msg := familytest.BuildErr(t, op, familytest.Input("users create", nil, "user-type", "robot", "active", "yes"))
	for _, want := range []string{
		"orgctl users create: 3 problems:",
		`invalid value "robot" for --user-type: allowed values are default, mobile, embed`,
		`invalid value "yes" for --active: expected true or false`,
		"required flags --email, --first-name, --last-name not set",
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
	msg = familytest.BuildErr(t, familytest.Op(t, "folders", "create"), familytest.Input("folders create", nil, "name", "R", "type", "dashboard"))
	if strings.Contains(msg, "not set") || !strings.Contains(msg, `invalid value "dashboard" for --type`) {
		t.Errorf("bad enum on a required flag: %q", msg)
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
	if c.Query.Get("limit") != "50" || c.All {
		t.Errorf("--limit 50: query %v, all %v", c.Query, c.All)
	}
	input.All = true
	if c := familytest.Build(t, op, input); c.Query.Get("limit") != "50" || !c.All {
		t.Errorf("--limit 50 --all: query %v, all %v", c.Query, c.All)
	}
	input = familytest.Input("users list", nil)
	input.All = true
	if c := familytest.Build(t, op, input); c.Query.Has("limit") || !c.All {
		t.Errorf("--all alone: query %v, all %v; want no limit (the API then answers every item at once)", c.Query, c.All)
	}
	// A bad limit joins the other problems.
	bad := "x"
	listWithEnum := familytest.Op(t, "access-requests", "list")
	input = familytest.Input("access-requests list", nil, "status", "OPEN")
	input.Limit = &bad
	if msg := familytest.BuildErr(t, listWithEnum, input); !strings.Contains(msg, "2 problems") {
		t.Errorf("bad --status and --limit: %q", msg)
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
	bare := &engine.Op{Use: "get", Method: http.MethodGet, Path: "/x/{xId}", Args: []string{"xId"}}
	if msg := familytest.BuildErr(t, bare, familytest.Input("x get", []string{""})); !strings.Contains(msg, "argument 1 (xId) is empty") {
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
	if !c.FromBody {
		t.Error("FromBody = false")
	}

	// From stdin.
	input = familytest.Input("users create", nil)
	input.Body = "-"
	c, err := create.Build(input, strings.NewReader(`{"email":"s@b.c","first_name":"S","last_name":"In"}`))
	if err != nil || c.Body["email"] != "s@b.c" {
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
	raw := &engine.Op{Method: http.MethodPost, Path: "/bulk", Body: true}
	input = familytest.Input("bulk", nil)
	input.Body = familytest.BodyFile(t, `[1, 2]`)
	c = familytest.Build(t, raw, input)
	if string(c.Request().Body.(json.RawMessage)) != `[1, 2]` {
		t.Errorf("array body without fields = %v", c.Request().Body)
	}

	for _, tc := range []struct {
		op   *engine.Op
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
	if !familytest.IsUsage(err) || !strings.Contains(err.Error(), "--body: --body - is larger than the 16 MiB limit") {
		t.Errorf("over-size body: %v", err)
	}
}

// parsed runs the parse phase on a command line of op's cobra command.
func parsed(t *testing.T, op *engine.Op, argv ...string) (engine.Input, engine.RunOptions) {
	t.Helper()
	f := familytest.Factory(t)
	c := op.Command(f)
	if err := c.ParseFlags(argv); err != nil {
		t.Fatalf("parse %v: %v", argv, err)
	}
	return engine.ParseFlags(op, c, c.Flags().Args())
}

func TestParseFlagsThenBuild(t *testing.T) {
	op := familytest.Op(t, "users", "create")
	input, opts := parsed(t, op, "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace",
		"--active=false", "--metadata", "team=ops", "--metadata", "level=3", "--user-type", "mobile", "--admin", "--dry-run")
	if !opts.DryRun || opts.Yes {
		t.Errorf("options = %+v", opts)
	}
	wantValues := map[string][]string{"email": {"ada@example.com"}, "first-name": {"Ada"}, "last-name": {"Lovelace"},
		"active": {"false"}, "metadata": {"team=ops", "level=3"}, "user-type": {"mobile"}, "admin": {"true"}}
	if !reflect.DeepEqual(input.Values, wantValues) {
		t.Errorf("values = %v\nwant     %v", input.Values, wantValues)
	}
	c := familytest.Build(t, op, input)
	if got := familytest.JSON(t, c.Request().Body); got != `{"active":false,"email":"ada@example.com","first_name":"Ada","last_name":"Lovelace","metadata":{"level":3,"team":"ops"},"user_type":"mobile"}` {
		t.Errorf("body = %s", got)
	}
	if len(c.Then) != 1 {
		t.Errorf("--admin: %d follow-ups, want 1", len(c.Then))
	}

	// Unset flags are absent, not empty; repeatable flags keep commas for build to split or keep.
	op = familytest.Op(t, "config-vars", "create")
	input, _ = parsed(t, op, "--name", "N", "--value", "env1=a,b", "--value", "env2=c")
	if _, ok := input.Values["description"]; ok {
		t.Error("an unset flag appears in the input")
	}
	c = familytest.Build(t, op, input)
	if got := familytest.JSON(t, c.Body["values"]); got != `[{"environment_id":"env1","value":"a,b"},{"environment_id":"env2","value":"c"}]` {
		t.Errorf("--value keeps commas: %s", got)
	}

	op = familytest.Op(t, "user-tasks", "list")
	input, _ = parsed(t, op, "--status", "pending,expired", "--status", "submitted", "--limit", "20", "--all")
	if input.Limit == nil || *input.Limit != "20" || !input.All {
		t.Errorf("limit %v all %v", input.Limit, input.All)
	}
	c = familytest.Build(t, op, input)
	if got := c.Query.Get("statuses"); got != "pending,expired,submitted" {
		t.Errorf("statuses = %q", got)
	}

	op = familytest.Op(t, "users", "delete")
	input, opts = parsed(t, op, "user_1", "-y")
	if !opts.Yes || !reflect.DeepEqual(input.Args, []string{"user_1"}) {
		t.Errorf("delete -y: %+v %+v", input, opts)
	}
}

func TestCommandWiring(t *testing.T) {
	f := familytest.Factory(t)
	c := familytest.Op(t, "users", "list").Command(f)
	for _, flag := range []string{"limit", "all", "email"} {
		if c.Flags().Lookup(flag) == nil {
			t.Errorf("users list has no --%s", flag)
		}
	}
	if c.Flags().Lookup("dry-run") != nil || c.Flags().Lookup("yes") != nil {
		t.Error("a read offers --dry-run or --yes")
	}
	c = familytest.Op(t, "users", "delete").Command(f)
	if c.Flags().Lookup("dry-run") == nil || c.Flags().ShorthandLookup("y") == nil {
		t.Error("delete lacks --dry-run or -y")
	}
	if c.Annotations["method"] != http.MethodDelete || c.Annotations["path"] != "/users/{userId}" || c.Annotations["scope"] != "Users > Write" {
		t.Errorf("annotations = %v", c.Annotations)
	}
	if !strings.Contains(c.Long, "API:    DELETE /api/v2/users/{userId}") || !strings.Contains(c.Long, "points per request") {
		t.Errorf("help = %q", c.Long)
	}
	usage := familytest.Op(t, "folders", "create").Command(f).Flags().Lookup("type").Usage
	if !strings.Contains(usage, "{app|workflow|resource|agent|library}") || !strings.Contains(usage, "(required)") {
		t.Errorf("enum usage = %q", usage)
	}
	err := c.Args(c, nil)
	if !familytest.IsUsage(err) || !strings.Contains(err.Error(), "takes 1 argument(s): USER_ID, got 0") {
		t.Errorf("wrong argument count: %v", err)
	}
	c = familytest.Op(t, "users", "list").Command(f)
	if err := c.Args(c, []string{"x"}); err == nil || !strings.Contains(err.Error(), "takes no arguments, got 1") {
		t.Errorf("argument to a list: %v", err)
	}
}

func TestBuildBodyRefusesTrailingData(t *testing.T) {
	for _, tc := range []struct {
		op   *engine.Op
		body string
	}{
		{familytest.Op(t, "apps", "create"), `{"name":"a"} {"name":"b"}`},
		{familytest.Op(t, "apps", "create"), `{"name":"a"} trailing`},
		{familytest.Op(t, "users", "update"), `[{"op":"remove","path":"/a"}] ]`},
		{&engine.Op{Method: http.MethodPost, Path: "/bulk", Body: true}, `[1, 2] junk`},
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

// A workflow described with Facts gets the help lines and annotations a
// declared operation gets, from the same code.
func TestDescribeGivesAWorkflowTheOpsFacts(t *testing.T) {
	f := familytest.Factory(t)
	op := familytest.Op(t, "users", "delete").Command(f)
	c := &cobra.Command{Use: "offboard", Short: "Offboard a user", Long: "Does several things."}
	engine.Describe(c, engine.Facts{Method: http.MethodDelete, Path: "/users/{userId}", Scope: "Users > Write",
		Also: []string{"Groups > Write", "Permissions > Write"}, Requests: "one per step."})
	for _, k := range []string{"method", "path", "scope", "cost"} {
		if c.Annotations[k] != op.Annotations[k] {
			t.Errorf("annotation %s = %q, the op has %q", k, c.Annotations[k], op.Annotations[k])
		}
	}
	facts := op.Long[strings.Index(op.Long, "API:"):strings.Index(op.Long, "Cost:")]
	if !strings.Contains(c.Long, facts) {
		t.Errorf("help lacks the op's lines %q:\n%s", facts, c.Long)
	}
	for _, want := range []string{"Offboard a user\n\nDoes several things.\n\nAPI:", "        and Groups > Write, Permissions > Write\nCost:   2 points per request", "\n\nRequests: one per step."} {
		if !strings.Contains(c.Long, want) {
			t.Errorf("help lacks %q:\n%s", want, c.Long)
		}
	}
}
