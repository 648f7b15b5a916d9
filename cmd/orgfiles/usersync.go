package orgfiles

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/orgcode"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/ratebudget"
)

// SyncOptions are one HR sync, parsed and checked.
type SyncOptions struct {
	Factory *cli.Factory
	From    string
	Map     map[string]string // file column -> field
	// GroupColumn is the field (after Map) whose value names each row's
	// group; "" moves no membership.
	GroupColumn    string
	DisableMissing bool
	Yes, DryRun    bool
	ExitCode       bool
	Out            string
	MaxChanges     int // -1: no limit
}

// NewCmdUsersSync parses 'users sync' into SyncOptions and hands them to
// runF (syncRun when nil).
func NewCmdUsersSync(f *cli.Factory, runF func(*SyncOptions) error) *cobra.Command {
	o := &SyncOptions{Factory: f}
	var maps []string
	c := &cobra.Command{
		Use:   "sync --from HR_FILE",
		Short: "Make the org's users equal to an HR export: create, update, and disable who left",
		Long: `The file (CSV with a header row) is the truth for the users it covers: its
"email" column names each user, "first_name" and "last_name" their names, and
every other column a metadata attribute (department...). --map COLUMN=FIELD
reads another column as one of those ("Work Email"=email).

--group-column FIELD moves group membership by that column (read after
--map, and then not an attribute): each row's user joins the group its value
names (matched as 'orgctl help names' says: Support finds support) and
leaves every other group the column governs. The governed groups are those
some row's value names, and only they: a group no row names keeps its
members (a department HR dissolved is emptied by hand, with 'orgctl groups
members remove'), as do members the file does not cover; a row with an
empty value leaves every governed group. The built-in groups (admin, All Users) are
never governed: a row naming one, or a group the org lacks, is refused
(exit 2, with the nearest names) before anything is written.

Users the file has and the org lacks are created; users whose names or
attributes differ are updated (attributes the file has no column for are
kept); with --disable-missing, active users the file lacks are disabled,
never an admin (and so never the token's own user, which an admin holds).
A user the org has disabled stays disabled.

It prints a plan in the shape of 'orgctl plan' (-o markdown for a pull
request, -o json; --exit-code exits 7 when it has changes) and sends nothing
unless --yes, which applies it as apply does: paced, journaled, resumable.
--out FILE saves the plan, which 'orgctl apply FILE' applies exactly as
reviewed. --max-changes N refuses (exit 2, nothing sent) a plan of more than
N changes.

See 'orgctl help seats'.`,
		Example: `  orgctl users sync --from hr.csv --disable-missing
  orgctl users sync --from hr.csv --map "Work Email"=email --disable-missing --out sync.plan
  orgctl users sync --from hr.csv --disable-missing --max-changes 20 --yes
  orgctl users sync --from hr.csv --map "Dept=department" --group-column department --out sync.plan`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !c.Flags().Changed("max-changes") {
				o.MaxChanges = -1
			} else if o.MaxChanges < 0 {
				return cli.UsageErrorf("--max-changes %d: give the most changes to allow, 0 or more", o.MaxChanges)
			}
			o.Map = map[string]string{}
			for _, m := range maps {
				col, field, ok := strings.Cut(m, "=")
				if !ok || col == "" || field == "" {
					return cli.UsageErrorf("--map %q: give COLUMN=FIELD, for example --map \"Work Email\"=email", m)
				}
				o.Map[col] = field
			}
			if runF != nil {
				return runF(o)
			}
			return syncRun(c.Context(), o)
		},
	}
	engine.Describe(c, engine.Facts{Method: "POST", Path: "/users", Scope: "Users > Write",
		Also: []string{"Users > Read", "User Attributes > Read (when the file names an attribute)"},
		Requests: `one GET /users (2 points), and GET /user_attributes (5) when the file
names an attribute, GET /groups (5) with --group-column; then per change as
apply prices it: create POST /users, update PATCH /users/{id}, disable
DELETE /users/{id} (2 points each), and per governed group one POST
/groups/{id}/members for those who join and one DELETE
/groups/{id}/members/{userId} per user who leaves (5 points each).`})
	fl := c.Flags()
	fl.StringVar(&o.From, "from", "", "the HR export, a CSV `FILE` with a header row (required)")
	c.MarkFlagRequired("from")
	fl.StringArrayVar(&maps, "map", nil, "read the file's `COLUMN=FIELD` as that field (email, first_name, last_name, or an attribute; repeatable)")
	fl.StringVar(&o.GroupColumn, "group-column", "", "move group membership by this `FIELD` of the file (after --map): each row's user joins the group it names and leaves the other groups that column names")
	fl.BoolVar(&o.DisableMissing, "disable-missing", false, "disable the active users the file lacks (never admins)")
	fl.BoolVar(&o.Yes, "yes", false, "apply the plan (without it, only print it)")
	fl.BoolVar(&o.DryRun, "dry-run", false, "print the plan and send nothing (the default without --yes)")
	fl.BoolVar(&o.ExitCode, "exit-code", false, "exit 7 when the plan has changes, 0 when it has none")
	fl.StringVar(&o.Out, "out", "", "also save the plan to `FILE`, for `orgctl apply FILE`")
	fl.IntVar(&o.MaxChanges, "max-changes", 0, "refuse, sending nothing, a plan of more than `N` changes")
	return c
}

// readHRFile turns the file into user documents, one per row, and, with
// a group column (a field name in lower case), each row's group as the
// file names it.
func readHRFile(name string, maps map[string]string, groupCol string) (*orgcode.Files, []hrGroup, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, nil, cli.UsageErrorf("--from: %v", err)
	}
	defer fh.Close()
	r := csv.NewReader(fh)
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, nil, cli.UsageErrorf("--from %s: no header row: %v", name, err)
	}
	fields := make([]string, len(header))
	emailCol, groupAt := -1, -1
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if groupCol != "" && strings.ToLower(h) == groupCol {
			groupAt = i // the column as the file names it, before --map
		}
		if m, ok := maps[h]; ok {
			h = m
		}
		fields[i] = strings.ToLower(h)
		if fields[i] == "email" {
			emailCol = i
		}
		if groupCol != "" && fields[i] == groupCol && groupAt < 0 {
			groupAt = i
		}
	}
	if emailCol < 0 {
		return nil, nil, cli.UsageErrorf("--from %s: no email column (the header is %s): name it email, or pass --map COLUMN=email; nothing was sent", name, strings.Join(header, ","))
	}
	if groupCol != "" && groupAt < 0 {
		return nil, nil, cli.UsageErrorf("--group-column %s: the file has no such column (the header is %s); nothing was sent", groupCol, strings.Join(header, ","))
	}
	var groups []hrGroup
	k := orgcode.KindNamed("users")
	files := &orgcode.Files{Dir: name, Docs: map[string][]*orgcode.Doc{}, Kinds: map[string]bool{"users": true}}
	seen := map[string]int{}
	line := 1
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		line++
		if err != nil {
			return nil, nil, cli.UsageErrorf("--from %s: %v; nothing was sent", name, err)
		}
		if emailCol >= len(rec) || strings.TrimSpace(rec[emailCol]) == "" {
			return nil, nil, cli.UsageErrorf("--from %s:%d: no email; nothing was sent", name, line)
		}
		email := strings.TrimSpace(rec[emailCol])
		if !strings.Contains(email, "@") {
			return nil, nil, cli.UsageErrorf("--from %s:%d: %q is not an email; nothing was sent", name, line, email)
		}
		if at, dup := seen[strings.ToLower(email)]; dup {
			return nil, nil, cli.UsageErrorf("--from %s:%d: %s is on line %d too; nothing was sent", name, line, email, at)
		}
		seen[strings.ToLower(email)] = line
		d := &orgcode.Doc{Kind: k, Key: email, Fields: map[string]any{}, File: name, Line: line}
		attrs := map[string]any{}
		for i, v := range rec {
			if i == emailCol || i == groupAt || i >= len(fields) || fields[i] == "" {
				continue
			}
			v = strings.TrimSpace(v)
			switch fields[i] {
			case "first_name", "last_name":
				if v != "" {
					d.Fields[fields[i]] = v
				}
			default:
				attrs[fields[i]] = v
			}
		}
		if len(attrs) > 0 {
			d.Fields["attributes"] = attrs
		}
		files.Docs["users"] = append(files.Docs["users"], d)
		if groupAt >= 0 {
			g := hrGroup{email: email, line: line}
			if groupAt < len(rec) {
				g.value = strings.TrimSpace(rec[groupAt])
			}
			groups = append(groups, g)
		}
	}
	return files, groups, nil
}

// keepAdminsAndAttributes makes the file say what sync leaves as it is:
// the admins it lacks stay (the token's own user is one, and an HR export
// is no place to remove an admin), and the attributes it has no column
// for are kept. It answers how many active admins the file lacked.
func keepAdminsAndAttributes(files *orgcode.Files, live *orgcode.Live, from string) (kept int) {
	inFile := map[string]*orgcode.Doc{}
	for _, d := range files.Docs["users"] {
		inFile[strings.ToLower(d.Key)] = d
	}
	for _, ld := range live.Docs["users"] {
		d := inFile[strings.ToLower(ld.Key)]
		if d == nil {
			if ld.Fields["admin"] == true {
				files.Docs["users"] = append(files.Docs["users"], &orgcode.Doc{Kind: ld.Kind, Key: ld.Key, Fields: map[string]any{}, File: from})
				if !ld.Inactive {
					kept++
				}
			}
			continue
		}
		if a, ok := d.Fields["attributes"].(map[string]any); ok {
			merged := map[string]any{}
			if la, ok := ld.Fields["attributes"].(map[string]any); ok {
				maps.Copy(merged, la)
			}
			maps.Copy(merged, a)
			d.Fields["attributes"] = merged
		}
	}
	return kept
}

func syncRun(ctx context.Context, o *SyncOptions) error {
	f := o.Factory
	groupCol := strings.ToLower(strings.TrimSpace(o.GroupColumn))
	switch groupCol {
	case "email", "first_name", "last_name":
		return cli.UsageErrorf("--group-column %s: that column names the user; give the column that names their group (department...)", o.GroupColumn)
	}
	files, groupRows, err := readHRFile(o.From, o.Map, groupCol)
	if err != nil {
		return err
	}
	if err := refuseBuiltinGroups(groupRows, o.From, groupCol); err != nil {
		return err
	}
	only := []string{"users"}
	if docs := placeholderGroups(groupRows); len(docs) > 0 {
		files.Docs["groups"] = docs
		only = append(only, "groups")
	}
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	p, markdown, err := planPrinter(f, cfg)
	if err != nil {
		return err
	}
	if o.Yes && o.DryRun {
		return cli.UsageErrorf("--yes applies the plan and --dry-run sends nothing: pass one")
	}
	conn, err := f.JobConnection(ctx, 4)
	if err != nil {
		return err
	}
	r, err := orgcode.ReadingFor(files, only)
	if err != nil {
		return err
	}
	if err := orgcode.CheckFiles(files, r); err != nil {
		return &cli.UsageError{Err: fmt.Errorf("%w\n(nothing was sent)", err)}
	}
	live, err := readLive(ctx, f, conn, r, cfg.Budget)
	if err != nil {
		return err
	}
	if len(only) > 1 {
		if err := governGroups(files, live, groupRows, o.From, groupCol); err != nil {
			return err
		}
	}
	kept := keepAdminsAndAttributes(files, live, o.From)
	plan := orgcode.Diff(files, live, r, o.DisableMissing, cfg.Budget)
	if o.DisableMissing && kept > 0 && !f.Quiet() {
		f.IO.Notice("orgctl: %s the file lacks %s kept: sync never disables an admin", plural(kept, "admin", "admins"), map[bool]string{true: "is", false: "are"}[kept == 1])
	}
	if o.MaxChanges >= 0 && len(plan.Changes) > o.MaxChanges {
		writePlan(f.IO.Err, plan, cfg.Budget, false)
		return cli.UsageErrorf("the plan has %d changes, more than --max-changes %d: nothing was sent", len(plan.Changes), o.MaxChanges)
	}
	if err := savePlan(f, plan, conn.Target.BaseURL, o.From, only, o.Out); err != nil {
		return err
	}
	if o.Yes {
		return syncApply(ctx, o, conn, plan, live, cfg.Budget, groupCol)
	}
	if err := showPlan(f, p, markdown, plan, cfg.Budget); err != nil {
		return err
	}
	if o.ExitCode && !plan.Empty() {
		return &cli.ExitError{Code: cli.ExitFindings}
	}
	return nil
}

// syncApply applies the plan as a job of the HR file: a rerun of the same
// file and flags resumes it.
func syncApply(ctx context.Context, o *SyncOptions, conn *cli.Connection, plan *orgcode.Plan, live *orgcode.Live, bc ratebudget.Config, groupCol string) error {
	b, err := os.ReadFile(o.From)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	flags := []string{}
	if o.DisableMissing {
		flags = append(flags, "--disable-missing")
	}
	if groupCol != "" {
		flags = append(flags, "--group-column="+groupCol)
	}
	return runApply(ctx, o.Factory, conn, orgOptions{yes: true, parallel: 4, prune: o.DisableMissing}, bc, plan, live, applyJob{
		id: bulk.JobID("orgctl users sync", flags, conn.Target.JobTarget(), sum[:]), flags: flags, input: o.From,
		resumed: "the users, read afresh, need what is left"})
}
