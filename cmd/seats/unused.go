package seats

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/atomicfile"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// UnusedOptions are one unused-access review, parsed and checked.
type UnusedOptions struct {
	Factory *cli.Factory
	staleness
	// RevokeFile and GrantFile, when set, receive the suggestions as
	// --from files of 'permissions revoke' and 'permissions grant'.
	RevokeFile, GrantFile string
	DryRun, ExitCode      bool
}

// NewCmdUnused parses 'permissions unused' into UnusedOptions and hands
// them to runF (unusedRun when nil).
func NewCmdUnused(f *cli.Factory, runF func(*UnusedOptions) error) *cobra.Command {
	o := &UnusedOptions{Factory: f}
	c := &cobra.Command{
		Use:   "unused --days N",
		Short: "List grants on apps that their holders did not use in the last N days",
		Long: `Every grant that reaches an app, made on the app itself or on a folder above
it, to a group or to an active user, that was not used in the last --days N
days, with what to do about it:
  revoke   nobody it gives access to viewed any app it reaches
  use      they only viewed: an edit or own grant where use would do
Grants through universal access are not listed (they are a group's settings,
not grants; see 'orgctl groups'), nor the grants of disabled users (see
'orgctl users offboard').

The grants come from each app's access list (what 'permissions report'
reads); the use from the usage reports: one GET /usage/user_summary and one
GET /usage/app_summary for the window, then GET /usage/user_details only for
the users who viewed something and hold (or are in a group that holds) a grant
on an app someone viewed: for everyone else the summaries already say.

-o csv is the auditor's copy. --revoke-file FILE and --grant-file FILE write
the suggestions as files that 'permissions revoke --from FILE' and
'permissions grant --from FILE' take, to apply them after review.
--exit-code exits 7 when any grant is listed.`,
		Example: `  orgctl permissions unused --days 90
  orgctl permissions unused --days 90 -o csv > unused-access.csv
  orgctl permissions unused --days 90 --revoke-file revoke.csv --grant-file use.csv
  orgctl permissions revoke --from revoke.csv --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkDays(o.Days); err != nil {
				return err
			}
			o.Now = time.Now()
			if runF != nil {
				return runF(o)
			}
			return unusedRun(c.Context(), o)
		},
	}
	engine.Describe(c, engine.Facts{Method: http.MethodGet, Path: "/permissions/accessList/{objectType}/{objectId}", Scope: "Permissions > Read",
		Also: []string{"usage", "Apps > Read", "Users > Read", "Groups > Read"},
		Requests: `GET /apps, /users (2 points each) and /groups (5); one access
list per app (10 points each); GET /usage/user_summary and /usage/app_summary
(10 each); GET /usage/user_details (10) per user who viewed an app in the
window and holds a grant on an app someone viewed. --dry-run reads the lists
and states the rest before reading it.`})
	fl := c.Flags()
	fl.IntVar(&o.Days, "days", 0, "the window: the last `N` days (required)")
	c.MarkFlagRequired("days")
	fl.StringVar(&o.RevokeFile, "revoke-file", "", "write the revoke suggestions to `FILE`, for 'permissions revoke --from FILE'")
	fl.StringVar(&o.GrantFile, "grant-file", "", "write the use suggestions to `FILE`, for 'permissions grant --from FILE'")
	fl.BoolVar(&o.DryRun, "dry-run", false, "read the lists, state the access lists and usage reads and their points, read no more")
	fl.BoolVar(&o.ExitCode, "exit-code", false, "exit 7 when any grant is listed, 0 when none is")
	return c
}

// grantKey is one grant: a subject's on an object.
type grantKey struct{ subjType, subjID, objType, objID string }

// grantUse is what a grant reaches and how it was used.
type grantUse struct {
	grantKey
	level        string
	apps         map[string]bool // app names it reaches
	views, edits float64
}

type accessEntry struct {
	Subject struct {
		ID   json.RawMessage `json:"id"`
		Type string          `json:"type"`
	} `json:"subject"`
	Level   string `json:"accessLevel"`
	Sources struct {
		Direct    bool `json:"direct"`
		Inherited *struct {
			ID   json.RawMessage `json:"id"`
			Type string          `json:"type"`
		} `json:"inherited"`
	} `json:"sources"`
}

// unusedOrg is what permissions unused reads, phase by phase: the org
// (apps, users, groups), the grants the apps' access lists show, and the
// use made of them.
type unusedOrg struct {
	ctx  context.Context
	cl   *client.Client
	apps []struct {
		ID   json.RawMessage `json:"id"`
		Name string          `json:"name"`
	}
	byID      map[string]*user
	members   map[string][]string // group id -> member user ids
	groupName map[string]string
	grants    map[grantKey]*grantUse
	order     []grantKey // grants in the order first seen
	details   int        // user details read
}

func (u *unusedOrg) get(path, scope string, q url.Values, v any) error {
	r, err := u.cl.Do(u.ctx, client.Request{Method: http.MethodGet, Path: path, Query: q, Scope: scope})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		return fmt.Errorf("GET %s: unexpected answer: %w", path, err)
	}
	return nil
}

func unusedRun(ctx context.Context, o *UnusedOptions) error {
	f := o.Factory
	cfg, p, err := cli.PrinterFor(f)
	if err != nil {
		return err
	}
	conn, err := f.Connection()
	if err != nil {
		return err
	}
	u := &unusedOrg{ctx: ctx, cl: conn.Client}
	if err := u.readOrg(); err != nil {
		return err
	}
	if o.DryRun {
		n := len(u.apps)
		pts := n*cfg.Budget.Cost("/permissions/accessList") + 2*cfg.Budget.Cost("/usage/user_summary")
		fmt.Fprintf(f.IO.Err, "Would read: %d access lists (%d points each), GET /usage/user_summary and /usage/app_summary, then GET /usage/user_details for each user who viewed an app and holds a grant on one someone viewed (%d points each).\n",
			n, cfg.Budget.Cost("/permissions/accessList"), cfg.Budget.Cost("/usage/user_details"))
		fmt.Fprintf(f.IO.Err, "Cost: at least %s, beyond the lists read.\n", cfg.Budget.CostSentence(n+2, pts, nil))
		return nil
	}
	if err := u.readGrants(); err != nil {
		return err
	}
	perApp, err := u.readUse(o)
	if err != nil {
		return err
	}
	rows := u.suggestions(perApp)
	if err := writeSuggestions(o.RevokeFile, rows, "revoke"); err != nil {
		return err
	}
	if err := writeSuggestions(o.GrantFile, rows, "use"); err != nil {
		return err
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	if err := p.Print(b, unusedColumns()); err != nil {
		return err
	}
	if !f.Quiet() && !p.Opts.Structured() {
		fmt.Fprintf(f.IO.Err, "%s not used in the last %d days (read: %d access lists, %d user details).\n",
			plural(len(rows), "grant", "grants"), o.Days, len(u.apps), u.details)
	}
	if o.ExitCode && len(rows) > 0 {
		return &cli.ExitError{Code: cli.ExitFindings}
	}
	return nil
}

// unusedColumns are the table's columns.
func unusedColumns() []output.Column {
	return []output.Column{{Header: "SUBJECT TYPE", Field: "subject_type"}, {Header: "SUBJECT", Field: "subject", Key: true},
		{Header: "OBJECT TYPE", Field: "object_type"}, {Header: "OBJECT", Field: "object_id", Names: "folders,apps"},
		{Header: "LEVEL", Field: "level"}, {Header: "VIEWS", Field: "views"}, {Header: "EDITS", Field: "edits"},
		{Header: "SUGGEST", Field: "suggestion"},
		{Header: "APPS", Value: func(rec map[string]any) string {
			as, _ := rec["apps"].([]any)
			parts := make([]string, len(as))
			for i, a := range as {
				parts[i] = fmt.Sprint(a)
			}
			return strings.Join(parts, "; ")
		}}}
}

// readOrg reads the apps, the users and the groups with their members.
func (u *unusedOrg) readOrg() error {
	if err := u.get("/apps", "Apps > Read", nil, &u.apps); err != nil {
		return err
	}
	users, err := readUsers(u.ctx, u.cl)
	if err != nil {
		return err
	}
	var groups []struct {
		ID      json.RawMessage `json:"id"`
		Name    string          `json:"name"`
		Members []struct {
			ID string `json:"id"`
		} `json:"members"`
	}
	if err := u.get("/groups", "Groups > Read", nil, &groups); err != nil {
		return err
	}
	u.byID = map[string]*user{}
	for _, us := range users {
		u.byID[us.ID] = us
	}
	u.members, u.groupName = map[string][]string{}, map[string]string{}
	for _, g := range groups {
		id := jsonscan.AsText(g.ID)
		u.groupName[id] = g.Name
		for _, m := range g.Members {
			u.members[id] = append(u.members[id], m.ID)
		}
	}
	return nil
}

// readGrants reads each app's access list: every grant of a group or an
// active user, on the app or on the folder it inherits from, with the
// apps it reaches and its highest level.
func (u *unusedOrg) readGrants() error {
	u.grants = map[grantKey]*grantUse{}
	for _, a := range u.apps {
		appID := jsonscan.AsText(a.ID)
		var al struct {
			Group []accessEntry `json:"group"`
			User  []accessEntry `json:"user"`
		}
		if err := u.get(client.Path("permissions", "accessList", "app", appID), "Permissions > Read", nil, &al); err != nil {
			return err
		}
		for _, e := range append(al.Group, al.User...) {
			sid := jsonscan.AsText(e.Subject.ID)
			if e.Subject.Type == "user" && (u.byID[sid] == nil || !u.byID[sid].Active) {
				continue
			}
			var keys []grantKey
			if e.Sources.Direct {
				keys = append(keys, grantKey{e.Subject.Type, sid, "app", appID})
			}
			if in := e.Sources.Inherited; in != nil {
				keys = append(keys, grantKey{e.Subject.Type, sid, "folder", jsonscan.AsText(in.ID)})
			}
			for _, k := range keys {
				g := u.grants[k]
				if g == nil {
					g = &grantUse{grantKey: k, apps: map[string]bool{}}
					u.grants[k] = g
					u.order = append(u.order, k)
				}
				g.apps[a.Name] = true
				if kinds.LevelRank(e.Level) > kinds.LevelRank(g.level) {
					g.level = e.Level
				}
			}
		}
	}
	return nil
}

// holders are the users a grant gives access: a group's members, or the
// user.
func (u *unusedOrg) holders(k grantKey) []string {
	if k.subjType == "group" {
		return u.members[k.subjID]
	}
	return []string{k.subjID}
}

// readUse reads who used what: the summaries first, the details only
// where they cannot tell (a holder who viewed some app, of a grant on an
// app someone viewed). It answers views and saves per user id and app.
func (u *unusedOrg) readUse(o *UnusedOptions) (map[string]map[string][2]float64, error) {
	q := url.Values{"start_date": {o.since()}, "end_date": {o.Now.UTC().Format("2006-01-02")}}
	userViews, err := readUsage(u.ctx, u.cl, o.since(), o.Now)
	if err != nil {
		return nil, err
	}
	var appSum []struct {
		Name  string  `json:"app_name"`
		Views float64 `json:"count_app_views"`
	}
	if err := u.get("/usage/app_summary", "usage", q, &appSum); err != nil {
		return nil, err
	}
	viewedApps := map[string]bool{}
	for _, a := range appSum {
		if a.Views > 0 {
			viewedApps[a.Name] = true
		}
	}
	need := map[string]bool{} // user ids whose details are read
	for _, k := range u.order {
		anyViewed := false
		for a := range u.grants[k].apps {
			anyViewed = anyViewed || viewedApps[a]
		}
		if !anyViewed {
			continue
		}
		for _, id := range u.holders(k) {
			if us := u.byID[id]; us != nil && us.Active && userViews[strings.ToLower(us.Email)][0] > 0 {
				need[id] = true
			}
		}
	}
	perApp := map[string]map[string][2]float64{}
	for _, id := range slices.Sorted(maps.Keys(need)) {
		var d struct {
			Viewer []struct {
				App   string  `json:"app_name"`
				Count float64 `json:"count"`
			} `json:"viewer_summary"`
			Editor []struct {
				App   string  `json:"app_name"`
				Count float64 `json:"count"`
			} `json:"editor_summary"`
		}
		dq := url.Values{"start_date": q["start_date"], "end_date": q["end_date"], "email": {u.byID[id].Email}}
		if err := u.get("/usage/user_details", "usage", dq, &d); err != nil {
			return nil, err
		}
		u.details++
		m := map[string][2]float64{}
		for _, v := range d.Viewer {
			c := m[v.App]
			m[v.App] = [2]float64{c[0] + v.Count, c[1]}
		}
		for _, v := range d.Editor {
			c := m[v.App]
			m[v.App] = [2]float64{c[0], c[1] + v.Count}
		}
		perApp[id] = m
	}
	return perApp, nil
}

// suggestions are the grants not used as they allow: revoke one nobody
// viewed an app through, lower to use one above use nobody edited with.
func (u *unusedOrg) suggestions(perApp map[string]map[string][2]float64) []map[string]any {
	rows := []map[string]any{}
	for _, k := range u.order {
		g := u.grants[k]
		for _, id := range u.holders(k) {
			for a := range g.apps {
				c := perApp[id][a]
				g.views, g.edits = g.views+c[0], g.edits+c[1]
			}
		}
		suggest := ""
		switch {
		case g.views == 0:
			suggest = "revoke"
		case g.edits == 0 && kinds.LevelRank(g.level) > kinds.LevelRank("use"):
			suggest = "use"
		default:
			continue
		}
		subject := u.groupName[k.subjID]
		if k.subjType == "user" {
			subject = u.byID[k.subjID].Email
		}
		rows = append(rows, map[string]any{"subject_type": k.subjType, "subject_id": k.subjID, "subject": subject,
			"object_type": k.objType, "object_id": k.objID, "level": g.level, "apps": slices.Sorted(maps.Keys(g.apps)),
			"views": g.views, "edits": g.edits, "suggestion": suggest, "holders": len(u.holders(k))})
	}
	return rows
}

// writeSuggestions writes the rows suggesting what as a --from file:
// revoke's columns (group, user, object-type, object-id), and for use
// grant's with access-level use.
func writeSuggestions(name string, rows []map[string]any, what string) error {
	if name == "" {
		return nil
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	header := []string{"group", "user", "object-type", "object-id"}
	if what == "use" {
		header = append(header, "access-level")
	}
	w.Write(header)
	for _, r := range rows {
		if r["suggestion"] != what {
			continue
		}
		group, user := "", ""
		if r["subject_type"] == "group" {
			group = fmt.Sprint(r["subject_id"])
		} else {
			user = fmt.Sprint(r["subject"])
		}
		rec := []string{group, user, fmt.Sprint(r["object_type"]), fmt.Sprint(r["object_id"])}
		if what == "use" {
			rec = append(rec, "use")
		}
		w.Write(rec)
	}
	w.Flush()
	if err := atomicfile.Write(name, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}
