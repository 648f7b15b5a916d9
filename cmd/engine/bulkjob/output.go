package bulkjob

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// resultFields are the columns of a job's results, on stdout and in
// --report. On a terminal each is as wide as its content (the file says
// the widest row, line and key before the first result); the key is never
// cut, and the message, last, wraps.
var resultFields = []output.Field{
	{Name: "row", Header: "ROW"},
	{Name: "line", Header: "LINE", Optional: true},
	{Name: "key", Header: "KEY", Key: true},
	{Name: "outcome", Header: "OUTCOME"},
	{Name: "id", Header: "ID", Optional: true},
	{Name: "message", Header: "MESSAGE"},
}

// outcomes are every outcome a row can have, the widest sizing OUTCOME.
var outcomes = []bulk.Outcome{bulk.Created, bulk.Updated, bulk.Deleted, bulk.Skipped, bulk.Failed, bulk.Unknown}

// jobOutput reports the rows' results as they come: on stdout, in
// --report and --failed, and the summary on stderr. It is where the job
// tells the caches of its changes, at most every 2 s.
type jobOutput struct {
	in      *fileInput
	io      *output.IO
	quiet   bool
	checked *checkPass
	halt    *jobStop
	family  string
	// onChange tells the completion and name caches of a change.
	onChange   func(family string)
	lastForget atomic.Int64

	mu         sync.Mutex
	records    *output.Records
	report     *output.CSVRecords
	reportFile *os.File
	failedRows map[int]string // row -> reason, for --failed
	earlierIDs map[int]string // rows earlier runs created -> id, for follow-ups joined across rows
}

func newJobOutput(in *fileInput, io *output.IO, printer *output.Printer, quiet bool, halt *jobStop, onChange func(string), checked *checkPass) *jobOutput {
	records := output.NewRecords(printer, resultFields)
	records.Expect("row", len(strconv.Itoa(checked.rows)))
	records.Expect("line", len(strconv.Itoa(checked.lastLine)))
	records.Expect("key", checked.keyWidth)
	for _, o := range outcomes {
		records.Expect("outcome", len(o))
	}
	return &jobOutput{in: in, io: io, quiet: quiet, checked: checked, halt: halt, family: ratebudget.Family(in.op.Path), onChange: onChange,
		records: records}
}

// open creates --failed and --report before any row, so a path that
// cannot be written stops the job unsent.
func (j *jobOutput) open() error {
	if j.in.o.failed != "" {
		f, err := os.Create(j.in.o.failed)
		if err != nil {
			return cli.UsageErrorf("--failed: %v", err)
		}
		f.Close()
		j.failedRows = map[int]string{}
	}
	if j.in.o.report != "" {
		rf, err := os.Create(j.in.o.report)
		if err != nil {
			return cli.UsageErrorf("--report: %v", err)
		}
		j.reportFile = rf
		j.report = output.NewCSVRecords(rf, resultFields)
	}
	return nil
}

// close prints the results a terminal table still held back, ends
// --report and writes --failed.
func (j *jobOutput) close() {
	j.mu.Lock()
	if err := j.records.Flush(); err != nil {
		j.halt.fail(fmt.Errorf("writing results: %w", err))
	}
	j.mu.Unlock()
	if j.report != nil {
		j.reportFile.Close()
	}
	if j.failedRows != nil {
		if ferr := j.in.writeFailed(j.failedRows); ferr != nil {
			j.io.Warn("--failed %s: %v", j.in.o.failed, ferr)
		}
	}
}

// noteChange tells the completion and name caches that the job changed its
// family: at the first change, then at most every 2 s, and at the end, so
// a killed job leaves them stale for 2 s, not for their whole TTL.
func (j *jobOutput) noteChange() {
	if j.onChange == nil {
		return
	}
	now, last := time.Now().UnixNano(), j.lastForget.Load()
	if last != 0 && now-last < int64(2*time.Second) {
		return
	}
	if j.lastForget.CompareAndSwap(last, now) {
		j.onChange(j.family)
	}
}

func (j *jobOutput) result(r bulk.Result) {
	switch r.Outcome {
	case bulk.Created, bulk.Updated, bulk.Deleted:
		j.noteChange()
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	vals := []any{r.Row, r.Line, r.Key, string(r.Outcome), r.ID, r.Message}
	if j.report != nil {
		j.report.Write(vals...) // the report is the whole job, earlier runs' rows too
	}
	if r.Earlier {
		if j.checked.joinable && r.ID != "" && (r.Outcome == bulk.Created || r.Outcome == bulk.Updated) {
			if j.earlierIDs == nil {
				j.earlierIDs = map[int]string{}
			}
			j.earlierIDs[r.Row] = r.ID
		}
		return // the resume's one line on stderr counts them
	}
	if err := j.records.Write(vals...); err != nil {
		j.halt.fail(fmt.Errorf("writing results: %w", err))
	}
	if j.failedRows != nil && r.Outcome == bulk.Failed {
		j.failedRows[r.Row] = r.Message
	}
}

// summary is the last word on stderr.
func (j *jobOutput) summary(id string, sum bulk.Summary, stopped bool) {
	c, took := sum.Counts, sum.Took
	if j.quiet && !stopped && c[bulk.Failed] == 0 && c[bulk.Unknown] == 0 {
		return
	}
	io := j.io
	var parts []string
	for _, o := range outcomes {
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
	fmt.Fprintf(io.Err, "orgctl: %d of %s of %s: %s%s in %.1fs; job %s\n", done, CountOf(j.checked.rows, "row"), j.in.src.name, strings.Join(parts, ", "),
		tail, took.Seconds(), id)
	again := "run the same command again"
	if j.in.src.name == "stdin" {
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

// journalFailed ends a job whose journal could not be written: it stopped
// before sending more, and the rows it sent without recording their
// outcomes are named, since a rerun cannot know what became of them.
func (j *jobOutput) journalFailed(id string, sum bulk.Summary) error {
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
