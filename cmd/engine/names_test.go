package engine_test

import (
	"slices"
	"testing"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/engine/send"
	"github.com/orgctl/orgctl/cmd/families"
)

func TestNameRefsFollowKindBy(t *testing.T) {
	op := &opdef.Op{
		Args: opdef.Args{
			Params: []string{"objectType", "objectId"},
			KindBy: map[int]opdef.KindBy{1: {Arg: 0, Kinds: families.ObjectKinds}},
		},
		Fields: []opdef.Field{
			{Flag: "object-type", In: opdef.InLocal},
			{Flag: "object-id", In: opdef.InLocal, KindBy: &opdef.KindBy{Flag: "object-type", Kinds: families.ObjectKinds}},
		},
	}
	for _, tc := range []struct {
		args  []string
		flags map[string][]string
		want  []string // kind of each ref, in order
	}{
		{args: []string{"app", "Customer Lookup"}, want: []string{"apps"}},
		{args: []string{"folder", "app:/Finance"}, want: []string{"folders"}},
		{args: []string{"folder", "app_8"}},             // an id: no lookup
		{args: []string{"resource", "orders-postgres"}}, // the API takes the name
		{args: []string{"agent", "x"}},                  // no natural key
		{flags: map[string][]string{"object-type": {"workflow"}, "object-id": {"Nightly invoice sync"}}, want: []string{"workflows"}},
		{flags: map[string][]string{"object-id": {"Nightly invoice sync"}}}, // no type: no kind
	} {
		in := opdef.Input{Args: tc.args, Values: tc.flags}
		refs := send.Find(opdef.Alone(op), in).Refs
		var got []string
		for _, r := range refs {
			got = append(got, r.Kind.Name)
		}
		if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) {
			t.Errorf("args %q flags %v: refs of kinds %q, want %q", tc.args, tc.flags, got, tc.want)
		}
	}
}

func TestNearNames(t *testing.T) {
	groups := kinds.Of("groups")
	names := []string{"admin", "editor", "viewer", "All Users", "support", "supply"}
	for _, c := range []struct {
		typed string
		want  []string
	}{
		{"supprt", []string{"support", "supply"}}, // nearest first
		{"suppl", []string{"supply"}},
		{"viewers", []string{"viewer"}},
		{"zzzzzzzz", nil},
		{"Support", []string{"support"}}, // one edit: the case of a letter
	} {
		if got := send.NearNames(groups, c.typed, names); !slices.Equal(got, c.want) {
			t.Errorf("NearNames(%q) = %q, want %q", c.typed, got, c.want)
		}
	}
	users := kinds.Of("users")
	emails := []string{"admin@sandbox.example", "ana.viewer@sandbox.example", "dev.lee@sandbox.example"}
	if got := send.NearNames(users, "Ana.Viewr@sandbox.example", emails); !slices.Equal(got, []string{"ana.viewer@sandbox.example"}) {
		t.Errorf("emails fold case: got %q", got)
	}
}

// The object types whose names are looked up come from the registry: a
// resource's name the API takes itself.
func TestObjectTypeKinds(t *testing.T) {
	got := engine.ObjectTypeKinds()
	want := map[string]string{"folder": "folders", "app": "apps", "workflow": "workflows"}
	if len(got) != len(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for typ, k := range want {
		if got[typ] != k {
			t.Errorf("%s: got %q, want %q", typ, got[typ], k)
		}
	}
}
