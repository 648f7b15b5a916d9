package access

import (
	"context"
	"encoding/json"
	"fmt"
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
// may): one of them is the token's own user (owner, a legacy id; "" when
// unknown), whose token would stop working halfway, or together they are
// every active admin the org has, which would leave nobody to administer it.
func (o *Org) RefuseOffboarding(users []*User, owner string) error {
	leaving := map[string]bool{}
	for _, u := range users {
		leaving[u.ID] = true
		if owner != "" && jsonscan.AsText(u.LegacyID) == owner {
			return fmt.Errorf("refusing to offboard %s: the API token in use is this user's; offboard them with another admin's token (nothing was changed)", u.Email)
		}
	}
	var admins []string
	for i := range o.Users {
		u := &o.Users[i]
		if !u.Active || !u.IsAdmin {
			continue
		}
		if !leaving[u.ID] {
			return nil
		}
		admins = append(admins, u.Email)
	}
	if len(admins) == 0 {
		return nil
	}
	if len(admins) == 1 {
		return fmt.Errorf("refusing to offboard %s: the org's last active admin; make another user an admin first (nothing was changed)", admins[0])
	}
	return fmt.Errorf("refusing to offboard %s: the org's last active admins; keep one, or make another user an admin first (nothing was changed)", strings.Join(admins, ", "))
}
