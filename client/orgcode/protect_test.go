package orgcode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/ratebudget"
)

// listDoer answers each list with a fixed array, any other list with none.
type listDoer map[string]string

func (d listDoer) Do(_ context.Context, r client.Request) (*client.Response, error) {
	if a, ok := d[r.Path]; ok {
		return &client.Response{Data: json.RawMessage(a)}, nil
	}
	return &client.Response{Data: json.RawMessage("[]")}, nil
}

func (d listDoer) Pages(ctx context.Context, r client.Request, fn func(*client.Response) error) error {
	resp, _ := d.Do(ctx, r)
	return fn(resp)
}

// Prune over a directory that holds one group and no folder plans no
// delete of a built-in group, nor of a system or personal folder, and
// names the built-in groups as kept.
func TestPruneLeavesWhatTheOrgCannotDoWithout(t *testing.T) {
	d := listDoer{
		"/groups": `[{"id":1,"name":"admin","members":[]},{"id":4,"name":"All Users","members":[]},
			{"id":6,"name":"support","members":[]},{"id":7,"name":"stray","members":[]}]`,
		"/folders": `[{"id":"app_1","name":"root","parent_folder_id":null,"is_system_folder":true,"folder_type":"app"},
			{"id":"app_2","name":"archive","parent_folder_id":"app_1","is_system_folder":true,"folder_type":"app"},
			{"id":"app_3","name":"personalRoot","parent_folder_id":null,"is_system_folder":true,"folder_type":"app"},
			{"id":"app_7","name":"(1) Ada's Drafts","parent_folder_id":"app_3","is_system_folder":true,"folder_type":"app"},
			{"id":"app_8","name":"Notes","parent_folder_id":"app_7","is_system_folder":false,"folder_type":"app"},
			{"id":"app_9","name":"Old","parent_folder_id":"app_1","is_system_folder":false,"folder_type":"app"}]`,
	}
	files := &Files{Docs: map[string][]*Doc{"groups": {{Kind: KindNamed("groups"), Key: "support", Fields: map[string]any{}}}},
		Kinds: map[string]bool{"groups": true, "folders": true}}
	r, err := ReadingFor(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	live, err := ReadLive(context.Background(), d, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := Diff(files, live, r, true, ratebudget.DefaultConfig())
	deleted := map[string]bool{}
	for _, c := range p.Changes {
		if c.Action == Delete {
			deleted[c.Kind+" "+c.Key] = true
		}
	}
	want := map[string]bool{"groups stray": true, "folders app:/Old": true}
	if len(deleted) != len(want) || !deleted["groups stray"] || !deleted["folders app:/Old"] {
		t.Errorf("prune deletes %v, want %v", deleted, want)
	}
	notes := map[string]string{}
	for _, u := range p.Unmanaged {
		notes[u.Key] = u.Note
	}
	if notes["admin"] != NoteBuiltin || notes["All Users"] != NoteBuiltin || notes["stray"] != "" {
		t.Errorf("unmanaged notes %v", notes)
	}
	for _, path := range []string{"app:/", "app:/archive", "app:~/", "app:~/(1) Ada's Drafts", "app:~/(1) Ada's Drafts/Notes"} {
		if _, ok := live.SystemFolders[path]; !ok {
			t.Errorf("%s is not kept as a folder org as code refers to but does not manage", path)
		}
	}
}

// A file that declares a system folder is refused, not planned as a create.
func TestFilesCannotManageASystemFolder(t *testing.T) {
	d := listDoer{"/folders": `[{"id":"app_1","name":"root","parent_folder_id":null,"is_system_folder":true,"folder_type":"app"},
		{"id":"app_2","name":"archive","parent_folder_id":"app_1","is_system_folder":true,"folder_type":"app"}]`}
	files := &Files{Docs: map[string][]*Doc{"folders": {{Kind: KindNamed("folders"), Key: "app:/archive", File: "folders/app/archive.yaml", Line: 1}}},
		Kinds: map[string]bool{"folders": true}}
	r, err := ReadingFor(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The live read checks the files' references before it reads access
	// lists, so the refusal comes from the read itself.
	_, err = ReadLive(context.Background(), d, r, nil)
	if err == nil || !strings.Contains(err.Error(), `folder "app:/archive" is a system folder`) {
		t.Errorf("ReadLive: %v", err)
	}
}
