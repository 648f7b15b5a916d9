package orgcode

import (
	"context"
	"testing"
)

func TestGroupsReadTheUsersAndAppsListsOnlyWhenNeeded(t *testing.T) {
	f, err := ReadDir(context.Background(), writeFiles(t, map[string]string{
		"groups/ops.yaml": "name: ops\nmembers:\n  Ada@x.example: admin\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReadingFor(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.reads("groups") || r.reads("users") || r.reads("apps") {
		t.Fatalf("a groups directory reads %v up front, want groups alone", r.lists)
	}
	group := func(landing string, members ...map[string]any) map[string][]map[string]any {
		ms := []any{}
		for _, m := range members {
			ms = append(ms, m)
		}
		return map[string][]map[string]any{"groups": {{"name": "all", "members": ms, "landing_page_app_id": landing}}}
	}
	ada := map[string]any{"id": "user_1", "email": "ada@x.example"}
	if raw := group("", ada); r.wants("users", raw) || r.wants("apps", raw) {
		t.Error("every member shown by a group, no landing page: no more lists")
	}
	if raw := group("", map[string]any{"id": "user_2", "email": "bo@x.example"}); !r.wants("users", raw) {
		t.Error("a member no group shows: the users list, for its id")
	}
	if raw := group("", ada, map[string]any{"id": "user_3"}); !r.wants("users", raw) {
		t.Error("a member shown by id alone: the users list, for its email")
	}
	if raw := group("app_1", ada); !r.wants("apps", raw) {
		t.Error("a landing page set: the apps list, for its name")
	}
}
