package families

import (
	"net/http"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

func workflowsGroup() engine.Group {
	return engine.Group{
		Long: `Workflows of the organization or Space. update and delete need API 4.0.`,
		Example: `  orgctl workflows list
  orgctl workflows get 'Nightly invoice sync' -o yaml
  orgctl workflows runs get RUN_ID`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "NAME", Field: "name"},
			{Header: "ENABLED", Field: "is_enabled"},
			{Header: "SCHEDULE", Field: "crontab"},
			{Header: "TIMEZONE", Field: "timezone"},
			{Header: "FOLDER", Field: "folder_id", Names: "folders"},
		},
		Ops: append([]opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/workflows",
				Help: opdef.Help{
					Short:   "List workflows",
					Example: "  orgctl workflows list\n  orgctl workflows list --jq '.[] | select(.crontab != null) | .name'",
				},
			},
			{Use: "get WORKFLOW_ID", Method: http.MethodGet, Path: "/workflows/{workflowId}",
				Help: opdef.Help{Short: "Show a workflow", Example: "  orgctl workflows get 'Nightly invoice sync'"},
				Args: opdef.Args{Params: []string{"workflowId"}},
			},
		}, workflowsV4Ops()...),
		Groups: []engine.Group{{
			Name:    "runs",
			Short:   "Inspect workflow runs",
			Example: "  orgctl workflows runs get RUN_ID",
			Ops: []opdef.Op{
				{Use: "get RUN_ID", Method: http.MethodGet, Path: "/workflow_run/{id}",
					Help: opdef.Help{
						Short:   "Show a workflow run and its user tasks",
						Long:    "Needs the Workflow Runs API (closed beta; Retool 3.122+).",
						Example: "  orgctl workflows runs get RUN_ID\n  orgctl workflows runs get RUN_ID --jq '.user_tasks[] | select(.status==\"pending\") | .id'",
					},
					Args: opdef.Args{Params: []string{"id"}},
					Columns: []output.Column{
						{Header: "ID", Field: "id"}, {Header: "WORKFLOW", Field: "workflow_id"}, {Header: "STATUS", Field: "status"},
						{Header: "TRIGGER", Field: "trigger_type"}, {Header: "CREATED", Field: "created_at"},
					},
				},
			},
		}},
	}
}
