package orgfiles

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/orgcode"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/internal/suggest"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/atomicfile"
	"github.com/orgctl/orgctl/ratebudget"
)

// orgOptions are the flags of export, plan and apply.
type orgOptions struct {
	dir           string
	prune         bool
	exitCode      bool
	failUnmanaged bool
	only          []string
	yes           bool
	parallel      int
	out           string
}

const orgCodeLong = `The org's configuration as files: one folder per kind (user-attributes, users,
groups, folders, grants, environments, config-vars, themes), one YAML file per
object named by its natural key (users/ada@example.com.yaml, groups/support.yaml,
folders/app/Finance/Reports.yaml, grants/group/support.yaml). References are by
natural key, never by id. A secret is never written: a secret config var's
value in each environment is ` + orgcode.SecretForm + `, the
variable apply reads it from.`

func NewCmds(f *cli.Factory) []*cobra.Command {
	var o orgOptions
	export := &cobra.Command{
		Use:   "export --dir DIR",
		Short: "Write the org's configuration as YAML files, one per object",
		Long: orgCodeLong + `

Export twice and the files are byte for byte the same; an object gone from the
org leaves no file behind (the kinds' folders are rewritten, nothing else in
DIR is touched). The new folders are written in full first and swapped in only
then: a failed export leaves DIR as it was. A name no file system takes as a
file name (too long, control characters, a Windows device name such as CON or
aux.txt, one that differs from another only in case or in Unicode
normalisation) gets a distinct, stable file name; the file holds the real
name. Export, plan and apply never follow a symlink out of DIR.`,
		Example: "  orgctl export --dir org/\n  git -C org diff",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return orgExport(c.Context(), f, o)
		},
	}
	plan := &cobra.Command{
		Use:   "plan --dir DIR",
		Short: "Show what apply would change in the org, and what it costs in points and time",
		Long: orgCodeLong + `

The plan lists, by kind, what would be created, changed (field by field, old ->
new) and, with --prune, deleted; live objects that no file holds are listed as
unmanaged. It ends with the requests, their points and the time the rate
budget needs for them. It manages the kinds whose folders DIR holds (--only
narrows them), and reads only what they need: one list request per kind they
are, one per kind they refer to only when the references need it (a groups
list names the members: the users list is read only for a member no group
shows), and one access list per folder and app only when grants/ is managed.

Bad files exit 2 before any request, each problem as FILE:LINE with a
did-you-mean for a misspelt field, kind or value. A reference to an object of
the files needs no request; one to an object in no file can only be checked
against the live org, so when it names nothing, plan exits 2 after reading
the lists (before the access lists and any write).

A change that needs what the org lacks and this API cannot create (a grant on
an app, or a landing page, promoted from another Space: apps reach a Space
through source control) is blocked, not an error: the plan lists blocked
changes under a heading of their own and counts them, and apply sends the rest.

With --exit-code it exits 7 when something would change or is blocked and 0
when nothing would, like terraform plan -detailed-exitcode; an error keeps its
own status (1 to 6), so drift never reads as a crash nor a crash as drift. With
--fail-on-unmanaged, live objects that no file holds count as changes too.`,
		Example: "  orgctl plan --dir org/\n  orgctl plan --dir org/ --exit-code   # in CI\n  orgctl plan --dir org/ -o json",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return orgPlan(c.Context(), f, o)
		},
	}
	apply := &cobra.Command{
		Use:   "apply (--dir DIR | PLANFILE)",
		Short: "Change the org to match the files, paced and resumable",
		Long: orgCodeLong + `

apply prints the plan, asks for confirmation (--yes in scripts: without a
terminal and without --yes it refuses), then sends the plan's requests in
dependency order (users and groups before memberships, folders before grants),
paced by the rate budget, with progress on stderr. Deletes happen only with
--prune. If apply is stopped or killed, run it again: it reads the org afresh,
so what was applied is not sent again. Blocked changes (see plan --help) are
not sent: apply sends the rest, names each blocked change and exits 1; once
what they need is in the org, the next apply sends them.

apply PLANFILE applies a plan saved by plan --out: exactly its changes, as
reviewed, with the prune and kinds it was made with. It reads the directory
not at all and the org only for the objects the plan changes (the lists of
their kinds; the access lists of the folders and apps whose grants change),
and refuses, exit 1, sending nothing, naming each object someone else created,
changed or deleted since the plan was made. Stopped, it can be run again: what
its earlier runs made counts as done.`,
		Example: "  orgctl apply --dir org/\n  orgctl apply --dir org/ --prune --yes\n  orgctl plan --dir org/ --out org.plan && orgctl apply org.plan --yes",
		Args:    cli.MaximumArgs(1, "PLANFILE"),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				return applySaved(c.Context(), f, o, args[0], c.Flags().Changed("prune") || c.Flags().Changed("only"))
			}
			return orgApply(c.Context(), f, o)
		},
	}
	for _, c := range []*cobra.Command{export, plan, apply} {
		c.Flags().StringVar(&o.dir, "dir", "", "the configuration's `DIR`ectory")
		c.MarkFlagDirname("dir")
		if c != apply { // apply takes a saved plan instead
			c.MarkFlagRequired("dir")
		}
	}
	for _, c := range []*cobra.Command{plan, apply} {
		c.Flags().BoolVar(&o.prune, "prune", false, "also delete live objects that no file holds")
		c.Flags().StringSliceVar(&o.only, "only", nil, "manage only these `KINDS` of the directory (groups,grants,...)")
		c.RegisterFlagCompletionFunc("only", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			var names []string
			for _, k := range orgcode.Kinds() {
				names = append(names, k.Name)
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		})
	}
	plan.Flags().BoolVar(&o.exitCode, "exit-code", false, "exit 7 when the plan has changes (or blocked ones), 0 when it has none")
	plan.Flags().BoolVar(&o.failUnmanaged, "fail-on-unmanaged", false, "exit 7 also when live objects are in no file (implies --exit-code)")
	plan.Flags().StringVar(&o.out, "out", "", "also save the plan to `FILE`, for `orgctl apply FILE`")
	apply.Flags().BoolVarP(&o.yes, "yes", "y", false, "do not ask for confirmation (required when stdin is not a terminal)")
	apply.Flags().IntVar(&o.parallel, "parallel", 4, "requests of one phase in flight at once (the rate budget still paces every request)")
	return []*cobra.Command{export, plan, apply}
}

func orgExport(ctx context.Context, f *cli.Factory, o orgOptions) error {
	if strings.TrimSpace(o.dir) == "" {
		return cli.UsageErrorf("--dir needs a directory")
	}
	if fi, err := os.Stat(o.dir); err == nil && !fi.IsDir() {
		return cli.UsageErrorf("--dir %s is not a directory", o.dir)
	}
	conn, err := f.Connection()
	if err != nil {
		return err
	}
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	live, err := readLive(ctx, f, conn, orgcode.Everything(), cfg.Budget)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return err
	}
	docs := live.Documents()
	if err := orgcode.WriteDir(o.dir, docs); err != nil {
		return err
	}
	if !f.Quiet() {
		f.IO.Notice("orgctl: exported %d objects to %s (%d requests)", len(docs), o.dir, len(live.Reads))
	}
	return nil
}

// readLive reads the org as r says, with progress on stderr: requests
// and points read of those to read, and the time the budget needs for
// the rest.
// Problems found on the way (references that name nothing, app names
// several apps share) are invalid input: exit 2, nothing changed.
func readLive(ctx context.Context, f *cli.Factory, conn *cli.Connection, r orgcode.Reading, bc ratebudget.Config) (*orgcode.Live, error) {
	live, err := readLiveShown(ctx, f, conn, r, bc)
	var probs orgcode.Problems
	if errors.As(err, &probs) {
		return nil, &cli.UsageError{Err: fmt.Errorf("%w\n(nothing was changed)", err)}
	}
	return live, err
}

func readLiveShown(ctx context.Context, f *cli.Factory, conn *cli.Connection, r orgcode.Reading, bc ratebudget.Config) (*orgcode.Live, error) {
	if f.Quiet() {
		return orgcode.ReadLive(ctx, conn.Client, r, nil)
	}
	rp := &orgcode.ReadProgress{Cost: bc.Cost}
	prog := &output.Progress{IO: f.IO, Noun: "reads", Stats: func() output.ProgressStats {
		done, total, points, pointsTotal := rp.Now()
		s := output.ProgressStats{Done: done, Total: total, More: rp.Open(), Points: points, PointsTotal: pointsTotal}
		if done < total {
			each := (pointsTotal - points + total - done - 1) / (total - done) // a read's price, on average
			conn.BudgetETA(&s, pointsTotal-points, each)
		}
		return s
	}}
	prog.Start()
	defer prog.Stop()
	return orgcode.ReadLive(ctx, conn.Client, r, rp)
}

// readOrgFiles reads DIR; bad files are invalid input (exit 2).
func readOrgFiles(ctx context.Context, dir string) (*orgcode.Files, error) {
	if strings.TrimSpace(dir) == "" {
		return nil, cli.UsageErrorf("--dir needs a directory")
	}
	files, err := orgcode.ReadDir(ctx, dir)
	var probs orgcode.Problems
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err() // interrupted: the signal's exit status
	case errors.As(err, &probs):
		probs = probs.WithSuggestions(func(word string, known []string) string {
			return suggest.Nearest(word, known, suggest.Typo(len(word)))
		})
		return nil, &cli.UsageError{Err: fmt.Errorf("%w\n(%s in %s; nothing was sent)", probs, plural(len(probs), "problem", "problems"), dir)}
	case errors.Is(err, fs.ErrNotExist):
		return nil, cli.UsageErrorf("--dir %s does not exist: run `orgctl export --dir %s` first", dir, dir)
	case err != nil:
		return nil, cli.UsageErrorf("--dir %s: %v", dir, err)
	}
	return files, nil
}

// orgPlanOf reads the files, then the org, checks references and diffs.
func orgPlanOf(ctx context.Context, f *cli.Factory, conn *cli.Connection, files *orgcode.Files, o orgOptions, bc ratebudget.Config) (*orgcode.Plan, *orgcode.Live, error) {
	r, err := orgcode.ReadingFor(files, o.only)
	if err != nil {
		return nil, nil, &cli.UsageError{Err: fmt.Errorf("--only: %w", err)}
	}
	if err := orgcode.CheckFiles(files, r); err != nil {
		return nil, nil, &cli.UsageError{Err: fmt.Errorf("%w\n(nothing was sent)", err)}
	}
	// references to objects in no file: the lists were read to check
	// them, the access lists were not
	live, err := readLive(ctx, f, conn, r, bc)
	if err != nil {
		return nil, nil, err
	}
	return orgcode.Diff(files, live, r, o.prune, bc), live, nil
}

func orgPlan(ctx context.Context, f *cli.Factory, o orgOptions) error {
	files, err := readOrgFiles(ctx, o.dir)
	if err != nil {
		return err
	}
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	p, markdown, err := planPrinter(f, cfg)
	if err != nil {
		return err
	}
	conn, err := f.Connection()
	if err != nil {
		return err
	}
	plan, _, err := orgPlanOf(ctx, f, conn, files, o, cfg.Budget)
	if err != nil {
		return err
	}
	if err := savePlan(f, plan, conn.Target.BaseURL, o.dir, o.only, o.out); err != nil {
		return err
	}
	if err := showPlan(f, p, markdown, plan, cfg.Budget); err != nil {
		return err
	}
	if (o.exitCode || o.failUnmanaged) && !plan.Empty() || o.failUnmanaged && len(plan.Unmanaged) > 0 {
		return &cli.ExitError{Code: cli.ExitFindings}
	}
	return nil
}

// planPrinter is how a plan is shown: -o markdown renders it whole (a
// pull-request comment), so --jq, --template and --columns are refused
// with it; any other format prints through a Printer.
func planPrinter(f *cli.Factory, cfg *settings.Config) (p *output.Printer, markdown bool, err error) {
	if cfg.Output != "markdown" {
		p, err = cli.NewPrinter(f.IO, cfg)
		return p, false, err
	}
	if cfg.JQ != "" || cfg.Template != "" || len(cfg.Columns) > 0 {
		return nil, true, cli.UsageErrorf("-o markdown renders the plan whole: leave out --jq, --template and --columns")
	}
	return nil, true, nil
}

// savePlan writes the plan to out ("" for none), for apply to send
// exactly it.
func savePlan(f *cli.Factory, plan *orgcode.Plan, baseURL, input string, only []string, out string) error {
	if out == "" {
		return nil
	}
	b, err := plan.Save(baseURL, input, only, time.Now())
	if err != nil {
		return err
	}
	if err := atomicfile.Write(out, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("saving the plan: %w", err)
	}
	if !f.Quiet() {
		f.IO.Notice("orgctl: plan saved to %s; apply exactly it with `orgctl apply %s`", out, out)
	}
	return nil
}

// showPlan prints the plan on stdout as -o asks: markdown, data
// (planData), or the text for people.
func showPlan(f *cli.Factory, p *output.Printer, markdown bool, plan *orgcode.Plan, bc ratebudget.Config) error {
	switch {
	case markdown:
		writeMarkdown(f.IO.Out, plan, bc)
	case p.Opts.Structured():
		b, err := json.Marshal(planData(plan))
		if err != nil {
			return err
		}
		return p.Print(b, nil)
	default:
		writePlan(f.IO.Out, plan, bc, f.IO.ColorOut)
	}
	return nil
}

// planData is the plan as data: its changes with each field's old and new
// value (absent where there is none), the unmanaged objects, the steps and
// the totals.
func planData(p *orgcode.Plan) map[string]any {
	changes := []any{}
	for _, c := range p.Changes {
		fields := []any{}
		for _, fc := range c.Fields {
			m := map[string]any{"field": fc.Field}
			if fc.HasOld {
				m["old"] = fc.Old
			}
			if fc.HasNew {
				m["new"] = fc.New
			}
			fields = append(fields, m)
		}
		m := map[string]any{"kind": c.Kind, "key": c.Key, "action": string(c.Action), "fields": fields}
		if c.Note != "" {
			m["note"] = c.Note
		}
		changes = append(changes, m)
	}
	steps := []any{}
	for _, s := range p.Steps {
		steps = append(steps, map[string]any{"kind": s.Kind, "key": s.Key, "step": s.What, "method": s.Method, "path": s.Path})
	}
	unmanaged := []any{}
	for _, u := range p.Unmanaged {
		m := map[string]any{"kind": u.Kind, "key": u.Key}
		if u.Note != "" {
			m["note"] = u.Note
		}
		unmanaged = append(unmanaged, m)
	}
	blocked := []any{}
	for _, b := range p.Blocked {
		blocked = append(blocked, map[string]any{"kind": b.Kind, "key": b.Key, "field": b.Field, "new": b.New, "needs": b.Needs, "reason": b.Reason})
	}
	return map[string]any{"changes": changes, "unmanaged": unmanaged, "blocked": blocked, "steps": steps, "prune": p.Prune,
		"requests": p.Requests, "points": p.Points, "seconds": p.Time.Seconds(),
		"read_requests": p.ReadRequests, "read_points": p.ReadPoints}
}

// applyChecks are what either form of apply refuses before reading
// anything: a --parallel out of range, no confirmation possible.
func applyChecks(f *cli.Factory, o orgOptions, review string) error {
	if o.parallel < 1 || o.parallel > engine.MaxParallel {
		return cli.UsageErrorf("invalid --parallel %d: give 1 to %d", o.parallel, engine.MaxParallel)
	}
	if !o.yes && !f.CanPrompt() {
		return cli.Unconfirmed("apply", "", "review "+review)
	}
	return nil
}

func orgApply(ctx context.Context, f *cli.Factory, o orgOptions) error {
	if strings.TrimSpace(o.dir) == "" {
		return cli.UsageErrorf("apply needs --dir DIR, or a plan saved by `orgctl plan --dir DIR --out FILE`")
	}
	if err := applyChecks(f, o, fmt.Sprintf("`orgctl plan --dir %s`", o.dir)); err != nil {
		return err
	}
	files, err := readOrgFiles(ctx, o.dir)
	if err != nil {
		return err
	}
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	conn, err := f.JobConnection(ctx, o.parallel)
	if err != nil {
		return err
	}
	plan, live, err := orgPlanOf(ctx, f, conn, files, o, cfg.Budget)
	if err != nil {
		return err
	}
	sum, err := filesSum(files)
	if err != nil {
		return err
	}
	flags := []string{}
	if o.prune {
		flags = append(flags, "--prune")
	}
	if len(o.only) > 0 {
		flags = append(flags, "--only="+strings.Join(o.only, ","))
	}
	return runApply(ctx, f, conn, o, cfg.Budget, plan, live, applyJob{
		id: bulk.JobID("orgctl apply", flags, conn.Target.JobTarget(), sum), flags: flags, input: o.dir,
		resumed: "this plan, read afresh, is what is left"})
}

// refuseAdminLoss refuses, before any request of the plan, a plan that
// takes admin rights from the API token's own user (whose token would
// lose its rights halfway) or from every active admin the org has: the
// rule users disable and offboard follow (access.RefuseLosingAdmins), with
// the admins the plan makes counted as remaining. It reads the users and
// the token's owner only when the plan takes admin rights from someone.
func refuseAdminLoss(ctx context.Context, conn *cli.Connection, plan *orgcode.Plan) error {
	demoted, added := plan.AdminChanges()
	disabled := plan.DisabledUsers()
	removed := slices.Concat(demoted, disabled)
	if len(removed) == 0 {
		return nil
	}
	org := access.NewOrg(conn.Client)
	if err := org.LoadUsers(ctx); err != nil {
		return fmt.Errorf("refusing to apply: the plan takes admin rights from %s, and the org's users cannot be read to tell whether an admin would remain (%w); try again (nothing was changed)",
			strings.Join(removed, ", "), err)
	}
	var users []*access.User
	for _, e := range removed {
		if u := org.ByEmail[strings.ToLower(e)]; u != nil && u.Active && u.IsAdmin {
			users = append(users, u)
		}
	}
	if len(users) == 0 {
		return nil
	}
	for _, e := range added {
		if slices.ContainsFunc(disabled, func(d string) bool { return strings.EqualFold(d, e) }) {
			continue
		}
		if u := org.ByEmail[strings.ToLower(e)]; u == nil || u.Active {
			org.Users = append(org.Users, access.User{ID: "planned:" + e, Email: e, Active: true, IsAdmin: true})
		}
	}
	verb := lossVerb(users, disabled)
	owner, err := access.TokenOwner(ctx, conn.Client, conn.Target.Token)
	if err != nil {
		return access.OwnerUnknown("apply a plan that would "+verb, users, err)
	}
	if err := org.RefuseLosingAdmins(verb, users, owner); err != nil {
		return &cli.UsageError{Err: fmt.Errorf("the plan takes admin rights away (removed from admin, made no admin, or disabled): %w\nto apply the rest and leave this org's people as they are, plan with --only %s",
			err, strings.Join(orgcode.KindsBut(orgcode.PeopleKinds...), ","))}
	}
	return nil
}

// lossVerb says what the plan does to the admins it takes rights from:
// disables them (prune, or active: false), demotes them, or both.
func lossVerb(users []*access.User, disabled []string) string {
	n := 0
	for _, u := range users {
		if slices.ContainsFunc(disabled, func(d string) bool { return strings.EqualFold(d, u.Email) }) {
			n++
		}
	}
	switch n {
	case 0:
		return "demote"
	case len(users):
		return "disable"
	}
	return "disable or demote"
}

// applyJob names one apply's job.
type applyJob struct {
	id, input, resumed string
	flags              []string
	saved              bool // a plan saved by plan --out
}

// planAgain is the plan command that made the saved plan, with the options
// that narrowed or widened it (--only, --prune): without them a plan of
// one kind would become a read, and a plan, of the whole org.
func planAgain(saved *orgcode.Saved, file string) string {
	line := fmt.Sprintf("orgctl plan --dir %s --out %s", saved.Dir, file)
	if len(saved.Only) > 0 {
		line += " --only " + strings.Join(saved.Only, ",")
	}
	if saved.Prune {
		line += " --prune"
	}
	return line
}

// applySaved applies a plan saved by plan --out.
func applySaved(ctx context.Context, f *cli.Factory, o orgOptions, file string, planFlags bool) error {
	if o.dir != "" || planFlags {
		return cli.UsageErrorf("apply %s applies the saved plan as it was made: leave out --dir, --prune and --only (they are the plan's)", file)
	}
	if err := applyChecks(f, o, "the plan"); err != nil {
		return err
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return cli.UsageErrorf("cannot read the plan: %v", err)
	}
	saved, err := orgcode.LoadPlan(file, b)
	if err != nil {
		return &cli.UsageError{Err: err}
	}
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	conn, err := f.JobConnection(ctx, o.parallel)
	if err != nil {
		return err
	}
	if saved.Target != conn.Target.BaseURL {
		return cli.UsageErrorf("%s was planned for %s, and this profile reaches %s: apply it with the profile it was made with, or plan again", file, saved.Target, conn.Target.BaseURL)
	}
	sum := sha256.Sum256(b)
	id := bulk.JobID("orgctl apply", []string{"--plan"}, conn.Target.JobTarget(), sum[:])
	store := cli.JobStore()
	earlier, err := earlierSteps(store, id)
	if err != nil {
		return err
	}
	live, err := readLive(ctx, f, conn, saved.Reading(), cfg.Budget)
	if err != nil {
		return err
	}
	plan, done, err := saved.Replan(live, earlier, cfg.Budget)
	var conflicts orgcode.Conflicts
	if errors.As(err, &conflicts) {
		return fmt.Errorf("%w\nnothing was sent: plan again (`%s`), review, and apply the new plan", conflicts, planAgain(saved, file))
	}
	if err != nil {
		return err
	}
	if done > 0 && !f.Quiet() {
		f.IO.Notice("orgctl: %d of the plan's %d changes are already made (by an earlier run of this apply)", done, len(saved.Changes))
	}
	o.prune = saved.Prune
	return runApply(ctx, f, conn, o, cfg.Budget, plan, live, applyJob{
		id: id, flags: []string{"--plan"}, input: file,
		resumed: "the rest of the saved plan is what is left", saved: true})
}

// sentFile, in a saved apply's job directory, lists every step its runs
// sent: each run's journal is new and holds that run's steps only.
const sentFile = "sent"

// earlierSteps are the steps earlier runs of saved apply id sent: those
// sentFile keeps and those the last run's journal records, which it
// keeps from now on.
func earlierSteps(store bulk.Store, id string) (orgcode.Earlier, error) {
	path := filepath.Join(store.Dir, id, sentFile)
	earlier := orgcode.Earlier{}
	if b, err := os.ReadFile(path); err == nil {
		var keys []string
		if err := json.Unmarshal(b, &keys); err != nil {
			return nil, fmt.Errorf("%s is damaged (%v): plan again", path, err)
		}
		for _, k := range keys {
			earlier[k] = true
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	st, err := bulk.Load(store.JournalPath(id))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("the journal of job %s cannot be read (%v): plan again", id, err)
	}
	n := len(earlier)
	for k := range orgcode.EarlierSteps(st) {
		earlier[k] = true
	}
	if len(earlier) == n {
		return earlier, nil
	}
	keys := make([]string, 0, len(earlier))
	for k := range earlier {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b, _ := json.Marshal(keys)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(path, b, 0o600); err != nil {
		return nil, fmt.Errorf("recording what earlier runs sent: %w", err)
	}
	return earlier, nil
}

// runApply prints the plan, confirms it and sends its steps as a job.
func runApply(ctx context.Context, f *cli.Factory, conn *cli.Connection, o orgOptions, bc ratebudget.Config, plan *orgcode.Plan, live *orgcode.Live, j applyJob) error {
	if probs := orgcode.MissingSecrets(plan); len(probs) > 0 {
		return &cli.UsageError{Err: fmt.Errorf("%w\n(nothing was changed)", probs)}
	}
	if plan.Empty() && j.saved {
		fmt.Fprintf(f.IO.Out, "Nothing to send: every change of %s is made.\n", j.input)
		return nil
	}
	writePlan(f.IO.Out, plan, bc, f.IO.ColorOut)
	if len(plan.Steps) == 0 {
		return nothingToSend(f, plan)
	}
	if err := refuseAdminLoss(ctx, conn, plan); err != nil {
		return err
	}
	if !o.yes {
		if err := confirmApply(f, plan); err != nil {
			return err
		}
	}
	id := j.id
	job, applier := plan.Apply(live, conn.Client, bulk.Job{
		Store: cli.JobStore(),
		Header: bulk.Header{ID: id, Command: "orgctl apply", Flags: j.flags, Input: j.input,
			Format: "orgcode", Target: conn.Target.BaseURL, Account: conn.Target.Account(), Created: time.Now().UTC()},
		Parallel: o.parallel,
	})
	session, err := bulk.Open(job)
	var busy *bulk.BusyError
	if errors.As(err, &busy) {
		return fmt.Errorf("apply of %s onto this org is running in another process (job %s); wait for it", j.input, id)
	}
	if err != nil {
		return err
	}
	defer session.Close()
	out := newApplyOutput(f, plan)
	resuming(f, id, j.resumed, session.Prior())
	n := len(plan.Steps)
	stop := f.ShowProgress(conn, "steps", n, plan.Points, n, session.Progress)
	for r := range session.Results(ctx) {
		out.result(r)
	}
	stop()
	res, err := session.End()
	if f.OnChange != nil {
		for _, fam := range applier.Changed() {
			f.OnChange(fam)
		}
	}
	if err != nil {
		return err
	}
	if res.JournalErr != nil {
		f.IO.Warn("the apply's journal could not be written (%v)", res.JournalErr)
	}
	// Counted as the plan counts: by change, in its words, since one
	// change (a group's members) may take several steps of any method.
	applied := plan.Applied(out.done)
	var parts []string
	for _, a := range []struct {
		action orgcode.Action
		word   string
	}{{orgcode.Create, "created"}, {orgcode.Update, "changed"}, {orgcode.Delete, "deleted"}} {
		if n := applied[a.action]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, a.word))
		}
	}
	if n := res.Counts[bulk.Failed]; n > 0 {
		parts = append(parts, plural(n, "step failed", "steps failed"))
	}
	if n := res.Counts[bulk.Unknown]; n > 0 {
		parts = append(parts, plural(n, "step unanswered", "steps unanswered"))
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing applied")
	}
	fmt.Fprintf(f.IO.Err, "orgctl: apply: %d of %d steps: %s in %.1fs; job %s\n", res.Done, len(plan.Steps), strings.Join(parts, ", "), res.Took.Seconds(), id)
	if res.Stopped {
		fmt.Fprintf(f.IO.Err, "orgctl: stopped: the steps in flight finished and were recorded; to finish, run the same command again:\n  %s\n", engine.ResumeLine())
	}
	if n := res.Counts[bulk.Unknown]; n > 0 {
		fmt.Fprintf(f.IO.Err, "orgctl: %d steps were sent without an answer; run apply again: it reads the org afresh and shows what they did\n", n)
	}
	return worst(cli.JobExit(res), blockedExit(f, plan))
}

// applyOutput prints each step's outcome as the job reports it: on a
// terminal a sentence, piped the outcome and the step's record
// tab-separated for scripts.
type applyOutput struct {
	f         *cli.Factory
	sentences map[string]string
	ok        map[string]bool // the steps done, by Describe
}

// done reports a step this run applied.
func (a *applyOutput) done(s *orgcode.Step) bool { return a.ok[s.Describe()] }

func newApplyOutput(f *cli.Factory, plan *orgcode.Plan) *applyOutput {
	sentences := make(map[string]string, len(plan.Steps))
	for _, s := range plan.Steps {
		sentences[s.Describe()] = s.Sentence()
	}
	return &applyOutput{f: f, sentences: sentences, ok: map[string]bool{}}
}

// resuming says what an earlier run of the apply left, and what it means
// for this one (resumed).
func resuming(f *cli.Factory, id, resumed string, prior *bulk.State) {
	if prior != nil && !prior.Ended && !f.Quiet() {
		c := prior.Counts()
		f.IO.Notice("orgctl: resuming apply (job %s): an earlier run applied %d steps and sent %d without an answer; %s",
			id, c["created"]+c["updated"]+c["deleted"], c["unknown"], resumed)
	}
}

func (a *applyOutput) result(r bulk.Result) {
	f := a.f
	if r.Outcome == bulk.Created || r.Outcome == bulk.Updated || r.Outcome == bulk.Deleted {
		a.ok[r.Key] = true
	}
	msg := ""
	if r.Message != "" {
		msg = ": " + r.Message
	}
	if !f.IO.OutTTY {
		fmt.Fprintf(f.IO.Out, "%s\t%s%s\n", r.Outcome, r.Key, msg)
		return
	}
	on := f.IO.ColorOut
	switch r.Outcome {
	case bulk.Failed:
		fmt.Fprintf(f.IO.Out, "%s Failed: %s%s\n", output.Paint(on, output.Red, "✗"), r.Key, msg)
	case bulk.Unknown:
		fmt.Fprintf(f.IO.Out, "%s Unknown: %s%s\n", output.Paint(on, output.Yellow, "?"), r.Key, msg)
	default:
		fmt.Fprintf(f.IO.Out, "%s %s%s\n", output.Paint(on, output.Green, "✓"), a.sentences[r.Key], msg)
	}
}

// worst is the first error, else the second: a failed or unknown step's
// status outranks the blocked changes' (named all the same).
func worst(job, blocked error) error {
	if job != nil {
		return job
	}
	return blocked
}

// nothingToSend ends an apply whose plan has no step: done, or blocked.
func nothingToSend(f *cli.Factory, p *orgcode.Plan) error {
	if len(p.Blocked) > 0 {
		fmt.Fprintln(f.IO.Out, "Nothing to send: every change left is blocked.")
	}
	return blockedExit(f, p)
}

// blockedExit names the plan's blocked changes, which apply did not send:
// the org is not yet as the files say, so the apply did not succeed.
func blockedExit(f *cli.Factory, p *orgcode.Plan) error {
	if len(p.Blocked) == 0 {
		return nil
	}
	fmt.Fprintf(f.IO.Err, "orgctl: %s blocked and %s not sent:\n", plural(len(p.Blocked), "change is", "changes are"), map[bool]string{true: "was", false: "were"}[len(p.Blocked) == 1])
	for _, b := range p.Blocked {
		fmt.Fprintf(f.IO.Err, "  %s %s %s: needs %s\n", b.Kind, b.Key, b.Field, b.Needs)
	}
	fmt.Fprintln(f.IO.Err, "orgctl: once what they need is in this org, plan and apply again: they are sent then")
	return &cli.ExitError{Code: cli.ExitFailure}
}

// filesSum names the desired state: every file's path and bytes, in order.
func filesSum(files *orgcode.Files) ([]byte, error) {
	h := sha256.New()
	var docs []*orgcode.Doc
	for _, ds := range files.Docs {
		docs = append(docs, ds...)
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].File < docs[j].File })
	for _, d := range docs {
		b, err := os.ReadFile(d.File)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", d.File, len(b))
		h.Write(b)
	}
	return h.Sum(nil), nil
}

func confirmApply(f *cli.Factory, p *orgcode.Plan) error {
	return cli.ConfirmOrCancel(f.Ask(), fmt.Sprintf("Apply these changes (%s)?", ratebudget.Tally(p.Requests, p.Points)))
}
