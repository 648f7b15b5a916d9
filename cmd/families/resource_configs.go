package families

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// optionValue types a --option value: true/false/null, objects and arrays are
// JSON; everything else (ports included: the API takes them as strings) is a string.
func optionValue(s string) any {
	t := strings.TrimSpace(s)
	if t == "true" || t == "false" || t == "null" || strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		var v any
		if json.Unmarshal([]byte(t), &v) == nil {
			return v
		}
	}
	return s
}

// dotOptions reads repeatable KEY=VALUE flags whose keys are dot paths.
func dotOptions(c *opdef.Call, flag string) ([][2]any, error) {
	var out [][2]any
	for _, s := range c.LocalStrings(flag) {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" || strings.HasPrefix(k, ".") || strings.HasSuffix(k, ".") || strings.Contains(k, "..") {
			return nil, cli.UsageErrorf("invalid --%s %q: expected KEY=VALUE with KEY a dot path (database_options.host=db.internal)", flag, s)
		}
		out = append(out, [2]any{k, optionValue(v)})
	}
	return out, nil
}

// optionsIntoBody merges --option pairs into body.options (create).
func optionsIntoBody(c *opdef.Call) error {
	pairs, err := dotOptions(c, "option")
	if err != nil {
		return err
	}
	c.BodyObject()
	if len(pairs) == 0 {
		return nil
	}
	opts, _ := c.Req.Body["options"].(map[string]any)
	if opts == nil {
		opts = map[string]any{}
		c.Req.Body["options"] = opts
	}
	for _, p := range pairs {
		opdef.SetPath(opts, p[0].(string), p[1])
	}
	return nil
}

// optionsIntoPatch turns --option pairs into "replace" operations, the only
// op resource-configuration updates accept.
func optionsIntoPatch(c *opdef.Call) error {
	pairs, err := dotOptions(c, "option")
	if err != nil {
		return err
	}
	for _, p := range pairs {
		var segs []string
		for _, s := range strings.Split(p[0].(string), ".") {
			segs = append(segs, opdef.PointerEscape(s))
		}
		c.Req.Patch = append(c.Req.Patch, map[string]any{"op": "replace", "path": "/options/" + strings.Join(segs, "/"), "value": p[1]})
	}
	return nil
}

func resourceConfigsGroup() engine.Group {
	return engine.Group{
		Long: `A resource configuration holds a resource's connection options for one
environment (host, database, credentials, ...). Ids are UUIDs. Options are
rich JSON: give them with --options JSON or --body FILE, or key by key with
--option KEY=VALUE where KEY is a dot path (database_options.host).
--option values true, false, null, {...} and [...] are JSON; anything else is a
string (the API takes ports as strings).`,
		Example: `  orgctl resource-configs list --resource-type postgresql
  orgctl resource-configs create --resource RES_ID --environment staging \
      --option database_options.host=db.staging --option database_options.port=5432
  orgctl resource-configs update CONFIG_ID --option database_options.host=db2.staging
  orgctl resource-configs delete CONFIG_ID --yes`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "RESOURCE", Field: "resource.display_name"},
			{Header: "TYPE", Field: "resource.type"},
			{Header: "ENVIRONMENT", Field: "environment.name"},
			{Header: "UPDATED", Field: "updated_at"},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/resource_configurations",
				Help: opdef.Help{
					Short:   "List resource configurations",
					Example: "  orgctl resource-configs list\n  orgctl resource-configs list --resource-type mssql --environment staging\n  orgctl resource-configs list --resource RES_ID -o json",
				},
				Fields: []opdef.Field{
					{Flag: "resource-type", Key: "resource_type", In: opdef.InQuery, Usage: "only configurations of resources of this type"},
					{Flag: "resource", Key: "resource_id", In: opdef.InQuery, Usage: "only configurations of this resource (`ID or name`)"},
					{Flag: "environment", Key: "environment_id", In: opdef.InQuery, Usage: "only configurations for this `ENVIRONMENT` (id or name)"},
				}},
			{Use: "get CONFIG_ID", Method: http.MethodGet, Path: "/resource_configurations/{configurationId}",
				Help: opdef.Help{
					Short:   "Show a resource configuration with its options",
					Example: "  orgctl resource-configs get CONFIG_ID -o yaml",
				},
				Args: opdef.Args{Params: []string{"configurationId"}},
			},
			{Use: "create", Method: http.MethodPost, Path: "/resource_configurations", Body: true,
				Help: opdef.Help{
					Short: "Configure a resource for an environment",
					Long:  "Needs API 2.4.0+ (self-hosted 3.74+).",
					Example: `  orgctl resource-configs create --resource RES_ID --environment staging --options '{"database_options":{"host":"db","port":"5432"}}'
  orgctl resource-configs create --resource RES_ID --environment staging --body staging.json
  orgctl resource-configs create --resource RES_ID --environment staging --option base_url=https://api.staging.example --dry-run`,
				},
				Fields: []opdef.Field{
					{Flag: "resource", Key: "resource_id", Complete: "resource-ids", Usage: "the `RESOURCE` (UUID or name)"},
					{Flag: "environment", Key: "environment_id", Usage: "`ENVIRONMENT` (id or name)"},
					{Flag: "options", Key: "options", Type: opdef.TJSON, Optional: true, Usage: "connection options as a JSON object"},
					{Flag: "option", In: opdef.InLocal, Type: opdef.TTexts, Usage: "set one option `KEY=VALUE` (KEY a dot path; repeatable)"},
				},

				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						if err := optionsIntoBody(c); err != nil {
							return err
						}
						if _, ok := c.Req.Body["options"].(map[string]any); !ok {
							return cli.UsageErrorf("%s: options are required: pass --options JSON, --option KEY=VALUE or --body FILE", c.Command)
						}
						return nil
					},
				},
			},
			{Use: "update CONFIG_ID", Method: http.MethodPatch, Path: "/resource_configurations/{configurationId}",
				Help: opdef.Help{
					Short: "Change a resource configuration (JSON Patch replace)",
					Long: `Each --option becomes one "replace" operation on /options/...; --body takes raw
operations ([{"op":"replace","path":"/options/database_options/host","value":"db2"}]).`,
					Example: "  orgctl resource-configs update CONFIG_ID --option database_options.host=db2.internal\n  orgctl resource-configs update CONFIG_ID --body ops.json",
				},
				Args: opdef.Args{Params: []string{"configurationId"}},
				Body: true, Patch: true,
				Fields: []opdef.Field{
					{Flag: "option", In: opdef.InLocal, Type: opdef.TTexts, Usage: "replace one option `KEY=VALUE` (KEY a dot path; repeatable)"},
				},

				Hooks: opdef.Hooks{Shape: optionsIntoPatch},
			},
			{Use: "delete CONFIG_ID", Method: http.MethodDelete, Path: "/resource_configurations/{configurationId}",
				Help: opdef.Help{
					Short:   "Delete a resource configuration",
					Example: "  orgctl resource-configs delete CONFIG_ID --yes",
				},
				Args:    opdef.Args{Params: []string{"configurationId"}},
				Confirm: &opdef.Confirm{Question: "Delete resource configuration %s? This cannot be undone."},
			},
		},
	}
}
