package families

import (
	"encoding/json"
	"net/http"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

func userAttributesGroup() engine.Group {
	return engine.Group{
		Long: `User attributes are named, typed values on every user (department, region...)
that apps and permissions can read. Declare them here; give users values with
'orgctl users attributes set' and invitees with 'orgctl invites attributes set'.
Attribute ids are UUIDs; names are lowercase letters, digits and underscores.

Gotchas:
  - delete removes the declaration; add --update-existing-users to also strip
    the values from every user.
  - update can rename a label or change the default; --update-existing applies
    the change to users who already have a value.`,
		Example: `  orgctl user-attributes list
  orgctl user-attributes create --name region --label Region --type string --default EMEA
  orgctl user-attributes update 5a4d0007-0000-4000-8000-000000000001 --label Dept
  orgctl user-attributes delete 5a4d0007-0000-4000-8000-000000000001 --update-existing-users --yes`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "NAME", Field: "name"},
			{Header: "LABEL", Field: "label"},
			{Header: "TYPE", Field: "data_type"},
			{Header: "DEFAULT", Field: "default_value"},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/user_attributes",
				Help: opdef.Help{
					Short:   "List user attributes",
					Example: "  orgctl user-attributes list\n  orgctl user-attributes list --jq '.[].name'",
				},
			},
			{Use: "create", Method: http.MethodPost, Path: "/user_attributes", Body: true,
				Help: opdef.Help{
					Short:   "Declare a user attribute",
					Example: "  orgctl user-attributes create --name region --label Region --type string\n  orgctl user-attributes create --name quota --label \"Monthly quota\" --type number --default 100",
				},
				Bulk: opdef.Bulk{Exists: opdef.ConflictKey("user-attributes", "name", "update")},
				Fields: []opdef.Field{
					{Flag: "name", Key: "name", Usage: "attribute name (a-z, 0-9, _)"},
					{Flag: "label", Key: "label", Usage: "short description shown in the UI (2+ characters)"},
					{Flag: "type", Key: "dataType", Usage: "data type"},
					{Flag: "default", Key: "defaultValue", Usage: "value for users who have none"},
				}},
			{Use: "update ATTRIBUTE_ID", Method: http.MethodPatch, Path: "/user_attributes/{id}",
				Help: opdef.Help{
					Short: "Change a user attribute (JSON Patch)",
					Long:  "Each flag becomes one JSON Patch \"replace\" operation; --body takes raw operations.",
					Example: `  orgctl user-attributes update 5a4d0007-0000-4000-8000-000000000001 --label Dept
  orgctl user-attributes update 5a4d0007-0000-4000-8000-000000000001 --default Sales --update-existing`,
				},
				Args: opdef.Args{Params: []string{"id"}},
				Body: true, Patch: true,
				Fields: []opdef.Field{
					{Flag: "label", Key: "label", In: opdef.InPatch, Usage: "new label"},
					{Flag: "type", Key: "data_type", In: opdef.InPatch, Enum: kinds.AttributeTypes, Usage: "new data type"},
					{Flag: "default", Key: "default_value", In: opdef.InPatch, Usage: "new default value"},
					{Flag: "update-existing", Key: "update_existing", In: opdef.InQuery, Type: opdef.TBool, Usage: "apply the change to users that already have the attribute"},
				},

				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						// update_existing sits beside "operations" in the body, not in the query;
						// without operations build refuses the call, as for any empty patch.
						if !c.Req.Query.Has("update_existing") || len(c.Req.Patch) == 0 {
							return nil
						}
						ue := c.Req.Query.Get("update_existing") == "true"
						c.Req.Query.Del("update_existing")
						b, err := json.Marshal(map[string]any{"operations": c.Req.Patch, "update_existing": ue})
						c.Req.RawBody = b
						return err
					},
				},
			},
			{Use: "delete ATTRIBUTE_ID", Method: http.MethodDelete, Path: "/user_attributes/{id}",
				Help: opdef.Help{
					Short:   "Delete a user attribute",
					Example: "  orgctl user-attributes delete 5a4d0007-0000-4000-8000-000000000001 --yes\n  orgctl user-attributes delete 5a4d0007-0000-4000-8000-000000000001 --update-existing-users --yes",
				},
				Args: opdef.Args{Params: []string{"id"}},
				Confirm: &opdef.Confirm{
					Question: "Delete user attribute %s? With --update-existing-users, its values on every user go too; this cannot be undone.",
				},
				Fields: []opdef.Field{
					{Flag: "update-existing-users", Key: "update_existing_users", In: opdef.InQuery, Type: opdef.TBool, Usage: "also remove the attribute's values from users"},
				}},
		},
	}
}
