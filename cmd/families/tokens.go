package families

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

func tokensGroup() engine.Group {
	return engine.Group{
		Long: `API access tokens let scripts and tools call the management API. Token ids are
UUIDs; listings show only the last four characters of each token.

Scopes are spelled as in the token settings' API form: users:read, users:write,
groups:write, apps:read, permissions:read, source_control:deploy, ...
('orgctl help scopes' lists all of them and the commands that need each).
Unknown scopes are silently dropped by the API, so check the answer's "scopes".

Gotchas:
  - create prints the new token ONCE, alone on stdout, so
    'TOKEN=$(orgctl tokens create ...)' captures it; it cannot be shown again.
    orgctl never writes it anywhere else (not to --debug logs or files).
  - Only organization admins can create tokens.`,
		Example: `  orgctl tokens list
  TOKEN=$(orgctl tokens create --label ci-deploy --scope source_control:deploy --scope apps:read)
  orgctl tokens get 5a4d0009-0000-4000-8000-000000000001`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "LABEL", Field: "label"},
			{Header: "LAST4", Field: "last4"},
			{Header: "SCOPES", Value: func(r map[string]any) string {
				ss, _ := r["scopes"].([]any)
				parts := make([]string, len(ss))
				for i, s := range ss {
					parts[i] = fmt.Sprint(s)
				}
				return strings.Join(parts, ",")
			}},
			{Header: "CREATED", Field: "created_at"},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/access_tokens",
				Help: opdef.Help{
					Short:   "List access tokens",
					Example: "  orgctl tokens list\n  orgctl tokens list --jq '.[] | select(.scopes | index(\"users:write\")) | .label'",
				},
			},
			{Use: "get TOKEN_ID", Method: http.MethodGet, Path: "/access_tokens/{accessTokenId}",
				Help: opdef.Help{
					Short:   "Show an access token (never its value)",
					Example: "  orgctl tokens get 5a4d0009-0000-4000-8000-000000000001",
				},
				Args: opdef.Args{Params: []string{"accessTokenId"}},
			},
			{Use: "create", Method: http.MethodPost, Path: "/access_tokens", Body: true,
				Help: opdef.Help{
					Short: "Create an access token and print it once",
					Long: `Prints only the token on stdout (with -o json/yaml, --jq or --template: the whole
answer, token included) and a warning on stderr that it will not be shown again.`,
					Example: `  orgctl tokens create --label ci --scope users:read --scope groups:read
  TOKEN=$(orgctl tokens create --label deploy --scope source_control:deploy)
  orgctl tokens create --label audit --scope users:read -o json > token.json`,
				},
				Fields: []opdef.Field{
					{Flag: "label", Key: "label", Usage: "token name (2+ characters)"},
					{Flag: "description", Key: "description", Usage: "what the token is for"},
					// The description names its scopes per operation, not in the
					// create body: they complete from there, and one it does
					// not name is sent with a notice (the API drops a scope it
					// does not know without a word).
					{Flag: "scope", Key: "scopes", Type: opdef.TStrings, Enum: spec.Scopes(), Usage: "grant this `SCOPE` (repeatable or comma-separated; see 'orgctl help scopes')"},
				},
				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						if s, _ := c.BodyObject()["scopes"].([]any); len(s) == 0 {
							return cli.UsageErrorf("%s: pass at least one --scope", c.Command)
						}
						return nil
					},
					View: PrintNewToken,
				},
			},
		},
	}
}

// PrintNewToken shows the token exactly once: alone on stdout for the table
// format (so $(...) captures it), or inside the raw answer for the others.
func PrintNewToken(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
	var t struct {
		ID     string   `json:"id"`
		Label  string   `json:"label"`
		Scopes []string `json:"scopes"`
		Value  string   `json:"access_token"`
	}
	if err := json.Unmarshal(data, &t); err != nil || t.Value == "" {
		return fmt.Errorf("the token was created but the answer carries no token value; revoke it in Settings > API and try again")
	}
	var err error
	if p.Opts.Structured() {
		err = p.Print(data, nil)
	} else {
		_, err = fmt.Fprintln(p.IO.Out, t.Value)
	}
	if err != nil {
		return err
	}
	p.IO.Warn("token %s (%s; scopes: %s) is shown only once: store it now", t.ID, t.Label, strings.Join(t.Scopes, ","))
	return nil
}
