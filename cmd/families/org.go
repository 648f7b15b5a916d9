package families

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/orgctl/orgctl/cmd/cli/usage"
	"net/http"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// SettingsPrint shows one settings object as SETTING/VALUE rows in the
// order the API sent them; -o json/yaml, --jq and --template get the object.
func SettingsPrint(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
	if p.Opts.Structured() {
		return p.Print(data, nil)
	}
	rows, err := settingRows(data)
	if err != nil {
		return p.Print(data, nil)
	}
	b, _ := json.Marshal(rows)
	return p.Print(b, []output.Column{{Header: "SETTING", Field: "setting"}, {Header: "VALUE", Field: "value"}})
}

func settingRows(data json.RawMessage) ([]map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, cli.UsageErrorf("not a JSON object")
	}
	var rows []map[string]any
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		rows = append(rows, map[string]any{"setting": k, "value": v})
	}
	return rows, nil
}

var orgSettingFields = []opdef.Field{
	{Flag: "request-access-enabled", Key: "request_access_enabled", In: opdef.InPatch, Type: opdef.TBool, Usage: "let users request access to apps"},
	{Flag: "ai-support-bot-disabled", Key: "ai_support_bot_disabled", In: opdef.InPatch, Type: opdef.TBool, Usage: "hide the AI support bot"},
	{Flag: "retool-forms-disabled", Key: "retool_forms_disabled", In: opdef.InPatch, Type: opdef.TBool, Usage: "disable Retool Forms"},
	{Flag: "release-management-enabled", Key: "release_management_enabled", In: opdef.InPatch, Type: opdef.TBool, Usage: "enable release management"},
	{Flag: "cache-queries-per-user", Key: "cache_queries_per_user", In: opdef.InPatch, Type: opdef.TBool, Usage: "cache query results per user"},
	{Flag: "apply-preloaded-css-to-homepage", Key: "apply_preloaded_css_to_homepage", In: opdef.InPatch, Type: opdef.TBool, Usage: "apply the preloaded CSS to the home page too"},
	{Flag: "preloaded-css-file", In: opdef.InLocal, Usage: "CSS loaded in every app, from `FILE`"},
	{Flag: "preloaded-javascript-file", In: opdef.InLocal, Usage: "JavaScript loaded in every app, from `FILE`"},
	{Flag: "javascript-link", Key: "javascript_links", In: opdef.InPatch, Type: opdef.TStrings, Usage: "script `URL` loaded in every app (repeatable; replaces the list)"},
	{Flag: "workflow-run-retention-mins", Key: "workflow_run_retention_period_mins", In: opdef.InPatch, Type: opdef.TInt, Usage: "keep workflow runs this many `MINUTES`"},
	{Flag: "app-owners-permissions-management", Key: "app_owners_permissions_management", In: opdef.InPatch, Type: opdef.TBool, Usage: "let app owners manage permissions"},
	{Flag: "two-factor-auth-required", Key: "two_factor_auth_required", In: opdef.InPatch, Type: opdef.TBool, Usage: "require two-factor authentication"},
	{Flag: "two-factor-auth-type", Key: "two_factor_auth_type", In: opdef.InPatch, Enum: []string{"fido2", "otp"}, Usage: "second factor"},
	{Flag: "disable-new-login-ip-notification-email", Key: "disable_new_login_ip_notification_email", In: opdef.InPatch, Type: opdef.TBool, Usage: "stop emailing users about logins from new IPs"},
}

// loadPatchFiles turns the file options into "replace" operations with
// the files' contents.
func loadPatchFiles(c *opdef.Call) error {
	for _, f := range []struct{ flag, path string }{
		{"preloaded-css-file", "/preloaded_css"},
		{"preloaded-javascript-file", "/preloaded_javascript"},
	} {
		name := c.LocalString(f.flag)
		if name == "" {
			continue
		}
		r, err := c.OpenSource(name)
		if err != nil {
			return cli.UsageErrorf("--%s: %v", f.flag, err)
		}
		b, err := opdef.ReadLimited(r, "--"+f.flag+" "+name)
		r.Close()
		if err != nil {
			return cli.UsageErrorf("--%s: %v", f.flag, err)
		}
		c.Req.Patch = append(c.Req.Patch, map[string]any{"op": "replace", "path": f.path, "value": string(b)})
	}
	return nil
}

var aiSettingFields = []opdef.Field{
	{Flag: "retool-ai", Key: "retoolAI", Type: opdef.TBool, Optional: true, Usage: "Retool AI"},
	{Flag: "ai-actions", Key: "retoolAIActions", Type: opdef.TBool, Optional: true, Usage: "AI actions in queries"},
	{Flag: "vectors", Key: "retoolVector", Type: opdef.TBool, Optional: true, Usage: "Retool Vectors"},
	{Flag: "ask-ai", Key: "retoolAskAI", Type: opdef.TBool, Optional: true, Usage: "Ask AI in the editor"},
}

// fillAISettings reads the current settings first when flags leave some
// out, since the API replaces all four (PUT).
func fillAISettings(c *opdef.Call) error {
	if len(c.BodyObject()) == 0 {
		return cli.UsageErrorf("%s: %w: pass --retool-ai, --ai-actions, --vectors or --ask-ai", c.Command, usage.ErrNothingToChange)
	}
	for _, fd := range aiSettingFields {
		if _, ok := c.Req.Body[fd.Key]; !ok {
			c.Reads = []client.Request{opdef.RequestTo(http.MethodGet, "/organization/ai_settings", nil)}
			return nil
		}
	}
	return nil
}

// mergeAISettings keeps the current value of every setting not given.
func mergeAISettings(c *opdef.Call, current []json.RawMessage) error {
	var cur map[string]any
	if err := json.Unmarshal(current[0], &cur); err != nil {
		return fmt.Errorf("unexpected answer reading the AI settings: %w", err)
	}
	for k, v := range cur {
		if _, set := c.Req.Body[k]; !set {
			c.Req.Body[k] = v
		}
	}
	return nil
}

func orgGroup() engine.Group {
	return engine.Group{
		Long: `Advanced settings of the organization (or Space) the token belongs to.`,
		Example: `  orgctl org get
  orgctl org update --two-factor-auth-required --two-factor-auth-type fido2
  orgctl org ai-settings set --ask-ai=false
  orgctl org invalidate-sessions --yes`,
		Ops: []opdef.Op{
			{Use: "get", Method: http.MethodGet, Path: "/organization/",
				Help: opdef.Help{
					Short:   "Show the organization's advanced settings",
					Example: "  orgctl org get\n  orgctl org get --jq .two_factor_auth_required",
				},

				Hooks: opdef.Hooks{View: SettingsPrint},
			},
			{Use: "update", Method: http.MethodPatch, Path: "/organization/",
				Help: opdef.Help{
					Short: "Change advanced settings (JSON Patch replace)",
					Long:  "Each flag becomes one JSON Patch \"replace\" operation; --body takes raw operations.",
					Example: `  orgctl org update --request-access-enabled=false
  orgctl org update --preloaded-css-file brand.css --apply-preloaded-css-to-homepage
  orgctl org update --javascript-link https://cdn.example.com/a.js --javascript-link https://cdn.example.com/b.js`,
					Done: "Updated the organization's settings",
				},
				Body: true, Patch: true, Fields: orgSettingFields,
				Hooks: opdef.Hooks{Shape: loadPatchFiles, View: SettingsPrint},
			},
			{Use: "invalidate-sessions", Method: http.MethodPost, Path: "/organization/invalidate_sessions/",
				Help: opdef.Help{
					Short: "Sign every user of the organization out",
					Long: `Invalidates all sessions of all users: everyone must sign in again.
On a terminal it asks you to type the organization's host name first.
The API documentation names no scope for this call; orgctl assumes "Organizations > Write".`,
					Example: "  orgctl org invalidate-sessions\n  orgctl org invalidate-sessions --yes   # in scripts",
					Done:    "Signed out every user of the organization",
				},
				Confirm: &opdef.Confirm{
					Question:      "Sign out every user of the organization at %s? Everyone must sign in again; sessions cannot be restored.",
					TypeToConfirm: orgHost,
				},

				Hooks: opdef.Hooks{
					View: func(p *output.Printer, c *opdef.Call, data json.RawMessage) error { return p.Print(data, nil) },
				},
			},
			{Use: "analytics-integrations", Method: http.MethodGet, Path: "/organization/analytics_integrations",
				Help: opdef.Help{
					Short:   "Show the third-party analytics integrations",
					Long:    "At most one configuration per integration type (Retool 3.175.0+).",
					Example: "  orgctl org analytics-integrations\n  orgctl org analytics-integrations -o json",
				},
				Columns: []output.Column{{Header: "TYPE", Field: "type"}, {Header: "ENABLED", Field: "enabled"}, {Header: "ID", Field: "measurement_id"}, {Header: "HOST", Field: "host"}},
			},
		},
		Groups: []engine.Group{codeExecutorGroup(), {
			Name:    "ai-settings",
			Short:   "Show and change the organization's AI features",
			Long:    "Retool 3.165.0+.",
			Example: "  orgctl org ai-settings get\n  orgctl org ai-settings set --retool-ai --ask-ai=false",
			Ops: []opdef.Op{
				{Use: "get", Method: http.MethodGet, Path: "/organization/ai_settings",
					Help: opdef.Help{
						Short:   "Show the AI settings",
						Example: "  orgctl org ai-settings get\n  orgctl org ai-settings get -o json",
					},

					Hooks: opdef.Hooks{View: SettingsPrint},
				},
				{Use: "set", Method: http.MethodPut, Path: "/organization/ai_settings", Body: true,
					Help: opdef.Help{
						Short: "Turn AI features on or off",
						Long: `The API replaces all four settings; orgctl reads the current ones first (one
extra GET) so that flags you leave out keep their value.`,
						Example: "  orgctl org ai-settings set --ask-ai=false\n  orgctl org ai-settings set --retool-ai --ai-actions --vectors --ask-ai",
						Done:    "Set the organization's AI settings",
					},
					Fields: aiSettingFields,
					Hooks:  opdef.Hooks{Shape: fillAISettings, Merge: mergeAISettings, View: SettingsPrint},
				},
			},
		}},
	}
}

// orgHost is what an org-wide action asks the user to type: the host of the
// organization the profile points at, the name they know it by.
func orgHost(_ context.Context, org opdef.Org, _ *opdef.Call) (string, error) {
	return org.Host()
}
