package engine_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/families/familytest"
	"github.com/spf13/cobra"
)

// parsed runs the parse phase on a command line of op's cobra command.
func parsed(t *testing.T, op *opdef.Placed, argv ...string) (opdef.Input, engine.RunOptions) {
	t.Helper()
	f := familytest.Factory(t)
	c := engine.Command(op, f)
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
	if got := familytest.JSON(t, c.Req.Body["values"]); got != `[{"environment_id":"env1","value":"a,b"},{"environment_id":"env2","value":"c"}]` {
		t.Errorf("--value keeps commas: %s", got)
	}

	op = familytest.Op(t, "user-tasks", "list")
	input, _ = parsed(t, op, "--status", "pending,expired", "--status", "submitted", "--limit", "20", "--all")
	if input.Limit == nil || *input.Limit != "20" || !input.All {
		t.Errorf("limit %v all %v", input.Limit, input.All)
	}
	c = familytest.Build(t, op, input)
	if got := c.Req.Query.Get("statuses"); got != "pending,expired,submitted" {
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
	c := engine.Command(familytest.Op(t, "users", "list"), f)
	for _, flag := range []string{"limit", "all", "email"} {
		if c.Flags().Lookup(flag) == nil {
			t.Errorf("users list has no --%s", flag)
		}
	}
	if c.Flags().Lookup("dry-run") != nil || c.Flags().Lookup("yes") != nil {
		t.Error("a read offers --dry-run or --yes")
	}
	c = engine.Command(familytest.Op(t, "users", "delete"), f)
	if c.Flags().Lookup("dry-run") == nil || c.Flags().ShorthandLookup("y") == nil {
		t.Error("delete lacks --dry-run or -y")
	}
	if c.Annotations["method"] != http.MethodDelete || c.Annotations["path"] != "/users/{userId}" || c.Annotations["scope"] != "Users > Write" {
		t.Errorf("annotations = %v", c.Annotations)
	}
	if !strings.Contains(c.Long, "API:    DELETE /api/v2/users/{userId}") || !strings.Contains(c.Long, "points per request") {
		t.Errorf("help = %q", c.Long)
	}
	usage := engine.Command(familytest.Op(t, "folders", "create"), f).Flags().Lookup("type").Usage
	if !strings.Contains(usage, "{app|workflow|resource|agent|library}") || !strings.Contains(usage, "(required)") {
		t.Errorf("enum usage = %q", usage)
	}
	err := c.Args(c, nil)
	if !clitest.IsUsage(err) || !strings.Contains(err.Error(), "takes 1 argument(s): USER_ID, got 0") {
		t.Errorf("wrong argument count: %v", err)
	}
	c = engine.Command(familytest.Op(t, "users", "list"), f)
	if err := c.Args(c, []string{"x"}); err == nil || !strings.Contains(err.Error(), "takes no arguments, got 1") {
		t.Errorf("argument to a list: %v", err)
	}
}

// A workflow described with Facts gets the help lines and annotations a
// declared operation gets, from the same code.
func TestDescribeGivesAWorkflowTheOpsFacts(t *testing.T) {
	f := familytest.Factory(t)
	op := engine.Command(familytest.Op(t, "users", "delete"), f)
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
