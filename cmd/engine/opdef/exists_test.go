package opdef_test

import (
	"testing"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
)

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
	var all []kinds.Object
	for _, m := range raw {
		all = append(all, kinds.Object{ID: m["id"].(string), Key: k.KeyOfObject(m, raw), Fields: m})
	}
	c := &opdef.Call{Req: opdef.Req{Body: map[string]any{"folder_type": "app", "name": "Reports"}}}
	for _, o := range all {
		if got, want := opdef.FolderExists.Match(c, o, all), o.ID == "app_9"; got != want {
			t.Errorf("%s (%s): matches %v, want %v", o.ID, o.Key, got, want)
		}
	}
}
