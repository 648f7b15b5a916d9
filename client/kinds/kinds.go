package kinds

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/orgctl/orgctl/output/jsonscan"
)

// Kind says how objects of one kind are listed, read, named and found.
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
	// KeysOf, when set, derives every object's key of a whole list at
	// once, as KeyOf would one by one, for long lists.
	KeysOf func(all []map[string]any) []string
	// Filter is the list's query parameter that selects by key ("email"),
	// so one key costs one small request instead of the whole list.
	Filter string
	// Fold compares keys without regard to case (emails).
	Fold bool
	// ID is the shape of the kind's ids.
	ID IDShape
	// Label are fields shown beside candidates ("first_name", ...).
	Label []string
	// Get reads one object by id ("/users/{id}"); "" when the API has no
	// such endpoint. A kind whose key needs the whole list (folder paths)
	// has one too: a get by that key prints the list's record instead.
	Get string
	// ObjectType is the kind's type in the permission API ("folder"); ""
	// when its objects have no access list.
	ObjectType string
	// Singleton kinds have one object, the org's own (its settings).
	Singleton bool
	// Builtin says why an object of this kind is one the org cannot do
	// without ("" for an ordinary object), from the object as listed.
	Builtin func(obj map[string]any) string
	// BuiltinKey says the same from the natural key alone, where the key
	// decides it, so a command can refuse before any request.
	BuiltinKey func(key string) string
	// BuiltinFixed marks a kind whose objects the org cannot do without
	// are not to be changed at all, not only kept: a system folder is
	// neither renamed nor moved (the API refuses either).
	BuiltinFixed bool
	// Params are the path parameters of the spec that take this kind's id
	// ("userId"). A parameter named just {id} takes the id of the kind
	// whose list the path is under (/app_themes/{id}), undeclared.
	Params []string
	// Refs are the body and query keys whose values are ids of this kind
	// ("user_id", "group_ids"), as the last segment of a dotted key.
	Refs []string
}

// IsID reports text that is already an id of this kind.
func (k Kind) IsID(s string) bool { return k.ID.Is(s) }

// Named reports a kind whose objects have a natural key to find them by.
func (k Kind) Named() bool { return k.Key != "" || k.KeyOf != nil }

// KeyOfObject is an object's natural key; all is its whole list, for keys
// derived from it.
func (k Kind) KeyOfObject(obj map[string]any, all []map[string]any) string {
	if k.KeyOf != nil {
		return k.KeyOf(obj, all)
	}
	return jsonscan.AsText(obj[k.Key])
}

// Keys are the natural keys of every object of a list, in its order.
func (k Kind) Keys(all []map[string]any) []string {
	if k.KeysOf != nil {
		return k.KeysOf(all)
	}
	out := make([]string, len(all))
	for i, o := range all {
		out[i] = k.KeyOfObject(o, all)
	}
	return out
}

// FoldKey is key as the kind compares keys: in lower case where keys fold
// (emails), else as written.
func (k Kind) FoldKey(key string) string {
	if k.Fold {
		return strings.ToLower(key)
	}
	return key
}

// Protected says why the object, as listed, is one the org cannot do
// without ("" when it is not).
func (k Kind) Protected(obj map[string]any) string {
	if k.Builtin == nil {
		return ""
	}
	return k.Builtin(obj)
}

// ProtectedKey says why the object with this natural key is one the org
// cannot do without, where the key alone decides it ("" otherwise).
func (k Kind) ProtectedKey(key string) string {
	if k.BuiltinKey == nil {
		return ""
	}
	return k.BuiltinKey(key)
}

// Singular names one object of a kind: "themes" -> "theme",
// "user-attributes" -> "user attribute".
func Singular(kind string) string {
	return strings.ReplaceAll(strings.TrimSuffix(kind, "s"), "-", " ")
}

// BuiltinGroups are the groups every org has and cannot do without: the
// admins' group and the one every user is in.
var BuiltinGroups = []string{"admin", "All Users"}

func builtinGroupName(name string) string {
	for _, g := range BuiltinGroups {
		if name == g {
			return fmt.Sprintf("%q is a built-in group every org has", name)
		}
	}
	return ""
}

// all are every kind, sorted by name. A slice rather than a map: it is laid
// out by the compiler, so no code runs for it before main.
var all = []Kind{
	{Name: "apps", List: "/apps", Scope: "Apps > Read", Key: "name", ID: UUIDs, Label: []string{"folder_id"},
		Get: "/apps/{id}", ObjectType: "app",
		Params: []string{"appId", "appUuid"}, Refs: []string{"app_id", "app_ids", "landing_page_app_id"}},
	{Name: "config-vars", List: "/configuration_variables", Scope: "Configuration Variables > Read", Key: "name",
		ID: UUIDs, Get: "/configuration_variables/{id}"},
	{Name: "custom-components", List: "/custom_component_libraries", Scope: "CustomComponent > Read",
		Key: "name", ID: UUIDs},
	{Name: "environments", List: "/environments", Scope: "Environment > Read", Key: "name", ID: UUIDs,
		Get: "/environments/{id}", Params: []string{"environmentId"}, Refs: []string{"environment_id"}},
	{Name: "folders", List: "/folders", Scope: "Folders > Read", KeyOf: FolderPath, KeysOf: FolderPaths,
		ID: FolderIDs, Label: []string{"folder_type"}, ObjectType: "folder", Get: "/folders/{id}",
		Builtin: systemFolder, BuiltinKey: systemFolderKey, BuiltinFixed: true,
		Params: []string{"folderId"}, Refs: []string{"folder_id", "parent_folder_id"}},
	{Name: "groups", List: "/groups", Scope: "Groups > Read", Key: "name", ID: Numbers, Get: "/groups/{id}",
		Builtin: builtinGroup, BuiltinKey: builtinGroupName,
		Params: []string{"groupId"}, Refs: []string{"group_id", "group_ids", "group", "defaultGroupIds"}},
	// Invites are named by the invitee's email; a claimed invite stays listed,
	// so an email can match two (the candidates then show which).
	{Name: "invites", List: "/user_invites", Scope: "Users > Read", Key: "invited_email", Fold: true, ID: Numbers,
		Label: []string{"claimed_by"}, Get: "/user_invites/{id}",
		Params: []string{"userInviteId"}, Refs: []string{"userInviteIds"}},
	{Name: "organization", List: "/organization/", Scope: "Organizations > Read", Singleton: true},
	// A resource configuration has no name of its own: its resource's and
	// its environment's name it, and two may name it alike.
	{Name: "resource-configs", List: "/resource_configurations", Scope: "Resources > Read",
		KeyOf: resourceConfigName, ID: UUIDs, Get: "/resource_configurations/{id}", ObjectType: "resource_configuration"},
	{Name: "resources", List: "/resources", Scope: "Resources > Read", Key: "display_name", ID: UUIDs,
		Label: []string{"type"}, Get: "/resources/{id}", ObjectType: "resource",
		Params: []string{"resourceId"}, Refs: []string{"resource_id"}},
	{Name: "roles", List: "/role_permissions/roles", Scope: "Permissions > Read", Key: "name", ID: UUIDs,
		Params: []string{"roleId"}, Refs: []string{"role_id"}},
	{Name: "spaces", List: "/spaces", Scope: "Spaces > Read", Key: "name", ID: SpaceIDs, Label: []string{"domain"},
		Get: "/spaces/{id}", Params: []string{"spaceId"}, Refs: []string{"space_id", "destination_space_id"}},
	{Name: "themes", List: "/app_themes", Scope: "App Themes > Read", Key: "name", ID: Numbers, Get: "/app_themes/{id}",
		Refs: []string{"theme_id"}},
	{Name: "user-attributes", List: "/user_attributes", Scope: "User Attributes > Read", Key: "name", ID: UUIDs},
	{Name: "users", List: "/users", Scope: "Users > Read", Key: "email", Filter: "email", Fold: true,
		ID: UserIDs, Label: []string{"first_name", "last_name"}, Get: "/users/{id}",
		Params: []string{"userId", "userSid"}, Refs: []string{"user", "user_id", "user_ids", "assigned_to_users"}},
	{Name: "workflows", List: "/workflows", Scope: "Workflows > Read", Key: "name", ID: UUIDs, Get: "/workflows/{id}",
		ObjectType: "workflow", Params: []string{"workflowId"}, Refs: []string{"workflow_id", "workflow_ids"}},
}

// All are every kind, sorted by name; the caller must not change them.
func All() []Kind { return all }

// Lookup is the kind named name; false when the registry has none.
func Lookup(name string) (Kind, bool) {
	for _, k := range all {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Of is the kind named name; it panics on a name the registry lacks, which
// only a mistake in the code can give.
func Of(name string) Kind {
	k, ok := Lookup(name)
	if !ok {
		panic("kinds: no kind " + strconv.Quote(name))
	}
	return k
}

// WithObjectType is the kind whose access lists the permission API calls
// typ ("folder"); false when none.
func WithObjectType(typ string) (Kind, bool) {
	for _, k := range all {
		if k.ObjectType != "" && k.ObjectType == typ {
			return k, true
		}
	}
	return Kind{}, false
}

func builtinGroup(obj map[string]any) string { return builtinGroupName(jsonscan.AsText(obj["name"])) }

func resourceConfigName(obj map[string]any, _ []map[string]any) string {
	res, _ := obj["resource"].(map[string]any)
	env, _ := obj["environment"].(map[string]any)
	return jsonscan.AsText(res["display_name"]) + " (" + jsonscan.AsText(env["name"]) + ")"
}

// View is one way completion offers a kind's objects: the field typed
// (Value) and those shown beside it (Label).
type View struct {
	// Name is the view's name, as Field.Complete and Op.Args.Complete use it.
	Name  string
	Kind  string
	Value string
	Label []string
	// Names marks a view completed by natural key with the id beside it,
	// whose names commands look up where the API takes an id.
	Names bool
	// Params are the path parameters of the spec that take the view's
	// Value where that is not the id ("attributeName"); those taking a
	// kind's id are the kind's Params.
	Params []string
}

// views are the completion views by the name Field.Complete and
// Op.Args.Complete use, sorted by that name.
var views = []View{
	{Name: "apps", Kind: "apps", Value: "id", Label: []string{"name"}, Names: true},
	{Name: "attribute-names", Kind: "user-attributes", Value: "name", Label: []string{"label"},
		Params: []string{"attributeName"}},
	{Name: "config-vars", Kind: "config-vars", Value: "id", Label: []string{"name"}, Names: true},
	{Name: "environment-names", Kind: "environments", Value: "name", Label: []string{"description"}},
	{Name: "environments", Kind: "environments", Value: "id", Label: []string{"name"}, Names: true},
	{Name: "folders", Kind: "folders", Value: "id", Label: []string{"name"}, Names: true},
	{Name: "groups", Kind: "groups", Value: "id", Label: []string{"name"}, Names: true},
	{Name: "invites", Kind: "invites", Value: "id", Label: []string{"invited_email"}, Names: true},
	// Where the API takes a resource's id it mostly takes its name too,
	// so a lookup would only cost points; resource-ids marks the few
	// places that take only the UUID.
	{Name: "resource-ids", Kind: "resources", Value: "id", Label: []string{"display_name"}, Names: true},
	{Name: "resources", Kind: "resources", Value: "id", Label: []string{"display_name"}},
	{Name: "roles", Kind: "roles", Value: "id", Label: []string{"name"}, Names: true},
	{Name: "space-names", Kind: "spaces", Value: "name", Label: []string{"domain"}},
	{Name: "spaces", Kind: "spaces", Value: "id", Label: []string{"name"}, Names: true},
	{Name: "themes", Kind: "themes", Value: "id", Label: []string{"name"}, Names: true},
	{Name: "user-attributes", Kind: "user-attributes", Value: "id", Label: []string{"name"}, Names: true},
	{Name: "users", Kind: "users", Value: "id", Label: []string{"email"}, Names: true},
	{Name: "workflows", Kind: "workflows", Value: "id", Label: []string{"name"}, Names: true},
}

// Views are every completion view, sorted by name; the caller must not
// change them.
func Views() []View { return views }

// ViewOf is the completion view named name; false when there is none.
func ViewOf(name string) (View, bool) {
	for _, v := range views {
		if v.Name == name {
			return v, true
		}
	}
	return View{}, false
}

// ByParam is the view completing path parameter param of path: the kind
// whose id it takes (a kind's own view completes its ids), or a view of
// another value that declares it; false for a parameter naming no object.
// A plain {id} takes the id of the kind whose list path is under.
func ByParam(path, param string) (string, bool) {
	for _, k := range all {
		if has(k.Params, param) || param == "id" && under(path, k.List) {
			return k.Name, true
		}
	}
	for _, v := range views {
		if has(v.Params, param) {
			return v.Name, true
		}
	}
	return "", false
}

// ByRef is the kind whose ids the body or query key key holds (its last
// segment, "user_ids"); false when it holds no object's id.
func ByRef(key string) (string, bool) {
	for _, k := range all {
		if has(k.Refs, key) {
			return k.Name, true
		}
	}
	return "", false
}

func has(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// under reports path as list itself or below it ("/app_themes/{id}").
func under(path, list string) bool {
	rest, ok := strings.CutPrefix(path, strings.TrimSuffix(list, "/"))
	return ok && (rest == "" || rest[0] == '/')
}
