package families

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/redact"
	"github.com/orgctl/orgctl/ratebudget"
)

// reportColumns and changeColumns print access.ReportFields and
// access.ChangeFields.
var reportColumns, changeColumns = columnsOf(access.ReportFields), columnsOf(access.ChangeFields)

func columnsOf(fs []access.Field) []output.Column {
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

type reportOptions struct {
	since, write, method string
	exitCode, dryRun     bool
}

func newReportCmd(f *cli.Factory) *cobra.Command {
	var o reportOptions
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
(see 'orgctl jobs list'). A finished run forgets its reads.

-o csv writes RFC 4180 CSV with a header row, cells a spreadsheet would read as
a formula made inert (a leading '), for auditors. --since PREVIOUS.csv reads an
earlier report and prints what changed instead: granted, revoked, level changed,
via changed (the same level another way: a direct grant revoked that a group
still covers), new admin, disabled; --write FILE keeps this run's report as CSV at the same
time, and --exit-code exits 7 when anything changed.`,
		Example: `  orgctl permissions report -o csv > access-2026-q3.csv
  orgctl permissions report --dry-run
  orgctl permissions report --since access-2026-q2.csv --write access-2026-q3.csv --exit-code`,
		Args:        cli.NoArgsGroup,
		Annotations: map[string]string{"scope": "Permissions > Read", "method": http.MethodGet, "path": "/permissions/accessList/{objectType}/{objectId}", "cost": "10"},
		RunE: func(c *cobra.Command, _ []string) error {
			switch o.method {
			case "auto", "access-lists", "list-objects":
			default:
				return cli.UsageErrorf("invalid --method %q: allowed values are auto, access-lists, list-objects", o.method)
			}
			if o.exitCode && o.since == "" {
				return cli.UsageErrorf("--exit-code needs --since PREVIOUS.csv: it says whether anything changed since then")
			}
			if o.write != "" && o.since == "" {
				return cli.UsageErrorf("--write goes with --since (without it, -o csv prints the report: redirect it to a file)")
			}
			return reportRun(c.Context(), f, o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.since, "since", "", "print the changes since this earlier report (`PREVIOUS.csv`)")
	fl.StringVar(&o.write, "write", "", "with --since: also write this run's report as CSV to `FILE`")
	fl.BoolVar(&o.exitCode, "exit-code", false, "with --since: exit 7 when anything changed")
	fl.BoolVar(&o.dryRun, "dry-run", false, "say what the report would read and cost, and stop")
	fl.StringVar(&o.method, "method", "auto", "how to read: auto (the cheaper), access-lists or list-objects")
	engine.AcrossProfiles(c, engine.ProfilesRead)
	return c
}

func reportRun(parent context.Context, f *cli.Factory, o reportOptions) error {
	var prev []access.Row
	if o.since != "" {
		var err error
		if prev, err = access.ReadCSV(o.since); err != nil {
			return &cli.UsageError{Err: err}
		}
	}
	cfg, p, err := cli.PrinterFor(f)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	conn, err := f.JobConnection(ctx, 1)
	if err != nil {
		return err
	}
	bc := cfg.Budget
	org := access.NewOrg(conn.Client)
	org.Prices = bc
	if err := org.LoadUsers(ctx); err != nil {
		return err
	}
	if err := org.LoadGroups(ctx); err != nil {
		return err
	}
	if err := org.LoadObjects(ctx, access.ReportTypes...); err != nil {
		return err
	}

	byLists, byObjects := org.AccessListReads(access.ReportTypes), org.ListObjectsReads()
	cost := func(reads []access.Read) (points int) {
		for _, r := range reads {
			points += bc.Cost(r.Req.Path)
		}
		return points
	}
	reads, method := byLists, "access-lists"
	if o.method == "list-objects" || (o.method == "auto" && cost(byObjects) < cost(byLists)) {
		reads, method = byObjects, "list-objects"
	}
	points := cost(reads)
	nObjects := 0
	for _, t := range access.ReportTypes {
		nObjects += len(org.Objects[t])
	}
	var now *ratebudget.Status
	if st, err := conn.Ledger.Status(); err == nil {
		now = &st
	}
	if !f.Quiet() || o.dryRun {
		f.IO.Notice("permissions report: %d users, %d groups, %d objects; read so far: %s", len(org.Users), len(org.Groups), nObjects, ratebudget.Tally(org.Reqs, org.Points))
		f.IO.Notice("  access-lists: %s; list-objects: %s", ratebudget.Tally(len(byLists), cost(byLists)), ratebudget.Tally(len(byObjects), cost(byObjects)))
		f.IO.Notice("reading by %s: %s", method, bc.CostSentence(len(reads), points, now))
	}
	if o.dryRun {
		return nil
	}
	job := &readJob{command: "orgctl permissions report", reqs: reads, points: points, conn: conn, f: f}
	id := bulk.JobID(job.command, []string{method}, conn.Target.BaseURL, jobSum(reads))
	answers, err := job.run(ctx, id, []string{"--method", method})
	if err != nil {
		return err
	}
	rows, err := org.Rows(reads, answers)
	if err != nil {
		return err
	}
	// the auditor's CSV says when, of which org and by which orgctl
	prov := &access.Provenance{At: time.Now(), Org: redact.URL(conn.Target.BaseURL), Version: f.Version}
	if o.since == "" {
		return printReport(p, rows, access.ReportFields, prov)
	}
	if o.write != "" {
		fh, err := os.Create(o.write)
		if err != nil {
			return err
		}
		fields, stamped := prov.Stamp(access.ReportFields, rows)
		err = access.WriteCSV(fh, fields, stamped)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", o.write, err)
		}
	}
	changes := access.Changes(prev, rows)
	if len(changes) == 0 {
		if !f.Quiet() {
			f.IO.Notice("no change since %s", o.since)
		}
		return nil
	}
	if err := printReport(p, changes, access.ChangeFields, prov); err != nil {
		return err
	}
	if o.exitCode {
		return &cli.ExitError{Code: cli.ExitFindings}
	}
	return nil
}

func printRows(p *output.Printer, rows []access.Row, fields []access.Field) error {
	return printReport(p, rows, fields, nil)
}

// printReport is printRows with CSV that says where it came from (prov,
// when not nil).
func printReport(p *output.Printer, rows []access.Row, fields []access.Field, prov *access.Provenance) error {
	if p.Opts.Format == "csv" {
		if prov != nil {
			fields, rows = prov.Stamp(fields, rows)
		}
		return access.WriteCSV(p.IO.Out, fields, rows)
	}
	if rows == nil {
		rows = []access.Row{}
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	return p.Print(b, columnsOf(fields))
}
