package families

import (
	"encoding/json"
	"fmt"
	"github.com/orgctl/orgctl/cmd/cli/usage"
	"net/http"
	"strconv"
	"strings"

	"github.com/orgctl/orgctl/cmd/access"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/seats"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/lazy"
)

var subjectFields = []opdef.Field{
	{Flag: "group", In: opdef.InLocal, Usage: "the subject is this `GROUP` (id or name)"},
	{Flag: "user", In: opdef.InLocal, Usage: "the subject is this `USER` (id or email)"},
}

// accessSaid words a grant or revoke from its flags as typed: "Granted use
// on folder app:/Finance to group support"; "" (the generic line) when the
// body came from --body.
func accessSaid(verb, prep string) func(c *opdef.Call) string {
	return func(c *opdef.Call) string {
		typ, obj := c.TypedList("object-type"), c.TypedList("object-id")
		subjType, subj := "group", c.TypedList("group")
		if len(subj) == 0 {
			subjType, subj = "user", c.TypedList("user")
		}
		if len(typ) == 0 || len(obj) == 0 || len(subj) == 0 {
			return ""
		}
		what := "access"
		if lvl, ok := c.BodyObject()["access_level"].(string); ok && verb == "Granted" {
			what = lvl
		}
		return fmt.Sprintf("%s %s on %s %s %s %s %s", verb, what, typ[0], obj[0], prep, subjType, subj[0])
	}
}

// subjectFromFlags turns --group N / --user ID into the API's subject object.
func subjectFromFlags(c *opdef.Call) error {
	g, hasG := c.Given.Local["group"].(string)
	u, hasU := c.Given.Local["user"].(string)
	_, fromBody := c.BodyObject()["subject"]
	switch {
	case hasG && hasU:
		return cli.UsageErrorf("%s: pass --group or --user, not both", c.Command)
	case hasG:
		n, err := strconv.ParseUint(g, 10, 64)
		if err != nil {
			return cli.UsageErrorf("invalid --group %q: group ids are numbers", g)
		}
		// Re-formatted: "02" parses but is no JSON number.
		c.Req.Body["subject"] = map[string]any{"type": "group", "id": json.Number(strconv.FormatUint(n, 10))}
	case hasU:
		if !strings.HasPrefix(u, "user_") {
			return cli.UsageErrorf("invalid --user %q: user ids look like user_abc123", u)
		}
		c.Req.Body["subject"] = map[string]any{"type": "user", "id": u}
	case !fromBody:
		return cli.UsageErrorf("%s: pass --group GROUP_ID or --user USER_ID", c.Command)
	}
	return nil
}

var objectTypes = []string{"folder", "app", "screen", "resource", "resource_configuration"}

// ObjectKinds are the object types whose names orgctl looks up; the API
// takes a resource's name itself, and screens and configurations have none.
// Worked out from the registry on first use.
func ObjectKinds() map[string]string { return objectKinds.Get() }

var objectKinds = lazy.Value[map[string]string]{New: engine.ObjectTypeKinds}

var objectFields = []opdef.Field{
	{Flag: "object-type", In: opdef.InLocal, Enum: objectTypes, Usage: "kind of object"},
	{Flag: "object-id", In: opdef.InLocal, KindBy: &opdef.KindBy{Flag: "object-type", Kinds: ObjectKinds},
		Usage: "the `OBJECT`: a folder id or path (app:/Finance), an app id or name, a screen or configuration UUID, a resource UUID or name"},
	{Flag: "app", In: opdef.InLocal, Complete: "apps", Usage: "for --object-type screen: the screen's `APP` (UUID or name)"},
}

// objectFromFlags turns --object-type/--object-id/--app into the API's object.
func objectFromFlags(c *opdef.Call) error {
	t, hasT := c.Given.Local["object-type"].(string)
	id, hasID := c.Given.Local["object-id"].(string)
	app, hasApp := c.Given.Local["app"].(string)
	if !hasT && !hasID && !hasApp {
		if _, ok := c.Req.Body["object"]; ok {
			return nil
		}
		return cli.UsageErrorf("%s: pass --object-type and --object-id", c.Command)
	}
	if !hasT || !hasID {
		return cli.UsageErrorf("%s: --object-type and --object-id go together", c.Command)
	}
	obj := map[string]any{"type": t, "id": id}
	switch {
	case t == "screen" && !hasApp:
		return cli.UsageErrorf("%s: a screen needs --app APP_UUID", c.Command)
	case t != "screen" && hasApp:
		return cli.UsageErrorf("%s: --app is only for --object-type screen", c.Command)
	case hasApp:
		obj["appId"] = app
	}
	c.Req.Body["object"] = obj
	return nil
}

// objectColumns are a subject's objects; on a terminal each is named as
// every other table names it (a folder by its path, an app by its name).
var objectColumns = []output.Column{
	{Header: "TYPE", Field: "type"},
	{Header: "ID", Field: "id", Terminal: &output.Column{Header: "OBJECT", Field: "id", Names: "folders,apps,workflows", Key: true}},
	{Header: "ACCESS", Field: "access_level"},
}

var grantColumns = []output.Column{
	{Header: "ID", Field: "id"},
	{Header: "ROLE", Field: "role_id", Names: "roles"},
	{Header: "SUBJECT TYPE", Field: "subject_type"},
	{Header: "SUBJECT", Field: "subject_id", Names: "groups,users"},
	{Header: "OBJECT TYPE", Field: "object_type"},
	{Header: "OBJECT", Field: "object_id"},
}

var grantFields = []opdef.Field{
	{Flag: "role", Key: "role_id", Usage: "the `ROLE` (UUID or name)"},
	{Flag: "subject-type", Key: "subject_type", Usage: "subject type (e.g. user, group)"},
	{Flag: "subject-id", Key: "subject_id", KindBy: &opdef.KindBy{Flag: "subject-type", Kinds: subjectKinds},
		Usage: "the `SUBJECT`: a user id or email, a group id or name"},
	{Flag: "object-type", Key: "object_type", Usage: "limit to objects of this type (e.g. app, folder)"},
	{Flag: "object-id", Key: "object_id", KindBy: &opdef.KindBy{Flag: "object-type", Kinds: ObjectKinds},
		Usage: "limit to this `OBJECT` (id; folders also by path, apps and workflows by name)"},
}

// subjectKinds name users by email and groups by name where a subject type picks.
func subjectKinds() map[string]string { return map[string]string{"user": "users", "group": "groups"} }

func permissionsGroup() engine.Group {
	return engine.Group{
		Long: `Permissions give a subject (a group, or a user) an access level (use, edit, own)
on an object: a folder, app, screen, resource or resource configuration. Roles
are named sets of scopes, handed out with role grants.

Subjects and objects are named as everywhere else: a user by id or email, a
group by id or name, a folder by id (app_N) or path (app:/Finance), an app or
a workflow by id or name, a role by id or name; a resource by UUID or name
(the API takes either). Screens and resource configurations take their UUID.

Effective access is the highest level any source gives: a grant on the
object, a grant on a folder above it (at any depth), a group's universal
access, and for a user each of their groups. 'access-list' says who reaches
an object and through what, 'list-objects' what a user or group reaches,
'report' the whole org (one row per user and object; see
'orgctl help access-reviews').

Gotchas:
  - grant and revoke on a folder also apply to everything in it.
  - revoke removes the subject's direct access; access through a group or a
    universal access level remains (see 'access-list', its "sources").
  - An access list's level is the effective one: a direct grant below a
    group's universal level shows at the higher level.
  - User subjects need a recent API (2.7.0+); older ones take groups only.`,
		Example: `  orgctl permissions list-objects --user ana.viewer@sandbox.example
  orgctl permissions access-list app "Customer Lookup"
  orgctl permissions grant --group 2 --object-type folder --object-id app_7 --access-level edit
  orgctl permissions grant --group support --object-type folder --object-id app:/archive --access-level use
  orgctl permissions revoke --user ana.viewer@sandbox.example --object-type app --object-id 'Customer Lookup' --yes
  orgctl permissions report -o csv > access.csv
  orgctl permissions roles list`,
		Columns: objectColumns,
		Extra:   []engine.Workflow{engine.Attach(access.NewCmdListObjects), engine.Attach(access.NewCmdReport), engine.Attach(seats.NewCmdUnused)},
		Ops: []opdef.Op{
			{Use: "access-list OBJECT_TYPE OBJECT", Method: http.MethodGet, Path: "/permissions/accessList/{objectType}/{objectId}",
				Help: opdef.Help{
					Short: "Show who can access an object, and why",
					Long: `OBJECT_TYPE is one of app, folder, resource, workflow, agent. Apps and workflows
take an id or name, folders an id or path (app:/Finance), resources a UUID or name.

One row per subject: SUBJECT (a group's name, a user's email), KIND, LEVEL (the
effective level: the highest any source gives) and VIA, where it comes from:
  direct                   a grant on the object itself
  universal                the group's universal access to every object of the kind
  universal through GROUP  a user's group whose universal access reaches it
  member of GROUP          a user's group granted on it (or on a folder above)
  inherited from PATH      a grant on a folder above it, at any depth
Every group is listed, and the users with grants of their own; --expand lists
every user behind the groups too (and pending invites). -o json prints the
API's answer as received, "sources" included.

Requests: the access list (10 points), then the lists that name its ids
(groups, users, folders: one each, cached for a while).`,
					Example: `  orgctl permissions access-list app "Customer Lookup"
  orgctl permissions access-list folder app:/Operations --expand
  orgctl permissions access-list app "Customer Lookup" -o json --jq '.user[] | select(.sources.direct)'`,
				},
				Args: opdef.Args{
					Params: []string{"objectType", "objectId"},
					KindBy: map[int]opdef.KindBy{1: {Arg: 0, Kinds: ObjectKinds}},
				},
				Fields: []opdef.Field{
					{Flag: "expand", In: opdef.InLocal, Type: opdef.TBool, Usage: "list every user behind the groups, and pending invites"},
				},
				Hooks:   opdef.Hooks{View: access.ListView},
				Columns: access.ListColumns,
			},
			{Use: "grant", Method: http.MethodPost, Path: "/permissions/grant", Body: true,
				Help: opdef.Help{
					Short: "Give a group or user access to an object",
					Long: `Answers with the subject's updated list of objects of that type (on a terminal,
named as every table names them).

The API answers a repeated grant as it answers the first, so a --from job
that must report grants already in place (--on-exists fail, the default, or
skip) reads them first: one list-objects per subject and object type, or one
access list per object, whichever the file needs fewer of (the dry run says
which). --on-exists update reads nothing: the grant replaces the level.`,
					Example: `  orgctl permissions grant --group 2 --object-type folder --object-id app_7 --access-level edit
  orgctl permissions grant --user ana.viewer@sandbox.example --object-type app --object-id 'Customer Lookup' --access-level use
  orgctl permissions grant --group 2 --object-type screen --object-id SCREEN_UUID --app 'Customer Lookup' --access-level use`,
					Done: "Granted the access",
				},
				Bulk: opdef.Bulk{Exists: opdef.GrantExists},
				Fields: append(append(append([]opdef.Field(nil), subjectFields...), objectFields...),
					opdef.Field{Flag: "access-level", Key: "access_level", Usage: "access to give"}),

				Hooks: opdef.Hooks{Shape: subjectAndObject, DoneLine: accessSaid("Granted", "to")},
			},
			{Use: "revoke", Method: http.MethodPost, Path: "/permissions/revoke", Body: true,
				Help: opdef.Help{
					Short: "Take away a group's or user's access to an object",
					Example: `  orgctl permissions revoke --group 2 --object-type folder --object-id app_7 --yes
  orgctl permissions revoke --user ana.viewer@sandbox.example --object-type app --object-id 'Customer Lookup' --yes`,
					Done: "Revoked the access",
				},
				Bulk: opdef.Bulk{Idempotent: true},
				Confirm: &opdef.Confirm{
					Question: "Revoke this access? 'orgctl permissions grant' with the same flags gives it back.",
				},
				Fields: append(append([]opdef.Field(nil), subjectFields...), objectFields...),

				Hooks: opdef.Hooks{Shape: subjectAndObject, DoneLine: accessSaid("Revoked", "from")},
			},
		},
		Groups: []engine.Group{
			{
				Name:  "roles",
				Short: "Manage roles (named sets of scopes)",
				Long:  "Role ids are UUIDs. Scopes are strings such as app:read or source_control:deploy.",
				Columns: []output.Column{
					{Header: "ID", Field: "id"},
					{Header: "NAME", Field: "name"},
					{Header: "DESCRIPTION", Field: "description"},
					{Header: "OBJECT SCOPES", Field: "object_scopes"},
					{Header: "ORG SCOPES", Field: "organization_scopes"},
				},
				Ops: []opdef.Op{
					{Use: "list", Method: http.MethodGet, Path: "/role_permissions/roles",
						Help: opdef.Help{Short: "List roles", Example: "  orgctl permissions roles list"},
					},
					{Use: "create", Method: http.MethodPost, Path: "/role_permissions/roles", Body: true,
						Help: opdef.Help{
							Short:   "Create a role",
							Example: "  orgctl permissions roles create --name 'Release Manager' --org-scope source_control:deploy --object-scope app:read",
						},
						Bulk: opdef.Bulk{Exists: opdef.LookFirst("roles", "name", "update")},
						Fields: []opdef.Field{
							{Flag: "name", Key: "name", Usage: "role name"},
							{Flag: "description", Key: "description", Usage: "what the role is for"},
							{Flag: "object-scope", Key: "object_scopes", Type: opdef.TStrings, Optional: true, Usage: "object `SCOPE` (repeatable)"},
							{Flag: "org-scope", Key: "organization_scopes", Type: opdef.TStrings, Optional: true, Usage: "organization `SCOPE` (repeatable)"},
						},

						Hooks: opdef.Hooks{
							Shape: func(c *opdef.Call) error {
								// Both lists are required by the API, even when empty.
								for _, k := range []string{"object_scopes", "organization_scopes"} {
									if c.BodyObject()[k] == nil {
										c.Req.Body[k] = []any{}
									}
								}
								return nil
							},
						},
					},
					{Use: "update ROLE_ID", Method: http.MethodPatch, Path: "/role_permissions/roles/{roleId}", Body: true,
						Help: opdef.Help{
							Short:   "Change a role",
							Long:    "Sends only the fields given; --object-scope and --org-scope replace the whole list.",
							Example: "  orgctl permissions roles update 'Release Manager' --description 'Deploys and reads apps'\n  orgctl permissions roles update 'Release Manager' --org-scope source_control:deploy --org-scope source_control:read",
						},
						Args: opdef.Args{Params: []string{"roleId"}},
						Fields: []opdef.Field{
							{Flag: "name", Key: "name", Usage: "new name"},
							{Flag: "description", Key: "description", Usage: "new description"},
							{Flag: "object-scope", Key: "object_scopes", Type: opdef.TStrings, Usage: "object `SCOPE` (repeatable; replaces the list)"},
							{Flag: "org-scope", Key: "organization_scopes", Type: opdef.TStrings, Usage: "organization `SCOPE` (repeatable; replaces the list)"},
						},

						Hooks: opdef.Hooks{
							Shape: func(c *opdef.Call) error {
								if len(c.Req.Body) == 0 {
									return cli.UsageErrorf("%s: %w: pass at least one flag or --body", c.Command, usage.ErrNothingToChange)
								}
								return nil
							},
						},
					},
					{Use: "delete ROLE_ID", Method: http.MethodDelete, Path: "/role_permissions/roles/{roleId}",
						Help: opdef.Help{
							Short:   "Delete a role",
							Example: "  orgctl permissions roles delete 'Release Manager' --yes",
						},
						Args:    opdef.Args{Params: []string{"roleId"}},
						Confirm: &opdef.Confirm{Question: "Delete role %s? Everyone granted it loses it; this cannot be undone."},
					},
				},
			},
			{
				Name:    "role-grants",
				Short:   "Give roles to users and groups",
				Long:    "A role grant gives a role to a subject, optionally on one object. Grant ids are UUIDs.",
				Columns: grantColumns,
				Ops: []opdef.Op{
					{Use: "list", Method: http.MethodGet, Path: "/role_permissions/role_grants",
						Help: opdef.Help{Short: "List role grants", Example: "  orgctl permissions role-grants list"},
					},
					{Use: "get SUBJECT_TYPE SUBJECT_ID", Method: http.MethodGet, Path: "/role_permissions/role_grants/{subjectType}/{subjectId}",
						Help: opdef.Help{
							Short:   "List the role grants of one subject",
							Example: "  orgctl permissions role-grants get user ana.viewer@sandbox.example\n  orgctl permissions role-grants get group 2",
						},
						Args: opdef.Args{
							Params: []string{"subjectType", "subjectId"},
							KindBy: map[int]opdef.KindBy{1: {Arg: 0, Kinds: subjectKinds}},
						},
					},
					{Use: "create", Method: http.MethodPost, Path: "/role_permissions/role_grants", Body: true,
						Help: opdef.Help{
							Short:   "Give a role to a subject",
							Example: "  orgctl permissions role-grants create --role 'Release Manager' --subject-type user --subject-id ana.viewer@sandbox.example\n  orgctl permissions role-grants create --role 'Release Manager' --subject-type group --subject-id 2 --object-type app --object-id 'Customer Lookup'",
						},
						Fields: grantFields},
					{Use: "delete GRANT_ID", Method: http.MethodDelete, Path: "/role_permissions/role_grants/{roleGrantId}",
						Help: opdef.Help{
							Short:   "Delete a role grant",
							Example: "  orgctl permissions role-grants delete GRANT_UUID --yes",
						},
						Args: opdef.Args{Params: []string{"roleGrantId"}},
						Confirm: &opdef.Confirm{
							Question: "Delete role grant %s? The subject loses the role; 'orgctl permissions role-grants create' gives it back.",
						},
					},
					{Use: "delete-for-subject", Method: http.MethodPost, Path: "/role_permissions/remove_role_grants_for_subject/", Body: true,
						Help: opdef.Help{
							Short:   "Delete a subject's grants of a role",
							Long:    "Removes every grant of --role to the subject; with --object-type/--object-id, only those on that object.",
							Example: "  orgctl permissions role-grants delete-for-subject --role 'Release Manager' --subject-type user --subject-id ana.viewer@sandbox.example --yes",
							Done:    "Deleted the subject's grants of the role",
						},
						Bulk: opdef.Bulk{Idempotent: true},
						Confirm: &opdef.Confirm{
							Question: "Delete the subject's grants of this role? 'orgctl permissions role-grants create' gives them back one by one.",
						},
						Fields: grantFields},
				},
			},
		},
	}
}

// subjectAndObject builds the subject and object of a grant or revoke.
func subjectAndObject(c *opdef.Call) error {
	if err := subjectFromFlags(c); err != nil {
		return err
	}
	return objectFromFlags(c)
}
