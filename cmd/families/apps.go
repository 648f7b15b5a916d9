package families

import (
	"net/http"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// argToBody moves a positional argument into the request body, for
// operations whose target id travels in the body instead of the path.
func argToBody(param, key string) func(c *opdef.Call) error {
	return func(c *opdef.Call) error {
		opdef.SetPath(c.BodyObject(), key, c.Req.Params[param])
		delete(c.Req.Params, param)
		return nil
	}
}

func appsGroup() engine.Group {
	return engine.Group{
		Long: `Apps of the organization (or of the Space a profile points at). App ids are
UUIDs (5a4d0006-0000-4000-8000-000000000001); folder ids look like app_7 (see
'orgctl folders list').

Gotchas:
  - delete removes the app and its history; there is no undo. Clone it first
    if in doubt.
  - create is not in the published API reference; its body is {"name",
    "folder_id", "description"}, so richer bodies go through --body.
  - clone copies the latest saved version into the root folder unless --folder
    is given.`,
		Example: `  orgctl apps list
  orgctl apps get 5a4d0006-0000-4000-8000-000000000001 -o json
  orgctl apps create --name "Refund Console" --folder app_7
  orgctl apps clone 5a4d0006-0000-4000-8000-000000000001 --name "Refund Console (copy)"
  orgctl apps delete 5a4d0006-0000-4000-8000-000000000001 --yes`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "NAME", Field: "name"},
			{Header: "FOLDER", Field: "folder_id", Names: "folders"},
			{Header: "MODULE", Field: "is_module"},
			{Header: "MOBILE", Field: "is_mobile_app"},
			{Header: "PROTECTED", Field: "protected"},
			{Header: "UPDATED", Field: "updated_at"},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/apps",
				Help: opdef.Help{
					Short:   "List apps",
					Long:    "--using-resource and --name-contains filter on the server (API 4.0); an older\ninstance refuses them before anything is sent.",
					Example: "  orgctl apps list\n  orgctl apps list --using-resource legacy-mssql\n  orgctl apps list --name-contains refund\n  orgctl apps list --jq '.[] | select(.folder_id == \"app_7\") | .name'",
				},
				Fields: appsListFields,
			},
			{Use: "get APP_ID", Method: http.MethodGet, Path: "/apps/{appId}",
				Help: opdef.Help{
					Short:   "Show an app",
					Example: "  orgctl apps get 5a4d0006-0000-4000-8000-000000000001\n  orgctl apps get 5a4d0006-0000-4000-8000-000000000001 -o yaml",
				},
				Args: opdef.Args{Params: []string{"appId"}},
			},
			{Use: "create", Method: http.MethodPost, Path: "/apps", Body: true,
				Help: opdef.Help{
					Short: "Create an app",
					Long:  "The JSON body comes from --body (FILE or - for stdin); --name, --folder and\n--description override its fields.",
					Example: `  orgctl apps create --name "Refund Console"
  orgctl apps create --name Reports --folder app_7 --description "Quarterly numbers"
  echo '{"name":"From stdin"}' | orgctl apps create --body -`,
				},
				Bulk: opdef.Bulk{Exists: opdef.LookFirst("apps", "name", "")},
				Fields: []opdef.Field{
					{Flag: "name", Key: "name", Usage: "app name"},
					{Flag: "folder", Key: "folder_id", Usage: "`FOLDER` id (app_N) or path (app:/Finance); default: the root app folder"},
					{Flag: "description", Key: "description", Usage: "app description"},
				}},
			{Use: "delete APP_ID", Method: http.MethodDelete, Path: "/apps/{appId}",
				Help: opdef.Help{
					Short:   "Delete an app",
					Example: "  orgctl apps delete 5a4d0006-0000-4000-8000-000000000001\n  orgctl apps delete 5a4d0006-0000-4000-8000-000000000001 --yes   # in scripts",
				},
				Args: opdef.Args{Params: []string{"appId"}},
				Confirm: &opdef.Confirm{
					Question: "Delete app %s? It is removed with its releases and history; this cannot be undone.",
				},
			},
			{Use: "clone APP_ID", Method: http.MethodPost, Path: "/apps/cloneApp",
				Help: opdef.Help{
					Short: "Copy an app under a new name",
					Example: `  orgctl apps clone 5a4d0006-0000-4000-8000-000000000001 --name "Refund Console v2"
  orgctl apps clone 5a4d0006-0000-4000-8000-000000000001 --name Copy --folder app_2 --jq .id`,
				},
				Args: opdef.Args{Params: []string{"appId"}},
				Bulk: opdef.Bulk{Exists: opdef.LookFirst("apps", "name", "")},
				Fields: []opdef.Field{
					{Flag: "name", Key: "new_app_name", Usage: "name of the new app"},
					{Flag: "folder", Key: "folder_id", Usage: "put the copy in this `FOLDER` (id or path; default: root)"},
				},

				Hooks: opdef.Hooks{Shape: argToBody("appId", "app_id")},
			},
		},
		Groups: []engine.Group{validateGroup()},
	}
}
