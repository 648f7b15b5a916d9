package access

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/atomicfile"
	"github.com/orgctl/orgctl/output/redact"
	"github.com/orgctl/orgctl/ratebudget"
)

// columnsOf is how a table shows fields.
func columnsOf(fs []access.ReportColumn) []output.Column {
	out := make([]output.Column, len(fs))
	for i, f := range fs {
		out[i] = output.Column{Header: f.Header, Field: f.Key}
		switch f.Key {
		case "user":
			out[i].Key = true // the row is about this user: shown whole, as lists show theirs
		case "via", "via_before", "via_after":
			out[i].Shorten = access.ShortVia
		case "admin":
			out[i].Optional = true // repeated on each of a user's rows: the first to go
		}
	}
	return out
}

// ReportOptions are one access report, parsed and checked.
type ReportOptions struct {
	Factory              *cli.Factory
	Since, Write, Method string
	ExitCode, DryRun     bool
}

// NewCmdReport parses 'permissions report' into ReportOptions and hands
// them to runF (reportRun when nil).
func NewCmdReport(f *cli.Factory, runF func(*ReportOptions) error) *cobra.Command {
	o := &ReportOptions{Factory: f}
	c := &cobra.Command{
		Use:   "report",
		Short: "Report the whole org's effective access: one row per user and object",
		Long: `One row per user and object the user can reach: USER, ACTIVE, ADMIN, OBJECT TYPE,
OBJECT (name, or path for folders), LEVEL (effective) and VIA (direct; universal
through GROUP; member of GROUP; inherited from FOLDER PATH). Every user is in
it, disabled ones too (ACTIVE false); a user who reaches nothing has one row
with LEVEL none. Objects: folders, apps, resources and workflows. Folders
include each type's root (app:/, resource:/, workflow:/), which universal
access reaches and which can be granted directly; personal folders
(personalRoot, app:~/, with each user's Drafts and Trash) are left out: they
belong to one user and are not shared.

The API allows two ways to read it; the report picks the cheaper for this org
and says what both cost, and the wait, before it starts (--dry-run stops there):
  access-lists  one GET /permissions/accessList per object
  list-objects  per type, one POST /permissions/listObjects per user (effective
                and direct) and per group, plus one access list per workflow
                and per root folder
Both cost 10 points a request; the lists that name users, groups and objects
come first (a few points). --method forces one.

The reads run as a job: progress on stderr, and a run stopped by Ctrl-C or a
kill goes on from what it already read when run again with the same command
(see 'orgctl jobs list'), and states the cost of the reads left. A finished
run forgets its reads.

-o csv writes RFC 4180 CSV with a header row, cells a spreadsheet would read as
a formula made inert (a leading '), for auditors. --since PREVIOUS.csv reads an
earlier report and prints what changed instead: granted, revoked, level changed,
via changed (the same level another way: a direct grant revoked that a group
still covers), new admin, disabled; --write FILE keeps this run's report as CSV at the same
time, and --exit-code exits 7 when anything changed.

With --profiles, -o csv and --write FILE keep one file of every Space's report,
each row led by a PROFILE column, and --since compares each Space with the rows
of its PROFILE only (a Space the file lacks is refused, exit 2). A report without
a PROFILE column is one Space's: --since refuses it across several profiles,
since its ORG column cannot tell Spaces that share a base URL apart; compare it
with --profile NAME. --write is written once every Space's report is read, and
left as it was when one failed.`,
		Example: `  orgctl permissions report -o csv > access-2026-q3.csv
  orgctl permissions report --dry-run
  orgctl permissions report --since access-2026-q2.csv --write access-2026-q3.csv --exit-code`,
		Args: cli.NoArgsGroup,
		RunE: func(c *cobra.Command, _ []string) error {
			switch o.Method {
			case "auto", "access-lists", "list-objects":
			default:
				return cli.UsageErrorf("invalid --method %q: allowed values are auto, access-lists, list-objects", o.Method)
			}
			if o.ExitCode && o.Since == "" {
				return cli.UsageErrorf("--exit-code needs --since PREVIOUS.csv: it says whether anything changed since then")
			}
			if o.Write != "" && o.Since == "" {
				return cli.UsageErrorf("--write goes with --since (without it, -o csv prints the report: redirect it to a file)")
			}
			if runF != nil {
				return runF(o)
			}
			return reportRun(c.Context(), o)
		},
	}
	engine.Describe(c, engine.Facts{Method: http.MethodGet, Path: "/permissions/accessList/{objectType}/{objectId}", Scope: "Permissions > Read",
		Also: []string{"Users > Read", "Groups > Read", "Folders > Read", "Apps > Read", "Resources > Read", "Workflows > Read"},
		Requests: `the lists of users, groups, folders, apps, resources and workflows,
then the access reads of the method chosen (above); --dry-run prints their
number and cost for this org.`})
	fl := c.Flags()
	fl.StringVar(&o.Since, "since", "", "print the changes since this earlier report (`PREVIOUS.csv`)")
	fl.StringVar(&o.Write, "write", "", "with --since: also write this run's report as CSV to `FILE`")
	fl.BoolVar(&o.ExitCode, "exit-code", false, "with --since: exit 7 when anything changed")
	fl.BoolVar(&o.DryRun, "dry-run", false, "say what the report would read and cost, and stop")
	fl.StringVar(&o.Method, "method", "auto", "how to read: auto (the cheaper), access-lists or list-objects")
	engine.AcrossProfiles(c, engine.ProfilesRead)
	c.Annotations[engine.ProfilesSinceAnnotation] = "since"
	c.Annotations[engine.ProfilesWriteAnnotation] = "write"
	return c
}

// reportRun reads the org's names, picks the cheaper way to read its
// access, reads it as a job, and prints the report or what changed since
// an earlier one.
func reportRun(ctx context.Context, o *ReportOptions) error {
	f := o.Factory
	var prev []access.Row
	if o.Since != "" {
		var err error
		if prev, err = access.ReadCSV(o.Since); err != nil {
			return &cli.UsageError{Err: err}
		}
	}
	cfg, p, err := cli.PrinterFor(f)
	if err != nil {
		return err
	}
	if o.Since != "" {
		// a report of several Spaces: this one's rows only
		if prev, err = access.OfProfile(o.Since, prev, cfg.Profile); err != nil {
			return &cli.UsageError{Err: err}
		}
	}
	conn, err := f.JobConnection(ctx, 1)
	if err != nil {
		return err
	}
	bc := cfg.Budget
	org := access.NewOrg(conn.Client)
	org.Prices = bc
	if err := org.Load(ctx, "Permissions > Read", access.ReportTypes...); err != nil {
		return err
	}

	reads, method, id, points := reportReads(f, conn, org, o)
	if o.DryRun {
		return nil
	}
	job := &readJob{command: reportCommand, reqs: reads, points: points, conn: conn, f: f}
	answers, err := job.run(ctx, id, []string{"--method", method})
	if err != nil {
		return err
	}
	rows, err := org.Rows(reads, answers)
	if err != nil {
		return err
	}
	// the auditor's CSV says when, of which org and by which orgctl
	prov := &access.Provenance{At: time.Now(), Org: redact.URL(conn.Target.BaseURL), Version: f.Version()}
	if o.Since == "" {
		return printReport(p, rows, access.ReportFields, prov)
	}
	return printChanges(f, p, o, prev, rows, prov)
}

const reportCommand = "orgctl permissions report"

// reportReads are the reads of the cheaper way (or of --method) to read
// the org's access, their method, the id of their job and their price; it
// says what both ways cost, and what is left to read and its wait: a run
// that goes on from an earlier one's reads sends only the rest.
func reportReads(f *cli.Factory, conn *cli.Connection, org *access.Org, o *ReportOptions) ([]access.Read, string, string, int) {
	bc := org.Prices
	byLists, byObjects := org.AccessListReads(access.ReportTypes), org.ListObjectsReads()
	cost := func(reads []access.Read) (points int) {
		for _, r := range reads {
			points += bc.Cost(r.Req.Path)
		}
		return points
	}
	listsPoints, objectsPoints := cost(byLists), cost(byObjects)
	reads, method, points := byLists, "access-lists", listsPoints
	if o.Method == "list-objects" || (o.Method == "auto" && objectsPoints < listsPoints) {
		reads, method, points = byObjects, "list-objects", objectsPoints
	}
	id := bulk.JobID(reportCommand, []string{method}, conn.Target.JobTarget(), jobSum(reads))
	nObjects := 0
	for _, t := range access.ReportTypes {
		nObjects += len(org.Objects[t])
	}
	var now *ratebudget.Status
	if st, err := conn.Ledger.Status(); err == nil {
		now = &st
	}
	if !f.Quiet() || o.DryRun {
		f.IO.Notice("permissions report: %d users, %d groups, %d objects; read so far: %s", len(org.Users), len(org.Groups), nObjects, ratebudget.Tally(org.Reqs, org.Points))
		f.IO.Notice("  access-lists: %s; list-objects: %s", ratebudget.Tally(len(byLists), listsPoints), ratebudget.Tally(len(byObjects), objectsPoints))
		if left := readsLeft(id, reads); len(left) < len(reads) {
			f.IO.Notice("reading by %s: %d of %d reads left from an earlier run (job %s): %s", method, len(left), len(reads), id, bc.CostSentence(len(left), cost(left), now))
		} else {
			f.IO.Notice("reading by %s: %s", method, bc.CostSentence(len(reads), points, now))
		}
	}
	return reads, method, id, points
}

// readsLeft are the reads of job id that an earlier, unfinished run has not
// done (all of them when no such run is kept): what the job will send.
func readsLeft(id string, reads []access.Read) []access.Read {
	st, err := bulk.Load(cli.JobStore().JournalPath(id))
	if err != nil || st.Ended {
		return reads
	}
	var left []access.Read
	for i, r := range reads {
		if row := st.Row(i + 1); row.Status != bulk.Done {
			left = append(left, r)
		}
	}
	return left
}

// printChanges writes this run's report with --write and prints what
// changed since the earlier one (exit 7 with --exit-code when anything did).
func printChanges(f *cli.Factory, p *output.Printer, o *ReportOptions, prev, rows []access.Row, prov *access.Provenance) error {
	if o.Write != "" {
		// replaced whole or not at all: --write may name the --since file
		fields, stamped := prov.Stamp(access.ReportFields, rows)
		if err := atomicfile.WriteFunc(o.Write, 0o644, func(w io.Writer) error { return access.WriteCSV(w, fields, stamped) }); err != nil {
			return err
		}
	}
	changes := access.Changes(prev, rows)
	if len(changes) == 0 {
		if !f.Quiet() {
			f.IO.Notice("no change since %s", o.Since)
		}
		return nil
	}
	if err := printReport(p, changes, access.ChangeFields, prov); err != nil {
		return err
	}
	if o.ExitCode {
		return &cli.ExitError{Code: cli.ExitFindings}
	}
	return nil
}

func printRows(p *output.Printer, rows []access.Row, fields []access.ReportColumn) error {
	return printReport(p, rows, fields, nil)
}

// printReport is printRows with CSV that says where it came from (prov,
// when not nil).
func printReport(p *output.Printer, rows []access.Row, fields []access.ReportColumn, prov *access.Provenance) error {
	if p.Opts.Format == "csv" {
		if prov != nil {
			fields, rows = prov.Stamp(fields, rows)
		}
		return access.WriteTable(p.TableWriter(p.IO.Out), fields, output.MarksOf(columnsOf(fields)), rows)
	}
	if rows == nil {
		rows = []access.Row{}
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	cols := columnsOf(fields)
	if p.IO.OutTTY && len(p.Opts.Columns) == 0 && (p.Opts.Format == "" || p.Opts.Format == "table") && sameFields(fields, access.ChangeFields) {
		cols = changeColumnsOnTerminal()
	}
	return p.Print(b, cols)
}

func sameFields(a, b []access.ReportColumn) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// changeColumnsOnTerminal are the changes as a terminal shows them: the
// object whole (its type before it, unless its path says it), the level
// as "before→after" and the way it is reached now (what it was when
// revoked), so that at 80 columns the user, the object and the new level
// keep their values; the way (the widest) goes first. Piped and CSV output keep a column for each field.
func changeColumnsOnTerminal() []output.Column {
	arrow := func(before, after string) string {
		switch {
		case before == "" || before == after:
			return after
		case after == "":
			return before + "→none"
		}
		return before + "→" + after
	}
	text := func(rec map[string]any, k string) string { s, _ := rec[k].(string); return s }
	return []output.Column{
		{Header: "CHANGE", Field: "change", Shorten: func(s string, width int) string {
			first, _, _ := strings.Cut(s, " ") // "level changed" -> "level"
			return first
		}},
		{Header: "USER", Field: "user", Key: true},
		{Header: "OBJECT", Key: true, Value: func(rec map[string]any) string {
			obj, typ := text(rec, "object"), text(rec, "object_type")
			if typ == "" || typ == "folder" || obj == "" {
				return obj // a folder's path names its type (app:/Finance)
			}
			return typ + " " + obj
		}},
		{Header: "LEVEL", Value: func(rec map[string]any) string {
			if text(rec, "level_before") == "" && text(rec, "level_after") == "" {
				return ""
			}
			return arrow(text(rec, "level_before"), text(rec, "level_after"))
		}},
		{Header: "VIA", Optional: true, Shorten: access.ShortVia, Value: func(rec map[string]any) string {
			if after := text(rec, "via_after"); after != "" {
				return after // the way it is reached now; piped output has both
			}
			return text(rec, "via_before")
		}},
	}
}
