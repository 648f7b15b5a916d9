package spec

import (
	"reflect"
	"testing"
)

func TestDataFieldsFollowThePublishedResponse(t *testing.T) {
	user := []string{"id", "legacy_id", "email", "active", "created_at", "last_active", "first_name", "last_name", "metadata", "is_admin", "user_type", "seat_type", "two_factor_auth_enabled"}
	// One user's answer adds the groups it is in.
	withGroups := append(append([]string{}, user...), "groups")
	for _, path := range []string{"/users/{userId}", "/users/{id}", "/users/:x/"} {
		if got := DataFields("GET", path); !reflect.DeepEqual(got, withGroups) {
			t.Errorf("GET %s: %v", path, got)
		}
	}
	// A list offers one item's fields.
	if got := DataFields("GET", "/users"); !reflect.DeepEqual(got, user) {
		t.Errorf("GET /users: %v", got)
	}
	// The spec writes this path with a colon parameter.
	if got := DataFields("GET", "/access_tokens/{accessTokenId}"); len(got) == 0 || got[0] != "id" {
		t.Errorf("GET /access_tokens/{id}: %v", got)
	}
	if got := DataFields("GET", "/no/such/path"); got != nil {
		t.Errorf("unknown path: %v", got)
	}
	if got := DataFields("DELETE", "/users/{userId}"); got != nil {
		t.Errorf("a 204 has no fields: %v", got)
	}
}
