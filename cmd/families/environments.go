package families

import (
	"net/http"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

func environmentsGroup() engine.Group {
	return engine.Group{
		Long: `Environments (production, staging, ...) in which resources have separate
configurations and configuration variables separate values. Ids are UUIDs.
Creating, updating and deleting environments needs Retool 3.123.0 or later.`,
		Example: `  orgctl environments list
  orgctl environments create --name qa --color '#F5A623' --description "QA sign-off"
  orgctl environments update staging --color '#3C92DC'
  orgctl environments delete staging --yes`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "NAME", Field: "name"},
			{Header: "COLOR", Field: "color"},
			{Header: "DEFAULT", Field: "default"},
			{Header: "DESCRIPTION", Field: "description"},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/environments",
				Help: opdef.Help{
					Short:   "List environments",
					Example: "  orgctl environments list\n  orgctl environments list --jq '.[] | select(.default) | .id'",
				},
			},
			{Use: "get ENVIRONMENT_ID", Method: http.MethodGet, Path: "/environments/{environmentId}",
				Help: opdef.Help{
					Short:   "Show an environment",
					Example: "  orgctl environments get 5a4d000f-0000-4000-8000-000000000001",
				},
				Args: opdef.Args{Params: []string{"environmentId"}},
			},
			{Use: "create", Method: http.MethodPost, Path: "/environments", Body: true,
				Help: opdef.Help{
					Short:   "Create an environment",
					Example: "  orgctl environments create --name qa --color '#F5A623'\n  orgctl environments create --name eu --color '#00AA55' --description 'EU data residency' --dry-run",
				},
				Bulk: opdef.Bulk{Exists: opdef.ConflictKey("environments", "name", "update")},
				Fields: []opdef.Field{
					{Flag: "name", Key: "name", Usage: "environment name"},
					{Flag: "color", Key: "color", Usage: "colour shown in the editor, `#RRGGBB`"},
					{Flag: "description", Key: "description", Usage: "what the environment is for"},
				}},
			{Use: "update ENVIRONMENT_ID", Method: http.MethodPatch, Path: "/environments/{environmentId}",
				Help: opdef.Help{
					Short:   "Rename or recolour an environment",
					Long:    "Each flag becomes one JSON Patch \"replace\" operation (the only op the API takes).",
					Example: "  orgctl environments update staging --name qa-eu\n  orgctl environments update staging --description 'Sign-off' --color '#FFFFFF'",
				},
				Args: opdef.Args{Params: []string{"environmentId"}},
				Body: true, Patch: true,
				Fields: []opdef.Field{
					{Flag: "name", Key: "name", In: opdef.InPatch, Usage: "new name"},
					{Flag: "color", Key: "color", In: opdef.InPatch, Usage: "new colour, `#RRGGBB`"},
					{Flag: "description", Key: "description", In: opdef.InPatch, Usage: "new description"},
				}},
			{Use: "delete ENVIRONMENT_ID", Method: http.MethodDelete, Path: "/environments/{environmentId}",
				Help: opdef.Help{Short: "Delete an environment", Example: "  orgctl environments delete staging --yes"},
				Args: opdef.Args{Params: []string{"environmentId"}},
				Confirm: &opdef.Confirm{
					Question: "Delete environment %s? This cannot be undone: 'orgctl environments create' makes a new one with a new id.",
				},
			},
		},
	}
}
