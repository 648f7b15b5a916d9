package bulk

import (
	"context"
	"io"
	"strings"
	"sync"
	"sync/atomic"
)

// Result is what became of one row.
type Result struct {
	Row  int
	Line int
	// Key is the row's natural key (an email, a name), or what else names
	// its object, for people reading the results.
	Key     string
	Outcome Outcome
	ID      string
	Message string
	// NotSent marks a row whose request never left (the job was stopped
	// while it waited for budget): it stays pending and runs next time.
	NotSent bool
	// Earlier: an earlier run of the job applied the row; nothing was sent now.
	Earlier bool
	// Untouched: the job stopped before the row learned or sent anything;
	// the journal keeps what it knew (a row to settle stays one).
	Untouched bool
}

// Handler says what a row means. The runner owns the order, the workers,
// the journal and stopping; the handler sends.
type Handler interface {
	// Apply runs a row. It calls sent just before the first request that
	// may change something, so the journal knows the row's fate is out of
	// its hands from then on.
	Apply(ctx context.Context, row Row, sent func()) Result
	// Settle decides a row that an earlier run sent without learning its
	// outcome. ok=false: the row was provably not applied (or sending it
	// again changes nothing), so the runner applies it; otherwise the
	// result stands, Unknown when nothing could prove either.
	Settle(ctx context.Context, row Row) (r Result, ok bool)
}

// Runner runs rows with Parallel workers.
type Runner struct {
	Parallel int
	// Journal, when set, records each row's fate as it becomes known.
	Journal *Journal
	// Prior is what earlier runs of the job recorded (nil for a new job).
	Prior   *State
	Handler Handler
	// Emit receives every row's result, one at a time.
	Emit func(Result)

	done, failed, unknown, earlier atomic.Int64
}

// Counts tallies a run's results by outcome, plus "earlier" for rows an
// earlier run applied.
type Counts map[Outcome]int

// Progress is how many rows have finished (earlier runs' included), failed
// and ended unknown so far.
func (r *Runner) Progress() (done, failed, unknown, earlier int) {
	return int(r.done.Load()), int(r.failed.Load()), int(r.unknown.Load()), int(r.earlier.Load())
}

type task struct {
	row   Row
	prior RowState
}

// Run takes rows from next until io.EOF or until ctx is done, and returns
// when every row taken has finished. Once ctx is done no new row starts;
// rows already running finish (the handler decides what ctx means to a
// request in flight). stopped reports whether rows were left untaken.
func (r *Runner) Run(ctx context.Context, next func() (Row, error)) (counts Counts, stopped bool, err error) {
	n := max(1, r.Parallel)
	tasks := make(chan task, n)
	results := make(chan Result, n)
	counts = Counts{}

	var emitted sync.WaitGroup
	emitted.Go(func() {
		for res := range results {
			c := res.Outcome
			counts[c]++
			if res.Earlier {
				r.earlier.Add(1)
			}
			if r.Emit != nil {
				r.Emit(res)
			}
		}
	})

	var workers sync.WaitGroup
	var skipped atomic.Bool
	for range n {
		workers.Go(func() {
			for t := range tasks {
				if ctx.Err() != nil {
					skipped.Store(true) // taken before the stop, never started
					continue
				}
				res := r.runRow(ctx, t)
				if res.Untouched {
					skipped.Store(true)
					continue
				}
				if res.NotSent {
					if r.Journal != nil {
						r.Journal.Record(res)
					}
					continue
				}
				r.finished(res)
				results <- res
			}
		})
	}

	for {
		if ctx.Err() != nil {
			stopped = true
			break
		}
		row, rerr := next()
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			err = rerr
			break
		}
		prior := r.Prior.Row(row.N)
		if prior.Status == Done {
			res := Result{Row: row.N, Line: row.Line, Key: prior.Key, Outcome: prior.Outcome, ID: prior.ID,
				Message: "applied by an earlier run", Earlier: true}
			r.finished(res)
			results <- res
			continue
		}
		select {
		case tasks <- task{row: row, prior: prior}:
		case <-ctx.Done():
			stopped = true
		}
		if stopped {
			break
		}
	}
	close(tasks)
	workers.Wait()
	close(results)
	emitted.Wait()
	return counts, stopped || skipped.Load(), err
}

func (r *Runner) finished(res Result) {
	r.done.Add(1)
	switch res.Outcome {
	case Failed:
		r.failed.Add(1)
	case Unknown:
		r.unknown.Add(1)
	}
}

func (r *Runner) runRow(ctx context.Context, t task) Result {
	if t.prior.Status == Sent {
		res, ok := r.Handler.Settle(ctx, t.row)
		if res.Untouched {
			return res
		}
		if ok {
			r.fill(&res, t.row)
			if r.Journal != nil {
				r.Journal.Record(res)
			}
			return res
		}
	}
	res := r.Handler.Apply(ctx, t.row, func() {
		if r.Journal != nil {
			r.Journal.Sent(t.row.N)
		}
	})
	r.fill(&res, t.row)
	if r.Journal != nil {
		r.Journal.Record(res)
	}
	return res
}

func (r *Runner) fill(res *Result, row Row) {
	res.Row, res.Line = row.N, row.Line
}

// OneLine is a message as a result keeps it: on one line, for the results
// table and the journal.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
