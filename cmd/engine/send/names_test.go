package send_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/engine/send"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

// The names of an input, for a command line and a --from job's row alike:
// stand-ins in their place until the lookups answer, then the ids; and the
// refusal to delete a built-in object, by its name or by what the lookup
// found.
func TestFindNamesFillsAndRefuses(t *testing.T) {
	op := familytest.Op(t, "groups", "delete")
	in := familytest.Input("orgctl groups delete", []string{"support"})
	rn := send.Find(op, in)
	names := rn.Refs
	if len(names) != 1 || names[0].Text != "support" || names[0].Kind.Name != "groups" || names[0].Stand == "" {
		t.Fatalf("names %+v", names)
	}
	if got := rn.Fill(nil); !reflect.DeepEqual(got.Args, []string{names[0].Stand}) {
		t.Errorf("filled with stand-ins: %q", got.Args)
	}
	if got := rn.Fill(map[string]string{names[0].Stand: "42"}); !reflect.DeepEqual(got.Args, []string{"42"}) || in.Args[0] != "support" {
		t.Errorf("filled with ids: %q (the row's own input: %q)", got.Args, in.Args)
	}
	if err := rn.Refuse(nil); err != nil {
		t.Errorf("support refused: %v", err)
	}
	found := map[string]resolve.Object{names[0].Stand: {ID: "42", Key: "support", Protected: "a built-in group"}}
	if err := rn.Refuse(found); err == nil || !strings.Contains(err.Error(), "refusing to delete group support") {
		t.Errorf("a built-in group found by its lookup: %v", err)
	}
	add := familytest.Op(t, "groups", "members", "add")
	members := send.Find(add, familytest.Input("orgctl groups members add", []string{"support"}, "user", "1"))
	if ms := members.Refs; len(ms) == 0 || ms[0].Text != "support" {
		t.Errorf("members add support: names %+v", ms)
	} else if err := members.Refuse(map[string]resolve.Object{ms[0].Stand: found[names[0].Stand]}); err != nil {
		t.Errorf("adding to a built-in group refused as if it deleted it: %v", err)
	}
	builtin := familytest.Input("orgctl groups delete", []string{kinds.BuiltinGroups[0]})
	if err := send.Find(op, builtin).Refuse(nil); err == nil {
		t.Errorf("%s: not refused by its name", kinds.BuiltinGroups[0])
	}
	if s := send.StandIn("users"); !resolve.LooksLikeID(kinds.Of("users"), s) {
		t.Errorf("stand-in %q is no user id", s)
	}
}
