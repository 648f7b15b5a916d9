package engine_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

// A command line that names objects is built once, with stand-ins, and
// sent with the ids the lookups found: the op's Shape runs once, and the
// request goes to the group found, with the user found in its body.
func TestNamesAreBoundIntoTheOneBuiltCall(t *testing.T) {
	f, _, _, api := clitest.SandboxFactory(t, "json")
	op := familytest.Op(t, "groups", "members", "add")
	shapes := 0
	shape := op.Hooks.Shape
	op.Hooks.Shape = func(c *opdef.Call) error {
		shapes++
		if shape == nil {
			return nil
		}
		return shape(c)
	}
	if err := clitest.Execute(f, engine.Command(op, f), "support", "--user", "dev.lee@sandbox.example"); err != nil {
		t.Fatal(err)
	}
	if shapes != 1 {
		t.Errorf("the call was shaped %d times, want once", shapes)
	}
	sent := clitest.Sent(api)
	i := slices.IndexFunc(sent, func(r string) bool { return strings.HasPrefix(r, "POST /api/v2/groups/") })
	if i < 0 {
		t.Fatalf("no POST to a group's members among %v", sent)
	}
	group := strings.TrimSuffix(strings.TrimPrefix(sent[i], "POST /api/v2/groups/"), "/members")
	if group == "" || strings.Contains(group, "9000000") {
		t.Errorf("sent to group %q, want the id found for support", group)
	}
	var body string
	for _, r := range api.Requests() {
		if r.Method == "POST" {
			body = string(r.Body)
		}
	}
	if strings.Contains(body, "resolve") || !strings.Contains(body, `"user_`) {
		t.Errorf("body %s, want the id found for dev.lee@sandbox.example", body)
	}
}
