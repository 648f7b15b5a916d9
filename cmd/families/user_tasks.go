package families

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

var userTaskColumns = []output.Column{
	{Header: "ID", Field: "id"},
	{Header: "TASK", Field: "task_name"},
	{Header: "STATUS", Field: "status"},
	{Header: "WORKFLOW", Field: "workflow_name"},
	{Header: "RUN", Field: "workflow_run_id"},
	{Header: "CREATED", Field: "created_at"},
	{Header: "EXPIRES", Field: "expires_at"},
}

// under points columns at a nested object (the mutations answer {"user_task": {...}}).
func under(prefix string, cols []output.Column) []output.Column {
	out := make([]output.Column, len(cols))
	for i, c := range cols {
		out[i] = c
		if c.Field != "" {
			out[i].Field = prefix + "." + c.Field
		}
	}
	return out
}

// joinQuery sends a repeatable filter as the comma-separated list the API takes.
func joinQuery(keys ...string) func(c *opdef.Call) error {
	return func(c *opdef.Call) error {
		for _, k := range keys {
			if vs := c.Req.Query[k]; len(vs) > 1 {
				c.Req.Query.Set(k, strings.Join(vs, ","))
			}
		}
		return nil
	}
}

func actorField() opdef.Field {
	return opdef.Field{Flag: "email", Key: "email", Usage: "email of the user acting on the task"}
}

func userTasksGroup() engine.Group {
	return engine.Group{
		Long: `User tasks are workflow steps waiting for a person (closed beta; Retool 3.114+).
--email names the user on whose behalf a task is submitted, cancelled or reassigned.`,
		Example: `  orgctl user-tasks list --status pending
  orgctl user-tasks submit TASK_ID --email ada@example.com --data approved=true --data note="looks good"
  orgctl user-tasks reassign TASK_ID --email ada@example.com --group 7 --user ana.viewer@sandbox.example
  orgctl user-tasks cancel TASK_ID --email ada@example.com`,
		Columns: under("user_task", userTaskColumns),
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/user_tasks",
				Help: opdef.Help{
					Short:   "List user tasks",
					Example: "  orgctl user-tasks list --status pending --status expired\n  orgctl user-tasks list --assigned-to ana.viewer@sandbox.example --workflow WF_ID\n  orgctl user-tasks list --limit 20 --starting-after TASK_ID",
				},
				Columns: userTaskColumns,
				Fields: []opdef.Field{
					{Flag: "assigned-to", Key: "assigned_to_users", In: opdef.InQuery, Type: opdef.TStrings, Usage: "only tasks assigned to this `USER` (id or email; repeatable)"},
					{Flag: "status", Key: "statuses", In: opdef.InQuery, Type: opdef.TStrings, Usage: "only tasks in this status (repeatable)"},
					{Flag: "workflow", Key: "workflow_ids", In: opdef.InQuery, Type: opdef.TStrings, Usage: "only tasks of this `WORKFLOW` (id or name; repeatable)"},
					{Flag: "starting-after", Key: "starting_after", In: opdef.InQuery, Usage: "only tasks after this task `ID`"},
					{Flag: "ending-before", Key: "ending_before", In: opdef.InQuery, Usage: "only tasks before this task `ID`"},
				},

				Hooks: opdef.Hooks{Shape: joinQuery("statuses", "workflow_ids")},
			},
			{Use: "submit TASK_ID", Method: http.MethodPatch, Path: "/user_tasks/{taskId}/submit", Body: true,
				Help: opdef.Help{
					Short:   "Submit a user task with its output",
					Long:    "The output is the task's form data: --data KEY=VALUE pairs (values are JSON when they parse as JSON) or {\"output\": {...}} in --body.",
					Example: "  orgctl user-tasks submit TASK_ID --email ada@example.com --data approved=true\n  orgctl user-tasks submit TASK_ID --email ada@example.com --body answer.json",
				},
				Args: opdef.Args{Params: []string{"taskId"}},
				Fields: []opdef.Field{actorField(),
					{Flag: "data", Key: "output", Type: opdef.TKV, Usage: "output field `KEY=VALUE` (repeatable)"},
				}},
			{Use: "cancel TASK_ID", Method: http.MethodPatch, Path: "/user_tasks/{taskId}/cancel", Body: true,
				Help: opdef.Help{
					Short:   "Cancel a user task",
					Example: "  orgctl user-tasks cancel TASK_ID --email ada@example.com\n  orgctl user-tasks cancel TASK_ID --email ada@example.com --data reason=duplicate",
				},
				Args: opdef.Args{Params: []string{"taskId"}},
				Fields: []opdef.Field{actorField(),
					{Flag: "data", Key: "output", Type: opdef.TKV, Usage: "output field `KEY=VALUE`, e.g. reason=duplicate (repeatable)"},
				}},
			{Use: "reassign TASK_ID", Method: http.MethodPatch, Path: "/user_tasks/{taskId}/reassign", Body: true,
				Help: opdef.Help{
					Short:   "Reassign a user task to users or groups",
					Long:    "The assignees replace the current ones.",
					Example: "  orgctl user-tasks reassign TASK_ID --email ada@example.com --user ana.viewer@sandbox.example\n  orgctl user-tasks reassign TASK_ID --email ada@example.com --group 7 --group 9",
				},
				Args: opdef.Args{Params: []string{"taskId"}},
				Fields: []opdef.Field{actorField(),
					{Flag: "user", In: opdef.InLocal, Type: opdef.TStrings, Usage: "assign to this `USER` (id or email; repeatable)"},
					{Flag: "group", In: opdef.InLocal, Type: opdef.TStrings, Usage: "assign to this `GROUP` (id or name; repeatable)"},
				},

				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						users, _ := c.Given.Local["user"].([]any)
						groups, _ := c.Given.Local["group"].([]any)
						as, _ := c.BodyObject()["assignees"].([]any)
						for _, g := range groups {
							n, err := strconv.ParseInt(fmt.Sprint(g), 10, 64)
							if err != nil {
								return cli.UsageErrorf("invalid --group %q: group ids are numbers", g)
							}
							as = append(as, map[string]any{"type": "group", "id": n})
						}
						for _, u := range users {
							as = append(as, map[string]any{"type": "user", "id": u})
						}
						if len(as) == 0 {
							return cli.UsageErrorf("%s: pass at least one --user or --group", c.Command)
						}
						c.Req.Body["assignees"] = as
						return nil
					},
				},
			},
		},
	}
}
