package families

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// usageFields are the date range and org filter every usage report takes.
func usageFields(extra ...opdef.Field) []opdef.Field {
	return append([]opdef.Field{
		{Flag: "start", Key: "start_date", In: opdef.InQuery, Usage: "first day of the range, `YYYY-MM-DD`"},
		{Flag: "end", Key: "end_date", In: opdef.InQuery, Usage: "last day, `YYYY-MM-DD` (default: start + 30 days, at most yesterday)"},
		{Flag: "org", Key: "org_ids", In: opdef.InQuery, Type: opdef.TStrings, Usage: "only this organization `ID` (repeatable; see `usage orgs`)"},
	}, extra...)
}

// shapeUsage checks the dates and joins --org into the comma list the API takes.
func shapeUsage(c *opdef.Call) error {
	var start, end time.Time
	for _, k := range []string{"start_date", "end_date"} {
		v := c.Req.Query.Get(k)
		if v == "" {
			continue
		}
		t, err := time.Parse(time.DateOnly, v)
		if err != nil {
			return cli.UsageErrorf("invalid --%s %q: expected YYYY-MM-DD", map[string]string{"start_date": "start", "end_date": "end"}[k], v)
		}
		if k == "start_date" {
			start = t
		} else {
			end = t
		}
	}
	if !end.IsZero() && end.Before(start) {
		return cli.UsageErrorf("--end %s is before --start %s", end.Format(time.DateOnly), start.Format(time.DateOnly))
	}
	if ids := c.Req.Query["org_ids"]; len(ids) > 0 {
		c.Req.Query.Set("org_ids", strings.Join(ids, ","))
	}
	return nil
}

func usageGroup() engine.Group {
	const note = `Needs a token with the "usage" scope (usage:organization for this org only,
usage:spaces for its Spaces, usage:license for every org on the license key).
Self-hosted instances must set USAGE_API_TOKEN.`
	return engine.Group{
		Long: note,
		Example: `  orgctl usage orgs
  orgctl usage summary --start 2025-01-01 --end 2025-01-31
  orgctl usage apps --start 2025-01-01 --org ORG_ID
  orgctl usage user-details --start 2025-01-01 --email ada@example.com -o json`,
		Ops: []opdef.Op{
			{Use: "orgs", Method: http.MethodGet, Path: "/usage/organizations",
				Help: opdef.Help{
					Short:   "List the organizations the token can report on",
					Long:    note,
					Example: "  orgctl usage orgs\n  orgctl usage orgs --jq '.[].org_id'",
				},
				Columns: []output.Column{{Header: "ORG ID", Field: "org_id"}, {Header: "HOST", Field: "host"}, {Header: "LAST ACTIVE", Field: "last_active"}},
			},
			{Use: "summary", Method: http.MethodGet, Path: "/usage",
				Help: opdef.Help{
					Short:   "Totals and growth of saves, views and users",
					Long:    note,
					Example: "  orgctl usage summary --start 2025-01-01\n  orgctl usage summary --start 2025-01-01 --jq '.daily_T30_usage[] | [.day, .mau] | @tsv'",
				},
				Columns: []output.Column{
					{Header: "PAGE VIEWS", Field: "count_current_page_views"}, {Header: "VIEWS GROWTH %", Field: "percent_growth_page_views"},
					{Header: "PAGE SAVES", Field: "count_current_page_saves"}, {Header: "SAVES GROWTH %", Field: "percent_growth_page_saves"},
					{Header: "USERS", Field: "count_current_users"}, {Header: "T30 USERS", Field: "count_T30_users"},
				},
				Fields: usageFields(),
				Hooks:  opdef.Hooks{Shape: shapeUsage},
			},
			{Use: "apps", Method: http.MethodGet, Path: "/usage/app_summary",
				Help: opdef.Help{
					Short:   "Views, saves, viewers and editors per app",
					Long:    note,
					Example: "  orgctl usage apps --start 2025-01-01 --end 2025-01-31",
				},
				Columns: []output.Column{{Header: "APP", Field: "app_name"}, {Header: "HOST", Field: "host"}, {Header: "VIEWS", Field: "count_app_views"},
					{Header: "SAVES", Field: "count_app_saves"}, {Header: "VIEWERS", Field: "count_viewers"}, {Header: "EDITORS", Field: "count_editors"}},
				Fields: usageFields(),
				Hooks:  opdef.Hooks{Shape: shapeUsage},
			},
			{Use: "app-details", Method: http.MethodGet, Path: "/usage/app_details",
				Help: opdef.Help{
					Short:   "One app's saves and views by week, viewer and editor",
					Long:    note,
					Example: "  orgctl usage app-details --start 2025-01-01 --app 'Refund desk' -o yaml\n  orgctl usage app-details --start 2025-01-01 --app 'Refund desk' --jq '.viewer_summary[].email'",
				},
				Columns: []output.Column{{Header: "ORG", Field: "org_id"}, {Header: "APP", Field: "app_name"}, {Header: "VIEWS", Field: "count_app_views"}, {Header: "SAVES", Field: "count_app_saves"}},
				Fields:  usageFields(opdef.Field{Flag: "app", Key: "app_name", In: opdef.InQuery, Usage: "app `NAME`"}),

				Hooks: opdef.Hooks{Shape: shapeUsage, View: usageDetailPrint},
			},
			{Use: "users", Method: http.MethodGet, Path: "/usage/user_summary",
				Help: opdef.Help{
					Short:   "Per-user activity: apps viewed and edited, last active",
					Long:    note,
					Example: "  orgctl usage users --start 2025-01-01\n  orgctl usage users --start 2025-01-01 --jq 'sort_by(.count_app_views) | reverse | .[0:10] | .[].email'",
				},
				Columns: []output.Column{{Header: "EMAIL", Field: "email"}, {Header: "USER ID", Field: "user_id"}, {Header: "VIEWS", Field: "count_app_views"},
					{Header: "SAVES", Field: "count_app_saves"}, {Header: "APPS", Field: "count_unique_apps"}, {Header: "LAST ACTIVE", Field: "last_active"}},
				Fields: usageFields(),
				Hooks:  opdef.Hooks{Shape: shapeUsage},
			},
			{Use: "user-details", Method: http.MethodGet, Path: "/usage/user_details",
				Help: opdef.Help{
					Short:   "One user's saves and views by week and app",
					Long:    note,
					Example: "  orgctl usage user-details --start 2025-01-01 --email ada@example.com",
				},
				Columns: []output.Column{{Header: "ORG", Field: "org_id"}, {Header: "USER ID", Field: "user_id"}, {Header: "VIEWS", Field: "count_app_views"}, {Header: "SAVES", Field: "count_app_saves"}},
				Fields:  usageFields(opdef.Field{Flag: "email", Key: "email", In: opdef.InQuery, Usage: "the user's email"}),

				Hooks: opdef.Hooks{Shape: shapeUsage, View: usageDetailPrint},
			},
		},
	}
}

// usageDetailPrint shows the overall summary as the table (the weekly,
// viewer and editor breakdowns are in -o json/yaml).
func usageDetailPrint(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
	if p.Opts.Structured() {
		return p.Print(data, nil)
	}
	var d struct {
		Overall json.RawMessage `json:"overall_summary"`
	}
	if err := json.Unmarshal(data, &d); err != nil || len(d.Overall) == 0 {
		return p.Print(data, nil)
	}
	return p.Print(d.Overall, c.Columns)
}
