package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
	"github.com/spf13/cobra"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// bulkOptions are the flags of a run over a file, beside the op's own.
type bulkOptions struct {
	from          string
	format        bulk.Format
	parallel      int
	onExists      string
	restart       bool
	report        string
	maps          []string
	ignoreUnknown bool
	skipInvalid   bool
	failed        string
	encoding      encoding.Encoding // nil: UTF-8
	delimiter     rune              // 0: read from the header row
}

// encodings are what --encoding reads besides UTF-8: the encodings
// spreadsheets export in (Excel's "CSV" is Windows-1252 on Western
// Windows, its "Unicode text" UTF-16 with a byte-order mark).
var encodings = map[string]encoding.Encoding{
	"windows-1252": charmap.Windows1252,
	"cp1252":       charmap.Windows1252,
	"latin1":       charmap.ISO8859_1,
	"iso-8859-1":   charmap.ISO8859_1,
	"utf-16":       unicode.UTF16(unicode.LittleEndian, unicode.UseBOM),
}

const (
	defaultParallel = 8
	MaxParallel     = 64
	// maxProblems bounds the problems listed; the rest are counted.
	maxProblems = 100
)

var onExistsModes = []string{"fail", "skip", "update"}

// bulkOnly are the flags that mean something only with --from.
var bulkOnly = []string{"encoding", "delimiter", "from-format", "parallel", "restart", "report", "on-exists", "map", "ignore-unknown", "skip-invalid", "failed"}

// fileFlagUsage words the file options for one kind of command: what
// --from does, what --map reads, what --skip-invalid does with valid rows.
type fileFlagUsage struct{ from, mapTo, ignore, valid string }

var declaredFileFlags = fileFlagUsage{
	from:   "run the command once per row of `FILE`: CSV with a header row naming flags or arguments, or JSON Lines (- for stdin)",
	mapTo:  "read the file's `COLUMN=FLAG` as that flag or argument (metadata.KEY: one metadata key; repeatable)",
	ignore: "leave out columns that name no flag (they are named on stderr)",
	valid:  "send the valid rows",
}

// addFileFlags gives a command --from and the options that say how to
// read its file, the same for every command that reads one.
func addFileFlags(c *cobra.Command, u fileFlagUsage) {
	fl := c.Flags()
	fl.String("from", "", u.from)
	fl.String("from-format", "", "format of --from: csv or jsonl (default: by the file's extension, else csv)")
	fl.String("encoding", "utf-8", "with --from, the file's `ENCODING`: utf-8, windows-1252, latin1 or utf-16")
	fl.String("delimiter", "", "with --from, the CSV's `SEPARATOR`: comma, semicolon or tab (default: read from the header row)")
	fl.StringArray("map", nil, "with --from, "+u.mapTo)
	fl.Bool("ignore-unknown", false, "with --from, "+u.ignore)
	fl.Bool("skip-invalid", false, "with --from, "+u.valid+" and report the invalid ones as failed (exit 1), instead of refusing the file")
	fl.String("failed", "", "with --from, write the failed and invalid rows to `FILE`, in the input's columns plus a reason, to fix and rerun")
	for name, values := range map[string][]string{"encoding": {"utf-8", "windows-1252", "latin1", "utf-16"},
		"delimiter": {"comma", "semicolon", "tab"}, "from-format": bulk.Formats} {
		c.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return values, cobra.ShellCompDirectiveNoFileComp
		})
	}
}

// fileOptions reads what addFileFlags added, once --from is given.
func fileOptions(c *cobra.Command) (o bulkOptions, err error) {
	fl := c.Flags()
	o.from, _ = fl.GetString("from")
	o.maps, _ = fl.GetStringArray("map")
	o.ignoreUnknown, _ = fl.GetBool("ignore-unknown")
	o.skipInvalid, _ = fl.GetBool("skip-invalid")
	o.failed, _ = fl.GetString("failed")
	if strings.TrimSpace(o.from) == "" {
		return o, cli.UsageErrorf("--from needs a file name, or - for stdin")
	}
	if enc, _ := fl.GetString("encoding"); !strings.EqualFold(enc, "utf-8") && !strings.EqualFold(enc, "utf8") {
		if o.encoding = encodings[strings.ToLower(enc)]; o.encoding == nil {
			return o, cli.UsageErrorf("invalid --encoding %q: use utf-8, windows-1252, latin1 or utf-16", enc)
		}
	}
	if d, _ := fl.GetString("delimiter"); fl.Changed("delimiter") {
		if o.delimiter, err = ParseDelimiter(d); err != nil {
			return o, err
		}
	}
	o.format = bulk.FormatOf(o.from)
	if format, _ := fl.GetString("from-format"); format != "" {
		if o.format, err = bulk.ParseFormat(format); err != nil {
			return o, &cli.UsageError{Err: err}
		}
	}
	return o, nil
}

// fileOnly refuses a file option given without --from.
func fileOnly(c *cobra.Command, names []string) error {
	for _, n := range names {
		if f := c.Flags().Lookup(n); f != nil && f.Changed {
			return cli.UsageErrorf("--%s goes with --from FILE", n)
		}
	}
	return nil
}

// addBulkFlags gives a write command its --from flags.
func addBulkFlags(op *Op, c *cobra.Command) {
	addFileFlags(c, declaredFileFlags)
	fl := c.Flags()
	fl.Int("parallel", defaultParallel, "with --from, rows in flight at once (the rate budget still paces every request)")
	fl.Bool("restart", false, "with --from, forget what earlier runs of the same job recorded and start over")
	fl.String("report", "", "with --from, also write each row's result to `FILE` as CSV")
	if op.Exists != nil {
		fl.String("on-exists", "fail", "with --from, a row whose object already exists: fail (report it), skip, or update it")
		c.RegisterFlagCompletionFunc("on-exists", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return onExistsModes, cobra.ShellCompDirectiveNoFileComp
		})
	}
}

func fromFile(c *cobra.Command) bool {
	f := c.Flags().Lookup("from")
	return f != nil && f.Changed
}

// bulkFlags reads the --from flags; ok is false when there is no --from.
func bulkFlags(op *Op, c *cobra.Command) (o bulkOptions, ok bool, err error) {
	fl := c.Flags()
	if !fromFile(c) {
		return o, false, fileOnly(c, bulkOnly)
	}
	if o, err = fileOptions(c); err != nil {
		return o, true, err
	}
	o.parallel, _ = fl.GetInt("parallel")
	o.restart, _ = fl.GetBool("restart")
	o.report, _ = fl.GetString("report")
	o.onExists = "fail"
	if op.Exists != nil {
		o.onExists, _ = fl.GetString("on-exists")
	}
	switch {
	case o.parallel < 1 || o.parallel > MaxParallel:
		return o, true, cli.UsageErrorf("invalid --parallel %d: give 1 to %d", o.parallel, MaxParallel)
	case !slices.Contains(onExistsModes, o.onExists):
		return o, true, cli.UsageErrorf("invalid --on-exists %q: use fail, skip or update", o.onExists)
	case fl.Changed("body"):
		return o, true, cli.UsageErrorf("--body and --from cannot be used together: put the fields in the file's columns")
	}
	if op.Exists != nil && op.Exists.Check == nil && o.onExists == "update" && op.Sibling(op.Exists.Update) == nil {
		return o, true, cli.UsageErrorf("%s cannot update an existing object (the API has no such change): use --on-exists skip or fail", c.CommandPath())
	}
	return o, true, nil
}

// ParseDelimiter reads --delimiter: a name or the character itself.
func ParseDelimiter(s string) (rune, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case ",", "comma":
		return ',', nil
	case ";", "semicolon":
		return ';', nil
	case "tab", `\t`, "\t":
		return '\t', nil
	}
	if s == "\t" {
		return '\t', nil
	}
	return 0, cli.UsageErrorf("invalid --delimiter %q: use comma, semicolon or tab", s)
}

// bulkColumnsExample names a few of an op's columns for its help.
func bulkColumnsExample(op *Op) string {
	var names []string
	for i, a := range argNames(op.Use) {
		if op.ArgKind(i) == "users" {
			a = userColumn
		}
		names = append(names, strings.ReplaceAll(strings.ToLower(a), "_", "-"))
	}
	for _, fd := range op.Fields {
		if len(names) < 3 && (fd.Required || len(names) == 0) {
			names = append(names, fd.Flag)
		}
	}
	if len(names) == 0 && len(op.Fields) > 0 {
		names = append(names, op.Fields[0].Flag)
	}
	return strings.Join(names, ",")
}

// hasUserColumn: a file for op names a user (an argument or a --user).
func hasUserColumn(op *Op) bool {
	for i := range op.Args {
		if op.ArgKind(i) == "users" {
			return true
		}
	}
	return op.HasField(userColumn)
}

// Sender is all a --from job asks of the engine that runs one command:
// the rest (the printer, the settings) it is handed as values.
type Sender interface {
	// Through sends every later request, name lookups included, through
	// cl (the job's connection, whose pacer stops waiting when the job is
	// interrupted), and hands over the callback that tells the caches of a
	// change: the job calls it itself, not once per row.
	Through(cl *client.Client) (onChange func(family string))
	// Resolver looks names up as every command does.
	Resolver() (*resolve.Resolver, error)
	// Send sends one built call: its reads, the request, its follow-ups.
	// mainCtx is the main request's own context, so the job hears when
	// that request gets its budget (bulk.WithLeaving).
	Send(ctx, mainCtx context.Context, c *Call) (*client.Response, error)
}

// jobSpec is what the command line asked of a --from job: the op, its
// flags and arguments, the file options. Every part of the job reads it;
// none changes it.
type jobSpec struct {
	op   *Op
	upd  *Op // what --on-exists update runs
	cmd  *cobra.Command
	o    bulkOptions
	ro   RunOptions
	base Input // the command line: its flags apply to every row
}

// bulkJob is one run of an op over the rows of a file, in parts that each
// do one thing: in reads the file, checked is what the check pass learned
// of it (and what the dry run prints), runner sends each row (the job's
// bulk.Handler), out reports the results; carry-over from an edited
// file's earlier job is in bulk_carry.go. bulk.Run drives the rows and
// tells the job (its bulk.Observer) what happens.
type bulkJob struct {
	*jobSpec
	f       *cli.Factory
	send    Sender
	printer *output.Printer
	quiet   bool
	store   bulk.Store

	in      *fileInput
	checked *checkPass
	runner  *rowRunner
	out     *jobOutput
	halt    *jobStop
	conn    *cli.Connection
}

// jobStop ends a job for an error every other row would meet too.
type jobStop struct {
	fatal  atomic.Pointer[error]
	cancel context.CancelCauseFunc
}

// fail stops the job with err, unless an earlier error did.
func (s *jobStop) fail(err error) {
	if s.fatal.CompareAndSwap(nil, &err) {
		s.cancel(err)
	}
}

// err is the error that stopped the job, or nil.
func (s *jobStop) err() error {
	if p := s.fatal.Load(); p != nil {
		return *p
	}
	return nil
}

// newBulkJob reads the command line's part of a job over a file: its
// columns and its input (stdin spooled), not yet checked.
func newBulkJob(f *cli.Factory, e *Engine, op *Op, c *cobra.Command, base Input, ro RunOptions, o bulkOptions) (*bulkJob, error) {
	spec := &jobSpec{op: op, cmd: c, o: o, ro: ro, base: base}
	if op.Exists != nil && op.Exists.Check == nil && o.onExists == "update" {
		spec.upd = op.Sibling(op.Exists.Update)
	}
	j := &bulkJob{jobSpec: spec, f: f, send: e, printer: e.Printer, quiet: e.quiet(),
		store: bulk.Store{Dir: filepath.Join(settings.StateDir(), "jobs")}}
	j.in = &fileInput{jobSpec: spec, cols: newBulkColumns(op, len(base.Args))}
	if err := j.in.cols.mapColumns(o.maps); err != nil {
		return nil, err
	}
	if err := j.in.openSource(f.IO, j.store); err != nil {
		return nil, err
	}
	j.checked = &checkPass{fileInput: j.in, bc: e.cfg.Budget}
	return j, nil
}

// runBulk is a command's run with --from: check every row, then run them.
func runBulk(ctx context.Context, f *cli.Factory, op *Op, c *cobra.Command, args []string, o bulkOptions) error {
	base, ro := parseFlags(op, c, args)
	e, err := New(f)
	if err != nil {
		return err
	}
	j, err := newBulkJob(f, e, op, c, base, ro, o)
	if err != nil {
		return err
	}
	defer j.in.close()
	if err := j.checked.check(f.IO.Err); err != nil {
		return err
	}
	j.in.noteIgnored(f.IO, j.quiet)
	if ro.DryRun {
		return j.dryRun()
	}
	return j.run(ctx)
}

// run is the second pass: the rows run as one job (bulk.Run), whose
// journal records them; results go to stdout as they come.
func (j *bulkJob) run(parent context.Context) error {
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	j.halt = &jobStop{cancel: cancel}
	conn, err := j.f.JobConnection(ctx, j.o.parallel)
	if err != nil {
		return err
	}
	j.conn = conn
	// Every request of the job, lookups included, goes through the job's
	// connection; the caches hear of changes from the output, not per row.
	onChange := j.send.Through(conn.Client)
	id := j.jobID(conn.Target.BaseURL)
	if j.runner, err = newRowRunner(j.in, j.checked, j.send, j.halt, conn.Client); err != nil {
		return err
	}
	rows, err := j.in.rowSource(j.checked.invalid)
	if err != nil {
		return err
	}
	defer rows.close()
	j.out = newJobOutput(j.in, j.f.IO, j.printer, j.quiet, j.halt, onChange, j.checked)
	carry, err := j.carry(id, conn.Target.BaseURL)
	if err != nil {
		return err
	}
	sum, err := bulk.Run(ctx, bulk.Job{
		Store: j.store,
		Header: bulk.Header{ID: id, Command: j.cmd.CommandPath(), Args: j.base.Args, Flags: j.idFlags(),
			Input: j.in.src.name, Path: j.in.inputPath(), Format: j.o.format, Rows: j.checked.rows, Target: conn.Target.BaseURL, Created: time.Now().UTC()},
		Carry:    carry,
		Resume:   true,
		Restart:  j.o.restart,
		Parallel: j.o.parallel,
		Handler:  j.runner,
		Phases:   []bulk.Source{rows},
		Observer: &jobObserver{j: j, id: id},
	})
	j.out.close()
	var busy *bulk.BusyError
	var damaged *bulk.JournalError
	switch {
	case errors.As(err, &busy):
		return fmt.Errorf("job %s (this command on this input) is running in another process; wait for it, or see `orgctl jobs show %s`", id, id)
	case errors.As(err, &damaged):
		return fmt.Errorf("%w; `orgctl jobs rm %s` forgets it", err, id)
	}
	if onChange != nil && sum.Changed() {
		onChange(ratebudget.Family(j.op.Path))
	}
	if err != nil {
		return err
	}
	if sum.JournalErr != nil {
		return j.out.journalFailed(id, sum)
	}
	if err := j.halt.err(); err != nil {
		j.out.summary(id, sum, true)
		return err
	}
	j.out.summary(id, sum, sum.Stopped)
	if j.checked.joinable && !sum.Stopped {
		j.runner.requeueEarlier(ctx, j.out.earlierIDs)
		if err := j.sendJoins(ctx); err != nil {
			return err
		}
	}
	return cli.JobExit(sum)
}

// jobObserver is what the job hears of its run from bulk.Run.
type jobObserver struct {
	j  *bulkJob
	id string
}

// Ready is the job's last step before its rows: keep stdin with the job,
// confirm, say what an earlier run left, and open --report and --failed.
func (o *jobObserver) Ready(prior *bulk.State) error {
	j, id := o.j, o.id
	if j.in.src.spooled {
		kept, err := j.store.Keep(j.in.src.path, id)
		if err != nil {
			return fmt.Errorf("keeping stdin for job %s: %w", id, err)
		}
		j.in.src.path, j.in.src.spooled = kept, false
	}
	if j.op.Destructive && !j.ro.Yes {
		if err := j.confirm(); err != nil {
			return err
		}
	}
	if note := prior.DamageNote(); note != "" {
		j.f.IO.Warn("job %s: %s", id, note)
	}
	if prior != nil && !j.quiet {
		c := prior.Counts()
		applied := c["created"] + c["updated"] + c["deleted"] + c["skipped"]
		j.f.IO.Notice("orgctl: resuming job %s: %d of %s applied by earlier runs, %d to settle by a lookup",
			id, applied, countOf(j.checked.rows, "row"), c["unknown"])
	}
	return j.out.open()
}

func (o *jobObserver) Result(r bulk.Result) { o.j.out.result(r) }

// Abort ends the job's waits for budget: its journal cannot be written.
func (o *jobObserver) Abort(err error) { o.j.halt.cancel(err) }

func (o *jobObserver) Started(progress bulk.Progress) func() {
	j := o.j
	prog := j.f.JobProgress(j.conn, "", j.checked.rows, j.checked.points, j.checked.rowRequests(), progress)
	if prog == nil {
		return func() {}
	}
	if j.f.IO.ErrTTY && j.f.IO.OutTTY {
		j.out.records.Around = prog.Pause
	}
	prog.Start()
	return prog.Stop
}

// confirm asks once for the whole file.
func (j *bulkJob) confirm() error {
	io := j.f.IO
	what := fmt.Sprintf("%s on the %s of %s", j.cmd.CommandPath(), nounFor(j.checked.rows, "1 row", fmt.Sprintf("%d rows", j.checked.rows)), j.in.src.name)
	if !io.InTTY || !io.ErrTTY || j.in.src.name == "stdin" {
		return cli.UsageErrorf("refusing to run `%s` without confirmation: pass --yes", what)
	}
	return cli.ConfirmOrCancel(j.f.Ask(), fmt.Sprintf("Run `%s`? This cannot be undone.", what))
}
