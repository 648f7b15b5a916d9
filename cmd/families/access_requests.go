package families

import (
	"encoding/json"
	"net/http"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// decide answers an access request with a JSON Patch of its status.
func decide(status string) func(c *opdef.Call) error {
	return func(c *opdef.Call) error {
		b, err := json.Marshal(map[string]any{"operations": []any{
			map[string]any{"op": "replace", "path": "/status", "value": status},
		}})
		c.Req.RawBody = b
		return err
	}
}

func accessRequestsGroup() engine.Group {
	return engine.Group{
		Long: `People who ask to join the organization (when request access is enabled) wait
as PENDING access requests until an admin approves or denies them. Access request
ids are numbers.

Gotchas:
  - A request that was already approved or denied cannot be changed (409).
  - list without --status shows requests of every status.`,
		Example: `  orgctl access-requests list --status PENDING
  orgctl access-requests approve 1
  orgctl access-requests deny 2`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "EMAIL", Field: "requesting_email"},
			{Header: "STATUS", Field: "status"},
			{Header: "CREATED", Field: "created_at"},
			{Header: "UPDATED BY", Field: "updated_by_id", Names: "users"},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/access_requests",
				Help: opdef.Help{
					Short:   "List access requests",
					Example: "  orgctl access-requests list\n  orgctl access-requests list --status PENDING --jq '.[].requesting_email'",
				},
				Fields: []opdef.Field{
					{Flag: "status", Key: "status", In: opdef.InQuery, Usage: "only requests with this status"},
				}},
			{Use: "get REQUEST_ID", Method: http.MethodGet, Path: "/access_requests/{accessRequestId}",
				Help: opdef.Help{Short: "Show an access request", Example: "  orgctl access-requests get 1"},
				Args: opdef.Args{Params: []string{"accessRequestId"}},
			},
			{Use: "approve REQUEST_ID", Method: http.MethodPatch, Path: "/access_requests/{accessRequestId}",
				Help: opdef.Help{Short: "Let the requester join", Example: "  orgctl access-requests approve 1"},
				Args: opdef.Args{Params: []string{"accessRequestId"}},

				Hooks: opdef.Hooks{Shape: decide("APPROVED")},
			},
			{Use: "deny REQUEST_ID", Method: http.MethodPatch, Path: "/access_requests/{accessRequestId}",
				Help: opdef.Help{Short: "Turn the request down", Example: "  orgctl access-requests deny 2"},
				Args: opdef.Args{Params: []string{"accessRequestId"}},

				Hooks: opdef.Hooks{Shape: decide("DENIED")},
			},
		},
	}
}
