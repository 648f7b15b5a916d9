package seats

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// logoutPath is the 4.0 operation that ends a user's sessions.
const logoutPath = "/users/{userId}/logout"

// ReclaimOptions are one reclaim, parsed and checked.
type ReclaimOptions struct {
	Factory *cli.Factory
	staleness
	// Max refuses more than this many users (-1: no limit).
	Max int
	// Exclude are the emails (lower case) and ids --exclude FILE keeps.
	Exclude                    map[string]bool
	IncludeAdmins, IncludeSelf bool
	DryRun, Yes                bool
}

// NewCmdReclaim parses 'users reclaim' into ReclaimOptions and hands them
// to runF (reclaimRun when nil).
func NewCmdReclaim(f *cli.Factory, runF func(*ReclaimOptions) error) *cobra.Command {
	o := &ReclaimOptions{Factory: f}
	var exclude string
	c := &cobra.Command{
		Use:   "reclaim --days N",
		Short: "Disable users not seen for N days and end their sessions, as one resumable job",
		Long: `Takes back the seats of the users 'users inactive --days N' lists: each is
disabled (DELETE /users/{id}: the API keeps the record) and their sessions are
ended (POST /users/{id}/logout, where the instance publishes it; an instance
that does not, such as the 3.334 release, is told of in a notice and its users
are only disabled).

It previews first: the users (on stdout), their count, the seats by type, and
the requests, points and time (on stderr). --dry-run stops there and sends
nothing. At a terminal it asks for the count typed back; without one --yes is
needed. --max N refuses (exit 2, nothing sent) when more than N would be
disabled. Admins are never reclaimed without --include-admins, nor the token's
own user without --include-self; --exclude FILE keeps the users it lists (one
email or id a line, or a CSV with an "email" column).

It is a job: each user is journaled; stopped by Ctrl-C or a kill, run the
same command again: it reads the users afresh, and those already disabled are
not sent again. A run with nothing left sends nothing.

See 'orgctl help seats' for the reclaim recipe.`,
		Example: `  orgctl users reclaim --days 90 --dry-run
  orgctl users reclaim --days 90 --exclude keep.txt --max 50 --yes
  orgctl users reclaim --days 180 --never --yes`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkDays(o.Days); err != nil {
				return err
			}
			if !c.Flags().Changed("max") {
				o.Max = -1
			} else if o.Max < 0 {
				return cli.UsageErrorf("--max %d: give the most users to disable, 0 or more", o.Max)
			}
			if exclude != "" {
				ex, err := readExclude(exclude)
				if err != nil {
					return err
				}
				o.Exclude = ex
			}
			if !o.DryRun && !o.Yes && !f.CanPrompt() {
				return cli.Unconfirmed("reclaim", "", "review with --dry-run")
			}
			o.Now = time.Now()
			if runF != nil {
				return runF(o)
			}
			return reclaimRun(c.Context(), o)
		},
	}
	engine.Describe(c, engine.Facts{Method: http.MethodDelete, Path: "/users/{userId}", Scope: "Users > Write",
		Also: []string{"Users > Read", "Access Tokens > Read (with --include-admins)"},
		Requests: `one GET /users (2 points) and the instance's API description (GET
/api/v2/spec, 10 points, read at most once a day and kept in the cache) to see
whether it publishes POST /users/{id}/logout; with
--include-admins and without --include-self, GET /access_tokens (5 points) to
know whose token this is. Then per user 2 points to disable and, where
published, 2 points to end the sessions.`})
	fl := c.Flags()
	fl.IntVar(&o.Days, "days", 0, "reclaim users not seen for more than `N` days (required)")
	c.MarkFlagRequired("days")
	fl.BoolVar(&o.Never, "never", false, "only users who never signed in")
	fl.IntVar(&o.Max, "max", 0, "refuse, sending nothing, when more than `N` users would be disabled")
	fl.StringVar(&exclude, "exclude", "", "keep the users this `FILE` lists (an email or id a line, or a CSV with an email column)")
	fl.BoolVar(&o.IncludeAdmins, "include-admins", false, "reclaim admins too (never without this flag)")
	fl.BoolVar(&o.IncludeSelf, "include-self", false, "with --include-admins, reclaim the token's own user too")
	fl.BoolVar(&o.DryRun, "dry-run", false, "preview the users, seats and cost, change nothing")
	fl.BoolVar(&o.Yes, "yes", false, "do not ask for confirmation")
	return c
}

// readExclude reads --exclude FILE: an email or id a line (# comments
// and blank lines skipped), or a CSV whose header names an email column.
func readExclude(name string) (map[string]bool, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, cli.UsageErrorf("--exclude: %v", err)
	}
	defer fh.Close()
	out := map[string]bool{}
	r := csv.NewReader(bufio.NewReader(fh))
	r.FieldsPerRecord, r.Comment = -1, '#'
	col, line := 0, 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, cli.UsageErrorf("--exclude %s: %v", name, err)
		}
		line++
		if line == 1 {
			for i, h := range rec {
				if h = strings.ToLower(strings.TrimSpace(h)); h == "email" || h == "user" || h == "id" {
					col = i
					line = -1
				}
			}
			if line == -1 {
				continue
			}
		}
		if col < len(rec) {
			if v := strings.ToLower(strings.TrimSpace(rec[col])); v != "" {
				out[v] = true
			}
		}
	}
	return out, nil
}

// reclaimStep is one user to disable, with their sessions to end.
type reclaimStep struct {
	u      *user
	logout bool
}

func (s reclaimStep) key() string { return s.u.Email }

// candidates are the stale users reclaim may disable, and the stale users
// it keeps with why.
func (o *ReclaimOptions) candidates(ctx context.Context, conn *cli.Connection, users []*user) (take []*user, kept []string, err error) {
	for _, u := range users {
		if !o.stale(u) {
			continue
		}
		switch {
		case o.Exclude[strings.ToLower(u.Email)] || o.Exclude[strings.ToLower(u.ID)]:
			kept = append(kept, u.Email+" (in --exclude)")
		case u.Admin && !o.IncludeAdmins:
			kept = append(kept, u.Email+" (an admin: --include-admins reclaims admins)")
		default:
			take = append(take, u)
		}
	}
	// Only admins create tokens, so the token's owner is among these
	// only when an admin is; then it is read (5 points), else not.
	if o.IncludeAdmins && !o.IncludeSelf && containsAdmin(take) {
		owner, err := access.TokenOwner(ctx, conn.Client, conn.Target.Token)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: list your own user in --exclude, or pass --include-self; nothing was sent", err)
		}
		var left []*user
		for _, u := range take {
			if u.LegacyID == owner {
				kept = append(kept, u.Email+" (the token's own user: --include-self reclaims it)")
				continue
			}
			left = append(left, u)
		}
		take = left
	}
	return take, kept, nil
}

func containsAdmin(us []*user) bool {
	for _, u := range us {
		if u.Admin {
			return true
		}
	}
	return false
}

func reclaimRun(ctx context.Context, o *ReclaimOptions) error {
	f := o.Factory
	cfg, p, err := cli.PrinterFor(f)
	if err != nil {
		return err
	}
	conn, err := f.JobConnection(ctx, 1)
	if err != nil {
		return err
	}
	users, err := readUsers(ctx, conn.Client)
	if err != nil {
		return err
	}
	take, kept, err := o.candidates(ctx, conn, users)
	if err != nil {
		return err
	}
	w := f.IO.Err
	for _, k := range kept {
		fmt.Fprintf(w, "Kept: %s\n", k)
	}
	if len(take) == 0 {
		fmt.Fprintf(w, "Nothing to reclaim: no active user left who has not signed in for more than %d days.\n", o.Days)
		return nil
	}
	if o.Max >= 0 && len(take) > o.Max {
		return cli.UsageErrorf("%s would be disabled, more than --max %d: nothing was sent; narrow it with --days or --exclude, or raise --max", plural(len(take), "user", "users"), o.Max)
	}
	pub, err := cli.ReadPublished(ctx, conn.Client, conn.Target)
	if err != nil {
		f.IO.Warn("%v", err)
	}
	logout := pub.Desc != nil && pub.Desc.Has(http.MethodPost, logoutPath)
	if !logout {
		f.IO.Notice("orgctl: this instance does not publish POST /users/{userId}/logout (API 4.0): the users are disabled, and sessions they have open are not ended")
	}
	steps := make([]reclaimStep, len(take))
	points, requests := 0, 0
	seats := map[string]int{}
	for i, u := range take {
		steps[i] = reclaimStep{u: u, logout: logout}
		points += cfg.Budget.Cost(client.Path("users", u.ID))
		requests++
		if logout {
			points += cfg.Budget.Cost(client.Path("users", u.ID, "logout"))
			requests++
		}
		seat := u.Seat
		if seat == "" {
			seat = "unknown"
		}
		seats[seat]++
	}
	if err := printUsers(p, f, o.Now, take); err != nil {
		return err
	}
	what := "disable each"
	if logout {
		what += " and end their sessions"
	}
	fmt.Fprintf(w, "Reclaiming %s (%s): %s.\n", plural(len(take), "seat", "seats"), strings.TrimPrefix(tally(seats), "; seats: "), what)
	fmt.Fprintf(w, "Cost: %s.\n", cfg.Budget.CostSentence(requests, points, nil))
	if o.DryRun {
		return nil
	}
	if !o.Yes {
		answer, err := f.Ask().Input(fmt.Sprintf("Type %d to disable %s:", len(take), plural(len(take), "user", "users")))
		if err != nil {
			return err
		}
		if answer != strconv.Itoa(len(take)) {
			return cli.ErrCancelled
		}
	}
	res, err := runReclaim(ctx, f, conn, steps, requests, points)
	if err != nil {
		return err
	}
	if f.OnChange != nil {
		f.OnChange("users")
	}
	return cli.JobExit(res)
}

// printUsers prints the users as inactive does.
func printUsers(p *output.Printer, f *cli.Factory, now time.Time, us []*user) error {
	var b strings.Builder
	b.WriteByte('[')
	for i, u := range us {
		if i > 0 {
			b.WriteByte(',')
		}
		rec, err := json.Marshal(u.raw)
		if err != nil {
			return err
		}
		b.Write(rec)
	}
	b.WriteByte(']')
	cols := []output.Column{{Header: "EMAIL", Field: "email", Key: true},
		{Header: "NAME", Value: func(rec map[string]any) string {
			first, _ := rec["first_name"].(string)
			last, _ := rec["last_name"].(string)
			return strings.TrimSpace(first + " " + last)
		}},
		lastActiveColumn(f.IO.OutTTY, now), {Header: "SEAT", Field: "seat_type"}, {Header: "ADMIN", Field: "is_admin"}}
	return p.Print([]byte(b.String()), cols)
}

// reclaimJob sends each user's steps: end the sessions first, then
// disable, so that a run stopped between the two finds the user still
// active and still stale, and finishes them.
type reclaimJob struct {
	steps []reclaimStep
	cl    *client.Client
}

func (j *reclaimJob) Apply(ctx context.Context, row bulk.Row, sent func() error) bulk.Result {
	s := j.steps[row.N-1]
	var left bool
	leaving := func() error {
		if left {
			return nil
		}
		left = true
		return sent()
	}
	sctx := bulk.WithLeaving(bulk.Detach(ctx), leaving)
	reqs := []client.Request{{Method: http.MethodDelete, Path: client.Path("users", s.u.ID), Scope: "Users > Write"}}
	if s.logout {
		reqs = append([]client.Request{{Method: http.MethodPost, Path: client.Path("users", s.u.ID, "logout"), Scope: "Users > Write"}}, reqs...)
	}
	for _, r := range reqs {
		if _, err := j.cl.Do(sctx, r); err != nil {
			var ou *client.OutcomeUnknownError
			if errors.As(err, &ou) {
				return bulk.Result{Outcome: bulk.Unknown, Key: s.key(), Message: "sent, but no answer came; run the same command again: it reads the users afresh"}
			}
			if !left && ctx.Err() != nil {
				return bulk.Result{NotSent: true}
			}
			return bulk.Result{Outcome: bulk.Failed, Key: s.key(), Message: bulk.OneLine(err.Error())}
		}
	}
	return bulk.Result{Outcome: bulk.Deleted, Key: s.key()}
}

// Settle: a user sent without an answer is judged by the next run, which
// reads the users afresh.
func (j *reclaimJob) Settle(context.Context, bulk.Row) (bulk.Result, bool) {
	return bulk.Result{Outcome: bulk.Unknown, Message: "sent by an earlier run without an answer"}, true
}

// reclaimOutput prints each user's outcome on stderr.
type reclaimOutput struct {
	f              *cli.Factory
	sessionsEnding bool
}

func (o *reclaimOutput) result(r bulk.Result) {
	on := o.f.IO.ColorOut && o.f.IO.ErrTTY
	switch r.Outcome {
	case bulk.Failed:
		fmt.Fprintf(o.f.IO.Err, "%s Failed: %s: %s\n", output.Paint(on, output.Red, "✗"), r.Key, r.Message)
	case bulk.Unknown:
		fmt.Fprintf(o.f.IO.Err, "%s Unknown: %s: %s\n", output.Paint(on, output.Yellow, "?"), r.Key, r.Message)
	default:
		what := "Disabled " + r.Key
		if o.sessionsEnding {
			what += "; sessions ended"
		}
		fmt.Fprintf(o.f.IO.Err, "%s %s\n", output.Paint(on, output.Green, "✓"), what)
	}
}

func runReclaim(ctx context.Context, f *cli.Factory, conn *cli.Connection, steps []reclaimStep, requests, points int) (bulk.Summary, error) {
	emails := make([]string, len(steps))
	for i, s := range steps {
		emails[i] = strings.ToLower(s.u.Email)
	}
	sort.Strings(emails)
	h := sha256.Sum256([]byte(strings.Join(emails, "\n")))
	id := bulk.JobID("orgctl users reclaim", nil, conn.Target.JobTarget(), h[:])
	rows := make([]bulk.Row, len(steps))
	for i := range rows {
		rows[i] = bulk.Row{N: i + 1, Line: i + 1}
	}
	start := time.Now()
	session, err := bulk.Open(bulk.Job{
		Store: cli.JobStore(),
		Header: bulk.Header{ID: id, Command: "orgctl users reclaim", Input: strings.Join(emails, ","), Format: "reclaim",
			Rows: len(steps), Target: conn.Target.BaseURL, Account: conn.Target.Account(), Created: time.Now().UTC()},
		Handler: &reclaimJob{steps: steps, cl: conn.Client},
		Phases:  []bulk.Source{bulk.Rows(rows...)},
	})
	var busy *bulk.BusyError
	if errors.As(err, &busy) {
		return bulk.Summary{}, fmt.Errorf("a reclaim of these users is running in another process (job %s); wait for it", id)
	}
	if err != nil {
		return bulk.Summary{}, err
	}
	defer session.Close()
	out := &reclaimOutput{f: f, sessionsEnding: len(steps) > 0 && steps[0].logout}
	stop := f.ShowProgress(conn, "users", len(steps), points, requests, session.Progress)
	for r := range session.Results(ctx) {
		out.result(r)
	}
	stop()
	res, err := session.End()
	if err != nil {
		return res, err
	}
	fmt.Fprintf(f.IO.Err, "orgctl: reclaim: %d of %d users in %.1fs (%s); job %s\n", res.Done, len(steps), time.Since(start).Seconds(), ratebudget.Tally(requests, points), id)
	if res.Stopped {
		fmt.Fprintf(f.IO.Err, "orgctl: stopped: the users in flight finished and were recorded; to finish, run the same command again:\n  %s\n", engine.ResumeLine())
	}
	return res, nil
}
