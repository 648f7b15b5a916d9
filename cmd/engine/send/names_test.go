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

// An object given by id is a guard where the call deletes it (or changes
// it, for a kind whose protected objects are fixed): its object, once
// found, is refused as its name would be; elsewhere an id is no guard.
func TestGuardsRefuseByID(t *testing.T) {
	del := send.Find(familytest.Op(t, "groups", "delete"), familytest.Input("orgctl groups delete", []string{"1"}))
	if len(del.Refs) != 0 || len(del.Guards) != 1 || !del.Guards[0].ByID || del.Guards[0].Text != "1" {
		t.Fatalf("groups delete 1: refs %+v, guards %+v", del.Refs, del.Guards)
	}
	if err := del.Refuse(nil); err != nil {
		t.Errorf("refused before its object was found: %v", err)
	}
	admin := resolve.Object{ID: "1", Key: "admin", Protected: `"admin" is a built-in group every org has`}
	if err := del.Refuse(map[string]resolve.Object{del.Guards[0].Stand: admin}); err == nil ||
		!strings.Contains(err.Error(), "refusing to delete group 1 (admin)") {
		t.Errorf("the admin group by id: %v", err)
	}
	if err := del.Refuse(map[string]resolve.Object{del.Guards[0].Stand: {ID: "1", Key: "support"}}); err != nil {
		t.Errorf("an ordinary group by id: %v", err)
	}
	move := send.Find(familytest.Op(t, "folders", "update"), familytest.Input("orgctl folders update", []string{"app_1"}, "parent", "app_3"))
	if len(move.Guards) != 1 || move.Guards[0].Text != "app_1" {
		t.Fatalf("folders update app_1 --parent app_3: guards %+v", move.Guards)
	}
	root := resolve.Object{ID: "app_1", Key: "app:/", Protected: "it is a system folder"}
	if err := move.Refuse(map[string]resolve.Object{move.Guards[0].Stand: root}); err == nil || !strings.Contains(err.Error(), "refusing to change folder app_1 (app:/)") {
		t.Errorf("moving the root: %v", err)
	}
	for _, c := range [][]string{{"groups", "update"}, {"groups", "members", "add"}, {"users", "delete"}} {
		in := familytest.Input("orgctl "+strings.Join(c, " "), []string{"1"})
		if c[0] == "users" {
			in = familytest.Input("orgctl users delete", []string{"user_0000000000000000005a4d0000000004"})
		}
		if f := send.Find(familytest.Op(t, c...), in); len(f.Guards) != 0 {
			t.Errorf("%v: guards %+v", c, f.Guards)
		}
	}
}
