package bulkjob

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
	"github.com/spf13/cobra"
)

// jobSpec is what the command line asked of a --from job: the op, its
// flags and arguments, the file options. Every part of the job reads it;
// none changes it.
type jobSpec struct {
	op   *opdef.Placed
	upd  *opdef.Placed // what --on-exists update runs
	cmd  *cobra.Command
	o    Options
	yes  bool        // --yes: no confirmation
	base opdef.Input // the command line: its flags apply to every row
}

// bulkJob is one run of an op over the rows of a file, in parts that each
// do one thing: in reads the file, checked is what the check pass learned
// of it (and what the dry run prints), runner sends each row (the job's
// bulk.Handler), out reports the results; carry-over from an edited
// file's earlier job is in carry.go. The job drives its bulk.Session:
// opens it, gets ready (ready), then takes each row's result as it comes.
type bulkJob struct {
	*jobSpec
	f       *cli.Factory
	cfg     *settings.Config
	printer *output.Printer
	quiet   bool
	store   bulk.Store

	in      *fileInput
	checked *checkPass
	runner  *rowRunner
	out     *jobOutput
	halt    *jobStop
	conn    *cli.Connection
	prog    *output.Progress // the job's progress while it is shown
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
func newBulkJob(f *cli.Factory, printer *output.Printer, cfg *settings.Config, op *opdef.Placed, c *cobra.Command, base opdef.Input, yes bool, o Options) (*bulkJob, error) {
	spec := &jobSpec{op: op, cmd: c, o: o, yes: yes, base: base}
	if op.Bulk.Exists != nil && op.Bulk.Exists.Check == nil && o.onExists == "update" {
		spec.upd = op.Sibling(op.Bulk.Exists.Update)
	}
	j := &bulkJob{jobSpec: spec, f: f, cfg: cfg, printer: printer, quiet: cfg.Quiet,
		store: cli.JobStore()}
	j.in = &fileInput{jobSpec: spec, cols: newBulkColumns(op, len(base.Args))}
	if err := j.in.cols.mapColumns(o.maps); err != nil {
		return nil, err
	}
	if err := j.in.openSource(f.IO, j.store); err != nil {
		return nil, err
	}
	j.checked = &checkPass{fileInput: j.in, bc: cfg.Budget}
	return j, nil
}

// Command is a command line with --from: the op, the command, the flags
// and arguments every row shares, and the file's options.
type Command struct {
	Op          *opdef.Placed
	Cmd         *cobra.Command
	Base        opdef.Input
	Yes, DryRun bool
	Options     Options
}

// Run is a command's run with --from: check every row, then run them,
// each through package send. printer and cfg are what the command's
// output options and settings made.
func Run(ctx context.Context, f *cli.Factory, printer *output.Printer, cfg *settings.Config, c Command) error {
	j, err := newBulkJob(f, printer, cfg, c.Op, c.Cmd, c.Base, c.Yes, c.Options)
	if err != nil {
		return err
	}
	defer j.in.close()
	if err := j.checked.check(f.IO.Err); err != nil {
		return err
	}
	j.in.noteIgnored(f.IO, j.quiet)
	if c.DryRun {
		return j.dryRun(ctx)
	}
	return j.run(ctx)
}

// run is the second pass: the rows run as one job (a bulk.Session), whose
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
	onChange := j.f.OnChange
	id := j.jobID(conn.Target.JobTarget())
	if j.runner, err = newRowRunner(j.in, j.checked, j.cfg, j.halt, conn.Client); err != nil {
		return err
	}
	rows, err := j.in.rowSource(j.checked.invalid)
	if err != nil {
		return err
	}
	defer rows.close()
	j.out = newJobOutput(j.in, j.f.IO, j.printer, j.quiet, j.halt, onChange, j.checked)
	carry, err := j.carry(id, conn.Target)
	if err != nil {
		return err
	}
	session, err := bulk.Open(bulk.Job{
		Store: j.store,
		Header: bulk.Header{ID: id, Command: j.cmd.CommandPath(), Args: j.base.Args, Flags: j.idFlags(),
			Input: j.in.src.name, Path: j.in.inputPath(), Format: j.o.format, Rows: j.checked.rows, Target: conn.Target.BaseURL, Account: conn.Target.Account(), Created: time.Now().UTC()},
		Carry:    carry,
		Resume:   true,
		Restart:  j.o.restart,
		Parallel: j.o.parallel,
		Handler:  j.runner,
		Phases:   []bulk.Source{rows},
	})
	if err != nil {
		return openError(id, err)
	}
	defer session.Close()
	if err := j.ready(ctx, id, session.Prior()); err != nil {
		j.out.close()
		return err
	}
	stop := j.startProgress(session.Progress)
	for r := range session.Results(ctx) {
		j.out.result(r)
	}
	stop()
	sum, err := session.End()
	j.out.close()
	// The rows' joined follow-ups are the job's last steps: sent under its
	// progress, before the summary that ends it.
	var joinErr error
	if err == nil && sum.JournalErr == nil && j.halt.err() == nil && j.checked.joinable && !sum.Stopped {
		began := time.Now()
		j.runner.requeueEarlier(ctx, j.out.earlierIDs)
		joinErr = j.sendJoins(ctx)
		sum.Took += time.Since(began)
	}
	j.stopProgress()
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
	if joinErr != nil {
		return joinErr
	}
	return cli.JobExit(sum)
}

// openError says what to do about a job that cannot be opened.
func openError(id string, err error) error {
	var busy *bulk.BusyError
	var damaged *bulk.JournalError
	switch {
	case errors.As(err, &busy):
		return fmt.Errorf("job %s (this command on this input) is running in another process; wait for it, or see `orgctl jobs show %s`", id, id)
	case errors.As(err, &damaged):
		return fmt.Errorf("%w; `orgctl jobs rm %s` forgets it", err, id)
	}
	return err
}

// ready is the job's last step before its rows, once it holds the job's
// lock: keep stdin with the job, confirm, say what an earlier run left
// (prior), and open --report and --failed. An error declines the job with
// nothing sent and no journal written.
func (j *bulkJob) ready(ctx context.Context, id string, prior *bulk.State) error {
	if j.in.src.spooled {
		kept, err := j.store.Keep(j.in.src.path, id)
		if err != nil {
			return fmt.Errorf("keeping stdin for job %s: %w", id, err)
		}
		j.in.src.path, j.in.src.spooled = kept, false
	}
	if j.op.Destructive() && !j.yes {
		if err := j.unattended(); err != nil {
			return err
		}
	}
	if err := j.refuseProtected(ctx, j.f.IO.Err); err != nil {
		return err
	}
	if j.op.Destructive() && !j.yes {
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
			id, applied, CountOf(j.checked.rows, "row"), c["unknown"])
	}
	return j.out.open()
}

// startProgress shows the job's progress: its rows, and when rows share
// requests (a group's new members), those requests after them, as the
// steps of one job; the bar stays up until they are sent. It returns what
// to call when the rows end.
func (j *bulkJob) startProgress(progress func() (done, failed, unknown, earlier int)) func() {
	total, noun := j.checked.rows, ""
	steps := progress
	if n := len(j.checked.joinKeys); j.checked.joinable && n > 0 {
		total, noun = total+n, "steps"
		steps = func() (done, failed, unknown, earlier int) {
			done, failed, unknown, earlier = progress()
			return min(done+int(j.runner.joins.sent.Load()), total), failed, unknown, earlier
		}
	}
	prog := j.f.JobProgress(j.conn, noun, total, j.checked.points, j.checked.rowRequests(), steps)
	if prog == nil {
		return func() {}
	}
	if j.f.IO.ErrTTY && j.f.IO.OutTTY {
		j.out.records.Around = prog.Pause
	}
	prog.Start()
	j.prog = prog
	if noun == "" {
		return j.stopProgress
	}
	return func() {}
}

// stopProgress ends the job's progress, once.
func (j *bulkJob) stopProgress() {
	if j.prog != nil {
		j.prog.Stop()
		j.prog = nil
	}
}

// what names the job in its confirmation.
func (j *bulkJob) what() string {
	return fmt.Sprintf("%s on the %s of %s", j.cmd.CommandPath(), nounFor(j.checked.rows, "1 row", fmt.Sprintf("%d rows", j.checked.rows)), j.in.src.name)
}

// unattended refuses the job when nobody can answer its confirmation,
// before anything (a lookup included) is sent.
func (j *bulkJob) unattended() error {
	switch {
	case j.in.src.name == "stdin":
		return cli.Unconfirmed("run `"+j.what()+"`", "stdin holds the rows, so it cannot answer", "review with --dry-run")
	case !j.f.CanPrompt():
		return cli.Unconfirmed("run `"+j.what()+"`", "", "review with --dry-run")
	}
	return nil
}

// confirm asks once for the whole file.
func (j *bulkJob) confirm() error {
	if err := j.unattended(); err != nil {
		return err
	}
	return cli.ConfirmOrCancel(j.f.Ask(), fmt.Sprintf("Run `%s`? This cannot be undone.", j.what()))
}
