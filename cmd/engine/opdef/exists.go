package opdef

import (
	"context"
	"fmt"
	"strings"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// Lookups are the reads an Existence's Check may make, shared between the
// rows of a bulk job (each group's members, each object's access list,
// each subject's direct grants read once); bulkjob.Lookups implements
// them on the paced client.
type Lookups interface {
	// Members maps the ids of a group's members to "member" or "admin".
	Members(ctx context.Context, group string) (map[string]string, error)
	// Access maps "group/ID" and "user/ID" to the access level each subject
	// has on an object directly.
	Access(ctx context.Context, typ, id string) (map[string]string, error)
	// Direct maps the ids of the objects of typ a subject has a grant on
	// itself to the level it gives.
	Direct(ctx context.Context, subject map[string]any, typ string) (map[string]string, error)
	// BySubject: the job reads subjects' direct grants, not objects'
	// access lists.
	BySubject() bool
}

// Existence is how a bulk job tells that what a row would create already
// exists. The API says it in one of three ways, and each family declares
// which (`orgctl help bulk` has the table, OBJECTS THAT ALREADY EXIST):
//
//   - a conflict: the create is refused with 409 (users by email, groups by
//     name, folders by name in their parent, environments, themes, Spaces,
//     user attributes).
//     orgctl sends the create and looks the key up only after a 409, or to
//     settle a create whose answer was lost;
//   - nothing: the API accepts a second object with the same natural key
//     (apps, configuration variables, resources; and in the sandbox also
//     roles and custom component libraries, whose published API promises a
//     409). orgctl lists the kind once per job and
//     looks there before sending each row;
//   - a merge: adding what is already there changes nothing visible (a
//     group member, a permission grant). orgctl looks in the one list of
//     groups (or reads the object's access list once per job); with
//     --on-exists update it reads nothing, as the write replaces anyway.
//
// The same lookups are the name resolution of client/resolve: one
// filtered request for a user, one list per kind for the rest.
type Existence struct {
	// Kind is the registry kind of the object the op creates.
	Kind string
	// Flags are the fields whose values make the natural key, in order.
	Flags []string
	// Conflict: the API refuses a duplicate with 409, so orgctl does not
	// look before sending. Otherwise it looks first.
	Conflict bool
	// Update is the Use word of the sibling op that --on-exists update runs
	// on the existing object ("update"); "" when the family has none.
	Update string
	// Match says whether a listed object is the one the call would create,
	// when the key is not one field of the kind (folders: name, type and
	// parent). Nil compares the kind's key with the first flag's value.
	Match func(c *Call, o kinds.Object, all []kinds.Object) bool
	// Check replaces the lookup for changes that are not objects of a kind
	// (a membership, a grant): is the call's change already in place, and
	// which id to report. Such ops update in place, so --on-exists update
	// sends the row as it is.
	Check func(ctx context.Context, lk Lookups, c *Call) (id string, exists bool, err error)
	// Shared names, for a row's Input, the one read Check shares with other
	// rows (the object), and CheckPath prices that read.
	Shared    func(in Input) string
	CheckPath string
	// BySubject names, for a row's Input, another read that answers Check
	// as well (a subject's direct grants of one type, at SubjectPath); ""
	// when it cannot for that row. A job sends whichever reads are fewer:
	// one per Shared key, or one per BySubject key.
	BySubject   func(in Input) string
	SubjectPath string
	// ListKind is the kind whose one list (read from the API, never from a
	// cache) Check looks in, instead of a read per Shared key; names of
	// that kind are looked up in the same list.
	ListKind string
	// Display names a row's object in results when the key fields joined
	// do not read well (a folder: app:/Finance/Reports).
	Display func(in Input) string
	// Already, when set, makes a single command line look too (Check, with
	// its one read of ListKind) and, when the change is in place, say this
	// line and send nothing: the API would answer a repeat as if it had
	// done something. object is the name of the object it is in place on.
	Already func(c *Call, object string) string
}

// ConflictKey is a family that answers a duplicate create with 409.
func ConflictKey(kind, flag, update string) *Existence {
	return &Existence{Kind: kind, Flags: []string{flag}, Conflict: true, Update: update}
}

// LookFirst is a family that accepts duplicates: orgctl looks before sending.
func LookFirst(kind, flag, update string) *Existence {
	return &Existence{Kind: kind, Flags: []string{flag}, Update: update}
}

// FolderExists: a folder is known by its type, its parent and its name;
// the API refuses a second one in the same parent with 409.
var FolderExists = &Existence{Kind: "folders", Flags: []string{"type", "parent", "name"}, Conflict: true,
	Match: folderMatch, Display: folderDisplay}

// folderMatch: the folder of the call's type and name, in its parent.
func folderMatch(c *Call, o kinds.Object, all []kinds.Object) bool {
	typ, _ := c.Req.Body["folder_type"].(string)
	name, _ := c.Req.Body["name"].(string)
	if jsonscan.AsText(o.Fields["name"]) != name || jsonscan.AsText(o.Fields["folder_type"]) != typ {
		return false
	}
	parent, _ := c.Req.Body["parent_folder_id"].(string)
	if parent == "" { // the root of the type (personalRoot has no parent either)
		for _, r := range all {
			if jsonscan.AsText(r.Fields["folder_type"]) == typ && kinds.IsRoot(r.Key) {
				parent = r.ID
			}
		}
	}
	return jsonscan.AsText(o.Fields["parent_folder_id"]) == parent
}

// folderDisplay names a row's folder by its path.
func folderDisplay(in Input) string {
	last := func(f string) string {
		if v := in.Values[f]; len(v) > 0 {
			return v[len(v)-1]
		}
		return ""
	}
	name := strings.ReplaceAll(last("name"), "/", `\/`)
	if p := last("parent"); p != "" {
		return strings.TrimSuffix(p, "/") + "/" + name
	}
	return last("type") + ":/" + name
}

// MemberExists: adding a member who is already there changes nothing, so
// the API says nothing; orgctl looks in the one list of groups (each group
// listed carries its members), which the group's name was looked up in
// anyway. The endpoint takes an array, so a group's rows go in one request.
var MemberExists = &Existence{Flags: []string{"user"}, ListKind: "groups",
	Check: memberCheck, Already: memberAlready}

// memberCheck looks for the call's users among the group's members.
func memberCheck(ctx context.Context, lk Lookups, c *Call) (string, bool, error) {
	members, err := lk.Members(ctx, c.Req.Params["groupId"])
	if err != nil {
		return "", false, err
	}
	users := c.LocalStrings("user")
	admin := c.LocalBool("admin")
	for _, u := range users {
		// a member made a group admin is a change
		if role, in := members[u]; !in || admin && role != "admin" {
			return "", false, nil
		}
	}
	return strings.Join(users, ","), len(users) > 0, nil
}

// memberAlready says who is already a member of group.
func memberAlready(c *Call, group string) string {
	users := c.TypedList("user")
	if len(users) == 0 {
		users = c.LocalStrings("user")
	}
	who, are := strings.Join(users, ", "), "are already members"
	if len(users) == 1 {
		are = "is already a member"
	}
	if c.LocalBool("admin") {
		are += map[bool]string{true: " and a group admin", false: " and group admins"}[len(users) == 1]
	}
	return fmt.Sprintf("%s %s of group %s; nothing sent", who, are, group)
}

// GrantExists: a grant to a subject that already has access replaces the
// level, and the API answers it as it answers the first (with the
// subject's objects), so only a read tells a grant in place. That read
// costs what the grant does (10 points), so a job reads as few as it can:
// each object's access list once (one serves "a folder to 40 groups"), or
// each subject's direct grants of a type once (one listObjects serves "40
// folders to a group"), whichever the file needs fewer of.
var GrantExists = &Existence{Flags: []string{"group", "user", "object-type", "object-id"},
	CheckPath:   "/permissions/accessList/{objectType}/{objectId}",
	Shared:      grantShared,
	SubjectPath: "/permissions/listObjects",
	BySubject:   grantBySubject,
	Check:       grantCheck,
}

// grantShared is the object whose access list a row's grant is checked
// against ("folder/app_1"); "" when the row names none.
func grantShared(in Input) string {
	t, id := in.Values["object-type"], in.Values["object-id"]
	if len(t) == 0 || len(id) == 0 {
		return ""
	}
	return t[len(t)-1] + "/" + id[len(id)-1]
}

// grantBySubject is the subject and type whose direct grants a row's grant
// is checked against ("group/support/folder"); "" when listObjects cannot
// tell.
func grantBySubject(in Input) string {
	t := in.Values["object-type"]
	if len(t) == 0 || !listsObjects(t[len(t)-1]) {
		return ""
	}
	for _, flag := range []string{"group", "user"} {
		if v := in.Values[flag]; len(v) > 0 {
			return flag + "/" + strings.ToLower(v[len(v)-1]) + "/" + t[len(t)-1]
		}
	}
	return ""
}

// grantCheck looks for the call's grant among those in place.
func grantCheck(ctx context.Context, lk Lookups, c *Call) (string, bool, error) {
	obj, _ := c.Req.Body["object"].(map[string]any)
	subj, _ := c.Req.Body["subject"].(map[string]any)
	typ, id := jsonscan.AsText(obj["type"]), jsonscan.AsText(obj["id"])
	if lk.BySubject() && listsObjects(typ) {
		have, err := lk.Direct(ctx, subj, typ)
		if err != nil {
			return "", false, err
		}
		level, ok := have[id]
		if !ok {
			return "", false, nil
		}
		return fmt.Sprintf("%s/%s (%s)", typ, id, level), true, nil
	}
	switch typ {
	case "app", "folder", "resource", "workflow", "agent":
	default:
		return "", false, nil // no access list to look in: the grant replaces any earlier one
	}
	have, err := lk.Access(ctx, typ, id)
	if err != nil {
		return "", false, err
	}
	level, ok := have[jsonscan.AsText(subj["type"])+"/"+jsonscan.AsText(subj["id"])]
	if !ok {
		return "", false, nil
	}
	return fmt.Sprintf("%s/%s (%s)", typ, id, level), true, nil
}

// listsObjects reports the object types POST /permissions/listObjects answers for.
func listsObjects(typ string) bool {
	switch typ {
	case "folder", "app", "resource", "resource_configuration":
		return true
	}
	return false
}
