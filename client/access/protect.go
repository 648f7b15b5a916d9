package access

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// TokenOwner is the legacy id of the user the token belongs to: the API's
// token list names the owner of the token ending in the same 4
// characters. An *OwnerUnknownError when the API does not say: the read
// failed (the token may not read tokens, or the server erred), or no
// listed token names an owner, or two tokens of different owners end
// alike. A check that needs the owner must then refuse, not go ahead.
func TokenOwner(ctx context.Context, cl *client.Client, token string) (string, error) {
	resp, err := cl.Do(ctx, client.Request{Method: http.MethodGet, Path: "/access_tokens", Scope: "Access Tokens > Read"})
	if err != nil {
		return "", &OwnerUnknownError{Err: err}
	}
	var tokens []struct {
		Last4 string          `json:"last4"`
		Owner json.RawMessage `json:"owner_legacy_id"`
	}
	if err := json.Unmarshal(resp.Data, &tokens); err != nil {
		return "", &OwnerUnknownError{Err: fmt.Errorf("GET /access_tokens: unexpected answer: %w", err)}
	}
	owner := ""
	for _, t := range tokens {
		id := jsonscan.AsText(t.Owner) // "" when absent or null
		if t.Last4 == "" || !strings.HasSuffix(token, t.Last4) || id == "" {
			continue
		}
		if owner != "" && owner != id {
			return "", &OwnerUnknownError{Err: errors.New("GET /access_tokens lists tokens of two users that end as this one does")}
		}
		owner = id
	}
	if owner == "" {
		return "", &OwnerUnknownError{Err: errors.New("GET /access_tokens names no owner of this token")}
	}
	return owner, nil
}

// OwnerUnknownError is TokenOwner's failure: whose the token is could not
// be established. It keeps the read's error, so a server error stays a
// failure (exit 1) and a missing scope an auth error (exit 4).
type OwnerUnknownError struct{ Err error }

func (e *OwnerUnknownError) Error() string {
	return fmt.Sprintf("cannot tell whose the API token in use is (%v)", e.Err)
}
func (e *OwnerUnknownError) Unwrap() error { return e.Err }

// RefuseOffboarding says why offboarding users must not start (nil when it
// may): the rule of RefuseLosingAdmins.
func (o *Org) RefuseOffboarding(users []*User, owner string) error {
	return o.RefuseLosingAdmins("offboard", users, owner)
}
