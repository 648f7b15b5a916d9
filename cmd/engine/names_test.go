package engine_test

import (
	"slices"
	"testing"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families"
)

func TestNameRefsFollowKindBy(t *testing.T) {
	op := &engine.Op{
		Args:       []string{"objectType", "objectId"},
		ArgsKindBy: map[int]engine.KindBy{1: {Arg: 0, Kinds: families.ObjectKinds}},
		Fields: []engine.Field{
			{Flag: "object-type", In: engine.InLocal},
			{Flag: "object-id", In: engine.InLocal, KindBy: &engine.KindBy{Flag: "object-type", Kinds: families.ObjectKinds}},
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
		in := engine.Input{Args: tc.args, Values: tc.flags}
		refs := op.NameRefs(in)
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
	groups := kinds.ByName["groups"]
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
		if got := engine.NearNames(groups, c.typed, names); !slices.Equal(got, c.want) {
			t.Errorf("NearNames(%q) = %q, want %q", c.typed, got, c.want)
		}
	}
	users := kinds.ByName["users"]
	emails := []string{"admin@sandbox.example", "ana.viewer@sandbox.example", "dev.lee@sandbox.example"}
	if got := engine.NearNames(users, "Ana.Viewr@sandbox.example", emails); !slices.Equal(got, []string{"ana.viewer@sandbox.example"}) {
		t.Errorf("emails fold case: got %q", got)
	}
}

// A folder created without a parent goes under its type's root, not under
// personalRoot, which has no parent either: an existing folder there is
// the one the create would clash with.
func TestFolderExistsLooksUnderTheRootNotPersonalRoot(t *testing.T) {
	raw := []map[string]any{
		{"id": "app_1", "name": "root", "folder_type": "app", "parent_folder_id": nil, "is_system_folder": true},
		{"id": "app_3", "name": "personalRoot", "folder_type": "app", "parent_folder_id": nil, "is_system_folder": true},
		{"id": "app_7", "name": "Reports", "folder_type": "app", "parent_folder_id": "app_3"},
		{"id": "app_9", "name": "Reports", "folder_type": "app", "parent_folder_id": "app_1"},
	}
	k := kinds.Of("folders")
	var all []resolve.Object
	for _, m := range raw {
		all = append(all, resolve.Object{ID: m["id"].(string), Key: k.KeyOfObject(m, raw), Fields: m})
	}
	c := &engine.Call{Body: map[string]any{"folder_type": "app", "name": "Reports"}}
	for _, o := range all {
		if got, want := engine.FolderExists.Match(c, o, all), o.ID == "app_9"; got != want {
			t.Errorf("%s (%s): matches %v, want %v", o.ID, o.Key, got, want)
		}
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
