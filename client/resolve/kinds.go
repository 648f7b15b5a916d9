package resolve

import (
	"strconv"
	"strings"
)

// Kind says how objects of one kind are named and found.
type Kind struct {
	// Name is the kind's name ("users"), as commands and files use it.
	Name string
	// List is the endpoint that lists every object of the kind, in one
	// request when sent without a limit.
	List  string
	Scope string
	// Key is the field holding the natural key ("email"); ignored when
	// KeyOf is set.
	Key string
	// KeyOf derives the natural key of an object from the whole list
	// (folders: the path through their parents).
	KeyOf func(obj map[string]any, all []map[string]any) string
	// Filter is the list's query parameter that selects by key ("email"),
	// so one key costs one small request instead of the whole list.
	Filter string
	// Fold compares keys without regard to case (emails).
	Fold bool
	// IsID reports text that is already an id of this kind.
	IsID func(s string) bool
	// Label are fields shown beside candidates ("first_name", ...).
	Label []string
	// Get reads one object by id ("/users/{id}"); "" when the API has no
	// such endpoint or the key needs the whole list (folder paths).
	Get string
}

// The id shapes are checked by hand: a regexp compiled at package init
// would cost every command's start-up.

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isHex(c) {
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isUserID matches the API's user ids: "user_" and letters or digits.
func isUserID(s string) bool {
	rest, ok := strings.CutPrefix(s, "user_")
	if !ok || rest == "" {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// isFolderID matches the API's folder ids: a lower-case type, "_", digits.
func isFolderID(s string) bool {
	typ, num, ok := strings.Cut(s, "_")
	if !ok || typ == "" || num == "" {
		return false
	}
	for i := 0; i < len(typ); i++ {
		if typ[i] < 'a' || typ[i] > 'z' {
			return false
		}
	}
	for i := 0; i < len(num); i++ {
		if num[i] < '0' || num[i] > '9' {
			return false
		}
	}
	return true
}

// isSpaceID matches the API's Space ids: "org_" and 32 hex digits. A
// UUID is taken too, as older Spaces and some recordings carry them.
func isSpaceID(s string) bool {
	rest, ok := strings.CutPrefix(s, "org_")
	if !ok {
		return isUUID(s)
	}
	if len(rest) != 32 {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if !isHex(rest[i]) {
			return false
		}
	}
	return true
}

func isNumber(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// Kinds are every kind whose objects have a unique human name in the API.
var Kinds = map[string]Kind{
	"users": {Name: "users", List: "/users", Scope: "Users > Read", Key: "email", Filter: "email", Fold: true,
		IsID: isUserID, Label: []string{"first_name", "last_name"}, Get: "/users/{id}"},
	"groups": {Name: "groups", List: "/groups", Scope: "Groups > Read", Key: "name", IsID: isNumber, Get: "/groups/{id}"},
	"folders": {Name: "folders", List: "/folders", Scope: "Folders > Read", KeyOf: FolderPath,
		IsID: isFolderID, Label: []string{"folder_type"}},
	"apps": {Name: "apps", List: "/apps", Scope: "Apps > Read", Key: "name", IsID: isUUID, Label: []string{"folder_id"},
		Get: "/apps/{id}"},
	"workflows": {Name: "workflows", List: "/workflows", Scope: "Workflows > Read", Key: "name", IsID: isUUID, Get: "/workflows/{id}"},
	"resources": {Name: "resources", List: "/resources", Scope: "Resources > Read", Key: "display_name", IsID: isUUID,
		Label: []string{"type"}, Get: "/resources/{id}"},
	"environments": {Name: "environments", List: "/environments", Scope: "Environment > Read", Key: "name", IsID: isUUID,
		Get: "/environments/{id}"},
	"themes": {Name: "themes", List: "/app_themes", Scope: "App Themes > Read", Key: "name", IsID: isNumber, Get: "/app_themes/{id}"},
	"spaces": {Name: "spaces", List: "/spaces", Scope: "Spaces > Read", Key: "name", IsID: isSpaceID, Label: []string{"domain"},
		Get: "/spaces/{id}"},
	"user-attributes": {Name: "user-attributes", List: "/user_attributes", Scope: "User Attributes > Read", Key: "name", IsID: isUUID},
	"config-vars": {Name: "config-vars", List: "/configuration_variables", Scope: "Configuration Variables > Read", Key: "name",
		IsID: isUUID, Get: "/configuration_variables/{id}"},
	"roles": {Name: "roles", List: "/role_permissions/roles", Scope: "Permissions > Read", Key: "name", IsID: isUUID},
	"custom-components": {Name: "custom-components", List: "/custom_component_libraries", Scope: "CustomComponent > Read",
		Key: "name", IsID: isUUID},
	// Invites are named by the invitee's email; a claimed invite stays listed,
	// so an email can match two (the candidates then show which).
	"invites": {Name: "invites", List: "/user_invites", Scope: "Users > Read", Key: "invited_email", Fold: true, IsID: isNumber,
		Label: []string{"claimed_by"}, Get: "/user_invites/{id}"},
}

// FolderPath is a folder's natural key: its type and the names from the
// root's child down ("app:/Finance/Reports"); the root itself is "app:/".
// A "/" inside a name is written "\/" so the path splits unambiguously.
func FolderPath(obj map[string]any, all []map[string]any) string {
	byID := make(map[string]map[string]any, len(all))
	for _, o := range all {
		if id, ok := o["id"].(string); ok {
			byID[id] = o
		}
	}
	var names []string
	cur := obj
	for range len(all) + 1 { // a cycle in the data must not loop forever
		parent, _ := cur["parent_folder_id"].(string)
		if parent == "" {
			break
		}
		name, _ := cur["name"].(string)
		names = append(names, strings.ReplaceAll(name, "/", `\/`))
		next, ok := byID[parent]
		if !ok {
			break
		}
		cur = next
	}
	var b strings.Builder
	t, _ := obj["folder_type"].(string)
	b.WriteString(t)
	b.WriteString(":/")
	for i := len(names) - 1; i >= 0; i-- {
		b.WriteString(names[i])
		if i > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}
