package bulk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"time"
)

// Job is one run of a job: its rows, phase after phase, through a Handler,
// each row's fate journaled so that a later run knows what is left. The
// command brings the rows (Phases), what a row means (Handler) and where
// results go (Observer); Run drives everything else.
type Job struct {
	Store Store
	// Header describes the job in its journal; Header.ID names it.
	Header Header
	// Resume makes a run continue what earlier runs of the job recorded:
	// rows they applied are not sent again, rows they sent without an
	// answer are settled first. Without it each run's journal describes
	// that run alone (apply, whose plan is read afresh each time).
	Resume bool
	// Restart forgets what earlier runs recorded.
	Restart  bool
	Parallel int
	Handler  Handler
	// Phases hold the rows in order; a phase starts when the one before
	// has finished.
	Phases []Source
	// Observer hears what the run does; nil hears nothing.
	Observer Observer
	// Carry, for a new job, is what an earlier job of the same command on
	// an earlier version of the input knew.
	Carry Carry
}

// Carry is what an earlier job knew, by this input's row numbers: written
// to the new journal before any row, so rows it applied are not sent again
// and rows it sent without an answer are settled first. Once that is
// safely in the new journal, the earlier job (From) is removed: what it
// knew lives on in the new one.
type Carry struct {
	From string
	Rows map[int]RowState
}

// Source yields one phase's rows in order, and io.EOF after the last.
type Source interface {
	Next() (Row, error)
}

// SourceFunc is a function that yields rows as a Source.
type SourceFunc func() (Row, error)

// Next calls f.
func (f SourceFunc) Next() (Row, error) { return f() }

// Rows is a phase whose rows are known in advance, yielded in order.
func Rows(rows ...Row) Source {
	i := 0
	return SourceFunc(func() (Row, error) {
		if i == len(rows) {
			return Row{}, io.EOF
		}
		i++
		return rows[i-1], nil
	})
}

// Progress is how many rows have finished so far (earlier runs' included),
// failed and ended unknown, and how many earlier runs applied.
type Progress func() (done, failed, unknown, earlier int)

// Observer is what a command hears of its job, in this order: Ready once,
// Started when the rows start, Result once per row (one at a time), and
// the stop Started returned when the rows end.
type Observer interface {
	// Ready runs once the job is locked and its journal read, before any
	// row: it may ask for confirmation or announce a resume. prior is what
	// earlier runs recorded (nil if none). An error ends the run, with
	// nothing sent and no journal written.
	Ready(prior *State) error
	// Started is told when the rows start, with their progress so far,
	// and returns what to call when they end (a progress display).
	Started(progress Progress) (stop func())
	// Result receives every row's result, one at a time.
	Result(Result)
}

// Aborter is an Observer told at once when the journal cannot be written,
// so it can end its waits for budget: nothing more is sent.
type Aborter interface {
	Abort(err error)
}

// Summary is how a run ended.
type Summary struct {
	Counts Counts
	// Stopped: the run was interrupted and rows were left for the next.
	Stopped bool
	// Done rows finished, Earlier of them applied by earlier runs.
	Done, Earlier int
	Took          time.Duration
	// JournalErr is set when the journal could not be written: the run
	// stopped at once, and Unrecorded are the rows it had sent whose
	// outcomes the journal does not hold.
	JournalErr error
	Unrecorded []Result
}

// Changed reports whether the run created, updated or deleted anything.
func (o Summary) Changed() bool {
	return o.Counts[Created]+o.Counts[Updated]+o.Counts[Deleted] > 0
}

// BusyError is a job that another process is running.
type BusyError struct{ ID string }

func (e *BusyError) Error() string {
	return fmt.Sprintf("job %s is running in another process", e.ID)
}

func (e *BusyError) Unwrap() error { return ErrBusy }

// JournalError is an earlier run's journal that cannot be read.
type JournalError struct {
	ID  string
	Err error
}

func (e *JournalError) Error() string { return fmt.Sprintf("job %s: %v", e.ID, e.Err) }
func (e *JournalError) Unwrap() error { return e.Err }

// Run runs a job to its end, or until ctx is done: then the rows in flight
// finish and are recorded, and Summary.Stopped is set.
func Run(ctx context.Context, j Job) (Summary, error) {
	id := j.Header.ID
	unlock, err := j.Store.Lock(id)
	if errors.Is(err, ErrBusy) {
		return Summary{}, &BusyError{ID: id}
	}
	if err != nil {
		return Summary{}, fmt.Errorf("jobs: %w", err)
	}
	defer unlock()
	prior, err := j.prior()
	if err != nil {
		return Summary{}, err
	}
	if j.Observer != nil {
		if err := j.Observer.Ready(prior); err != nil {
			return Summary{}, err
		}
	}
	jr, prior, err := j.journal(prior)
	if err != nil {
		return Summary{}, fmt.Errorf("job %s: %w", id, err)
	}
	jr.Run()
	if err := jr.Err(); err != nil {
		jr.Close()
		return Summary{JournalErr: err}, fmt.Errorf("job %s: %w: %w; nothing was sent", id, ErrJournal, err)
	}
	runner := &Runner{Parallel: j.Parallel, Journal: jr, Prior: prior, Handler: j.Handler, Observer: j.Observer}
	stop := func() {}
	if j.Observer != nil {
		stop = j.Observer.Started(runner.Progress)
	}
	start := time.Now()
	total, stopped, runErr := j.runPhases(ctx, runner)
	stop()
	if !stopped && runErr == nil {
		jr.End(total.text())
	}
	jerr := jr.Close()
	ferr, unrecorded := runner.JournalFailure()
	if ferr != nil {
		jerr, stopped = ferr, true
		if errors.Is(runErr, ErrJournal) {
			runErr = nil // told by JournalErr
		}
	}
	done, _, _, earlier := runner.Progress()
	return Summary{Counts: total, Stopped: stopped, Done: done, Earlier: earlier, Took: time.Since(start),
		JournalErr: jerr, Unrecorded: unrecorded}, runErr
}

// prior is what earlier runs of the job recorded (nil if none), once
// Restart has forgotten it if asked.
func (j *Job) prior() (*State, error) {
	id := j.Header.ID
	if j.Restart {
		if err := j.Store.Restart(id); err != nil {
			return nil, fmt.Errorf("jobs: %w", err)
		}
	}
	prior, err := Load(j.Store.JournalPath(id))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		if j.Resume {
			return nil, &JournalError{ID: id, Err: err}
		}
		return nil, nil // replaced by this run's journal anyway
	}
	return prior, nil
}

// journal opens this run's journal: the earlier one reopened when the job
// resumes, else a new one holding what Carry knew (the earlier job is
// removed once that is written). It returns what the run starts from.
func (j *Job) journal(prior *State) (*Journal, *State, error) {
	path := j.Store.JournalPath(j.Header.ID)
	if j.Resume && prior != nil {
		jr, err := Reopen(path, prior)
		return jr, prior, err
	}
	if err := j.Store.Restart(j.Header.ID); err != nil {
		return nil, nil, err
	}
	jr, err := Create(path, j.Header)
	if err != nil || len(j.Carry.Rows) == 0 {
		return jr, nil, err
	}
	ns := make([]int, 0, len(j.Carry.Rows))
	for n := range j.Carry.Rows {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	for _, n := range ns {
		jr.Carry(n, j.Carry.Rows[n])
	}
	if err := jr.Sync(); err != nil {
		return jr, nil, err
	}
	prior, err = Load(path)
	if err == nil && j.Carry.From != "" {
		j.Store.Remove(j.Carry.From)
	}
	return jr, prior, err
}

// runPhases runs the phases in order, each once the one before finished.
func (j *Job) runPhases(ctx context.Context, runner *Runner) (Counts, bool, error) {
	total := Counts{}
	for _, rows := range j.Phases {
		counts, stopped, err := runner.Run(ctx, rows)
		for k, v := range counts {
			total[k] += v
		}
		if stopped || err != nil {
			return total, stopped, err
		}
	}
	return total, false, nil
}

// text is the counts as the journal's end record keeps them.
func (c Counts) text() map[string]int {
	out := map[string]int{}
	for k, v := range c {
		out[string(k)] = v
	}
	return out
}
