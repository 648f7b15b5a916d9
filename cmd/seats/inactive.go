package seats

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/output"
)

// InactiveOptions are one stale-account report, parsed and checked.
type InactiveOptions struct {
	Factory *cli.Factory
	staleness
	Invites, Usage, ExitCode, DryRun bool
}

// NewCmdInactive parses 'users inactive' into InactiveOptions and hands
// them to runF (inactiveRun when nil).
func NewCmdInactive(f *cli.Factory, runF func(*InactiveOptions) error) *cobra.Command {
	o := &InactiveOptions{Factory: f}
	c := &cobra.Command{
		Use:   "inactive --days N",
		Short: "List active users who have not signed in for N days, or never, with their seats",
		Long: `Active users whose last sign-in (last_active) is more than --days N days ago,
or who never signed in, with LAST ACTIVE (the date and how long ago on a
terminal; RFC 3339 piped; "never"), SEAT (builder, internalUser,
externalUser) and ADMIN. Disabled users are not listed: their seats are free.

--never lists only those who never signed in. --usage adds VIEWS and EDITS
(app views and saves in the last N days, from GET /usage/user_summary; the
token needs the usage scope). --invites lists pending invites sent more than
N days ago beside them (TYPE invite). --exit-code exits 7 when anyone is
listed, for a scheduled job that opens a ticket. -o json prints each user as
the API gave it, with "kind" and, with --usage, "views" and "edits" added.

See 'orgctl help seats' for the weekly report and the reclaim recipe.`,
		Example: `  orgctl users inactive --days 90
  orgctl users inactive --days 90 --usage --invites
  orgctl users inactive --days 90 -o csv > inactive.csv
  orgctl users inactive --days 90 --exit-code -o csv > inactive.csv || [ $? -eq 7 ] && open-ticket inactive.csv`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkDays(o.Days); err != nil {
				return err
			}
			o.Now = time.Now()
			if runF != nil {
				return runF(o)
			}
			return inactiveRun(c.Context(), o)
		},
	}
	engine.Describe(c, engine.Facts{Method: http.MethodGet, Path: "/users", Scope: "Users > Read",
		Also: []string{"usage (with --usage)", "Users > Read for invites (with --invites)"},
		Requests: `one GET /users (2 points); with --usage one GET /usage/user_summary
for the window (10 points); with --invites one GET /user_invites (5 points).
--dry-run states them and sends nothing.`})
	fl := c.Flags()
	fl.IntVar(&o.Days, "days", 0, "list users not seen for more than `N` days (required)")
	c.MarkFlagRequired("days")
	fl.BoolVar(&o.Never, "never", false, "only users who never signed in")
	fl.BoolVar(&o.Invites, "invites", false, "also list pending invites sent more than N days ago")
	fl.BoolVar(&o.Usage, "usage", false, "add app views and edits in the last N days (needs the usage scope)")
	fl.BoolVar(&o.ExitCode, "exit-code", false, "exit 7 when anyone is listed, 0 when nobody is")
	fl.BoolVar(&o.DryRun, "dry-run", false, "state the requests and their points, send nothing")
	return c
}

// reads are the requests a report sends, in order.
func (o *InactiveOptions) reads() []client.Request {
	rs := []client.Request{{Method: http.MethodGet, Path: "/users"}}
	if o.Usage {
		rs = append(rs, client.Request{Method: http.MethodGet, Path: "/usage/user_summary"})
	}
	if o.Invites {
		rs = append(rs, client.Request{Method: http.MethodGet, Path: "/user_invites"})
	}
	return rs
}

// statePlan prints the requests and their points on stderr.
func statePlan(f *cli.Factory, verb string, rs []client.Request) error {
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	points := 0
	for _, r := range rs {
		p := cfg.Budget.Cost(r.Path)
		points += p
		fmt.Fprintf(f.IO.Err, "Would %s: %s /api/v2%s (%d points)\n", verb, r.Method, r.Path, p)
	}
	fmt.Fprintf(f.IO.Err, "Cost: %s.\n", cfg.Budget.CostSentence(len(rs), points, nil))
	return nil
}

func inactiveRun(ctx context.Context, o *InactiveOptions) error {
	f := o.Factory
	_, p, err := cli.PrinterFor(f)
	if err != nil {
		return err
	}
	if o.DryRun {
		return statePlan(f, "read", o.reads())
	}
	conn, err := f.Connection()
	if err != nil {
		return err
	}
	users, err := readUsers(ctx, conn.Client)
	if err != nil {
		return err
	}
	var counts usageCounts
	if o.Usage {
		if counts, err = readUsage(ctx, conn.Client, o.since(), o.Now); err != nil {
			return err
		}
	}
	var rows []map[string]any
	for _, u := range users {
		if !o.stale(u) {
			continue
		}
		row := map[string]any{}
		for k, v := range u.raw {
			row[k] = v
		}
		row["kind"] = "user"
		if o.Usage {
			c := counts[strings.ToLower(u.Email)]
			row["views"], row["edits"] = c[0], c[1]
		}
		rows = append(rows, row)
	}
	sort.SliceStable(rows, func(i, j int) bool { return lastOf(rows[i]) < lastOf(rows[j]) })
	invites := 0
	if o.Invites {
		inv, err := staleInvites(ctx, conn.Client, o.staleness)
		if err != nil {
			return err
		}
		rows = append(rows, inv...)
		invites = len(inv)
	}
	if rows == nil {
		rows = []map[string]any{}
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	cols := []output.Column{{Header: "EMAIL", Field: "email", Key: true},
		{Header: "NAME", Value: func(rec map[string]any) string {
			first, _ := rec["first_name"].(string)
			last, _ := rec["last_name"].(string)
			return strings.TrimSpace(first + " " + last)
		}},
		lastActiveColumn(f.IO.OutTTY, o.Now), {Header: "SEAT", Field: "seat_type"}, {Header: "ADMIN", Field: "is_admin"}}
	if o.Usage {
		cols = append(cols, output.Column{Header: "VIEWS", Field: "views"}, output.Column{Header: "EDITS", Field: "edits"})
	}
	if o.Invites {
		cols = append([]output.Column{{Header: "TYPE", Field: "kind"}}, cols...)
	}
	if err := p.Print(b, cols); err != nil {
		return err
	}
	if n := len(rows) - invites; n > 0 && !f.Quiet() && !p.Opts.Structured() {
		fmt.Fprintf(f.IO.Err, "%s not seen for more than %d days%s.\n", plural(n, "user", "users"), o.Days, seatTally(users, o.staleness))
	}
	if o.ExitCode && len(rows) > 0 {
		return &cli.ExitError{Code: cli.ExitFindings}
	}
	return nil
}

// lastOf orders users never seen first, then the longest unseen.
func lastOf(row map[string]any) string {
	raw, _ := row["last_active"].(json.RawMessage)
	var s string
	json.Unmarshal(raw, &s)
	return s
}

// seatTally is ", seats: 3 internalUser, 1 builder" for the stale users.
func seatTally(users []*user, s staleness) string {
	n := map[string]int{}
	for _, u := range users {
		if s.stale(u) {
			seat := u.Seat
			if seat == "" {
				seat = "unknown"
			}
			n[seat]++
		}
	}
	return tally(n)
}

func tally(n map[string]int) string {
	if len(n) == 0 {
		return ""
	}
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return n[keys[i]] > n[keys[j]] || n[keys[i]] == n[keys[j]] && keys[i] < keys[j] })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", n[k], k)
	}
	return "; seats: " + strings.Join(parts, ", ")
}

// staleInvites are the pending invites (not claimed) sent more than the
// window's days ago, as rows beside the users.
func staleInvites(ctx context.Context, cl *client.Client, s staleness) ([]map[string]any, error) {
	r, err := cl.Do(ctx, client.Request{Method: http.MethodGet, Path: "/user_invites", Scope: "Users > Read"})
	if err != nil {
		return nil, err
	}
	var invs []map[string]any
	if err := json.Unmarshal(r.Data, &invs); err != nil {
		return nil, fmt.Errorf("GET /user_invites: unexpected answer: %w", err)
	}
	var out []map[string]any
	for _, inv := range invs {
		if inv["claimed_at"] != nil || inv["claimed_by"] != nil {
			continue
		}
		sent, _ := inv["created_at"].(string)
		t, err := time.Parse(time.RFC3339Nano, sent)
		if err != nil || s.Now.Sub(t) <= time.Duration(s.Days)*24*time.Hour {
			continue
		}
		out = append(out, map[string]any{"kind": "invite", "id": inv["id"], "email": inv["invited_email"],
			"invited_by": inv["invited_by"], "created_at": inv["created_at"], "expires_at": inv["expires_at"],
			"last_active": nil, "seat_type": nil, "is_admin": false})
	}
	return out, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
