package opdef_test

import (
	"testing"

	"github.com/orgctl/orgctl/cmd/engine/opdef"
)

func TestInference(t *testing.T) {
	op := opdef.Op{Path: "/groups/{groupId}/members/{userSid}", Args: opdef.Args{Params: []string{"groupId", "userSid"}}}
	if op.ArgKind(0) != "groups" || op.ArgKind(1) != "users" || op.ArgKind(2) != "" {
		t.Errorf("groups members remove: %q %q %q", op.ArgKind(0), op.ArgKind(1), op.ArgKind(2))
	}
	for path, want := range map[string]string{"/app_themes": "themes", "/user_attributes/{id}": "user-attributes",
		"/configuration_variables/{id}": "config-vars"} {
		op := opdef.Op{Path: path, Args: opdef.Args{Params: []string{"id"}}}
		if got := op.ArgKind(0); got != want {
			t.Errorf("%s {id}: %q, want %q", path, got, want)
		}
	}
	other := opdef.Op{Path: "/source_control/deployment/{id}", Args: opdef.Args{Params: []string{"id"}}}
	if other.ArgKind(0) != "" {
		t.Errorf("an {id} of a family without a kind inferred %q", other.ArgKind(0))
	}
	declared := opdef.Op{Path: "/users/{userId}", Args: opdef.Args{Params: []string{"userId"}, Complete: []string{opdef.NoCompletion}}}
	if declared.ArgKind(0) != opdef.NoCompletion {
		t.Errorf("ArgsComplete did not override inference: %q", declared.ArgKind(0))
	}
	for key, want := range map[string]string{"folder_id": "folders", "options.destination_space_id": "spaces", "email": "", "user": "users"} {
		fd := opdef.Field{Key: key}
		if got := fd.ObjectKind(); got != want {
			t.Errorf("Field{Key: %q}.ObjectKind() = %q, want %q", key, got, want)
		}
	}
	if fd := (opdef.Field{Key: "folder_id", Complete: "-"}); fd.ObjectKind() != opdef.NoCompletion {
		t.Errorf("Complete did not override inference")
	}
}
