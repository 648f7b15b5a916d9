package families

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/engine"
)

// An access list says why each subject has access, with one list of each
// kind of name at most.
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
	c := &engine.Call{Params: map[string]string{"objectType": "app", "objectId": "x"}, Names: func(kind string) ([]resolve.Object, error) {
		calls[kind]++
		switch kind {
		case "groups":
			return []resolve.Object{{ID: "2", Key: "editor"}, {ID: "4", Key: "All Users"}}, nil
		case "users":
			return []resolve.Object{{ID: "user_a", Key: "a@example.com", Labels: []string{"Ada", "L"}}}, nil
		}
		return nil, errors.New("unexpected kind " + kind)
	}}
	p, out, errOut := printer("table")
	if err := accessListView(p, c, data); err != nil {
		t.Fatal(err)
	}
	want := "group\t2\teditor\tedit\tgranted directly\n" +
		"group\t4\tAll Users\tuse\tthe group's universal access level\n" +
		"user\tuser_a\ta@example.com (Ada L)\town\tmember of editor, group 9; inherited from folder app_7\n" +
		"user\tuser_b\t\tuse\ta group's universal access level\n" +
		"userInvite\t12\t\tuse\tgranted directly\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if calls["groups"] != 1 || calls["users"] != 1 || len(calls) != 2 {
		t.Errorf("name lists fetched: %v, want one per kind", calls)
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr: %s", errOut.String())
	}

	// Only groups in the answer: no user list is fetched.
	calls = map[string]int{}
	p, _, _ = printer("table")
	accessListView(p, c, json.RawMessage(`{"group":[{"subject":{"id":2,"type":"group"},"sources":{"direct":true},"accessLevel":"edit"}],"user":[]}`))
	if calls["users"] != 0 || calls["groups"] != 1 {
		t.Errorf("name lists fetched: %v", calls)
	}

	// -o json: the answer as received, and no names looked up.
	calls = map[string]int{}
	p, out, _ = printer("json")
	accessListView(p, c, data)
	if len(calls) != 0 || !strings.Contains(out.String(), `"accessLevel":"own"`) {
		t.Errorf("-o json: %v %s", calls, out.String())
	}
}
