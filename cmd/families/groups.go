package families

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

func groupAccessFields(in opdef.In) []opdef.Field {
	return []opdef.Field{
		{Flag: "universal-app-access", Key: "universal_app_access", In: in, Usage: "access to every app"},
		{Flag: "universal-resource-access", Key: "universal_resource_access", In: in, Usage: "access to every resource"},
		{Flag: "universal-workflow-access", Key: "universal_workflow_access", In: in, Usage: "access to every workflow"},
		{Flag: "universal-query-library-access", Key: "universal_query_library_access", In: in, Usage: "access to the Query Library"},
	}
}

// membersFromFlags turns --user IDs into the API's member objects.
// membersAdded names who joined which group: "Added dev.lee@example.com
// to group support".
func membersAdded(c *opdef.Call) string {
	users := c.TypedList("user")
	if len(users) == 0 {
		return "" // --body: the generic line
	}
	who := fmt.Sprintf("%d users", len(users))
	switch {
	case len(users) == 1:
		who = users[0]
	case len(users) <= 3:
		who = strings.Join(users[:len(users)-1], ", ") + " and " + users[len(users)-1]
	}
	as := ""
	if c.LocalBool("admin") {
		as = " as group admins"
		if len(users) == 1 {
			as = " as a group admin"
		}
	}
	group := c.ArgKey(0)
	var answer struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(c.Run.Answer, &answer) == nil && answer.Name != "" {
		group = answer.Name // the group as named, though given by id
	}
	return "Added " + who + " to group " + group + as
}

func membersFromFlags(c *opdef.Call) error {
	ids := c.LocalStrings("user")
	if len(ids) == 0 {
		if c.Op.Method == http.MethodPost && c.Op.Path != "/groups" && c.BodyObject()["members"] == nil {
			return cli.UsageErrorf("%s: pass at least one --user USER_ID", c.Command)
		}
		return nil
	}
	admin := c.LocalBool("admin")
	members, _ := c.BodyObject()["members"].([]any)
	for _, id := range ids {
		members = append(members, map[string]any{"id": id, "is_group_admin": admin})
	}
	c.Req.Body["members"] = members
	return nil
}

// numbersIn turns a repeatable flag's ids into the JSON numbers the API wants.
func numbersIn(key, flag string) func(c *opdef.Call) error {
	return func(c *opdef.Call) error {
		ids, _ := output.Lookup(c.BodyObject(), key).([]any)
		out := make([]any, 0, len(ids))
		for _, id := range ids {
			s, ok := id.(string)
			if !ok {
				out = append(out, id) // already a number (from --body)
				continue
			}
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return cli.UsageErrorf("invalid --%s %q: expected a number", flag, s)
			}
			// Re-formatted: "007" parses but is no JSON number.
			out = append(out, json.Number(strconv.FormatUint(n, 10)))
		}
		opdef.SetPath(c.Req.Body, key, out)
		return nil
	}
}

func groupsGroup() engine.Group {
	memberColumns := []output.Column{
		{Header: "ID", Field: "id"},
		{Header: "NAME", Field: "name"},
		{Header: "MEMBERS", Value: func(r map[string]any) string {
			m, _ := r["members"].([]any)
			return fmt.Sprint(len(m))
		}},
	}
	createFields := append([]opdef.Field{
		{Flag: "name", Key: "name", Usage: "group name"},
		{Flag: "user", In: opdef.InLocal, Type: opdef.TStrings, Usage: "add this member `USER` (id or email; repeatable)"},
		{Flag: "admin", In: opdef.InLocal, Type: opdef.TBool, Usage: "make the --user members group admins"},
	}, groupAccessFields(opdef.InBody)...)
	return engine.Group{
		Long: `Permission groups of the organization or Space. Group ids are numbers.`,
		Example: `  orgctl groups list
  orgctl groups create --name Analysts --universal-app-access use --user ana.viewer@sandbox.example
  orgctl groups members add support --user ana.viewer@sandbox.example --user dev.lee@sandbox.example
  orgctl groups members remove support ana.viewer@sandbox.example --yes`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "NAME", Field: "name"},
			{Header: "MEMBERS", Value: func(r map[string]any) string {
				m, _ := r["members"].([]any)
				return fmt.Sprint(len(m))
			}},
			{Header: "APP ACCESS", Field: "universal_app_access"},
			{Header: "RESOURCE ACCESS", Field: "universal_resource_access"},
			{Header: "WORKFLOW ACCESS", Field: "universal_workflow_access"},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/groups",
				Help: opdef.Help{
					Short:   "List groups",
					Example: "  orgctl groups list\n  orgctl groups list -o json --jq '.[].name'",
				},
			},
			{Use: "get GROUP_ID", Method: http.MethodGet, Path: "/groups/{groupId}",
				Help: opdef.Help{
					Short:   "Show a group with its members",
					Example: "  orgctl groups get support\n  orgctl groups get support --exclude-disabled-users -o yaml",
				},
				Args:  opdef.Args{Params: []string{"groupId"}},
				Hooks: opdef.Hooks{View: groupView},
				Fields: []opdef.Field{
					{Flag: "exclude-disabled-users", Key: "excludeDisabledUsers", In: opdef.InQuery, Type: opdef.TBool, Usage: "leave disabled users out of members"},
				}},
			{Use: "create", Method: http.MethodPost, Path: "/groups", Body: true,
				Help: opdef.Help{
					Short:   "Create a group",
					Example: "  orgctl groups create --name Analysts\n  orgctl groups create --name Ops --universal-resource-access edit --user ana.viewer@sandbox.example --admin",
				},
				Bulk:   opdef.Bulk{Exists: opdef.ConflictKey("groups", "name", "update")},
				Fields: createFields,
				Hooks:  opdef.Hooks{Shape: membersFromFlags},
			},
			{Use: "update GROUP_ID", Method: http.MethodPatch, Path: "/groups/{groupId}",
				Help: opdef.Help{
					Short:   "Change a group's fields (JSON Patch)",
					Example: "  orgctl groups update support --name Analytics\n  orgctl groups update support --universal-app-access edit",
				},
				Args: opdef.Args{Params: []string{"groupId"}},
				Body: true, Patch: true,
				Fields: append([]opdef.Field{{Flag: "name", Key: "name", In: opdef.InPatch, Usage: "new name"}}, groupAccessFields(opdef.InPatch)...)},
			{Use: "delete GROUP_ID", Method: http.MethodDelete, Path: "/groups/{groupId}",
				Help: opdef.Help{Short: "Delete a group", Example: "  orgctl groups delete support --yes"},
				Args: opdef.Args{Params: []string{"groupId"}},
				Confirm: &opdef.Confirm{
					Question: "Delete group %s? Its members lose the access it gives them; this cannot be undone.",
				},
			},
			{Use: "replace GROUP_ID", Method: http.MethodPut, Path: "/groups/{groupId}",
				Help: opdef.Help{
					Short: "Replace a whole group (PUT)",
					Long: `Sends the complete group: fields left out are reset by the API, and the member
list becomes exactly --user (or the body's "members"). To change one field, use
'groups update'. A safe round trip: 'orgctl groups get support -o json > g.json', edit
g.json, then 'orgctl groups replace support --body g.json'.`,
					Example: `  orgctl groups replace support --name Analysts --universal-app-access use --user ana.viewer@sandbox.example --user dev.lee@sandbox.example
  orgctl groups get support -o json > g.json && orgctl groups replace support --body g.json`,
				},
				Args: opdef.Args{Params: []string{"groupId"}},
				Body: true,
				Fields: append(append([]opdef.Field{
					{Flag: "name", Key: "name", Required: true, Usage: "group name"},
					{Flag: "user", In: opdef.InLocal, Type: opdef.TStrings, Usage: "member `USER` (id or email; repeatable; the complete member list)"},
					{Flag: "admin", In: opdef.InLocal, Type: opdef.TBool, Usage: "make the --user members group admins"},
				}, groupAccessFields(opdef.InBody)...),
					opdef.Field{Flag: "user-list-access", Key: "user_list_access", Type: opdef.TBool, Usage: "may see the user list"},
					opdef.Field{Flag: "audit-log-access", Key: "audit_log_access", Type: opdef.TBool, Usage: "may see the audit log"},
					opdef.Field{Flag: "unpublished-release-access", Key: "unpublished_release_access", Type: opdef.TBool, Usage: "may use unpublished releases"},
					opdef.Field{Flag: "usage-analytics-access", Key: "usage_analytics_access", Type: opdef.TBool, Usage: "may see usage analytics"},
					opdef.Field{Flag: "theme-access", Key: "theme_access", Type: opdef.TBool, Usage: "may edit themes"},
					opdef.Field{Flag: "account-details-access", Key: "account_details_access", Type: opdef.TBool, Usage: "may see account details"},
					opdef.Field{Flag: "landing-page-app", Key: "landing_page_app_id", Usage: "landing page `APP` (UUID or name)"},
				),

				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						// A body from 'groups get' carries read-only fields the PUT schema rejects or ignores.
						for _, k := range []string{"id", "legacy_id", "created_at", "updated_at"} {
							delete(c.BodyObject(), k)
						}
						if ms, ok := c.Req.Body["members"].([]any); ok {
							for _, m := range ms {
								if mm, ok := m.(map[string]any); ok {
									delete(mm, "email")
								}
							}
						}
						if c.LocalBool("admin") && !c.Has("user") {
							return cli.UsageErrorf("%s: --admin applies to --user members; pass --user too", c.Command)
						}
						return membersFromFlags(c)
					},
				},
			},
		},
		Groups: []engine.Group{{
			Name:    "members",
			Short:   "Add and remove group members",
			Columns: memberColumns,
			Ops: []opdef.Op{
				{Use: "list GROUP", Method: http.MethodGet, Path: "/groups/{groupId}",
					Help: opdef.Help{
						Short:   "List a group's members",
						Long:    "GROUP is an id or a name. One row per member: email, id, group admin. -o json\nis the group as the API gives it (its \"members\" field holds the list).",
						Example: "  orgctl groups members list support\n  orgctl groups members list support -o json --jq '.members[].email'",
					},
					Args: opdef.Args{Params: []string{"groupId"}},
					Columns: []output.Column{
						{Header: "EMAIL", Field: "email"},
						{Header: "ID", Field: "id"},
						{Header: "GROUP ADMIN", Field: "is_group_admin"},
					},

					Hooks: opdef.Hooks{View: membersView},
				},
				{Use: "add GROUP_ID", Method: http.MethodPost, Path: "/groups/{groupId}/members",
					Help: opdef.Help{
						Short: "Add users to a group",
						Long: `The API answers adding a member who is one already as if it added them, so
orgctl looks in the list of groups first (the list a group's name is looked up
in: no second request then) and, when every --user is a member already (and a
group admin, with --admin), says so and sends nothing.`,
						Example: "  orgctl groups members add support --user ana.viewer@sandbox.example\n  orgctl groups members add support --user ana.viewer@sandbox.example --user dev.lee@sandbox.example --admin",
						Done:    "Added members to group %s",
					},
					Args: opdef.Args{Params: []string{"groupId"}},
					Bulk: opdef.Bulk{Exists: opdef.MemberExists, Batch: "members"},
					Body: true,
					Fields: []opdef.Field{
						{Flag: "user", In: opdef.InLocal, Type: opdef.TStrings, Usage: "member `USER` to add (id or email; repeatable)"},
						{Flag: "admin", In: opdef.InLocal, Type: opdef.TBool, Usage: "make them group admins"},
					},

					Hooks: opdef.Hooks{Shape: membersFromFlags, DoneLine: membersAdded},
				},
				{Use: "remove GROUP_ID USER_ID", Method: http.MethodDelete, Path: "/groups/{groupId}/members/{userId}",
					Help: opdef.Help{
						Short:   "Remove a user from a group",
						Example: "  orgctl groups members remove support ana.viewer@sandbox.example --yes\n  orgctl groups members remove support --user ana.viewer@sandbox.example --yes",
						Done:    "Removed %[2]s from group %[1]s",
					},
					Args: opdef.Args{Params: []string{"groupId", "userId"}, Flags: []string{"", "user"}},
					Confirm: &opdef.Confirm{
						Question: "Remove %[2]s from group %[1]s? They lose the access the group gives; 'orgctl groups members add' puts them back.",
					},
				},
			},
		}, {
			Name:  "invites",
			Short: "Add and remove pending user invites of a group",
			Long: `An invite in a group puts the invited person in that group when they accept.
Invite ids are numbers (see 'orgctl invites list').`,
			Columns: memberColumns,
			Ops: []opdef.Op{
				{Use: "add GROUP_ID", Method: http.MethodPost, Path: "/groups/{groupId}/user_invites",
					Help: opdef.Help{
						Short:   "Add user invites to a group",
						Example: "  orgctl groups invites add support --invite 1\n  orgctl groups invites add support --invite invitee@sandbox.example",
						Done:    "Added invites to group %s",
					},
					Args: opdef.Args{Params: []string{"groupId"}},
					Fields: []opdef.Field{
						{Flag: "invite", Key: "userInviteIds", Type: opdef.TStrings, Usage: "user `INVITE` to add (id or invited email; repeatable)"},
					},

					Hooks: opdef.Hooks{Shape: numbersIn("userInviteIds", "invite")},

					Bulk: opdef.Bulk{Batch: "userInviteIds"},
				},
				{Use: "remove GROUP_ID INVITE_ID", Method: http.MethodDelete, Path: "/groups/{groupId}/user_invites/{userInviteId}",
					Help: opdef.Help{
						Short:   "Remove a user invite from a group",
						Example: "  orgctl groups invites remove support 1 --yes",
						Done:    "Removed invite %[2]s from group %[1]s",
					},
					Args: opdef.Args{Params: []string{"groupId", "userInviteId"}},
					Confirm: &opdef.Confirm{
						Question: "Remove invite %[2]s from group %[1]s? 'orgctl groups invites add' puts it back.",
					},
				},
			},
		}},
	}
}
