package engine_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

// Every operation that removes something asks first, and says truthfully
// what happens in a question that formats with its arguments.
func TestDestructiveOpsAskTheirOwnQuestion(t *testing.T) {
	n := 0
	familytest.Each(func(path string, op *opdef.Placed) {
		verb := op.Name()
		removes := op.Method == http.MethodDelete || strings.HasPrefix(verb, "delete") || strings.HasPrefix(verb, "remove") ||
			verb == "revoke" || verb == "invalidate-sessions"
		if !removes {
			return
		}
		n++
		if !op.Destructive() {
			t.Errorf("%s removes something but does not ask for confirmation", path)
		}
		if op.Confirm.Question == "" {
			t.Errorf("%s asks the generic question; say what happens and whether it can be undone", path)
			return
		}
		objs := make([]any, len(op.Args.Params))
		for i := range objs {
			objs[i] = "OBJ" + string(rune('A'+i))
		}
		if op.Confirm.TypeToConfirm != nil {
			objs = []any{"NAME"}
		}
		q := engine.ConfirmQuestion(&opdef.Call{Op: op}, objs)
		if strings.Contains(q, "%!") {
			t.Errorf("%s: question does not format with its %d argument(s): %q", path, len(objs), q)
		}
		for _, o := range objs {
			if !strings.Contains(q, o.(string)) {
				t.Errorf("%s: question does not name %s: %q", path, o, q)
			}
		}
		if !strings.Contains(q, "cannot be undone") && !strings.Contains(q, "cannot be restored") && !strings.Contains(q, "'orgctl ") {
			t.Errorf("%s: question says neither that it cannot be undone nor how to undo it: %q", path, q)
		}
	})
	if n < 20 {
		t.Errorf("only %d destructive operations found", n)
	}
}

// Org-wide actions ask for a name to be typed, not y.
func TestOrgWideActionsAskToTypeTheName(t *testing.T) {
	for _, p := range [][]string{{"org", "invalidate-sessions"}, {"spaces", "delete"}} {
		if familytest.Op(t, p...).Confirm.TypeToConfirm == nil {
			t.Errorf("%s asks y/N; it should ask to type the name", strings.Join(p, " "))
		}
	}
}

// Every confirmation goes through the Factory's prompter: the test answers
// it, and nothing is read from stdin.
func TestConfirmationsGoThroughThePrompter(t *testing.T) {
	for _, yes := range []bool{false, true} {
		api, _ := clitest.SandboxEnv(t, sandbox.Options{})
		f, tio := clitest.Factory(t, &clitest.Keyring{}, "y\n")
		f.IO.InTTY, f.IO.ErrTTY = true, true
		p := &clitest.Prompter{Yes: yes}
		f.Prompter = p
		err := familytest.Run(f, "groups", "delete", "support")
		if len(p.Questions) != 1 || !strings.HasPrefix(p.Questions[0], "Delete group support? ") || strings.Contains(p.Questions[0], "[y/N]") {
			t.Fatalf("asked %q", p.Questions)
		}
		deleted := strings.Contains(strings.Join(clitest.Sent(api), "\n"), "DELETE /api/v2/groups/")
		switch {
		case yes && (err != nil || !deleted):
			t.Errorf("yes: err %v, deleted %v", err, deleted)
		case !yes && (!errors.Is(err, cli.ErrCancelled) || deleted):
			t.Errorf("no: err %v, deleted %v", err, deleted)
		}
		if strings.Contains(tio.Err.String(), "[y/N]") {
			t.Errorf("the terminal prompter asked too: %q", tio.Err.String())
		}
	}
}
