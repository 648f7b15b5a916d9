package families

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/access"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/orgfiles"
	"github.com/orgctl/orgctl/cmd/seats"
	"github.com/orgctl/orgctl/output"
)

var UserColumns = []output.Column{
	{Header: "ID", Field: "id"},
	{Header: "EMAIL", Field: "email"},
	{Header: "FIRST NAME", Field: "first_name"},
	{Header: "LAST NAME", Field: "last_name"},
	{Header: "ACTIVE", Field: "active"},
	{Header: "ADMIN", Field: "is_admin"},
	{Header: "SEAT", Field: "seat_type"},
}

func usersGroup() engine.Group {
	return engine.Group{
		Long: `Users of the organization (or of the Space a profile points at). Deleting a
user disables it; the API keeps the record.`,
		Example: `  orgctl users list
  orgctl users list --email ada@example.com -o json
  orgctl users create --email ada@example.com --first-name Ada --last-name Lovelace
  orgctl users update ana.viewer@sandbox.example --last-name Byron --active=false
  orgctl users delete ana.viewer@sandbox.example --yes`,
		Columns: UserColumns,
		Extra:   []engine.Workflow{engine.Attach(access.NewCmdOffboard), engine.Attach(seats.NewCmdInactive), engine.Attach(seats.NewCmdReclaim), engine.Attach(orgfiles.NewCmdUsersSync)},
		Ops: []opdef.Op{
			{
				Use: "list", Method: http.MethodGet, Path: "/users",
				Help: opdef.Help{
					Short:   "List users",
					Long:    "--active and --admin filter the list orgctl receives (the API has no such filter):\n--active=false lists the disabled users, --admin the admins.",
					Example: "  orgctl users list\n  orgctl users list --first-name Ada\n  orgctl users list --active=false\n  orgctl users list --admin\n  orgctl users list --limit 50 --all",
				},
				Fields: []opdef.Field{
					{Flag: "email", Key: "email", In: opdef.InQuery, Fold: true, Usage: "only the user with this email (in any case)"},
					{Flag: "first-name", Key: "first_name", In: opdef.InQuery, Usage: "only users with this first name"},
					{Flag: "last-name", Key: "last_name", In: opdef.InQuery, Usage: "only users with this last name"},
					{Flag: "active", In: opdef.InLocal, Type: opdef.TBool, Usage: "only enabled users (--active=false: only disabled ones)"},
					{Flag: "admin", In: opdef.InLocal, Type: opdef.TBool, Usage: "only admins (--admin=false: only non-admins)"},
					{Flag: "seat-type", In: opdef.InLocal, Enum: seatTypes, Usage: "only users with this seat type (API 4.0)"},
				},
				Hooks: opdef.Hooks{Narrow: keepUsers},
			},
			{
				Use: "get USER_ID", Method: http.MethodGet, Path: "/users/{userId}",
				Help: opdef.Help{
					Short:   "Show a user and their groups",
					Long:    "USER is an id or an email. The table view adds the user's groups, read from\nGET /groups (one request: groups carry their members); -o json is the user as\nthe API gives it (--include-groups asks the API to add its \"groups\").",
					Example: "  orgctl users get ana.viewer@sandbox.example\n  orgctl users get ana.viewer@sandbox.example --include-groups -o json",
				},
				Args:  opdef.Args{Params: []string{"userId"}},
				Hooks: opdef.Hooks{View: userView},
				Fields: []opdef.Field{
					{Flag: "include-groups", Key: "includeGroups", In: opdef.InQuery, Type: opdef.TBool, Usage: "include the user's groups"},
				},
			},
			{
				Use: "create", Method: http.MethodPost, Path: "/users", Body: true,
				Help: opdef.Help{
					Short: "Create a user",
					Long:  "--admin makes the new user an admin with a second request (PATCH, 2 points), since\nthe create call takes no admin field.",
					Example: `  orgctl users create --email ada@example.com --first-name Ada --last-name Lovelace
  orgctl users create --email bot@example.com --first-name CI --last-name Bot --user-type mobile --metadata team=ops
  orgctl users create --email ada@example.com --first-name Ada --last-name L --dry-run`,
				},
				Bulk: opdef.Bulk{Exists: opdef.ConflictKey("users", "email", "update")},
				Fields: []opdef.Field{
					{Flag: "email", Key: "email", Usage: "email address"},
					{Flag: "first-name", Key: "first_name", Usage: "first name"},
					{Flag: "last-name", Key: "last_name", Usage: "last name"},
					{Flag: "active", Key: "active", Type: opdef.TBool, Usage: "create enabled (default true; --active=false to create disabled)"},
					{Flag: "user-type", Key: "user_type", Usage: "user type"},
					{Flag: "seat-type", Key: "seat_type", Usage: "seat type (API 4.0; setting it needs the Named Seats feature)"},
					{Flag: "metadata", Key: "metadata", Type: opdef.TKV, Usage: "metadata `KEY=VALUE` (repeatable)"},
					{Flag: "admin", In: opdef.InLocal, Type: opdef.TBool, Usage: "make the user an admin"},
					{Flag: "group", In: opdef.InLocal, Type: opdef.TStrings, Usage: "add the new user to `GROUP` (id or name; repeatable; with --from, one request per group for all the new users)"},
				},
				Hooks: opdef.Hooks{Shape: afterCreate},
			},
			{
				Use: "update USER_ID", Method: http.MethodPatch, Path: "/users/{userId}",
				Help: opdef.Help{
					Short: "Change a user's fields",
					Long:  "Each flag becomes one JSON Patch operation; --body takes raw operations\n([{\"op\":\"replace\",\"path\":\"/first_name\",\"value\":\"Ada\"}]).",
					Example: `  orgctl users update ana.viewer@sandbox.example --first-name Ada
  orgctl users update ana.viewer@sandbox.example --active=false
  orgctl users update ana.viewer@sandbox.example --metadata team=data --metadata level=3
  echo '[{"op":"remove","path":"/metadata/team"}]' | orgctl users update ana.viewer@sandbox.example --body -`,
				},
				Args: opdef.Args{Params: []string{"userId"}},
				Body: true, Patch: true,
				Fields: []opdef.Field{
					{Flag: "email", Key: "email", In: opdef.InPatch, Usage: "new email"},
					{Flag: "first-name", Key: "first_name", In: opdef.InPatch, Usage: "new first name"},
					{Flag: "last-name", Key: "last_name", In: opdef.InPatch, Usage: "new last name"},
					{Flag: "active", Key: "active", In: opdef.InPatch, Type: opdef.TBool, Usage: "enable or disable"},
					{Flag: "admin", Key: "is_admin", In: opdef.InPatch, Type: opdef.TBool, Usage: "grant or revoke admin"},
					{Flag: "user-type", Key: "user_type", In: opdef.InPatch, Usage: "user type"},
					{Flag: "seat-type", Key: "seat_type", In: opdef.InPatch, Usage: "seat type (API 4.0; needs the Named Seats feature)"},
					{Flag: "metadata", Key: "metadata", In: opdef.InPatch, Type: opdef.TKV, Usage: "set metadata `KEY=VALUE` (repeatable)"},
				},
			},
			{
				Use: "disable USER", Method: http.MethodPatch, Path: "/users/{userId}",
				Help: opdef.Help{
					Short:   "Disable a user (they can no longer sign in)",
					Long:    "Sets the user inactive; the record and its groups stay. 'orgctl users enable' undoes it.",
					Example: "  orgctl users disable ana.viewer@sandbox.example\n  orgctl users disable ana.viewer@sandbox.example --yes   # in scripts",
					Done:    "Disabled user %s",
				},
				Args: opdef.Args{Params: []string{"userId"}},
				Body: true, Patch: true,
				Confirm: &opdef.Confirm{
					Question: "Disable user %[1]s? They can no longer sign in; 'orgctl users enable %[2]s' enables them again.",
				},
				AcrossProfiles: true,
				Hooks:          opdef.Hooks{Shape: setActive(false)},
			},
			{
				Use: "enable USER", Method: http.MethodPatch, Path: "/users/{userId}",
				Help: opdef.Help{
					Short:   "Enable a disabled user again",
					Example: "  orgctl users enable former.employee@sandbox.example",
					Done:    "Enabled user %s",
				},
				Args: opdef.Args{Params: []string{"userId"}},
				Body: true, Patch: true,
				AcrossProfiles: true,
				Hooks:          opdef.Hooks{Shape: setActive(true)},
			},
			{
				Use: "delete USER_ID", Method: http.MethodDelete, Path: "/users/{userId}",
				Help: opdef.Help{
					Short:   "Disable a user",
					Example: "  orgctl users delete ana.viewer@sandbox.example\n  orgctl users delete ana.viewer@sandbox.example --yes   # in scripts",
					Done:    "Disabled user %s",
				},
				Args: opdef.Args{Params: []string{"userId"}},
				Confirm: &opdef.Confirm{
					Question: "Disable user %[1]s? They can no longer sign in; 'orgctl users enable %[2]s' enables them again.",
				},
			},
			{
				Use: "reset-2fa USER_ID", Method: http.MethodPut, Path: "/users/reset2fa/{userId}",
				Help: opdef.Help{
					Short:   "Turn off a user's two-factor authentication",
					Long:    "Removes the user's 2FA settings so they can sign in with their password and\nenroll again (e.g. after losing their device). Prints nothing on success.",
					Example: "  orgctl users reset-2fa ana.viewer@sandbox.example",
					Done:    "Turned off two-factor authentication for user %s",
				},
				Args: opdef.Args{Params: []string{"userId"}},
			},
			usersLogoutOp(),
		},
		Groups: []engine.Group{attributesGroup("user", "USER_ID", "/users/{userId}", "userId", "Users > Write",
			"a user", "user_0000000000000000005a4d0000000003")},
	}
}

// setActive is the body of users disable and enable: one JSON Patch
// operation on active.
func setActive(active bool) func(c *opdef.Call) error {
	return func(c *opdef.Call) error {
		c.Req.Patch = []any{map[string]any{"op": "replace", "path": "/active", "value": active}}
		return nil
	}
}

// attributesGroup is "<family> attributes set|delete" for users and user
// invites, whose attribute endpoints have the same shape.
func attributesGroup(noun, idName, base, param, scope, what, exampleID string) engine.Group {
	return engine.Group{
		Name:    "attributes",
		Aliases: []string{"attribute", "attrs"},
		Short:   "Set and delete user attributes of " + what,
		Long: `User attributes are declared org-wide with 'orgctl user-attributes create';
here they get a value for one ` + noun + `. The answer is the ` + noun + `'s updated metadata.`,
		Example: fmt.Sprintf("  orgctl %ss attributes set %s --name department --value Finance\n  orgctl %ss attributes delete %s department --yes",
			noun, exampleID, noun, exampleID),
		Columns: []output.Column{{Header: "METADATA", Field: "metadata"}},
		Ops: []opdef.Op{
			{Use: "set " + idName, Method: http.MethodPost, Path: base + "/user_attributes",
				Help: opdef.Help{
					Short: "Set one attribute's value",
					Example: fmt.Sprintf("  orgctl %ss attributes set %s --name department --value Finance\n  orgctl %ss attributes set %s --name department --null",
						noun, exampleID, noun, exampleID),
					Done: "Set an attribute of " + noun + " %s",
				},
				Args: opdef.Args{Params: []string{param}},
				Bulk: opdef.Bulk{Idempotent: true},
				Fields: []opdef.Field{
					{Flag: "name", Key: "name", Usage: "attribute name (must exist: see 'orgctl user-attributes list')"},
					{Flag: "value", Key: "value", Optional: true, Usage: "the value (text; JSON and numbers as their text)"},
					{Flag: "null", In: opdef.InLocal, Type: opdef.TBool, Usage: "set the value to null instead of --value"},
				},

				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						null := c.LocalBool("null")
						_, hasValue := c.BodyObject()["value"]
						switch {
						case null && hasValue:
							return cli.UsageErrorf("%s: --value and --null cannot be used together", c.Command)
						case null:
							c.Req.Body["value"] = nil
						case !hasValue:
							return cli.UsageErrorf("%s: pass --value VALUE (or --null)", c.Command)
						}
						return nil
					},
				},
			},
			{Use: "delete " + idName + " NAME", Method: http.MethodDelete, Path: base + "/user_attributes/{attributeName}",
				Help: opdef.Help{
					Short:   "Remove one attribute",
					Example: fmt.Sprintf("  orgctl %ss attributes delete %s department --yes", noun, exampleID),
					Done:    "Removed attribute %[2]s from " + noun + " %[1]s",
				},
				Args: opdef.Args{Params: []string{param, "attributeName"}},
				Confirm: &opdef.Confirm{
					Question: "Remove attribute %[2]s from " + noun + " %[1]s? 'orgctl " + noun + "s attributes set' gives it a value again.",
				},
			},
		},
	}
}

// afterCreate makes --admin and --group follow-ups, since the create call
// takes neither.
func afterCreate(c *opdef.Call) error {
	if err := adminAfterCreate(c); err != nil {
		return err
	}
	for _, g := range c.LocalStrings("group") {
		c.Then = append(c.Then, opdef.FollowUp{What: "add the new user to its --group", Path: "/groups/{groupId}/members",
			PrintMain: true, Join: "members", JoinKey: g, Joined: "add each --group's new users to it, one request per group",
			Build: func(created json.RawMessage) (client.Request, error) {
				var u struct {
					ID string `json:"id"`
				}
				if err := json.Unmarshal(created, &u); err != nil || u.ID == "" {
					return client.Request{}, fmt.Errorf("user created, but its id is missing from the answer; add it with `orgctl groups members add %s --user ID`", g)
				}
				return client.Request{Method: http.MethodPost, Path: client.Path("groups", g, "members"), Scope: opdef.ScopeOf(http.MethodPost, "/groups/{groupId}/members"),
					Body: map[string]any{"members": []any{map[string]any{"id": u.ID, "is_group_admin": false}}}}, nil
			}})
	}
	return nil
}

// adminAfterCreate makes --admin a follow-up PATCH, since the create call
// takes no admin field.
func adminAfterCreate(c *opdef.Call) error {
	var admin any
	if v, ok := c.Req.Body["is_admin"]; ok { // from --body
		delete(c.Req.Body, "is_admin")
		admin = v
	}
	if c.Has("admin") {
		admin = c.LocalBool("admin")
	}
	if admin == nil {
		return nil
	}
	c.Then = append(c.Then, opdef.FollowUp{What: "PATCH the new user's is_admin", Path: "/users/{userId}",
		Build: func(created json.RawMessage) (client.Request, error) {
			var u struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(created, &u); err != nil || u.ID == "" {
				return client.Request{}, fmt.Errorf("user created, but its id is missing from the answer; set admin with `orgctl users update ID --admin`")
			}
			return client.Request{Method: http.MethodPatch, Path: client.Path("users", u.ID), Scope: opdef.ScopeOf(http.MethodPatch, "/users/{userId}"),
				Body: map[string]any{"operations": []any{map[string]any{"op": "replace", "path": "/is_admin", "value": admin}}}}, nil
		}})
	return nil
}
