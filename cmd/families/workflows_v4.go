package families

import (
	"github.com/orgctl/orgctl/cmd/cli/usage"
	"net/http"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
)

// workflowsV4Ops change and delete a workflow: operations of API 4.0.
func workflowsV4Ops() []opdef.Op {
	return []opdef.Op{
		{Use: "update WORKFLOW_ID", Method: http.MethodPatch, Path: "/workflows/{workflowId}", Body: true,
			Args: opdef.Args{Params: []string{"workflowId"}},
			Help: opdef.Help{Done: "Updated workflow %s", Short: "Change a workflow's resource limits",
				Long: `Sets the workflow's own Code Executor memory limit, overriding the org's
('orgctl org code-executor set'); --clear-memory-limit removes the override.
Needs API 4.0 (Retool 4.0).`,
				Example: `  orgctl workflows update 'Nightly invoice sync' --code-executor-memory-limit 2048
  orgctl workflows update 'Nightly invoice sync' --clear-memory-limit`},
			Fields: []opdef.Field{
				{Flag: "code-executor-memory-limit", Key: "code_executor_memory_limit_mbs", Type: opdef.TInt, Usage: "memory limit in `MB` (256-32768) for the workflow's code"},
				{Flag: "clear-memory-limit", In: opdef.InLocal, Type: opdef.TBool, Usage: "remove the workflow's memory limit override (the org's applies)"},
			},
			Hooks: opdef.Hooks{Shape: func(c *opdef.Call) error {
				_, set := c.BodyObject()["code_executor_memory_limit_mbs"]
				switch clear := c.LocalBool("clear-memory-limit"); {
				case clear && set:
					return cli.UsageErrorf("%s: --code-executor-memory-limit and --clear-memory-limit cannot be used together", c.Command)
				case clear:
					c.Req.Body["code_executor_memory_limit_mbs"] = nil
				case !set:
					return cli.UsageErrorf("%s: %w: pass --code-executor-memory-limit MB or --clear-memory-limit", c.Command, usage.ErrNothingToChange)
				}
				return nil
			}}},
		{Use: "delete WORKFLOW_ID", Method: http.MethodDelete, Path: "/workflows/{workflowId}",
			Args:    opdef.Args{Params: []string{"workflowId"}},
			Confirm: &opdef.Confirm{Question: "Delete workflow %s with its triggers and run history? This cannot be undone."},
			Help: opdef.Help{Done: "Deleted workflow %s", Short: "Delete a workflow", Long: "Needs API 4.0 (Retool 4.0).",
				Example: "  orgctl workflows delete 'Nightly invoice sync'\n  orgctl workflows delete 'Nightly invoice sync' --yes   # in scripts"}},
	}
}
