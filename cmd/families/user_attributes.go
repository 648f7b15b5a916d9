package families

import (
	"encoding/json"
	"net/http"

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
			{Use: "list", Short: "List user attributes", Method: http.MethodGet, Path: "/user_attributes", Scope: "User Attributes > Read",
				Example: "  orgctl user-attributes list\n  orgctl user-attributes list --jq '.[].name'"},
			{Use: "create", Short: "Declare a user attribute", Method: http.MethodPost, Path: "/user_attributes", Scope: "User Attributes > Write", Body: true,
				Exists:  opdef.ConflictKey("user-attributes", "name", "update"),
				Example: "  orgctl user-attributes create --name region --label Region --type string\n  orgctl user-attributes create --name quota --label \"Monthly quota\" --type number --default 100",
				Fields: []opdef.Field{
					{Flag: "name", Key: "name", Required: true, Usage: "attribute name (a-z, 0-9, _)"},
					{Flag: "label", Key: "label", Required: true, Usage: "short description shown in the UI (2+ characters)"},
					{Flag: "type", Key: "dataType", Required: true, Enum: []string{"string", "json", "number"}, Usage: "data type"},
					{Flag: "default", Key: "defaultValue", Usage: "value for users who have none"},
				}},
			{Use: "update ATTRIBUTE_ID", Short: "Change a user attribute (JSON Patch)", Method: http.MethodPatch, Path: "/user_attributes/{id}", Args: []string{"id"}, Scope: "User Attributes > Write",
				Body: true, Patch: true,
				Long: "Each flag becomes one JSON Patch \"replace\" operation; --body takes raw operations.",
				Example: `  orgctl user-attributes update 5a4d0007-0000-4000-8000-000000000001 --label Dept
  orgctl user-attributes update 5a4d0007-0000-4000-8000-000000000001 --default Sales --update-existing`,
				Fields: []opdef.Field{
					{Flag: "label", Key: "label", In: opdef.InPatch, Usage: "new label"},
					{Flag: "type", Key: "data_type", In: opdef.InPatch, Enum: []string{"string", "json", "number"}, Usage: "new data type"},
					{Flag: "default", Key: "default_value", In: opdef.InPatch, Usage: "new default value"},
					{Flag: "update-existing", Key: "update_existing", In: opdef.InQuery, Kind: opdef.KBool, Usage: "apply the change to users that already have the attribute"},
				},
				Shape: func(c *opdef.Call) error {
					// update_existing sits beside "operations" in the body, not in the query;
					// without operations build refuses the call, as for any empty patch.
					if !c.Query.Has("update_existing") || len(c.Patch) == 0 {
						return nil
					}
					ue := c.Query.Get("update_existing") == "true"
					c.Query.Del("update_existing")
					b, err := json.Marshal(map[string]any{"operations": c.Patch, "update_existing": ue})
					c.RawBody = b
					return err
				}},
			{Use: "delete ATTRIBUTE_ID", Short: "Delete a user attribute", Method: http.MethodDelete, Path: "/user_attributes/{id}", Args: []string{"id"}, Scope: "User Attributes > Write",
				Destructive: true,
				Confirm:     "Delete user attribute %s? With --update-existing-users, its values on every user go too; this cannot be undone.",
				Example:     "  orgctl user-attributes delete 5a4d0007-0000-4000-8000-000000000001 --yes\n  orgctl user-attributes delete 5a4d0007-0000-4000-8000-000000000001 --update-existing-users --yes",
				Fields: []opdef.Field{
					{Flag: "update-existing-users", Key: "update_existing_users", In: opdef.InQuery, Kind: opdef.KBool, Usage: "also remove the attribute's values from users"},
				}},
		},
	}
}
