package access

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/request"
)

// The requests that take an admin out of office, however they were built.
func TestTakesAdminTellsTheRequestsThatDisableDeleteOrDemote(t *testing.T) {
	ops := func(s string) map[string]any { return map[string]any{"operations": json.RawMessage(s)} }
	for _, tc := range []struct {
		r    request.Request
		want string
	}{
		{request.Request{Method: "DELETE", Path: "/users/user_1"}, "user_1"},
		{request.Request{Method: "PATCH", Path: "/users/user_1", Body: ops(`[{"op":"replace","path":"/active","value":false}]`)}, "user_1"},
		{request.Request{Method: "PATCH", Path: "/users/user_1", Body: ops(`[{"op":"replace","path":"/is_admin","value":false}]`)}, "user_1"},
		{request.Request{Method: "PATCH", Path: "/users/user_1", Body: []byte(`{"operations":[{"op":"remove","path":"/is_admin"}]}`)}, "user_1"},
		{request.Request{Method: "PATCH", Path: "/users/user_1", Body: ops(`[{"op":"replace","path":"/is_admin","value":true}]`)}, ""},
		{request.Request{Method: "PATCH", Path: "/users/user_1", Body: ops(`[{"op":"replace","path":"/first_name","value":"false"}]`)}, ""},
		{request.Request{Method: "DELETE", Path: "/users/user_1/user_attributes/x"}, ""},
		{request.Request{Method: "DELETE", Path: "/groups/3"}, ""},
		{request.Request{Method: "GET", Path: "/users/user_1"}, ""},
	} {
		if got := TakesAdmin(tc.r); got != tc.want {
			t.Errorf("%s %s %v: %q, want %q", tc.r.Method, tc.r.Path, tc.r.Body, got, tc.want)
		}
	}
}

func TestRefuseLosingAdminsKeepsOneActiveAdminAndTheTokensOwner(t *testing.T) {
	org := &Org{Users: []User{
		{ID: "u1", Email: "a@x", Active: true, IsAdmin: true, LegacyID: json.RawMessage("1")},
		{ID: "u2", Email: "b@x", Active: true, IsAdmin: true, LegacyID: json.RawMessage("2")},
		{ID: "u3", Email: "c@x", Active: true, LegacyID: json.RawMessage("3")},
		{ID: "u4", Email: "d@x", IsAdmin: true, LegacyID: json.RawMessage("4")}, // disabled: no admin
	}}
	u := func(i int) *User { return &org.Users[i] }
	for _, tc := range []struct {
		users []*User
		owner string
		want  string // "" for allowed
	}{
		{[]*User{u(1)}, "", ""},
		{[]*User{u(1)}, "1", ""},
		{[]*User{u(0)}, "1", "refusing to demote a@x: the API token in use is this user's"},
		{[]*User{u(0), u(1)}, "", "refusing to demote a@x, b@x: the org's last active admins"},
		{[]*User{u(2)}, "3", "the API token in use is this user's"},
		{[]*User{u(3)}, "", ""},
	} {
		err := org.RefuseLosingAdmins("demote", tc.users, tc.owner)
		var le *LockoutError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: refused: %v", tc.users, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &le)):
			t.Errorf("%v: %v, want a LockoutError saying %q", tc.users, err, tc.want)
		}
	}
	one := &Org{Users: []User{{ID: "u1", Email: "a@x", Active: true, IsAdmin: true}}}
	if err := one.RefuseLosingAdmins("disable", []*User{&one.Users[0]}, ""); err == nil || !strings.Contains(err.Error(), "refusing to disable a@x: the org's last active admin;") {
		t.Errorf("last admin: %v", err)
	}
}
