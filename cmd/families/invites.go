package families

import (
	"net/http"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

func invitesGroup() engine.Group {
	g := attributesGroup("invite", "INVITE_ID", "/user_invites/{userInviteId}", "userInviteId", "Users > Write",
		"a pending invite", "1")
	return engine.Group{
		Long: `A user invite is an emailed link (valid 7 days) that makes the invitee a user,
optionally in groups and with metadata and attribute values. Invite ids are
numbers; group ids are numbers too (see 'orgctl groups list').

Gotchas:
  - The API documents no scope for most invite endpoints; tokens with
    "Users > Read" / "Users > Write" work.
  - delete revokes the link; a claimed invite is kept as a record.`,
		Example: `  orgctl invites list
  orgctl invites create --email ada@example.com --group 2 --metadata team=data
  orgctl invites attributes set 1 --name department --value Finance
  orgctl invites delete 1 --yes`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "EMAIL", Field: "invited_email"},
			{Header: "INVITED BY", Field: "invited_by"},
			{Header: "EXPIRES", Field: "expires_at"},
			{Header: "CLAIMED BY", Field: "claimed_by"},
			{Header: "LINK", Field: "invite_link"},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/user_invites",
				Help: opdef.Help{
					Short:   "List user invites",
					Example: "  orgctl invites list\n  orgctl invites list --jq '.[] | select(.claimed_by == null) | .invited_email'",
				},
			},
			{Use: "get INVITE_ID", Method: http.MethodGet, Path: "/user_invites/{userInviteId}",
				Help: opdef.Help{Short: "Show a user invite", Example: "  orgctl invites get 1 -o json"},
				Args: opdef.Args{Params: []string{"userInviteId"}},
			},
			{Use: "create", Method: http.MethodPost, Path: "/user_invites", Body: true,
				Help: opdef.Help{
					Short:   "Invite someone by email",
					Example: "  orgctl invites create --email ada@example.com\n  orgctl invites create --email ada@example.com --group 2 --group 3 --metadata level=3 --jq .invite_link",
				},
				Fields: []opdef.Field{
					{Flag: "email", Key: "email", Usage: "invitee's email"},
					{Flag: "group", Key: "defaultGroupIds", Type: opdef.TStrings, Usage: "add the invitee to this `GROUP` (id or name; repeatable)"},
					{Flag: "metadata", Key: "metadata", Type: opdef.TKV, Usage: "metadata `KEY=VALUE` (repeatable)"},
				},

				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						if c.Req.Body["defaultGroupIds"] == nil {
							return nil
						}
						return numbersIn("defaultGroupIds", "group")(c)
					},
				},
			},
			{Use: "delete INVITE_ID", Method: http.MethodDelete, Path: "/user_invites/{userInviteId}",
				Help: opdef.Help{Short: "Revoke a user invite", Example: "  orgctl invites delete 1 --yes"},
				Args: opdef.Args{Params: []string{"userInviteId"}},
				Confirm: &opdef.Confirm{
					Question: "Revoke invite %s? Its link stops working; 'orgctl invites create' sends a new one.",
				},
			},
		},
		Groups: []engine.Group{g},
	}
}
