package access

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// TokenOwner is the legacy id of the user the token belongs to: the API's
// token list names the owner of the token ending in the same 4
// characters. "" when the API does not say: the token may not read tokens,
// or two tokens of different owners end alike.
func TokenOwner(ctx context.Context, cl *client.Client, token string) string {
	resp, err := cl.Do(ctx, client.Request{Method: http.MethodGet, Path: "/access_tokens", Scope: "Access Tokens > Read"})
	if err != nil {
		return ""
	}
	var tokens []struct {
		Last4 string          `json:"last4"`
		Owner json.RawMessage `json:"owner_legacy_id"`
	}
	if json.Unmarshal(resp.Data, &tokens) != nil {
		return ""
	}
	owner := ""
	for _, t := range tokens {
		id := jsonscan.AsText(t.Owner) // "" when absent or null
		if t.Last4 == "" || !strings.HasSuffix(token, t.Last4) || id == "" {
			continue
		}
		if owner != "" && owner != id {
			return ""
		}
		owner = id
	}
	return owner
}

// RefuseOffboarding says why offboarding users must not start (nil when it
// may): the rule of RefuseLosingAdmins.
func (o *Org) RefuseOffboarding(users []*User, owner string) error {
	return o.RefuseLosingAdmins("offboard", users, owner)
}
