package access

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// An access list names each subject and says where its access comes from,
// with one list of each kind of name at most.
func TestAccessListNamesSubjectsAndSaysWhy(t *testing.T) {
	data := json.RawMessage(`{
	  "group": [
	    {"subject":{"id":2,"type":"group"},"sources":{"direct":true,"universal":false,"groups":[]},"accessLevel":"edit"},
	    {"subject":{"id":4,"type":"group"},"sources":{"direct":false,"universal":true,"groups":[]},"accessLevel":"use"}
	  ],
	  "user": [
	    {"subject":{"id":"user_a","type":"user"},"sources":{"direct":false,"universal":false,"groups":[{"id":2,"type":"group"},{"id":9,"type":"group"}],"inherited":{"id":"app_7","type":"folder"}},"accessLevel":"own"},
	    {"subject":{"id":"user_b","type":"user"},"sources":{"direct":false,"universal":true,"groups":[]},"accessLevel":"use"}
	  ],
	  "userInvite": [
	    {"subject":{"id":12,"type":"userInvite"},"sources":{"direct":true,"universal":false,"groups":[]},"accessLevel":"use"}
	  ]}`)
	calls := map[string]int{}
	names := func(kind string) ([]resolve.Object, error) {
		calls[kind]++
		switch kind {
		case "groups":
			return []resolve.Object{{ID: "2", Key: "editor"}, {ID: "4", Key: "All Users"}}, nil
		case "users":
			return []resolve.Object{{ID: "user_a", Key: "a@example.com", Labels: []string{"Ada", "L"}, Fields: map[string]any{"active": false}},
				{ID: "user_b", Key: "", Fields: map[string]any{"active": true}}}, nil
		case "folders":
			return []resolve.Object{{ID: "app_7", Key: "app:/Operations"}}, nil
		case "invites":
			return []resolve.Object{{ID: "12", Key: "new.hire@example.com"}}, nil
		}
		return nil, errors.New("unexpected kind " + kind)
	}
	c := &opdef.Call{Req: opdef.Req{Params: map[string]string{"objectType": "app", "objectId": "x"}},
		Given: opdef.Given{Local: map[string]any{"expand": true}}, Run: opdef.Run{Names: names}}
	p, out, errOut := printer("table")
	if err := ListView(p, c, data); err != nil {
		t.Fatal(err)
	}
	// a disabled user is marked ACTIVE false; an invite is named by its email
	want := "editor\tgroup\tedit\tdirect\t\n" +
		"All Users\tgroup\tuse\tuniversal\t\n" +
		"a@example.com\tuser\town\tmember of editor; member of 9; inherited from app:/Operations\tfalse\n" +
		"user_b\tuser\tuse\tuniversal\ttrue\n" +
		"new.hire@example.com\tinvite\tuse\tdirect\t\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if calls["groups"] != 1 || calls["users"] != 1 || calls["folders"] != 1 || calls["invites"] != 1 || len(calls) != 4 {
		t.Errorf("name lists fetched: %v, want one per kind", calls)
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr: %s", errOut.String())
	}

	// Without --expand, users reached only through groups are left out.
	c.Given.Local = nil
	p, out, _ = printer("table")
	ListView(p, c, data)
	if strings.Contains(out.String(), "user_b") || !strings.Contains(out.String(), "a@example.com") {
		t.Errorf("without --expand:\n%s", out.String())
	}

	// Only groups in the answer: no user list is fetched.
	calls = map[string]int{}
	p, _, _ = printer("table")
	ListView(p, c, json.RawMessage(`{"group":[{"subject":{"id":2,"type":"group"},"sources":{"direct":true},"accessLevel":"edit"}],"user":[]}`))
	if calls["users"] != 0 || calls["groups"] != 1 {
		t.Errorf("name lists fetched: %v", calls)
	}

	// -o json: the answer as received, and no names looked up.
	calls = map[string]int{}
	p, out, _ = printer("json")
	ListView(p, c, data)
	if len(calls) != 0 || !strings.Contains(out.String(), `"accessLevel":"own"`) {
		t.Errorf("-o json: %v %s", calls, out.String())
	}
}

// printer is a piped printer in a format, writing to buffers.
func printer(format string) (*output.Printer, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &output.Printer{IO: &output.IO{Out: &out, Err: &errOut}, Opts: output.Options{Format: format}}, &out, &errOut
}

func TestViaNamesEachSource(t *testing.T) {
	// VIA names each source: a user's universal group apart from a granted one.
	var lists map[string][]access.Entry
	json.Unmarshal([]byte(`{"group":[
		{"subject":{"id":"2","type":"group"},"sources":{"universal":true},"accessLevel":"edit"},
		{"subject":{"id":"3","type":"group"},"sources":{"universal":true,"inherited":{"id":"app_7","type":"folder"}},"accessLevel":"use"}],
	  "user":[{"subject":{"id":"user_a","type":"user"},"sources":{"direct":true,"groups":[{"id":"2","type":"group"},{"id":"3","type":"group"}]},"accessLevel":"edit"}]}`), &lists)
	groups := map[string]access.Entry{"2": lists["group"][0], "3": lists["group"][1]}
	n := &namer{c: &opdef.Call{}, names: map[string]map[string]string{"groups": {"2": "All Users", "3": "viewer"}, "folders": {"app_7": "app:/Operations"}}}
	if got := access.Via(lists["user"][0], groups, n); got != "direct; universal through All Users; member of viewer" {
		t.Errorf("user VIA = %q", got)
	}
	if got := access.Via(lists["group"][1], groups, n); got != "universal; inherited from app:/Operations" {
		t.Errorf("group VIA = %q", got)
	}
}
