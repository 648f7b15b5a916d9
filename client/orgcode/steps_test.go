package orgcode

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/ratebudget"
)

// What each user change sends: the API's field names, admin after the
// create (which takes no admin flag), attributes entry by entry as JSON
// Patch with their names escaped, a delete that disables.
func TestUserSteps(t *testing.T) {
	users := KindNamed("users")
	live := liveOf(&Doc{Kind: users, Key: "ada@x.example", ID: "user_1", Fields: map[string]any{
		"first_name": "Ada", "admin": false, "active": true, "attributes": map[string]any{"team/a": "x", "old": "y"}}},
		&Doc{Kind: users, Key: "bo@x.example", ID: "user_2", Fields: map[string]any{"active": true}})
	f := readFiles(t, map[string]string{
		"users/ada.yaml": "email: ada@x.example\nfirst_name: Ada L\nadmin: true\nattributes:\n  team/a: z\n  new~1: w\n",
		"users/new.yaml": "email: new@x.example\nfirst_name: N\nadmin: true\nattributes:\n  team: t\n",
	})
	p := Diff(f, live, Everything(), true, ratebudget.DefaultConfig())
	live.setID("users", "new@x.example", "user_9") // as the create's answer would
	var got []string
	for _, s := range p.Steps {
		req, err := s.Request(live)
		if err != nil {
			t.Fatalf("%s: %v", s.Describe(), err)
		}
		body, _ := json.Marshal(req.Body)
		got = append(got, s.Describe()+" | "+req.Method+" "+req.Path+" "+string(body))
	}
	// one phase for both users (in the changes' order), the admin after
	want := []string{
		`update users ada@x.example | PATCH /users/user_1 {"operations":[{"op":"replace","path":"/first_name","value":"Ada L"},{"op":"replace","path":"/is_admin","value":true},` +
			`{"op":"add","path":"/metadata/new~01","value":"w"},{"op":"remove","path":"/metadata/old"},{"op":"add","path":"/metadata/team~1a","value":"z"}]}`,
		`create users new@x.example | POST /users {"email":"new@x.example","first_name":"N","metadata":{"team":"t"}}`,
		`make admin users new@x.example | PATCH /users/user_9 {"operations":[{"op":"replace","path":"/is_admin","value":true}]}`,
		`disable users bo@x.example | DELETE /users/user_2 null`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p.Requests != len(want) || p.Points == 0 || p.Time < 0 {
		t.Errorf("priced %d requests, %d points", p.Requests, p.Points)
	}
	// a step asked before what it needs exists says so
	fresh := liveOf(&Doc{Kind: users, Key: "bo@x.example", ID: "user_2", Fields: map[string]any{"active": true}})
	for _, s := range p.Steps {
		if s.What == "make admin" {
			if _, err := s.Request(fresh); err == nil {
				t.Error("making an admin of a user not yet created asked nothing of its id")
			}
		}
	}
}

// A user already disabled is not disabled again, and a plan without prune
// deletes nothing.
func TestDeletesOnlyWithPruneAndOnlyWhatChanges(t *testing.T) {
	users := KindNamed("users")
	live := liveOf(&Doc{Kind: users, Key: "gone@x", ID: "u1", Fields: map[string]any{"active": false}, Inactive: true},
		&Doc{Kind: users, Key: "bo@x", ID: "u2", Fields: map[string]any{"active": true}})
	f := readFiles(t, map[string]string{"users/a.yaml": "email: a@x\n"})
	if p := Diff(f, live, Everything(), false, ratebudget.DefaultConfig()); len(p.Changes) != 1 || p.Changes[0].Action != Create || len(p.Unmanaged) != 2 {
		t.Errorf("without prune: %v, unmanaged %v", changeLines(p), p.Unmanaged)
	}
	p := Diff(f, live, Everything(), true, ratebudget.DefaultConfig())
	if got := changeLines(p); strings.Join(got, ",") != "create users a@x,delete users bo@x" {
		t.Errorf("with prune: %v", got)
	}
	if got := p.DisabledUsers(); len(got) != 1 || got[0] != "bo@x" {
		t.Errorf("disabled %v", got)
	}
}

// What a group's changes send: its own fields in one patch (a landing page
// by its app's id, looked up when the step runs), the members who join or
// change role in one request, one removal per member who leaves.
func TestGroupSteps(t *testing.T) {
	users, groups := KindNamed("users"), KindNamed("groups")
	live := liveOf(
		&Doc{Kind: users, Key: "ada@x", ID: "u1", Fields: map[string]any{}},
		&Doc{Kind: users, Key: "bo@x", ID: "u2", Fields: map[string]any{}},
		&Doc{Kind: users, Key: "cy@x", ID: "u3", Fields: map[string]any{}},
		&Doc{Kind: groups, Key: "ops", ID: "7", Fields: map[string]any{"universal_app_access": "use", "landing_page_app": nil,
			"members": map[string]any{"ada@x": "member", "bo@x": "member"}}},
	)
	live.Apps["Lookup"] = "app_1"
	f := readFiles(t, map[string]string{
		"groups/ops.yaml": "name: ops\nuniversal_app_access: edit\nlanding_page_app: Lookup\nmembers:\n  ada@x: admin\n  cy@x: member\n",
		"groups/new.yaml": "name: new\nmembers:\n  cy@x: admin\n",
	})
	r, _ := ReadingFor(f, nil)
	p := Diff(f, live, r, false, ratebudget.DefaultConfig())
	var got []string
	for _, s := range p.Steps {
		req, err := s.Request(live)
		if err != nil {
			t.Fatalf("%s: %v", s.Describe(), err)
		}
		body, _ := json.Marshal(req.Body)
		got = append(got, s.Sentence()+" | "+req.Method+" "+req.Path+" "+string(body))
	}
	want := []string{
		`Created group new | POST /groups {"members":[{"id":"u3","is_group_admin":true}],"name":"new"}`,
		`Updated group ops | PATCH /groups/7 {"operations":[{"op":"replace","path":"/universal_app_access","value":"edit"},{"op":"replace","path":"/landing_page_app_id","value":"app_1"}]}`,
		`Added members to group ops | POST /groups/7/members {"members":[{"id":"u1","is_group_admin":true},{"id":"u3","is_group_admin":false}]}`,
		`Removed bo@x from group ops | DELETE /groups/7/members/u2 null`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// the app gone by the time the step runs: the step says so, sends nothing
	delete(live.Apps, "Lookup")
	for _, s := range p.Steps {
		if s.What == "update" {
			if _, err := s.Request(live); err == nil || !strings.Contains(err.Error(), `no app named "Lookup"`) {
				t.Errorf("landing page of a gone app: %v", err)
			}
		}
	}
}
