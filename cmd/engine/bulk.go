package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
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

// reader reads the job's input, with the separator --delimiter gives.
func (j *bulkJob) reader(r io.Reader) *bulk.Reader {
	rd := bulk.NewReader(r, j.o.format)
	if j.o.delimiter != 0 {
		rd.SetDelimiter(j.o.delimiter)
	}
	return rd
}

// bulkColumnsExample names a few of an op's columns for its help.
func bulkColumnsExample(op *Op) string {
	var names []string
	for i, a := range argNames(op.Use) {
		if op.argKind(i) == "users" {
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
func (op *Op) hasUserColumn() bool {
	for i := range op.Args {
		if op.argKind(i) == "users" {
			return true
		}
	}
	return op.hasField(userColumn)
}

// Sibling is the op of the same group whose Use starts with word.
func (op *Op) Sibling(word string) *Op {
	if word == "" {
		return nil
	}
	for i := range op.Siblings {
		if w := strings.Fields(op.Siblings[i].Use); len(w) > 0 && w[0] == word {
			return &op.Siblings[i]
		}
	}
	return nil
}

// bulkJob is one run of an op over the rows of a file.
type bulkJob struct {
	// what the command line gave
	f     *cli.Factory
	e     *Engine
	op    *Op
	cmd   *cobra.Command
	o     bulkOptions
	ro    RunOptions
	base  Input // the command line: its flags apply to every row
	src   bulkSource
	cols  *bulkColumns
	upd   *Op // what --on-exists update runs
	store bulk.Store
	bc    ratebudget.Config // read once: viper is slow enough to matter per row

	bulkChecked
	bulkRunning
}

// bulkChecked is what the check pass learned of the whole file, before
// any request: the dry run prints it and the run starts from it.
type bulkChecked struct {
	ignored  sync.Map       // column -> true: unknown, left out (--ignore-unknown)
	invalid  map[int]string // row -> what is wrong with it (--skip-invalid)
	rows     int
	sum      []byte
	points   int // the rows' own requests (main, reads, follow-ups)
	requests map[string]*requestTally
	names    map[string]map[uint64]bool // resolve kind -> distinct names
	shared   map[uint64]bool            // distinct reads Existence.Check shares
	subjects map[uint64]bool            // distinct reads Existence.BySubject names
	// bySubject: every row has a BySubject read, and they are fewer
	bySubject, notBySubject bool
	batched                 map[string]int  // rows per batch (arguments), for ops whose rows share a request
	joinKeys                map[string]bool // follow-ups joined across rows, by path and object
}

// bulkRunning is what the run's workers share: the connection, the
// lookups, what the job changed, the output and the joined follow-ups.
type bulkRunning struct {
	conn   *cli.Connection
	lookup *resolve.Resolver // names, as every command resolves them; made before the workers start
	// truth answers "does it exist?" from the API itself: never from the
	// completion cache's lists, which another process may have filled
	// before this job's changes (a killed job's, say).
	truth      *resolve.Resolver
	onChange   func(family string)
	lastForget atomic.Int64
	lk         *bulkLookups
	snaps      sync.Map // resolve kind -> *kindSnapshot
	changed    sync.Map // resolve kinds this run created objects of
	replays    sync.Map // row -> true: resent because an earlier run lost its answer
	warmed     sync.Map // resolve kinds listed whole for the names of many rows
	fatal      atomic.Pointer[error]
	cancel     context.CancelCauseFunc
	out        *output.Records
	report     *output.CSVRecords
	reportFile *os.File
	outMu      sync.Mutex
	failedRows map[int]string // row -> reason, for --failed
	// follow-ups joined across rows (a group's new members)
	joinable   bool
	joinMu     sync.Mutex
	joins      joinQueue
	earlierIDs map[int]string // rows earlier runs created -> id
}

// rowRequests counts the requests the rows send (as tallied for the dry run).
func (j *bulkChecked) rowRequests() int {
	n := 0
	for _, t := range j.requests {
		n += t.n
	}
	return n
}

// ignore notes an unknown column left out by --ignore-unknown.
func (j *bulkChecked) ignore(col string) { j.ignored.Store(col, true) }

// requestTally counts one kind of request for the dry run.
type requestTally struct {
	method, path, note string
	n, cost            int
}

// bulkSource is the input file, or stdin spooled to one.
type bulkSource struct {
	name    string // as shown in messages: the path given, or "stdin"
	path    string
	spooled bool
	sum     []byte // known before reading for stdin
	enc     encoding.Encoding
	pipe    bool // not a regular file: its path names no file for a later run
}

func (s *bulkSource) open() (io.ReadCloser, error) {
	f, err := os.Open(s.path)
	if err != nil {
		return nil, cli.UsageErrorf("--from: %v", err)
	}
	if s.enc == nil {
		return f, nil
	}
	return struct {
		io.Reader
		io.Closer
	}{transform.NewReader(f, s.enc.NewDecoder()), f}, nil
}

// runBulk is a command's run with --from: check every row, then run them.
func runBulk(ctx context.Context, f *cli.Factory, op *Op, c *cobra.Command, args []string, o bulkOptions) error {
	base, ro := parseFlags(op, c, args)
	e, err := New(f)
	if err != nil {
		return err
	}
	j := &bulkJob{f: f, e: e, op: op, cmd: c, o: o, ro: ro, base: base,
		store: bulk.Store{Dir: filepath.Join(settings.StateDir(), "jobs")}, bc: e.cfg.Budget}
	if op.Exists != nil && op.Exists.Check == nil && o.onExists == "update" {
		j.upd = op.Sibling(op.Exists.Update)
	}
	j.cols = newBulkColumns(op, len(args))
	if err := j.cols.mapColumns(o.maps); err != nil {
		return err
	}
	if err := j.openSource(); err != nil {
		return err
	}
	defer func() {
		if j.src.spooled {
			os.Remove(j.src.path)
		}
	}()
	if err := j.check(); err != nil {
		return err
	}
	if ro.DryRun {
		return j.dryRun()
	}
	return j.run(ctx)
}

func (j *bulkJob) openSource() error {
	if j.o.from != "-" {
		j.src = bulkSource{name: j.o.from, path: j.o.from}
		fi, err := os.Stat(j.o.from)
		if err != nil {
			return cli.UsageErrorf("--from: %v", err)
		}
		if fi.IsDir() {
			return cli.UsageErrorf("--from %s is a directory", j.o.from)
		}
		if !fi.Mode().IsRegular() {
			// A pipe (<(...), a FIFO) can be read once: it is kept like stdin.
			f, err := os.Open(j.o.from)
			if err != nil {
				return cli.UsageErrorf("--from: %v", err)
			}
			defer f.Close()
			path, sum, err := j.store.Spool(f)
			if err != nil {
				return fmt.Errorf("reading %s: %w", j.o.from, err)
			}
			j.src = bulkSource{name: j.o.from, path: path, spooled: true, sum: sum, pipe: true}
		}
		j.src.enc = j.o.encoding
		return nil
	}
	if j.f.IO.InTTY {
		return cli.UsageErrorf("--from -: stdin is a terminal; pipe the rows in (orgctl ... --from - < people.csv)")
	}
	path, sum, err := j.store.Spool(j.f.IO.In)
	if err != nil {
		return fmt.Errorf("reading stdin: %w", err)
	}
	j.src = bulkSource{name: "stdin", path: path, spooled: true, sum: sum, enc: j.o.encoding}
	return nil
}

// resultFields are the columns of a job's results, on stdout and in --report.
var resultFields = []output.Field{
	{Name: "row", Header: "ROW", Width: 5},
	{Name: "line", Header: "LINE", Width: 6, Optional: true},
	{Name: "key", Header: "KEY", Width: 28},
	{Name: "outcome", Header: "OUTCOME", Width: 8},
	{Name: "id", Header: "ID", Width: 37, Optional: true}, // user ids are 37 characters
	{Name: "message", Header: "MESSAGE"},
}

// run is the second pass: the rows run as one job (bulk.Run), whose
// journal records them; results go to stdout as they come.
func (j *bulkJob) run(parent context.Context) error {
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	j.cancel = cancel
	conn, err := j.f.JobConnection(ctx, j.o.parallel)
	if err != nil {
		return err
	}
	j.conn = conn
	// Every request of the job, lookups included, goes through the job's
	// connection; the caches hear of changes from noteChange, not per row.
	j.e.client = conn.Client
	j.onChange, j.e.onChange = j.e.onChange, nil
	id := j.jobID(conn.Target.BaseURL)
	if j.lookup, err = j.e.resolver(); err != nil {
		return err
	}
	j.truth = resolve.New(conn.Client)
	j.lk = &bulkLookups{client: conn.Client, truth: j.truth, bySubject: j.bySubject}
	rows, err := j.rowSource()
	if err != nil {
		return err
	}
	defer rows.close()
	j.out = output.NewRecords(j.e.Printer, resultFields)
	carry, err := j.carry(id, conn.Target.BaseURL)
	if err != nil {
		return err
	}
	sum, err := bulk.Run(ctx, bulk.Job{
		Store: j.store,
		Header: bulk.Header{ID: id, Command: j.cmd.CommandPath(), Args: j.base.Args, Flags: j.idFlags(),
			Input: j.src.name, Path: j.inputPath(), Format: j.o.format, Rows: j.rows, Target: conn.Target.BaseURL, Created: time.Now().UTC()},
		Carry:    carry,
		Resume:   true,
		Restart:  j.o.restart,
		Parallel: j.o.parallel,
		Handler:  j,
		Phases:   []bulk.Source{rows},
		Observer: &jobObserver{j: j, id: id},
	})
	if j.report != nil {
		j.reportFile.Close()
	}
	if j.failedRows != nil {
		if ferr := j.writeFailed(); ferr != nil {
			j.f.IO.Warn("--failed %s: %v", j.o.failed, ferr)
		}
	}
	var busy *bulk.BusyError
	var damaged *bulk.JournalError
	switch {
	case errors.As(err, &busy):
		return fmt.Errorf("job %s (this command on this input) is running in another process; wait for it, or see `orgctl jobs show %s`", id, id)
	case errors.As(err, &damaged):
		return fmt.Errorf("%w; `orgctl jobs rm %s` forgets it", err, id)
	}
	if j.onChange != nil && sum.Changed() {
		j.onChange(ratebudget.Family(j.op.Path))
	}
	if err != nil {
		return err
	}
	if sum.JournalErr != nil {
		return j.journalFailed(id, sum)
	}
	if fp := j.fatal.Load(); fp != nil {
		j.summary(id, sum, true)
		return *fp
	}
	j.summary(id, sum, sum.Stopped)
	if j.joinable && !sum.Stopped {
		j.requeueEarlier(ctx)
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

func (o *jobObserver) Ready(prior *bulk.State) error { return o.j.ready(o.id, prior) }
func (o *jobObserver) Result(r bulk.Result)          { o.j.emit(r) }

// Abort ends the job's waits for budget: its journal cannot be written.
func (o *jobObserver) Abort(err error) { o.j.cancel(err) }

func (o *jobObserver) Started(progress bulk.Progress) func() {
	j := o.j
	prog := j.f.JobProgress(j.conn, "", j.rows, j.points, j.rowRequests(), progress)
	if prog == nil {
		return func() {}
	}
	if j.f.IO.ErrTTY && j.f.IO.OutTTY {
		j.out.Around = prog.Pause
	}
	prog.Start()
	return prog.Stop
}

// journalFailed ends a job whose journal could not be written: it stopped
// before sending more, and the rows it sent without recording their
// outcomes are named, since a rerun cannot know what became of them.
func (j *bulkJob) journalFailed(id string, sum bulk.Summary) error {
	j.summary(id, sum, true)
	msg := fmt.Sprintf("job %s stopped: its journal could not be written (%v), so nothing more was sent", id, sum.JournalErr)
	if len(sum.Unrecorded) == 0 {
		return errors.New(msg + "; every request sent is recorded")
	}
	var rows []string
	for i, r := range sum.Unrecorded {
		if i == 10 {
			rows = append(rows, fmt.Sprintf("and %d more", len(sum.Unrecorded)-i))
			break
		}
		rows = append(rows, fmt.Sprintf("line %d (%s: %s)", r.Line, r.Key, r.Outcome))
	}
	return fmt.Errorf("%s; sent but not recorded: %s (a rerun looks these up, or reports them unknown, before sending them again)",
		msg, strings.Join(rows, ", "))
}

// ready is the job's last step before its rows: keep stdin with the job,
// confirm, say what an earlier run left, and open --report.
func (j *bulkJob) ready(id string, prior *bulk.State) error {
	if j.src.spooled {
		kept, err := j.store.Keep(j.src.path, id)
		if err != nil {
			return fmt.Errorf("keeping stdin for job %s: %w", id, err)
		}
		j.src.path, j.src.spooled = kept, false
	}
	if j.op.Destructive && !j.ro.Yes {
		if err := j.confirm(); err != nil {
			return err
		}
	}
	if note := prior.DamageNote(); note != "" {
		j.f.IO.Warn("job %s: %s", id, note)
	}
	if prior != nil && !j.e.quiet() {
		c := prior.Counts()
		applied := c["created"] + c["updated"] + c["deleted"] + c["skipped"]
		j.f.IO.Notice("orgctl: resuming job %s: %d of %s applied by earlier runs, %d to settle by a lookup",
			id, applied, countOf(j.rows, "row"), c["unknown"])
	}
	if j.o.failed != "" {
		// created before any row, so a path that cannot be written stops the job unsent
		f, err := os.Create(j.o.failed)
		if err != nil {
			return cli.UsageErrorf("--failed: %v", err)
		}
		f.Close()
		j.failedRows = map[int]string{}
	}
	if j.o.report != "" {
		rf, err := os.Create(j.o.report)
		if err != nil {
			return cli.UsageErrorf("--report: %v", err)
		}
		j.reportFile = rf
		j.report = output.NewCSVRecords(rf, resultFields)
	}
	return nil
}

// rowReader is the second pass over the input.
type rowReader struct {
	rc      io.ReadCloser
	rd      *bulk.Reader
	invalid map[int]string // rows the check found unfit (--skip-invalid)
}

func (j *bulkJob) rowSource() (*rowReader, error) {
	rc, err := j.src.open()
	if err != nil {
		return nil, err
	}
	rd := j.reader(rc)
	if j.o.format == bulk.CSV {
		if _, _, err := rd.Header(); err != nil {
			rc.Close()
			return nil, err
		}
	}
	return &rowReader{rc: rc, rd: rd, invalid: j.invalid}, nil
}

func (r *rowReader) Next() (bulk.Row, error) {
	row, err := r.rd.Next()
	var p *bulk.Problem
	if errors.As(err, &p) {
		if _, skipped := r.invalid[p.Row]; p.Row > 0 && skipped {
			// The check found the row unfit and --skip-invalid let it
			// through: it is the job's, reported failed and never sent.
			return bulk.Row{N: p.Row, Line: p.Line}, nil
		}
		return row, fmt.Errorf("the input changed after it was checked (line %d: %s); nothing more was sent", p.Line, p.Msg)
	}
	return row, err
}

func (r *rowReader) close() { r.rc.Close() }

// confirm asks once for the whole file.
func (j *bulkJob) confirm() error {
	io := j.f.IO
	what := fmt.Sprintf("%s on the %s of %s", j.cmd.CommandPath(), nounFor(j.rows, "1 row", fmt.Sprintf("%d rows", j.rows)), j.src.name)
	if !io.InTTY || !io.ErrTTY || j.src.name == "stdin" {
		return cli.UsageErrorf("refusing to run `%s` without confirmation: pass --yes", what)
	}
	return cli.ConfirmOrCancel(j.f.Ask(), fmt.Sprintf("Run `%s`? This cannot be undone.", what))
}

// noteChange tells the completion and name caches that the job changed its
// family: at the first change, then at most every 2 s, and at the end, so
// a killed job leaves them stale for 2 s, not for their whole TTL.
func (j *bulkJob) noteChange() {
	if j.onChange == nil {
		return
	}
	now, last := time.Now().UnixNano(), j.lastForget.Load()
	if last != 0 && now-last < int64(2*time.Second) {
		return
	}
	if j.lastForget.CompareAndSwap(last, now) {
		j.onChange(ratebudget.Family(j.op.Path))
	}
}

func (j *bulkJob) emit(r bulk.Result) {
	switch r.Outcome {
	case bulk.Created, bulk.Updated, bulk.Deleted:
		j.noteChange()
	}
	j.outMu.Lock()
	defer j.outMu.Unlock()
	vals := []any{r.Row, r.Line, r.Key, string(r.Outcome), r.ID, r.Message}
	if j.report != nil {
		j.report.Write(vals...) // the report is the whole job, earlier runs' rows too
	}
	if r.Earlier {
		if j.joinable && r.ID != "" && (r.Outcome == bulk.Created || r.Outcome == bulk.Updated) {
			if j.earlierIDs == nil {
				j.earlierIDs = map[int]string{}
			}
			j.earlierIDs[r.Row] = r.ID
		}
		return // the resume's one line on stderr counts them
	}
	if err := j.out.Write(vals...); err != nil && j.fatal.Load() == nil {
		err = fmt.Errorf("writing results: %w", err)
		j.fatal.Store(&err)
		j.cancel(err)
	}
	if j.failedRows != nil && r.Outcome == bulk.Failed {
		j.failedRows[r.Row] = r.Message
	}
}

// summary is the last word on stderr.
func (j *bulkJob) summary(id string, sum bulk.Summary, stopped bool) {
	c, took := sum.Counts, sum.Took
	if j.e.quiet() && !stopped && c[bulk.Failed] == 0 && c[bulk.Unknown] == 0 {
		return
	}
	io := j.f.IO
	var parts []string
	for _, o := range []bulk.Outcome{bulk.Created, bulk.Updated, bulk.Deleted, bulk.Skipped, bulk.Failed, bulk.Unknown} {
		if c[o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[o], o))
		}
	}
	if len(parts) == 0 {
		parts = []string{"none finished"}
	}
	done, earlier := sum.Done, sum.Earlier
	tail := ""
	if earlier > 0 {
		tail = fmt.Sprintf(" (%d of them by earlier runs)", earlier)
	}
	fmt.Fprintf(io.Err, "orgctl: %d of %s of %s: %s%s in %.1fs; job %s\n", done, countOf(j.rows, "row"), j.src.name, strings.Join(parts, ", "),
		tail, took.Seconds(), id)
	again := "run the same command again"
	if j.src.name == "stdin" {
		again = "run the same command again with the same input on stdin"
	}
	if stopped {
		fmt.Fprintf(io.Err, "orgctl: stopped: the rows in flight finished and were recorded; to resume, %s:\n  %s\n", again, ResumeLine())
	}
	if n := c[bulk.Failed]; n > 0 {
		fmt.Fprintf(io.Err, "orgctl: %s failed (see the results, or `orgctl jobs show %s`); %s to retry them\n", rowsText(n), id, again)
	}
	if n := c[bulk.Unknown]; n > 0 {
		fmt.Fprintf(io.Err, "orgctl: %s sent without an answer may have been applied; %s to look them up (rows orgctl cannot look up are listed by `orgctl jobs show %s`: check those by hand)\n",
			rowsText(n), again, id)
	}
}

func rowsText(n int) string {
	if n == 1 {
		return "1 row"
	}
	return strconv.Itoa(n) + " rows"
}

// ResumeLine is this process's command line, quoted for a shell.
func ResumeLine() string {
	parts := []string{"orgctl"}
	for _, a := range os.Args[1:] {
		if a == "" || strings.ContainsAny(a, " \t\n'\"$`\\|&;<>()*?[]#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}
