package families

import (
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/resources"
	"github.com/orgctl/orgctl/output"
)

var connectorVersions = []string{"1.0", "2.0", "3.0"}

var resourceColumns = []output.Column{
	{Header: "ID", Field: "id"},
	{Header: "NAME", Field: "display_name"},
	{Header: "TYPE", Field: "type"},
	{Header: "FOLDER", Field: "folder_id", Names: "folders"},
	{Header: "PROTECTED", Field: "protected"},
	{Header: "UPDATED", Field: "updated_at"},
}

// resourceGetColumns add the T-SQL settings that only single reads carry;
// made when a family is built, not at init.
func resourceGetColumns() []output.Column {
	return append(append([]output.Column(nil), resourceColumns...),
		output.Column{Header: "CONNECTOR", Field: "options.connector_version"},
		output.Column{Header: "WINDOWS AUTH", Field: "options.windows_auth"},
	)
}

func resourcesGroup() engine.Group {
	return engine.Group{
		Long: `Resources are the connections apps and workflows query (databases, APIs, ...).
A RESOURCE argument is the resource's id or its name.

T-SQL (mssql) settings ride in the resource's options: connector_version ("1.0",
"2.0", "3.0"), windows_auth (bool) and params_from_connection_string (ODBC
attributes, allowlisted for Windows-auth resources: see 'resources odbc-check').
'resources audit' reports which resources the announced deprecations and
removals affect, when, and what to do.`,
		Example: `  orgctl resources list --type mssql
  orgctl resources get orders-postgres -o json
  orgctl resources create --name billing-api --type restapi --options '{"base_url":"https://billing.example.com"}'
  orgctl resources update legacy-mssql --connector-version 3.0
  orgctl resources delete billing-api --yes
  orgctl resources audit --fail-on breaking
  orgctl resources odbc-check --param packetsize=4096 --param Encrypt=yes`,
		Columns: resourceColumns,
		Ops: []opdef.Op{
			{
				Use: "list", Method: http.MethodGet, Path: "/resources",
				Help: opdef.Help{
					Short:   "List resources",
					Long:    "The list does not carry options (connector version, Windows auth, ...); 'resources get' does.",
					Example: "  orgctl resources list\n  orgctl resources list --type mssql --jq '.[].display_name'\n  orgctl resources list --limit 50 --all",
				},
				Fields: []opdef.Field{
					{Flag: "type", Key: "resource_type", In: opdef.InQuery, Usage: "only resources of this `TYPE`"},
					{Flag: "name-contains", Key: "name_contains", In: opdef.InQuery, Usage: "only resources whose name contains `TEXT` (any case; API 4.0)"},
				},
			},
			{
				Use: "get RESOURCE", Method: http.MethodGet, Path: "/resources/{resourceId}",
				Help: opdef.Help{
					Short:   "Show a resource (with its options)",
					Example: "  orgctl resources get legacy-mssql\n  orgctl resources get legacy-mssql --jq .options.connector_version",
				},
				Columns: resourceGetColumns(),
				Args:    opdef.Args{Params: []string{"resourceId"}},
			},
			{
				Use: "create", Method: http.MethodPost, Path: "/resources", Body: true,
				Help: opdef.Help{
					Short: "Create a resource",
					Long: `Options are type-specific (database_options for databases, base_url for REST
APIs, ...): give them with --options JSON or a whole request with --body FILE|-;
the T-SQL flags set options keys and override both.

The published create schema lists the types dbServer, mysql, postgresql,
redshift, restapi and snowflake; other types are sent as given and the server
decides. A Windows-auth T-SQL resource (--type mssql, options.windows_auth true)
has its ODBC params checked against the allowlist first: a rejected key exits 2
and nothing is sent.`,
					Example: `  orgctl resources create --name orders --type postgresql --options '{"database_options":{"host":"pg.internal","port":"5432","name":"orders"}}'
  orgctl resources create --name hr-sql --type mssql --connector-version 3.0 --windows-auth --odbc-param ApplicationIntent=ReadOnly --odbc-param "Packet Size=8192"
  orgctl resources create --body resource.json --dry-run`,
				},
				Bulk: opdef.Bulk{Exists: opdef.LookFirst("resources", "name", "update")},
				Fields: []opdef.Field{
					{Flag: "name", Key: "display_name", Usage: "display name"},
					{Flag: "type", Key: "type", Usage: "resource `TYPE`"},
					{Flag: "options", Key: "options", Type: opdef.TJSON, Usage: "type-specific options as a JSON object"},
					{Flag: "connector-version", Key: "options.connector_version", Enum: connectorVersions, Usage: "T-SQL connector version"},
					{Flag: "windows-auth", Key: "options.windows_auth", Type: opdef.TBool, Usage: "T-SQL: connect using Windows Auth (self-hosted)"},
					{Flag: "odbc-param", In: opdef.InLocal, Type: opdef.TTexts, Usage: "T-SQL: ODBC attribute `KEY=VALUE` (repeatable)"},
				},
				Hooks: opdef.Hooks{Shape: shapeResourceCreate},
			},
			{
				Use: "update RESOURCE", Method: http.MethodPatch,
				Help: opdef.Help{
					Short: "Change a resource's name, folder or T-SQL settings",
					Long: `Each flag becomes one JSON Patch "replace" operation (the only operation the
API publishes for resources); --body takes raw operations
([{"op":"replace","path":"/options/connector_version","value":"3.0"}]).

--odbc-param replaces the resource's whole set of ODBC params with the ones given
(so a rejected key can be dropped). When the operations set ODBC params and do
not turn Windows Auth off, the keys are checked against the allowlist first
(only Windows-auth T-SQL resources use them): a rejected key exits 2 and nothing
is sent. The resource is not read first, to save its points.`,
					Example: `  orgctl resources update legacy-mssql --connector-version 3.0
  orgctl resources update payroll-mssql-winauth --odbc-param "Packet Size=4096" --odbc-param ConnectRetryCount=3
  orgctl resources update payroll-mssql-winauth --windows-auth=false
  orgctl resources update billing-api --name billing-api-v2 --folder resource_7`,
				},
				Path: "/resources/{resourceId}", Body: true, Patch: true,
				Args:    opdef.Args{Params: []string{"resourceId"}},
				Columns: resourceGetColumns(),
				Fields: []opdef.Field{
					{Flag: "name", Key: "display_name", In: opdef.InPatch, Usage: "new display name"},
					{Flag: "folder", Key: "folder_id", In: opdef.InPatch, Usage: "move into this `FOLDER` (id or path)"},
					{Flag: "connector-version", Key: "options.connector_version", In: opdef.InPatch, Enum: connectorVersions, Usage: "T-SQL connector version"},
					{Flag: "windows-auth", Key: "options.windows_auth", In: opdef.InPatch, Type: opdef.TBool, Usage: "T-SQL: connect using Windows Auth (--windows-auth=false turns it off)"},
					{Flag: "odbc-param", In: opdef.InLocal, Type: opdef.TTexts, Usage: "T-SQL: ODBC attribute `KEY=VALUE` (repeatable; replaces the whole set)"},
				},
				Hooks: opdef.Hooks{Shape: shapeResourceUpdate},
			},
			{
				Use: "delete RESOURCE", Method: http.MethodDelete, Path: "/resources/{resourceId}",
				Help: opdef.Help{
					Short:   "Delete a resource",
					Example: "  orgctl resources delete billing-api\n  orgctl resources delete archive-mongodb --delete-underlying-db --yes",
				},
				Args: opdef.Args{Params: []string{"resourceId"}},
				Confirm: &opdef.Confirm{
					Question: "Delete resource %s? Queries that use it stop working, and with --delete-underlying-db its database goes too; this cannot be undone.",
				},
				Fields: []opdef.Field{
					{Flag: "delete-underlying-db", Key: "deleteUnderlyingDB", In: opdef.InQuery, Type: opdef.TBool, Usage: "also delete the underlying Retool Database"},
				},
			},
		},
		Extra: []engine.Workflow{engine.Attach(resources.NewCmdAudit), engine.Attach(resources.NewCmdODBCCheck)},
	}
}

// odbcParamsPointer is where T-SQL ODBC params live in a resource (JSON Pointer).
const odbcParamsPointer = "/options/params_from_connection_string"

func shapeResourceCreate(c *opdef.Call) error {
	if c.Req.Body == nil {
		return nil
	}
	if _, isObj := c.Req.Body["options"].(map[string]any); c.Req.Body["options"] != nil && !isObj {
		return cli.UsageErrorf("--options must be a JSON object")
	}
	if c.Has("odbc-param") {
		// Raw flag text: ODBC values are strings, even when they look like numbers.
		params, err := odbcParamFlags(c)
		if err != nil {
			return err
		}
		opdef.SetPath(c.Req.Body, "options.params_from_connection_string", params)
	}
	opts, _ := c.Req.Body["options"].(map[string]any)
	if v, ok := opts["connector_version"]; ok {
		warnConnectorVersion(c, v)
	}
	if c.Req.Body["type"] != "mssql" || opts["windows_auth"] != true {
		return nil
	}
	return resources.PrecheckODBC(opts["params_from_connection_string"], true)
}

func shapeResourceUpdate(c *opdef.Call) error {
	if c.Has("odbc-param") {
		params, err := odbcParamFlags(c)
		if err != nil {
			return err
		}
		// The API publishes only "replace", and replacing the whole set is what lets a rejected key be dropped.
		c.Req.Patch = append(c.Req.Patch, map[string]any{"op": "replace", "path": odbcParamsPointer, "value": params})
	}
	var (
		params      map[string]any
		paramsSet   bool
		windowsAuth any
	)
	for _, raw := range c.Req.Patch {
		op, ok := raw.(map[string]any)
		if !ok || op["op"] == "remove" {
			continue
		}
		switch p := pathOf(op); {
		case p == "/options":
			if opts, ok := op["value"].(map[string]any); ok {
				if v, ok := opts["connector_version"]; ok {
					warnConnectorVersion(c, v)
				}
				if v, ok := opts["windows_auth"]; ok {
					windowsAuth = v
				}
				if v, ok := opts["params_from_connection_string"]; ok {
					params, paramsSet = asObject(v), true
					if params == nil && v != nil {
						return cli.UsageErrorf("options.params_from_connection_string must be a JSON object of ODBC attributes")
					}
				}
			}
		case p == "/options/connector_version":
			warnConnectorVersion(c, op["value"])
		case p == "/options/windows_auth":
			windowsAuth = op["value"]
		case p == odbcParamsPointer:
			params, paramsSet = asObject(op["value"]), true
			if params == nil && op["value"] != nil {
				return cli.UsageErrorf("%s must be a JSON object of ODBC attributes", odbcParamsPointer)
			}
		case strings.HasPrefix(p, odbcParamsPointer+"/"):
			if params == nil {
				params = map[string]any{}
			}
			params[pointerUnescape(strings.TrimPrefix(p, odbcParamsPointer+"/"))] = op["value"]
			paramsSet = true
		}
	}
	if !paramsSet || windowsAuth == false {
		return nil
	}
	return resources.PrecheckODBC(params, false)
}

func pathOf(op map[string]any) string {
	p, _ := op["path"].(string)
	return p
}

func asObject(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// pointerUnescape reverses pointerEscape (RFC 6901).
func pointerUnescape(s string) string {
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}

// odbcParamFlags reads --odbc-param as given: ODBC attribute values are strings.
func odbcParamFlags(c *opdef.Call) (map[string]any, error) {
	out := map[string]any{}
	for _, s := range c.LocalStrings("odbc-param") {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return nil, cli.UsageErrorf("invalid --odbc-param %q: expected KEY=VALUE", s)
		}
		if _, dup := out[k]; dup {
			return nil, cli.UsageErrorf("--odbc-param %q given twice", k)
		}
		out[k] = v
	}
	return out, nil
}

// warnConnectorVersion tells what moving to a connector version means.
func warnConnectorVersion(c *opdef.Call, v any) {
	switch v {
	case "3.0":
		c.Warnings = append(c.Warnings, "T-SQL connector 3.0 does not support object query parameters (convert them to strings first), "+
			"and array parameters become comma-separated strings")
	case "1.0", "2.0":
		c.Warnings = append(c.Warnings, "T-SQL connector versions 1.0 and 2.0 are deprecated (cloud: 2026-08-24) and removed from cloud in 2026-Q4; "+
			"use --connector-version 3.0")
	}
}
