package orgcode

import (
	"slices"
	"testing"
)

func TestPlanNamesTheUsersItTakesAdminRightsFrom(t *testing.T) {
	admin := &Doc{Key: "a@x", Fields: map[string]any{"admin": true, "active": true}}
	member := &Doc{Key: "m@x", Fields: map[string]any{"admin": false, "active": true}}
	p := &Plan{Changes: []Change{
		{Kind: "users", Key: "a@x", Action: Delete, live: admin},
		{Kind: "users", Key: "m@x", Action: Delete, live: member},
		{Kind: "users", Key: "off@x", Action: Update, Fields: []FieldChange{{Field: "active", Old: true, HasOld: true, New: false, HasNew: true}}},
		{Kind: "users", Key: "on@x", Action: Update, Fields: []FieldChange{{Field: "active", Old: false, HasOld: true, New: true, HasNew: true}}},
		{Kind: "users", Key: "demoted@x", Action: Update, Fields: []FieldChange{{Field: "admin", Old: true, HasOld: true, New: false, HasNew: true}}},
		{Kind: "groups", Key: "admin", Action: Update, Fields: []FieldChange{
			{Field: "members.out@x", Old: "member", HasOld: true},
			{Field: "members.in@x", New: "member", HasNew: true},
		}},
	}}
	if got, want := p.DisabledUsers(), []string{"a@x", "m@x", "off@x"}; !slices.Equal(got, want) {
		t.Errorf("DisabledUsers = %v, want %v", got, want)
	}
	if got, want := p.DisabledAdmins(), []string{"a@x"}; !slices.Equal(got, want) {
		t.Errorf("DisabledAdmins = %v, want %v", got, want)
	}
	removed, added := p.AdminChanges()
	if want := []string{"demoted@x", "out@x"}; !slices.Equal(removed, want) {
		t.Errorf("AdminChanges removed = %v, want %v", removed, want)
	}
	if want := []string{"in@x"}; !slices.Equal(added, want) {
		t.Errorf("AdminChanges added = %v, want %v", added, want)
	}
}
