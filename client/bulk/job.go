package bulk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"sort"
	"time"
)

// Job is one run of a job: its rows, phase after phase, through a Handler,
// each row's fate journaled so that a later run knows what is left. The
// command brings the rows (Phases) and what a row means (Handler); it opens
// the job (Open), decides from what earlier runs left whether to go on, and
// takes the rows' results as they come (Session.Results).
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

// Session is one run of a job, from the moment it holds the job's lock.
// The command drives it in one direction: Open, Prior to learn what
// earlier runs left (and confirm, or announce a resume), Results to run
// the rows and take each one's result, End for how the run ended. The
// package calls into the command only through the Handler that sends the
// rows.
type Session struct {
	job    Job
	unlock func()
	prior  *State
	runner *Runner
	ran    bool
	sum    Summary
	err    error
}

// Open takes the job's lock and reads what earlier runs recorded (once
// Restart has forgotten it, if asked). Nothing is written yet: a command
// that now declines the job Closes the session, and the job is as it was.
func Open(j Job) (*Session, error) {
	id := j.Header.ID
	unlock, err := j.Store.Lock(id)
	if errors.Is(err, ErrBusy) {
		return nil, &BusyError{ID: id}
	}
	if err != nil {
		return nil, fmt.Errorf("jobs: %w", err)
	}
	prior, err := j.prior()
	if err != nil {
		unlock()
		return nil, err
	}
	return &Session{job: j, unlock: unlock, prior: prior, runner: &Runner{Parallel: j.Parallel, Handler: j.Handler}}, nil
}

// Prior is what earlier runs of the job recorded, nil if none.
func (s *Session) Prior() *State { return s.prior }

// Progress is how many rows have finished so far (earlier runs' included),
// failed and ended unknown, and how many earlier runs applied: safe to call
// from any goroutine while the rows run (a progress display).
func (s *Session) Progress() (done, failed, unknown, earlier int) { return s.runner.Progress() }

// Results runs the rows to their end, or until ctx is done (then the rows
// in flight finish and are recorded, and Summary.Stopped is set), and
// yields each row's result as it finishes, one at a time. Leaving the loop
// early stops the run as ctx would. The rows run once per session.
func (s *Session) Results(ctx context.Context) iter.Seq[Result] {
	return func(yield func(Result) bool) {
		if s.ran {
			s.err = errors.New("bulk: a session runs its rows once")
			return
		}
		s.ran = true
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		results := make(chan Result)
		go func() {
			defer close(results)
			s.sum, s.err = s.run(ctx, results)
		}()
		for res := range results {
			if !yield(res) {
				cancel()
				for range results { // the rows in flight finish and are recorded
				}
				return
			}
		}
	}
}

// End is how the run ended, once the loop over Results is over, and lets
// the job's lock go.
func (s *Session) End() (Summary, error) {
	s.Close()
	if !s.ran {
		return Summary{}, errors.New("bulk: the session's rows never ran")
	}
	return s.sum, s.err
}

// Close lets the job's lock go; a session closed before its rows ran
// wrote nothing.
func (s *Session) Close() {
	if s.unlock != nil {
		s.unlock()
		s.unlock = nil
	}
}

// run opens the run's journal and runs the phases, sending each result
// to results.
func (s *Session) run(ctx context.Context, results chan<- Result) (Summary, error) {
	j, id := &s.job, s.job.Header.ID
	jr, prior, err := j.journal(s.prior)
	if err != nil {
		return Summary{}, fmt.Errorf("job %s: %w", id, err)
	}
	jr.Run()
	if err := jr.Err(); err != nil {
		jr.Close()
		return Summary{JournalErr: err}, fmt.Errorf("job %s: %w: %w; nothing was sent", id, ErrJournal, err)
	}
	runner := s.runner
	runner.Journal, runner.Prior = jr, prior
	start := time.Now()
	total, stopped, runErr := j.runPhases(ctx, runner, func(r Result) { results <- r })
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
func (j *Job) runPhases(ctx context.Context, runner *Runner, emit func(Result)) (Counts, bool, error) {
	total := Counts{}
	for _, rows := range j.Phases {
		counts, stopped, err := runner.Run(ctx, rows, emit)
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
