package engine_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/bulkjob"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

// The engine finds a row's names for a --from job as it finds a command
// line's: the same names, stand-ins in their place until the lookups
// answer, then the ids; and the same refusal to delete a built-in object.
func TestEngineFindsAJobsNamesAsACommandLines(t *testing.T) {
	e, err := engine.New(familytest.Factory(t))
	if err != nil {
		t.Fatal(err)
	}
	var namer bulkjob.Namer = e
	op := familytest.Op(t, "groups", "delete")
	in := familytest.Input("orgctl groups delete", []string{"support"})
	rn := namer.Names(op, in)
	names := rn.List()
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
	members := namer.Names(add, familytest.Input("orgctl groups members add", []string{"support"}, "user", "1"))
	if ms := members.List(); len(ms) == 0 || ms[0].Text != "support" {
		t.Errorf("members add support: names %+v", ms)
	} else if err := members.Refuse(map[string]resolve.Object{ms[0].Stand: found[names[0].Stand]}); err != nil {
		t.Errorf("adding to a built-in group refused as if it deleted it: %v", err)
	}
	builtin := familytest.Input("orgctl groups delete", []string{kinds.BuiltinGroups[0]})
	if err := namer.Names(op, builtin).Refuse(nil); err == nil {
		t.Errorf("%s: not refused by its name", kinds.BuiltinGroups[0])
	}
	if s := namer.StandIn("users"); !resolve.LooksLikeID(kinds.Of("users"), s) {
		t.Errorf("stand-in %q is no user id", s)
	}
}
