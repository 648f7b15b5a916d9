package resources

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mattn/go-runewidth"
	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/changes"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// auditLevels are the --fail-on thresholds, most urgent first (changes.StatusRank orders them).
var auditLevels = []string{changes.StatusRemoved, changes.StatusBreaking, changes.StatusDeprecated, changes.StatusCheck}

// optionTypes reports the types whose findings depend on options, which only single reads return; for
// every other type changes.Audit decides from the type alone (a test pins this).
func optionTypes(typ string) bool {
	switch typ {
	case "mssql", "mongodb", "restapi", "graphql", "openapi", "grpc":
		return true
	}
	return false
}

var auditColumns = []output.Column{
	{Header: "STATUS", Field: "status"},
	{Header: "DEADLINE", Field: "deadline"},
	{Header: "DAYS LEFT", Field: "days_left"},
	{Header: "ID", Field: "resource_id"},
	{Header: "NAME", Field: "resource_name"},
	{Header: "TYPE", Field: "type"},
	{Header: "CHANGE", Field: "change"},
	{Header: "ACTION", Field: "action"},
	{Header: "APPS", Field: "apps", Value: appNames},
}

// auditFinding is a finding with the apps that use its resource: the
// people who must hear of it. Apps is nil (null in JSON) when the instance
// cannot say, and empty when no app uses the resource.
type auditFinding struct {
	changes.Finding
	Apps []appRef `json:"apps"`
}

type appRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// appNames is the APPS cell: the apps' names, comma-separated.
func appNames(rec map[string]any) string {
	apps, _ := rec["apps"].([]any)
	names := make([]string, 0, len(apps))
	for _, a := range apps {
		if m, ok := a.(map[string]any); ok {
			names = append(names, fmt.Sprint(m["name"]))
		}
	}
	return strings.Join(names, ", ")
}

// AuditOptions are one audit's settings, parsed and checked.
type AuditOptions struct {
	Factory  *cli.Factory
	AsOf     time.Time
	FailOn   string
	ListOnly bool
	// NoApps skips the reads of the apps behind each finding.
	NoApps bool
	DryRun bool
}

// NewCmdAudit is a report over many requests, so it has its own run
// function: one list, then one read per resource whose options decide it.
// It parses into AuditOptions for runF (auditRun when nil).
func NewCmdAudit(f *cli.Factory, runF func(*AuditOptions) error) *cobra.Command {
	var asOf, failOn string
	var listOnly, noApps, dryRun bool
	c := &cobra.Command{
		Use:   "audit",
		Short: "Report resources affected by announced resource-type deprecations and removals",
		Long: `Checks every resource against the announced changes: T-SQL connector 1.0/2.0
(deprecated 2026-08-24, removed 2026-Q4), T-SQL Windows Auth (self-hosted,
2027-Q2) and its ODBC params allowlist, the columnar-database (vertica) and
data-governance (bigid) types (removed 2027-Q1), document-database server 3.4
and earlier (mongodb), preinstalled libraries in custom auth (2027-Q2) and the
built-in email sender on the Free plan (2027-01-01). Each finding names the
apps that use its resource (GET /apps?using_resource=, on instances that
publish it): the people to tell.

Status, most urgent first: removed (fails now), breaking (fails now or removal
under way this quarter), deprecated (works; act before the deadline), check
(the API does not show what decides it: look). Deadlines are the cloud dates,
the earliest; days left count to a quarter's first day.

Output: a terminal groups findings by status; piped, one finding per line:
status, deadline, days left, id, name, type, change, action, apps
(tab-separated, no header); -o json gives the list of findings, each with its
"apps" ([{"id","name"}]; null where the instance cannot say). --fail-on LEVEL exits 7 after
printing when a finding at or above LEVEL exists (for CI).`,
		Example: `  orgctl resources audit
  orgctl resources audit --as-of 2026-12-01 -o json
  orgctl resources audit --dry-run             # what it reads and costs
  orgctl resources audit --fail-on breaking    # in CI: exit 7 when something fails now
  orgctl resources audit --jq '.[] | select(.change == "tsql-connector-v1-v2-removed") | .resource_name'`,
		Args: cli.NoArgsGroup,
		RunE: func(c *cobra.Command, _ []string) error {
			o := &AuditOptions{Factory: f, FailOn: failOn, ListOnly: listOnly, NoApps: noApps, DryRun: dryRun, AsOf: time.Now()}
			if c.Flags().Changed("as-of") {
				t, err := time.ParseInLocation("2006-01-02", asOf, time.Local)
				if err != nil {
					return cli.UsageErrorf("invalid --as-of %q: expected a date as YYYY-MM-DD", asOf)
				}
				o.AsOf = t
			}
			if failOn != "" && !slices.Contains(auditLevels, failOn) {
				return cli.UsageErrorf("invalid value %q for --fail-on: allowed values are %s", failOn, strings.Join(auditLevels, ", "))
			}
			if runF != nil {
				return runF(o)
			}
			return auditRun(c.Context(), o)
		},
	}
	engine.Describe(c, engine.Facts{Method: http.MethodGet, Path: "/resources", Scope: "Resources > Read", Also: []string{"apps:read (Apps > Read)"},
		Requests: `1 GET /resources, plus 1 GET /resources/{id} for each mssql, mongodb,
restapi, graphql, openapi and grpc resource, since only single reads carry the
options that decide their findings (5 points each); vertica, bigid and
retoolEmail need no read; then 1 GET /apps?using_resource=ID for each
resource with a finding (2 points each), where the instance publishes that
parameter. --list-only makes it 1 request: those findings then become
"check", and no apps are read; --no-apps skips the apps.`})
	fl := c.Flags()
	fl.StringVar(&asOf, "as-of", "", "judge the dates as of `YYYY-MM-DD` (default: today)")
	fl.StringVar(&failOn, "fail-on", "", "exit 7 when a finding at or above `LEVEL` exists {"+strings.Join(auditLevels, "|")+"}")
	fl.BoolVar(&listOnly, "list-only", false, "skip the per-resource reads (1 request; option-dependent findings become check; no apps)")
	fl.BoolVar(&noApps, "no-apps", false, "do not read the apps that use each resource with a finding")
	fl.BoolVar(&dryRun, "dry-run", false, "list the resources (1 request), then say what the audit would read and cost, and stop")
	c.RegisterFlagCompletionFunc("fail-on", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return auditLevels, cobra.ShellCompDirectiveNoFileComp
	})
	return c
}

// auditRun lists the resources, reads the options of those whose findings
// depend on them and the apps that use each resource with a finding, and
// prints the findings.
func auditRun(ctx context.Context, o *AuditOptions) error {
	f := o.Factory
	cfg, p, err := cli.PrinterFor(f)
	if err != nil {
		return err
	}
	cl, err := f.Client()
	if err != nil {
		return err
	}
	k := kinds.Of("resources")
	resp, err := cl.Do(ctx, client.Request{Method: http.MethodGet, Path: k.List, Scope: k.Scope})
	if err != nil {
		return err
	}
	var listed []struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
		Type        string `json:"type"`
	}
	if err := json.Unmarshal(resp.Data, &listed); err != nil {
		return fmt.Errorf("GET %s: unexpected answer: %w", k.List, err)
	}
	reads := 0
	for _, r := range listed {
		if optionTypes(r.Type) && !o.ListOnly {
			reads++
		}
	}
	apps := appsReader{f: f, cl: cl, on: !o.ListOnly && !o.NoApps}
	if o.DryRun {
		return auditDryRun(ctx, o, cfg, listed, reads, &apps)
	}
	if reads > 0 && !cfg.Quiet {
		f.IO.Notice("reading the options of %d resource(s): %d more request(s)", reads, reads)
	}
	resources := make([]changes.Resource, 0, len(listed))
	for _, r := range listed {
		res := changes.Resource{ID: r.ID, Name: r.DisplayName, Type: r.Type}
		if optionTypes(r.Type) && !o.ListOnly {
			opts, err := resourceOptions(ctx, cl, k, r.ID)
			if err != nil {
				return err
			}
			res.Options = opts
		}
		resources = append(resources, res)
	}
	findings := changes.Audit(resources, o.AsOf)
	withApps, err := apps.behind(ctx, findings, cfg)
	if err != nil {
		return err
	}
	data, err := output.MarshalText(withApps)
	if err != nil {
		return err
	}
	if !p.Opts.Structured() && f.IO.OutTTY {
		err = writeAuditReport(f.IO.Out, withApps, o.AsOf, f.IO.Width)
	} else {
		err = p.Print(data, auditColumns)
	}
	if err != nil {
		return err
	}
	if o.FailOn != "" {
		n := 0
		for _, fd := range findings {
			if changes.StatusRank(fd.Status) >= changes.StatusRank(o.FailOn) {
				n++
			}
		}
		if n > 0 {
			return &cli.ExitError{Code: cli.ExitFindings, Err: fmt.Errorf("%d finding(s) at or above %q", n, o.FailOn)}
		}
	}
	return nil
}

// auditDryRun says what the audit would read after the list it has read,
// and what that costs: the options reads are known from the types, the
// apps reads at most one per resource that may have a finding.
func auditDryRun(ctx context.Context, o *AuditOptions, cfg *settings.Config, listed []struct {
	ID          string `json:"id"`
	DisplayName string `json:"display_name"`
	Type        string `json:"type"`
}, reads int, apps *appsReader) error {
	bc := cfg.Budget
	w := o.Factory.IO.Err
	resources := make([]changes.Resource, 0, len(listed))
	for _, r := range listed {
		resources = append(resources, changes.Resource{ID: r.ID, Name: r.DisplayName, Type: r.Type})
	}
	maybe := map[string]bool{}
	for _, fd := range changes.Audit(resources, o.AsOf) {
		maybe[fd.ResourceID] = true
	}
	listPoints := bc.Cost("/resources")
	optPoints := bc.Cost("/resources/{resourceId}")
	appPoints := bc.Cost("/apps")
	fmt.Fprintf(w, "Audit of %d resource(s), read: 1 GET /resources (%d points).\n", len(listed), listPoints)
	fmt.Fprintf(w, "  - %d GET /resources/{id} for the options that decide findings (%d points each)\n", reads, optPoints)
	requests, points := 1+reads, listPoints+reads*optPoints
	switch ok, why := apps.available(ctx); {
	case !apps.on:
		fmt.Fprintf(w, "  - no GET /apps?using_resource= (%s)\n", map[bool]string{true: "--list-only", false: "--no-apps"}[o.ListOnly])
	case !ok:
		fmt.Fprintf(w, "  - no GET /apps?using_resource=: %s\n", why)
	default:
		fmt.Fprintf(w, "  - at most %d GET /apps?using_resource=ID, one per resource with a finding (%d points each)\n", len(maybe), appPoints)
		requests, points = requests+len(maybe), points+len(maybe)*appPoints
	}
	fmt.Fprintf(w, "Cost: at most %s (the list included).\n", bc.CostSentence(requests, points, nil))
	return nil
}

// appsReader reads, for each resource with a finding, the apps that use it.
type appsReader struct {
	f  *cli.Factory
	cl *client.Client
	on bool
}

// available reports whether the instance publishes GET /apps?using_resource=,
// and when not, why, in words.
func (a *appsReader) available(ctx context.Context) (bool, string) {
	if !a.on {
		return false, ""
	}
	return publishesQuery(ctx, a.f, http.MethodGet, "/apps", "using_resource")
}

// behind is the findings with their apps: one read per resource with a
// finding, said beforehand with its cost; on an instance without the
// parameter, the findings as they are, said once.
func (a *appsReader) behind(ctx context.Context, findings []changes.Finding, cfg *settings.Config) ([]auditFinding, error) {
	out := make([]auditFinding, len(findings))
	for i, fd := range findings {
		out[i] = auditFinding{Finding: fd}
	}
	if !a.on || len(findings) == 0 {
		return out, nil
	}
	if ok, why := a.available(ctx); !ok {
		a.f.IO.Warn("the apps behind each finding are not shown: %s", why)
		return out, nil
	}
	var ids []string
	seen := map[string]bool{}
	for _, fd := range findings {
		if !seen[fd.ResourceID] {
			seen[fd.ResourceID] = true
			ids = append(ids, fd.ResourceID)
		}
	}
	if !cfg.Quiet {
		a.f.IO.Notice("reading the apps that use %d resource(s) with a finding: %s more", len(ids),
			ratebudget.Tally(len(ids), len(ids)*cfg.Budget.Cost("/apps")))
	}
	byResource := map[string][]appRef{}
	for _, id := range ids {
		refs, err := a.using(ctx, id)
		if err != nil {
			return nil, err
		}
		byResource[id] = refs
	}
	for i := range out {
		out[i].Apps = byResource[out[i].ResourceID]
	}
	return out, nil
}

// using is every app that uses the resource, page by page.
func (a *appsReader) using(ctx context.Context, resourceID string) ([]appRef, error) {
	k := kinds.Of("apps")
	refs := []appRef{}
	q := url.Values{"using_resource": {resourceID}}
	for {
		resp, err := a.cl.Do(ctx, client.Request{Method: http.MethodGet, Path: k.List, Query: q, Scope: k.Scope})
		if err != nil {
			return nil, err
		}
		var page []appRef
		if err := json.Unmarshal(resp.Data, &page); err != nil {
			return nil, fmt.Errorf("GET %s?using_resource=: unexpected answer: %w", k.List, err)
		}
		refs = append(refs, page...)
		if resp.NextToken == "" || !resp.HasMore {
			return refs, nil
		}
		q = url.Values{"using_resource": {resourceID}, "next_token": {resp.NextToken}}
	}
}

// resourceOptions reads one resource's options; a resource deleted since the list has none.
func resourceOptions(ctx context.Context, cl *client.Client, k kinds.Kind, id string) (map[string]any, error) {
	path := client.Expand(k.Get, map[string]string{"id": id})
	r, err := cl.Do(ctx, client.Request{Method: http.MethodGet, Path: path, Scope: k.Scope})
	var ae *client.APIError
	if errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var one struct {
		Options map[string]any `json:"options"`
	}
	dec := json.NewDecoder(bytes.NewReader(r.Data))
	dec.UseNumber()
	if err := dec.Decode(&one); err != nil {
		return nil, fmt.Errorf("GET %s: unexpected answer: %w", path, err)
	}
	return one.Options, nil
}

// auditHeading introduces a status's section of the terminal report.
func auditHeading(status string) string {
	switch status {
	case changes.StatusRemoved:
		return "Removed: queries against these fail now"
	case changes.StatusBreaking:
		return "Breaking: failing now, or removal under way this quarter"
	case changes.StatusDeprecated:
		return "Deprecated: still work; act before the deadline"
	case changes.StatusCheck:
		return "Check: the API does not show what decides these; look yourself"
	}
	return ""
}

// writeAuditReport is the terminal form: one section per status, most urgent first.
func writeAuditReport(w io.Writer, findings []auditFinding, asOf time.Time, width int) error {
	var b strings.Builder
	if len(findings) == 0 {
		fmt.Fprintf(&b, "No resource is affected by the announced changes (as of %s).\n", asOf.Format("2006-01-02"))
		_, err := io.WriteString(w, b.String())
		return err
	}
	if width <= 0 || width > 120 {
		width = 100
	}
	counts := map[string]int{}
	for _, fd := range findings {
		counts[fd.Status]++
	}
	for _, status := range auditLevels {
		if counts[status] == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s (%d)\n", auditHeading(status), counts[status])
		for _, fd := range findings {
			if fd.Status != status {
				continue
			}
			heading := []string{fmt.Sprintf("%s (%s, %s)", fd.ResourceName, fd.Type, fd.ResourceID), fd.Change, deadlineText(fd.Finding)}
			for i, line := range wrapParts(heading, width-2, 2) {
				b.WriteString(strings.Repeat(" ", 2+min(i, 1)*2) + line + "\n")
			}
			for _, line := range output.WrapWords(fd.Action, max(width-6, 20)) {
				b.WriteString("      " + line + "\n")
			}
			if fd.Apps != nil {
				names := make([]string, len(fd.Apps))
				for i, a := range fd.Apps {
					names[i] = a.Name
				}
				used := "used by no app"
				if len(names) > 0 {
					used = "used by " + strings.Join(names, ", ")
				}
				for _, line := range output.WrapWords(used, max(width-6, 20)) {
					b.WriteString("      " + line + "\n")
				}
			}
		}
	}
	var parts []string
	for _, status := range auditLevels {
		if counts[status] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[status], status))
		}
	}
	fmt.Fprintf(&b, "\n%d finding(s) as of %s: %s\n", len(findings), asOf.Format("2006-01-02"), strings.Join(parts, ", "))
	_, err := io.WriteString(w, b.String())
	return err
}

// wrapParts lays parts out two spaces apart in lines of at most width
// columns (indent fewer after the first), breaking between parts and,
// inside a part too wide for a line, between words: a terminal wrapping
// the line itself would cut a name or a date in two.
func wrapParts(parts []string, width, indent int) []string {
	var lines []string
	line := ""
	room := func() int {
		if len(lines) == 0 {
			return width
		}
		return max(width-indent, 20)
	}
	for _, p := range parts {
		if p == "" {
			continue
		}
		switch {
		case line == "":
		case runewidth.StringWidth(line)+2+runewidth.StringWidth(p) <= room():
			line += "  " + p
			continue
		default:
			lines = append(lines, line)
			line = ""
		}
		words := output.WrapWords(p, room())
		for len(words) > 1 {
			lines = append(lines, words[0])
			words = output.WrapWords(strings.Join(words[1:], " "), room())
		}
		line = words[0]
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// deadlineText says when, relative to the audit date, in the tense the
// deadline is in: a day is "in 40 days", "today" or "51 days ago"; a
// quarter, which lasts, "begins in 40 days", is under way ("began 61 days
// ago") or "ended 14 days ago". A removal under way is said to be.
func deadlineText(fd changes.Finding) string {
	if fd.DaysLeft == nil {
		return "in effect now"
	}
	d := *fd.DaysLeft
	if n, ok := quarterDays(fd.Deadline); ok {
		switch {
		case d > 0:
			return fmt.Sprintf("%s, begins in %s", fd.Deadline, dayCount(d))
		case d == 0 && fd.Status == changes.StatusBreaking:
			return fmt.Sprintf("under way (%s, began today)", fd.Deadline)
		case d == 0:
			return fd.Deadline + ", began today"
		case -d < n && fd.Status == changes.StatusBreaking:
			return fmt.Sprintf("under way (%s, began %s ago)", fd.Deadline, dayCount(-d))
		case -d < n:
			return fmt.Sprintf("%s, began %s ago", fd.Deadline, dayCount(-d))
		case -d == n:
			return fd.Deadline + ", ended today"
		}
		return fmt.Sprintf("%s, ended %s ago", fd.Deadline, dayCount(-d-n))
	}
	switch {
	case d == 0:
		return fd.Deadline + ", today"
	case d > 0:
		return fmt.Sprintf("%s, in %s", fd.Deadline, dayCount(d))
	}
	return fmt.Sprintf("%s, %s ago", fd.Deadline, dayCount(-d))
}

func dayCount(n int) string {
	if n == 1 {
		return "1 day"
	}
	return fmt.Sprintf("%d days", n)
}

// quarterDays is how many days the quarter a deadline names ("2026-Q4")
// lasts; false for a deadline that is a day.
func quarterDays(deadline string) (int, bool) {
	var y, q int
	if _, err := fmt.Sscanf(deadline, "%d-Q%d", &y, &q); err != nil || q < 1 || q > 4 {
		return 0, false
	}
	start := time.Date(y, time.Month(3*q-2), 1, 0, 0, 0, 0, time.UTC)
	return int(start.AddDate(0, 3, 0).Sub(start).Hours() / 24), true
}
