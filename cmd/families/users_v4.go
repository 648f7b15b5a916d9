package families

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// seatTypes are the users' seat types of the 4.0 description.
var seatTypes = []string{"builder", "internalUser", "externalUser"}

// usersLogoutOp ends a user's sessions: the 4.0 operation offboarding uses.
func usersLogoutOp() opdef.Op {
	return opdef.Op{
		Use: "logout USER", Method: http.MethodPost, Path: "/users/{userId}/logout",
		Args:           opdef.Args{Params: []string{"userId"}},
		Bulk:           opdef.Bulk{Idempotent: true},
		AcrossProfiles: true,
		Confirm:        &opdef.Confirm{Question: "End every session of user %[1]s? They must sign in again; their account and access stay."},
		Help: opdef.Help{Done: "Ended the sessions of user %s", Short: "End a user's sessions (sign them out everywhere)",
			Long: `Ends every Retool session of the user: they must sign in again. The account,
its groups and its access stay ('orgctl users disable' stops them signing in).
--sso also ends the session at the SSO provider (OIDC RP-initiated logout): the
answer's sso_logout_url is where the user's browser must go, printed on stdout.
Needs API 4.0 (Retool 4.0); on an older instance it exits 2 before sending.`,
			Example: `  orgctl users logout ana.viewer@sandbox.example --yes
  orgctl users logout ana.viewer@sandbox.example --sso --post-logout-redirect-uri https://intranet.example.com --yes`},
		Fields: []opdef.Field{
			{Flag: "sso", Key: "sso_logout", Type: opdef.TBool, Usage: "also end the session at the SSO provider (prints the URL the browser must visit)"},
			{Flag: "post-logout-redirect-uri", Key: "post_logout_redirect_uri", Usage: "where the SSO provider sends the user afterwards (with --sso; registered at the provider)"},
		},
		Hooks: opdef.Hooks{View: logoutResult, Shape: func(c *opdef.Call) error {
			if c.Has("post-logout-redirect-uri") && !c.Has("sso") {
				return cli.UsageErrorf("%s: --post-logout-redirect-uri needs --sso", c.Command)
			}
			return nil
		}},
	}
}

// logoutResult prints the URL the user's browser must visit to end the SSO
// session, the only thing of the answer to act on, and the service's
// warning on stderr; the structured formats get the answer as it is.
func logoutResult(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
	if p.Opts.Structured() {
		return p.Print(data, nil)
	}
	var r struct {
		URL     string `json:"sso_logout_url"`
		Warning string `json:"warning"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("unexpected answer logging the user out: %w", err)
	}
	if r.Warning != "" {
		p.IO.Warn("%s", r.Warning)
	}
	if r.URL != "" {
		_, err := fmt.Fprintln(p.IO.Out, r.URL)
		return err
	}
	return nil
}

// keepSeat narrows users list to --seat-type, which the API cannot filter by.
func keepSeat(c *opdef.Call) func(item json.RawMessage) bool {
	if !c.Has("seat-type") {
		return nil
	}
	want := c.LocalString("seat-type")
	return func(item json.RawMessage) bool {
		var u struct {
			SeatType *string `json:"seat_type"`
		}
		json.Unmarshal(item, &u)
		return u.SeatType != nil && *u.SeatType == want
	}
}

// keepUsers is every narrowing of users list that the API cannot do.
func keepUsers(c *opdef.Call) func(item json.RawMessage) bool {
	a, b := keepUser(c), keepSeat(c)
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(item json.RawMessage) bool { return a(item) && b(item) }
}
