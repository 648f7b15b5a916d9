package cmd

import (
	"fmt"
	"net/http"

	"github.com/orgctl/orgctl/output"
)

var accessLevels = []string{"none", "use", "edit", "own"}

func groupAccessFields(in In) []Field {
	return []Field{
		{Flag: "universal-app-access", Key: "universal_app_access", In: in, Enum: accessLevels, Usage: "access to every app"},
		{Flag: "universal-resource-access", Key: "universal_resource_access", In: in, Enum: accessLevels, Usage: "access to every resource"},
		{Flag: "universal-workflow-access", Key: "universal_workflow_access", In: in, Enum: accessLevels, Usage: "access to every workflow"},
		{Flag: "universal-query-library-access", Key: "universal_query_library_access", In: in, Enum: []string{"none", "use", "edit"}, Usage: "access to the Query Library"},
	}
}

// membersFromFlags turns --user IDs into the API's member objects.
func membersFromFlags(key string) func(f *Factory, c *Call) error {
	return func(f *Factory, c *Call) error {
		ids, _ := c.Cmd.Flags().GetStringArray("user")
		if len(ids) == 0 {
			if key == "members" && c.Op.Method == http.MethodPost && c.Body["members"] == nil && c.Op.Path != "/groups" {
				return usageErrorf("%s: pass at least one --user USER_ID", c.Cmd.CommandPath())
			}
			return nil
		}
		admin, _ := c.Cmd.Flags().GetBool("admin")
		members, _ := c.Body["members"].([]any)
		for _, id := range ids {
			if id == "" {
				return usageErrorf("--user: empty user id")
			}
			members = append(members, map[string]any{"id": id, "is_group_admin": admin})
		}
		if c.Body == nil {
			c.Body = map[string]any{}
		}
		delete(c.Body, "user")
		delete(c.Body, "admin")
		c.Body["members"] = members
		return nil
	}
}

func init() { register(groupsGroup) }

func groupsGroup() Group {
	memberColumns := []output.Column{
		{Header: "ID", Field: "id"},
		{Header: "NAME", Field: "name"},
		{Header: "MEMBERS", Value: func(r map[string]any) string {
			m, _ := r["members"].([]any)
			return fmt.Sprint(len(m))
		}},
	}
	createFields := append([]Field{
		{Flag: "name", Key: "name", Required: true, Usage: "group name"},
		{Flag: "user", Key: "user", Kind: KStrings, Usage: "add this member `USER_ID` (repeatable)"},
		{Flag: "admin", Key: "admin", Kind: KBool, Usage: "make the --user members group admins"},
	}, groupAccessFields(InBody)...)
	return Group{
		Name:    "groups",
		Aliases: []string{"group"},
		Short:   "Manage permission groups and their members",
		Long:    `Permission groups of the organization or Space. Group ids are numbers.`,
		Example: `  orgctl groups list
  orgctl groups create --name Analysts --universal-app-access use --user user_abc
  orgctl groups members add 7 --user user_abc --user user_def
  orgctl groups members remove 7 user_abc --yes`,
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
		Ops: []Op{
			{Use: "list", Short: "List groups", Method: http.MethodGet, Path: "/groups", Scope: "Groups > Read", List: true,
				Example: "  orgctl groups list\n  orgctl groups list -o json --jq '.[].name'"},
			{Use: "get GROUP_ID", Short: "Show a group with its members", Method: http.MethodGet, Path: "/groups/{groupId}", Args: []string{"groupId"}, Scope: "Groups > Read",
				Example: "  orgctl groups get 7\n  orgctl groups get 7 --exclude-disabled-users -o yaml",
				Fields: []Field{
					{Flag: "exclude-disabled-users", Key: "excludeDisabledUsers", In: InQuery, Kind: KBool, Usage: "leave disabled users out of members"},
				}},
			{Use: "create", Short: "Create a group", Method: http.MethodPost, Path: "/groups", Scope: "Groups > Write", Body: true,
				Example: "  orgctl groups create --name Analysts\n  orgctl groups create --name Ops --universal-resource-access edit --user user_abc --admin",
				Fields:  createFields, Prepare: membersFromFlags("members")},
			{Use: "update GROUP_ID", Short: "Change a group's fields (JSON Patch)", Method: http.MethodPatch, Path: "/groups/{groupId}", Args: []string{"groupId"}, Scope: "Groups > Write",
				Body: true, Patch: true,
				Example: "  orgctl groups update 7 --name Analytics\n  orgctl groups update 7 --universal-app-access edit",
				Fields:  append([]Field{{Flag: "name", Key: "name", In: InPatch, Usage: "new name"}}, groupAccessFields(InPatch)...)},
			{Use: "delete GROUP_ID", Short: "Delete a group", Method: http.MethodDelete, Path: "/groups/{groupId}", Args: []string{"groupId"}, Scope: "Groups > Write",
				Destructive: true, Example: "  orgctl groups delete 7 --yes"},
		},
		Groups: []Group{{
			Name:    "members",
			Short:   "Add and remove group members",
			Columns: memberColumns,
			Ops: []Op{
				{Use: "add GROUP_ID", Short: "Add users to a group", Method: http.MethodPost, Path: "/groups/{groupId}/members", Args: []string{"groupId"}, Scope: "Groups > Write",
					Body:    true,
					Example: "  orgctl groups members add 7 --user user_abc\n  orgctl groups members add 7 --user user_abc --user user_def --admin",
					Fields: []Field{
						{Flag: "user", Key: "user", Kind: KStrings, Usage: "member `USER_ID` to add (repeatable)"},
						{Flag: "admin", Key: "admin", Kind: KBool, Usage: "make them group admins"},
					},
					Prepare: membersFromFlags("members")},
				{Use: "remove GROUP_ID USER_ID", Short: "Remove a user from a group", Method: http.MethodDelete, Path: "/groups/{groupId}/members/{userSid}", Args: []string{"groupId", "userSid"}, Scope: "Groups > Write",
					Destructive: true, Example: "  orgctl groups members remove 7 user_abc --yes"},
			},
		}},
	}
}
