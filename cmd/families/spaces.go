package families

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

func spacesGroup() engine.Group {
	return engine.Group{
		Long: `Spaces are child organizations of the current one, each with its own users,
apps, resources and tokens. Space ids are UUIDs; a Space's domain is its address
(on the cloud, its subdomain).

Gotchas:
  - These commands act on the children of the Space the profile points at; to
    work inside a child Space, use a profile (or token) for that Space.
  - update is a full replacement (PUT): --name and --domain are both required.
  - delete removes the Space and everything in it.
  - copy copies apps, workflows, resources and Query Library queries by UUID into
    another Space; it does not move them.`,
		Example: `  orgctl spaces list
  orgctl spaces create --name marketing --domain marketing --copy-sso-settings --copy-admin ada@example.com
  orgctl spaces update org_5a4d0004000000000000000000000001 --name engineering --domain eng
  orgctl spaces copy --to org_5a4d0004000000000000000000000001 --app 5a4d0006-0000-4000-8000-000000000001
  orgctl spaces delete org_5a4d0004000000000000000000000001 --yes`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "NAME", Field: "name"},
			{Header: "DOMAIN", Field: "domain"},
			{Header: "CREATED", Field: "created_at"},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/spaces",
				Help: opdef.Help{
					Short:   "List child Spaces",
					Example: "  orgctl spaces list\n  orgctl spaces list --jq '.[].domain'",
				},
			},
			{Use: "get SPACE_ID", Method: http.MethodGet, Path: "/spaces/{spaceId}",
				Help: opdef.Help{
					Short:   "Show a Space",
					Example: "  orgctl spaces get org_5a4d0004000000000000000000000001",
				},
				Args: opdef.Args{Params: []string{"spaceId"}},
			},
			{Use: "create", Method: http.MethodPost, Path: "/spaces", Body: true,
				Help: opdef.Help{
					Short: "Create a child Space",
					Example: `  orgctl spaces create --name marketing --domain marketing
  orgctl spaces create --name sales --domain sales --copy-branding-and-themes --create-admin-user`,
				},
				Bulk: opdef.Bulk{Exists: opdef.ConflictKey("spaces", "name", "update")},
				Fields: []opdef.Field{
					{Flag: "name", Key: "name", Usage: "Space name"},
					{Flag: "domain", Key: "domain", Usage: "Space domain (on the cloud: its subdomain)"},
					{Flag: "copy-sso-settings", Key: "options.copy_sso_settings", Type: opdef.TBool, Usage: "copy SSO settings from this Space"},
					{Flag: "copy-branding-and-themes", Key: "options.copy_branding_and_themes_settings", Type: opdef.TBool, Usage: "copy branding and themes from this Space"},
					{Flag: "copy-admin", Key: "options.users_to_copy_as_admins", Type: opdef.TStrings, Usage: "make this user `EMAIL` of this Space an admin there (repeatable)"},
					{Flag: "create-admin-user", Key: "options.create_admin_user", Type: opdef.TBool, Usage: "create your admin user there instead of sending an invite"},
				}},
			{Use: "update SPACE_ID", Method: http.MethodPut, Path: "/spaces/{spaceId}", Body: true,
				Help: opdef.Help{
					Short:   "Rename a Space or change its domain",
					Long:    "A full replacement (PUT): pass both --name and --domain, even if one stays the same.",
					Example: "  orgctl spaces update org_5a4d0004000000000000000000000001 --name engineering --domain eng",
				},
				Args: opdef.Args{Params: []string{"spaceId"}},
				Fields: []opdef.Field{
					{Flag: "name", Key: "name", Usage: "Space name"},
					{Flag: "domain", Key: "domain", Usage: "Space domain"},
				}},
			{Use: "delete SPACE_ID", Method: http.MethodDelete, Path: "/spaces/{spaceId}",
				Help: opdef.Help{
					Short:   "Delete a Space and everything in it",
					Long:    "On a terminal it asks you to type the Space's name first.",
					Example: "  orgctl spaces delete org_5a4d0004000000000000000000000001 --yes",
				},
				Args: opdef.Args{Params: []string{"spaceId"}},

				Confirm: &opdef.Confirm{
					Question:      "Delete Space %s and everything in it (apps, resources, workflows, its users' access)? This cannot be undone.",
					TypeToConfirm: spaceName,
				},
			},
			{Use: "copy", Method: http.MethodPost, Path: "/spaces/copyElements", Body: true,
				Help: opdef.Help{
					Short: "Copy apps, workflows, resources and queries into another Space",
					Long:  "Copies by UUID into --to. Resources are resource configuration UUIDs. Pass at\nleast one element; the kinds you leave out are sent as empty lists.",
					Example: `  orgctl spaces copy --to org_5a4d0004000000000000000000000001 --app 5a4d0006-0000-4000-8000-000000000001
  orgctl spaces copy --to eng --workflow WF_UUID --resource RC_UUID --query Q_UUID`,
					Done: "Copied the elements into the Space",
				},
				Fields: []opdef.Field{
					{Flag: "to", Key: "destination_space_id", Usage: "destination `SPACE` (id or name)"},
					{Flag: "app", Key: "app_ids", Type: opdef.TStrings, Optional: true, Usage: "`APP` or module (UUID or name; repeatable)"},
					{Flag: "workflow", Key: "workflow_ids", Type: opdef.TStrings, Optional: true, Usage: "`WORKFLOW` (UUID or name; repeatable)"},
					{Flag: "resource", Key: "resource_ids", Type: opdef.TStrings, Optional: true, Usage: "resource configuration `UUID` (repeatable)"},
					{Flag: "query", Key: "query_library_query_ids", Type: opdef.TStrings, Optional: true, Usage: "Query Library query `UUID` (repeatable)"},
				},

				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						n := 0
						// The API requires all four lists, even empty ones.
						for _, k := range []string{"app_ids", "workflow_ids", "resource_ids", "query_library_query_ids"} {
							l, _ := c.BodyObject()[k].([]any)
							if l == nil {
								l = []any{}
							}
							c.Req.Body[k] = l
							n += len(l)
						}
						if n == 0 {
							return cli.UsageErrorf("%s: nothing to copy: pass --app, --workflow, --resource or --query", c.Command)
						}
						return nil
					},
				},
			},
		},
	}
}

// spaceName is what deleting a Space asks the user to type: its name, read
// from the API (one request, sent only when someone is there to type it).
func spaceName(ctx context.Context, org opdef.Org, c *opdef.Call) (string, error) {
	data, err := org.Get(ctx, client.Expand("/spaces/{spaceId}", c.Req.Params), "Spaces > Read")
	if err != nil {
		return "", err
	}
	var s struct{ Name string }
	if err := json.Unmarshal(data, &s); err != nil || s.Name == "" {
		return "", fmt.Errorf("cannot read the Space's name from GET /spaces/%s", c.Req.Params["spaceId"])
	}
	return s.Name, nil
}
