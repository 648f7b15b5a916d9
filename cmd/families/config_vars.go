package families

import (
	"encoding/json"
	"fmt"
	"github.com/orgctl/orgctl/cmd/cli/usage"
	"net/http"
	"sort"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// configValues turns --value ENV_ID=VALUE flags into the API's values array.
func configValues(c *opdef.Call) ([]any, error) {
	seen := map[string]bool{}
	var out []any
	for _, s := range c.LocalStrings("value") {
		env, val, ok := strings.Cut(s, "=")
		if !ok || strings.TrimSpace(env) == "" {
			return nil, cli.UsageErrorf("invalid --value %q: expected ENVIRONMENT_ID=VALUE", s)
		}
		if seen[env] {
			return nil, cli.UsageErrorf("--value: environment %s given twice", env)
		}
		seen[env] = true
		out = append(out, map[string]any{"environment_id": env, "value": val})
	}
	return out, nil
}

// shapeConfigVar moves --value pairs into body.values.
func shapeConfigVar(c *opdef.Call) ([]any, error) {
	vals, err := configValues(c)
	if err != nil {
		return nil, err
	}
	if len(vals) > 0 {
		c.BodyObject()["values"] = vals
	}
	return vals, nil
}

// updateConfigVar sends only the changed fields in the dry run and, since
// the API replaces the whole variable, reads the current one first.
func updateConfigVar(c *opdef.Call) error {
	upd, err := shapeConfigVar(c)
	if err != nil {
		return err
	}
	changed := len(upd) > 0 || c.Has("name") || c.Has("description") || c.Has("secret")
	if !changed && !c.Given.FromBody {
		return cli.UsageErrorf("%s: %w: pass --name, --description, --secret, --value or --body", c.Command, usage.ErrNothingToChange)
	}
	if c.Given.FromBody {
		return nil // sent as is
	}
	c.Reads = []client.Request{opdef.RequestTo(http.MethodGet, c.Op.Path, c.Req.Params)}
	return nil
}

// mergeConfigVar overlays the changed fields and values on the current variable.
func mergeConfigVar(c *opdef.Call, current []json.RawMessage) error {
	var cur map[string]any
	if err := json.Unmarshal(current[0], &cur); err != nil {
		return fmt.Errorf("unexpected answer reading the variable: %w", err)
	}
	upd, _ := c.BodyObject()["values"].([]any)
	next := map[string]any{"name": cur["name"], "secret": cur["secret"]}
	if d, ok := cur["description"]; ok {
		next["description"] = d
	}
	curVals, _ := cur["values"].([]any)
	next["values"] = mergeValues(curVals, upd)
	for k, v := range c.Req.Body {
		if k != "values" {
			next[k] = v
		}
	}
	c.Req.Body = next
	return nil
}

// mergeValues overlays new per-environment values on the current ones.
func mergeValues(cur, upd []any) []any {
	byEnv := map[string]any{}
	var order []string
	for _, list := range [][]any{cur, upd} {
		for _, v := range list {
			m, _ := v.(map[string]any)
			env, _ := m["environment_id"].(string)
			if _, ok := byEnv[env]; !ok {
				order = append(order, env)
			}
			byEnv[env] = map[string]any{"environment_id": env, "value": m["value"]}
		}
	}
	out := make([]any, 0, len(order))
	for _, e := range order {
		out = append(out, byEnv[e])
	}
	return out
}

func configVarsGroup() engine.Group {
	return engine.Group{
		Long: `Configuration variables (Retool 3.42+, when enabled for the org) hold one value
per environment. Secret variables' values can be read back only by the API.
Values come from --value ENVIRONMENT_ID=VALUE (repeatable); argv is visible to
other local users (ps), so pass secret values with --body FILE or --body - instead.`,
		Example: `  orgctl config-vars list
  orgctl config-vars create --name SUPPORT_EMAIL --value production=help@example.com
  echo '{"name":"STRIPE_KEY","secret":true,"values":[{"environment_id":"PROD_ENV_ID","value":"sk_live_..."}]}' | orgctl config-vars create --body -
  orgctl config-vars update SUPPORT_EMAIL --value staging=qa@example.com`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "NAME", Field: "name"},
			{Header: "SECRET", Field: "secret"},
			{Header: "ENVIRONMENTS", Value: func(r map[string]any) string {
				vs, _ := r["values"].([]any)
				var envs []string
				for _, v := range vs {
					if m, ok := v.(map[string]any); ok {
						if e, ok := m["environment_id"].(string); ok {
							envs = append(envs, e)
						}
					}
				}
				sort.Strings(envs)
				return strings.Join(envs, ",")
			}},
			{Header: "DESCRIPTION", Field: "description"},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/configuration_variables",
				Help: opdef.Help{
					Short:   "List configuration variables with their values",
					Example: "  orgctl config-vars list\n  orgctl config-vars list --jq '.[] | select(.name==\"SUPPORT_EMAIL\") | .values'",
				},
			},
			{Use: "get VARIABLE_ID", Method: http.MethodGet, Path: "/configuration_variables/{id}",
				Help: opdef.Help{
					Short:   "Show a configuration variable and its values",
					Example: "  orgctl config-vars get SUPPORT_EMAIL -o yaml",
				},
				Args: opdef.Args{Params: []string{"id"}},
			},
			{Use: "create", Method: http.MethodPost, Path: "/configuration_variables", Body: true,
				Help: opdef.Help{
					Short: "Create a configuration variable",
					Example: `  orgctl config-vars create --name SUPPORT_EMAIL --value production=help@example.com --value staging=qa@example.com
  orgctl config-vars create --body stripe-key.json`,
				},
				Bulk: opdef.Bulk{Exists: opdef.LookFirst("config-vars", "name", "update")},
				Fields: []opdef.Field{
					{Flag: "name", Key: "name", Usage: "variable name"},
					{Flag: "description", Key: "description", Usage: "what the variable is for"},
					{Flag: "secret", Key: "secret", Type: opdef.TBool, Optional: true, Usage: "hide the values in the editor"},
					{Flag: "default-value", Key: "default_value", Usage: "the value in environments without one of their own (API 4.0)"},
					{Flag: "value", In: opdef.InLocal, Type: opdef.TTexts, KeyKind: "environments", Usage: "value for one environment, `ENVIRONMENT=VALUE` (the environment's id or name; repeatable)"},
				},

				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						vals, err := shapeConfigVar(c)
						if err != nil {
							return err
						}
						if _, ok := c.BodyObject()["secret"]; !ok {
							c.Req.Body["secret"] = false
						}
						if _, ok := c.Req.Body["values"]; !ok && vals == nil {
							return cli.UsageErrorf("%s: pass at least one --value ENVIRONMENT_ID=VALUE (or values in --body)", c.Command)
						}
						return nil
					},
				},
			},
			{Use: "update VARIABLE_ID", Method: http.MethodPut, Path: "/configuration_variables/{id}", Body: true,
				Help: opdef.Help{
					Short: "Change a configuration variable (read, merge, write)",
					Long: `The API replaces the whole variable (PUT). orgctl first reads the current one
(one extra GET) and changes only what the flags say; --value replaces that
environment's value and keeps the others. With --body the body is sent as is.`,
					Example: `  orgctl config-vars update SUPPORT_EMAIL --value staging=qa2@example.com
  orgctl config-vars update SUPPORT_EMAIL --description "Support inbox" --secret=false
  orgctl config-vars update SUPPORT_EMAIL --body full.json`,
				},
				Args: opdef.Args{Params: []string{"id"}},
				Fields: []opdef.Field{
					{Flag: "name", Key: "name", Optional: true, Usage: "new name"},
					{Flag: "description", Key: "description", Usage: "new description"},
					{Flag: "secret", Key: "secret", Type: opdef.TBool, Optional: true, Usage: "make the values secret or not"},
					{Flag: "default-value", Key: "default_value", Usage: "new default value, for environments without one of their own (API 4.0)"},
					{Flag: "value", In: opdef.InLocal, Type: opdef.TTexts, KeyKind: "environments", Usage: "set one environment's value, `ENVIRONMENT=VALUE` (the environment's id or name; repeatable)"},
				},

				Hooks: opdef.Hooks{Shape: updateConfigVar, Merge: mergeConfigVar},
			},
			{Use: "delete VARIABLE_ID", Method: http.MethodDelete, Path: "/configuration_variables/{id}",
				Help: opdef.Help{
					Short:   "Delete a configuration variable and its values",
					Example: "  orgctl config-vars delete SUPPORT_EMAIL --yes",
				},
				Args: opdef.Args{Params: []string{"id"}},
				Confirm: &opdef.Confirm{
					Question: "Delete configuration variable %s and its value in every environment? This cannot be undone.",
				},
			},
		},
	}
}
