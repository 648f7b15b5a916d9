package access

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/jsonscan"
	"github.com/orgctl/orgctl/ratebudget"
)

// reachFields are the columns of what a user reaches, before and after.
var reachFields = []access.ReportColumn{{Header: "STAGE", Key: "stage"}, {Header: "USER", Key: "user"}, {Header: "TYPE", Key: "type"},
	{Header: "OBJECT", Key: "object"}, {Header: "LEVEL", Key: "level"}, {Header: "VIA", Key: "via"}}

// OffboardOptions are one offboarding, parsed and checked.
type OffboardOptions struct {
	Factory     *cli.Factory
	DryRun, Yes bool
	Emails      []string
	// File is --from, read and checked; Rows[i] is the row of Emails[i].
	File  *engine.UserFile
	Rows  []int
	rowOf map[string]int // user id -> its --from row
}

// NewCmdOffboard parses 'users offboard' into OffboardOptions and hands
// them to runF (offboardRun when nil).
func NewCmdOffboard(f *cli.Factory, runF func(*OffboardOptions) error) *cobra.Command {
	o := &OffboardOptions{Factory: f}
	c := &cobra.Command{
		Use:   "offboard EMAIL",
		Short: "Disable a user, remove them from every group and revoke their direct grants",
		Long: `Offboarding in one step: the user is disabled (DELETE /users/{id}), removed from
every group they are in, and their direct grants (on folders, apps, resources,
resource configurations) are revoked. Before anything changes, orgctl prints what the user can reach
(STAGE before: TYPE, OBJECT, LEVEL, VIA, access through the universal access of
a group such as All Users named as "universal through All Users"), the steps
and their cost; after, what still remains (STAGE after).

It is a job: each step is journaled; a run stopped by Ctrl-C or a kill is
finished by running the same command again, which reads the user afresh and
does only what is left. --dry-run prints the reach and the steps and stops.
Without a terminal, --yes is needed. --from FILE offboards every user of a
CSV (with a header row) or JSON Lines file: its "user" column, an email or an
id ("email" and "user-id" are read as it too; --map COLUMN=user reads another
column), with the file options of every --from (--skip-invalid, --failed...).

The token's own user and the org's last active admin are never offboarded:
orgctl refuses (exit 2) before changing anything.`,
		Example: `  orgctl users offboard former.employee@sandbox.example --dry-run
  orgctl users offboard former.employee@sandbox.example --yes
  orgctl users offboard --from leavers.csv --yes
  orgctl users offboard --from hr-leavers.csv --map "Email Address"=user --ignore-unknown --dry-run`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			given := c.Flags().Changed("from")
			switch {
			case len(args) == 1 && given:
				return cli.UsageErrorf("%s: pass EMAIL or --from FILE, not both", c.CommandPath())
			case len(args) == 1:
				if _, _, err := engine.ReadUserFile(f, c); err != nil {
					return err // a file option without --from
				}
				o.Emails = args
			case given:
				file, _, err := engine.ReadUserFile(f, c)
				if err != nil {
					return err
				}
				defer file.Close()
				o.File = file
				for _, r := range file.Rows {
					o.Emails = append(o.Emails, r.User)
					o.Rows = append(o.Rows, r.N)
				}
				if len(o.Emails) == 0 {
					return cli.UsageErrorf("--from %s: no valid row: no user to offboard", file.Name())
				}
			default:
				return cli.UsageErrorf("%s: pass the EMAIL of the user to offboard, or --from FILE", c.CommandPath())
			}
			if !o.DryRun && !o.Yes && !f.CanPrompt() {
				return cli.Unconfirmed("offboard", "", "review with --dry-run")
			}
			if runF != nil {
				return runF(o)
			}
			return offboardRun(c.Context(), o)
		},
	}
	engine.Describe(c, engine.Facts{Method: http.MethodDelete, Path: "/users/{userId}", Scope: "Users > Write",
		Also: []string{"Groups > Write", "Permissions > Write", "Permissions > Read", "Users > Read", "Access Tokens > Read",
			"Groups > Read", "Folders > Read", "Apps > Read", "Resources > Read"},
		Requests: `the lists of users and groups, and of access tokens when an admin
is among the users (whose token this is); per user, eight POST
/permissions/listObjects (effective and direct, per type); then 2 points to
disable and 2 to end the user's sessions (POST /users/{userId}/logout, where
the instance's API description has it: API 4.0), 5 per group, 10 per grant
revoked. What remains after is worked out
from what the user reached before and what was removed, not read again. On a
terminal the lists of folders, apps, resources and resource configurations
name the objects (14 points); piped, and with -o json/yaml/csv, objects are
named by id and those lists are not read.`})
	fl := c.Flags()
	engine.AddUserFileFlags(c, "offboard")
	fl.BoolVar(&o.DryRun, "dry-run", false, "print what the user reaches and the steps, change nothing")
	fl.BoolVar(&o.Yes, "yes", false, "do not ask for confirmation")
	c.ValidArgsFunction = func(_ *cobra.Command, args []string, typed string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return engine.CompleteKind(f, "users", typed)
	}
	engine.AcrossProfiles(c, engine.ProfilesWrite)
	return c
}

// offboardStep is one change of an offboarding.
type offboardStep struct {
	key string
	req client.Request
	// row is the --from row of the step's user (0 without --from); user,
	// verb and what word its result: "Removed from group All Users".
	row              int
	user, verb, what string
}

// offboardees reads the users to offboard (by email or id, as rows of a
// file may name them), and refuses (before anything else is read or
// changed) the token's own user and the last active admin.
func offboardees(ctx context.Context, f *cli.Factory, conn *cli.Connection, org *access.Org, o *OffboardOptions) ([]*access.User, map[int]string, error) {
	if err := org.LoadUsers(ctx); err != nil {
		return nil, nil, err
	}
	users, failed, err := offboardUsers(f, org, o)
	if err != nil || len(users) == 0 {
		return users, failed, err
	}
	// Only admins create tokens, so the token can be one of these users'
	// only when one of them is an admin: otherwise its owner is not read
	// (10 points an offboarding of a non-admin does not need).
	owner := ""
	if slices.ContainsFunc(users, func(u *access.User) bool { return u.IsAdmin }) {
		if owner, err = access.TokenOwner(ctx, conn.Client, conn.Target.Token); err != nil {
			return nil, nil, access.OwnerUnknown("offboard", users, err)
		}
	}
	if err := org.RefuseOffboarding(users, owner); err != nil {
		return nil, nil, &cli.UsageError{Err: err}
	}
	return users, failed, nil
}

// offboardRun reads the users and what they reach, prints that and the
// steps with their cost, asks, runs the steps as one job and prints what
// remains.
func offboardRun(ctx context.Context, o *OffboardOptions) error {
	f := o.Factory
	cfg, p, err := cli.PrinterFor(f)
	if err != nil {
		return err
	}
	conn, err := f.JobConnection(ctx, 1)
	if err != nil {
		return err
	}
	org := access.NewOrg(conn.Client)
	users, failedRows, err := offboardees(ctx, f, conn, org, o)
	if err != nil {
		return err
	}
	if len(users) == 0 {
		return o.finish(f, failedRows, bulk.Summary{})
	}
	if err := org.LoadGroups(ctx); err != nil {
		return err
	}
	if err := loadNamesForPeople(ctx, f, p, org); err != nil {
		return err
	}
	logout := endsSessions(ctx, f, conn)
	before, steps, err := offboardSteps(ctx, org, users, o.rowOf, logout)
	if err != nil {
		return err
	}
	bc := cfg.Budget
	points := 0
	for _, s := range steps {
		points += bc.Cost(s.req.Path)
	}
	if err := printRows(p, before, reachFields); err != nil {
		return err
	}
	w := f.IO.Err
	if len(steps) == 0 {
		fmt.Fprintf(w, "Nothing to do: %s disabled, in no group, with no direct grant.\n", strings.Join(o.Emails, ", "))
		return o.finish(f, failedRows, bulk.Summary{})
	}
	fmt.Fprintf(w, "Offboarding %s%s:\n", strings.Join(o.Emails, ", "), alreadyDisabled(users))
	for _, s := range steps {
		fmt.Fprintf(w, "  - %s\n", s.key)
	}
	// what finding the steps took is spent already, dry run or not: the
	// cost says both, so that a dry run is not taken for free
	readReqs, readPoints := conn.Spent()
	fmt.Fprintf(w, "Cost: read %s; to send %s.\n", ratebudget.Tally(readReqs, readPoints), bc.CostSentence(len(steps), points, nil))
	if o.DryRun {
		return o.finish(f, nil, bulk.Summary{})
	}
	if !o.Yes {
		if err := cli.ConfirmOrCancel(f.Ask(), fmt.Sprintf("Offboard (%s)?", ratebudget.Tally(len(steps), points))); err != nil {
			return err
		}
	}
	res, err := runOffboard(ctx, f, conn, o.Emails, steps, points, failedRows)
	if err != nil {
		return err
	}
	if f.OnChange != nil {
		f.OnChange("users")
		f.OnChange("groups")
	}
	if res.Stopped || res.Counts[bulk.Failed]+res.Counts[bulk.Unknown] > 0 {
		return o.finish(f, failedRows, res)
	}
	if err := printAfter(f, p, o.Emails, remainsAfter(users, before)); err != nil {
		return err
	}
	return o.finish(f, failedRows, res)
}

// offboardSteps reads what each user reaches and the changes that end it:
// disable, leave each group, revoke each direct grant.
func offboardSteps(ctx context.Context, org *access.Org, users []*access.User, rowOf map[string]int, logout bool) ([]access.Row, []offboardStep, error) {
	var before []access.Row
	var steps []offboardStep
	for _, u := range users {
		rows, direct, err := org.Reach(ctx, u, "before")
		if err != nil {
			return nil, nil, err
		}
		before = append(before, rows...)
		row := rowOf[u.ID]
		if u.Active {
			steps = append(steps, offboardStep{key: "disable " + u.Email, row: row, user: u.Email, verb: "disable", what: u.Email,
				req: client.Request{Method: http.MethodDelete, Path: client.Path("users", u.ID), Scope: "Users > Write"}})
		}
		if logout && u.Active {
			// with the disable: a disabled user's next request fails anyway, and a rerun has nothing to do
			steps = append(steps, offboardStep{key: "end the sessions of " + u.Email, row: row, user: u.Email, verb: "end", what: "the sessions of " + u.Email,
				req: client.Request{Method: http.MethodPost, Path: client.Path("users", u.ID, "logout"), Scope: "Users > Write", Body: map[string]any{}}})
		}
		for _, g := range org.GroupsOf(u.ID) {
			steps = append(steps, offboardStep{key: fmt.Sprintf("remove %s from group %s", u.Email, g.Name), row: row, user: u.Email,
				verb: "remove", what: "from group " + g.Name,
				req: client.Request{Method: http.MethodDelete, Path: client.Path("groups", access.GroupID(*g), "members", u.ID), Scope: "Groups > Write"}})
		}
		for _, d := range direct {
			id := jsonscan.AsText(d.ID)
			steps = append(steps, offboardStep{key: fmt.Sprintf("revoke %s's direct %s on %s %s", u.Email, d.Level, d.Type, org.Name(d.Type, id)), row: row, user: u.Email,
				verb: "revoke", what: fmt.Sprintf("%s on %s %s", d.Level, d.Type, org.Name(d.Type, id)),
				req: client.Request{Method: http.MethodPost, Path: "/permissions/revoke", Scope: "Permissions > Write",
					Body: map[string]any{"subject": map[string]any{"type": "user", "id": u.ID}, "object": map[string]any{"type": d.Type, "id": id}}}})
		}
	}
	return before, steps, nil
}

// printAfter prints what the users still reach, or that nothing remains.
func printAfter(f *cli.Factory, p *output.Printer, emails []string, after []access.Row) error {
	if len(after) == 0 && !f.Quiet() {
		fmt.Fprintf(f.IO.Err, "Nothing remains: %s can reach no folder, app, resource or resource configuration.\n", strings.Join(emails, ", "))
		return nil
	}
	return printRows(p, after, reachFields)
}

// loadNamesForPeople reads the lists that name objects when a person reads
// the output (at a terminal, or in the table a --profiles parent prints
// there). They cost points the offboarding itself does not need, and
// output for programs names objects by id, as the API does.
func loadNamesForPeople(ctx context.Context, f *cli.Factory, p *output.Printer, org *access.Org) error {
	if !cli.ReadByPerson(f.IO) || p.Opts.Structured() {
		return nil
	}
	return org.LoadObjects(ctx, access.ObjectTypes...)
}

// remainsAfter is what the users still reach once every step succeeded:
// it follows from what they reached before and what was removed (every
// group, every direct grant), so it is not read again.
func remainsAfter(users []*access.User, before []access.Row) []access.Row {
	var after []access.Row
	for _, u := range users {
		var rows []access.Row
		for _, r := range before {
			if r["user"] == u.Email {
				rows = append(rows, r)
			}
		}
		after = append(after, access.After(rows, nil, true)...)
	}
	return after
}

// offboardJob sends the steps as one bulk job.
type offboardJob struct {
	steps []offboardStep
	cl    *client.Client
}

func (j *offboardJob) Apply(ctx context.Context, row bulk.Row, sent func() error) bulk.Result {
	s := j.steps[row.N-1]
	var left bool
	leaving := func() error { left = true; return sent() }
	_, err := j.cl.Do(bulk.WithLeaving(bulk.Detach(ctx), leaving), s.req)
	if err != nil {
		var ou *client.OutcomeUnknownError
		if errors.As(err, &ou) {
			return bulk.Result{Outcome: bulk.Unknown, Key: s.key, Message: "sent, but no answer came; run the same command again: it reads the user afresh"}
		}
		if !left && ctx.Err() != nil {
			return bulk.Result{NotSent: true}
		}
		return bulk.Result{Outcome: bulk.Failed, Key: s.key, Message: bulk.OneLine(err.Error())}
	}
	oc := bulk.Deleted
	if s.req.Method == http.MethodPost {
		oc = bulk.Updated
	}
	return bulk.Result{Outcome: oc, Key: s.key}
}

// Settle: a step sent without an answer is judged by the next run, which
// reads the user afresh.
func (j *offboardJob) Settle(context.Context, bulk.Row) (bulk.Result, bool) {
	return bulk.Result{Outcome: bulk.Unknown, Message: "sent by an earlier run without an answer"}, true
}

// offboardOutput prints each step's outcome as the job reports it, and
// keeps the failed ones for --failed.
type offboardOutput struct {
	f          *cli.Factory
	id         string
	steps      []offboardStep
	many       bool // several users: each step names its user
	failedRows map[int]string
}

// resuming says what an earlier run of the offboarding left.
func (o *offboardOutput) resuming(prior *bulk.State) {
	if prior != nil && !prior.Ended && !o.f.Quiet() {
		c := prior.Counts()
		o.f.IO.Notice("orgctl: resuming offboarding (job %s): an earlier run did %d steps and sent %d without an answer; the user, read afresh, needs the steps above",
			o.id, c["deleted"]+c["updated"], c["unknown"])
	}
}

func (o *offboardOutput) result(r bulk.Result) {
	if r.Row < 1 || r.Row > len(o.steps) {
		return
	}
	s := o.steps[r.Row-1]
	if r.Outcome == bulk.Failed || r.Outcome == bulk.Unknown {
		o.failedRows[s.row] = stepSentence(s, r, o.many)
	}
	stepResult(o.f, s, r, o.many)
}

func runOffboard(ctx context.Context, f *cli.Factory, conn *cli.Connection, emails []string, steps []offboardStep, points int, failedRows map[int]string) (bulk.Summary, error) {
	sorted := append([]string(nil), emails...)
	sort.Strings(sorted)
	h := sha256.Sum256([]byte(strings.ToLower(strings.Join(sorted, "\n"))))
	id := bulk.JobID("orgctl users offboard", nil, conn.Target.JobTarget(), h[:])
	start := time.Now()
	rows := make([]bulk.Row, len(steps))
	for i := range rows {
		rows[i] = bulk.Row{N: i + 1, Line: i + 1}
	}
	session, err := bulk.Open(bulk.Job{
		Store: cli.JobStore(),
		Header: bulk.Header{ID: id, Command: "orgctl users offboard", Input: strings.Join(sorted, ","), Format: "offboard",
			Rows: len(steps), Target: conn.Target.BaseURL, Account: conn.Target.Account(), Created: time.Now().UTC()},
		Handler: &offboardJob{steps: steps, cl: conn.Client},
		Phases:  []bulk.Source{bulk.Rows(rows...)},
	})
	var busy *bulk.BusyError
	if errors.As(err, &busy) {
		return bulk.Summary{}, fmt.Errorf("an offboarding of %s is running in another process (job %s); wait for it", strings.Join(emails, ", "), id)
	}
	if err != nil {
		return bulk.Summary{}, err
	}
	defer session.Close()
	out := &offboardOutput{f: f, id: id, steps: steps, many: len(emails) > 1, failedRows: failedRows}
	out.resuming(session.Prior())
	stop := f.ShowProgress(conn, "steps", len(steps), points, len(steps), session.Progress)
	for r := range session.Results(ctx) {
		out.result(r)
	}
	stop()
	res, err := session.End()
	if err != nil {
		return res, err
	}
	fmt.Fprintf(f.IO.Err, "orgctl: offboard: %d of %d steps in %.1fs; job %s\n", res.Done, len(steps), time.Since(start).Seconds(), id)
	if res.Stopped {
		fmt.Fprintf(f.IO.Err, "orgctl: stopped: the steps in flight finished and were recorded; to finish, run the same command again:\n  %s\n", engine.ResumeLine())
	}
	return res, nil
}
