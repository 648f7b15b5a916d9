package bulk

import (
	"context"
	"errors"
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
	// its hands from then on; when sent returns an error (the journal
	// cannot be written) the request must not be sent.
	Apply(ctx context.Context, row Row, sent func() error) Result
	// Settle decides a row that an earlier run sent without learning its
	// outcome. ok=false: the row was provably not applied (or sending it
	// again changes nothing), so the runner applies it; otherwise the
	// result stands, Unknown when nothing could prove either.
	Settle(ctx context.Context, row Row) (r Result, ok bool)
}

// Keyer is a Handler that names a row's natural key before it is sent,
// so the journal's "sent" record carries it.
type Keyer interface {
	RowKey(row Row) string
}

// Batcher is a Handler whose rows can share one request, because the API
// takes an array (a group's members): rows with the same batch key are
// held until the input ends, or MaxBatch of them are waiting, and then
// applied together.
type Batcher interface {
	Handler
	// BatchKey names the batch a row joins; "" runs the row alone (Apply).
	BatchKey(row Row) string
	// ApplyBatch runs rows that share a key and returns one result per row,
	// in their order. It calls sent just before a request that may change
	// them leaves (as Apply does); every row of the batch counts as sent.
	ApplyBatch(ctx context.Context, rows []Row, sent func() error) []Result
}

const (
	// MaxBatch bounds the rows one batched request carries.
	MaxBatch = 500
	// maxHeld bounds the rows held back for batches across all keys: past
	// it the fullest batch goes, so a file of any length is never held whole.
	maxHeld = 20000
)

// Runner runs rows with Parallel workers.
type Runner struct {
	Parallel int
	// Journal, when set, records each row's fate as it becomes known.
	Journal *Journal
	// Prior is what earlier runs of the job recorded (nil for a new job).
	Prior   *State
	Handler Handler

	done, failed, unknown, earlier atomic.Int64

	jmu        sync.Mutex
	jerr       error
	unrecorded []Result
	cancel     context.CancelCauseFunc
}

// Counts tallies a run's results by outcome, plus "earlier" for rows an
// earlier run applied.
type Counts map[Outcome]int

// Progress is how many rows have finished (earlier runs' included), failed
// and ended unknown so far.
func (r *Runner) Progress() (done, failed, unknown, earlier int) {
	return int(r.done.Load()), int(r.failed.Load()), int(r.unknown.Load()), int(r.earlier.Load())
}

// JournalFailure is the first error writing the journal (nil when none),
// and the rows whose requests were sent but whose outcomes could not be
// recorded: a rerun does not know what became of them.
func (r *Runner) JournalFailure() (error, []Result) {
	r.jmu.Lock()
	defer r.jmu.Unlock()
	return r.jerr, r.unrecorded
}

type task struct {
	row   Row
	prior RowState
	batch []task // several rows for one ApplyBatch
}

// ErrJournal ends a run whose journal cannot be written.
var ErrJournal = errors.New("the journal cannot be written")

// Run takes rows from rows until io.EOF or until ctx is done, and returns
// when every row taken has finished, each one's result given to emit, one
// at a time. Once ctx is done no new row starts; rows already running
// finish (the handler decides what ctx means to a request in flight, see
// Detach). A journal that cannot be written ends the ctx the handler was
// given, with the journal's error as its cause, so that nothing more is
// sent. stopped reports whether rows were left untaken.
func (r *Runner) Run(parent context.Context, rows Source, emit func(Result)) (counts Counts, stopped bool, err error) {
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	r.jmu.Lock()
	r.cancel = cancel
	r.jmu.Unlock()
	n := max(1, r.Parallel)
	tasks := make(chan task, n)
	results := make(chan Result, n)
	counts = Counts{}

	var emitted sync.WaitGroup
	emitted.Go(func() {
		for res := range results {
			counts[res.Outcome]++
			if res.Earlier {
				r.earlier.Add(1)
			}
			if emit != nil {
				emit(res)
			}
		}
	})

	var workers sync.WaitGroup
	var skipped atomic.Bool
	for range n {
		workers.Go(func() { r.work(ctx, tasks, results, &skipped) })
	}

	batcher, _ := r.Handler.(Batcher)
	d := &dispatcher{ctx: ctx, tasks: tasks, batcher: batcher, held: map[string][]task{}}
	stopped, err = d.feed(r, rows, results)
	close(tasks)
	workers.Wait()
	close(results)
	emitted.Wait()
	if jerr, _ := r.JournalFailure(); jerr != nil && err == nil {
		err = ErrJournal
	}
	return counts, stopped || skipped.Load(), err
}

// work runs the tasks it is handed until there are no more; once ctx is
// done it starts none, and says so in skipped.
func (r *Runner) work(ctx context.Context, tasks <-chan task, results chan<- Result, skipped *atomic.Bool) {
	for t := range tasks {
		if ctx.Err() != nil {
			skipped.Store(true) // taken before the stop, never started
			continue
		}
		var out []Result
		if t.batch != nil {
			out = r.runBatch(ctx, t.batch)
		} else {
			out = []Result{r.runRow(ctx, t)}
		}
		for _, res := range out {
			if res.Untouched || res.NotSent {
				skipped.Store(true)
				continue
			}
			r.finished(res)
			results <- res
		}
	}
}

// dispatcher hands rows to the workers in order, holding back the rows
// that share a batch until the batch is full or the input ends.
type dispatcher struct {
	ctx     context.Context
	tasks   chan<- task
	batcher Batcher
	held    map[string][]task
	order   []string
	nheld   int
}

func (d *dispatcher) send(t task) bool {
	select {
	case d.tasks <- t:
		return true
	case <-d.ctx.Done():
		return false
	}
}

func (d *dispatcher) flush(key string) bool {
	ts := d.held[key]
	delete(d.held, key)
	d.nheld -= len(ts)
	return d.send(task{batch: ts})
}

// hold keeps a row back for its batch, sending the batch when it is full
// or the fullest one when too many rows are held; false when the run
// stopped before it could.
func (d *dispatcher) hold(key string, t task) bool {
	if _, ok := d.held[key]; !ok {
		d.order = append(d.order, key)
	}
	d.held[key] = append(d.held[key], t)
	d.nheld++
	if len(d.held[key]) >= MaxBatch {
		return d.flush(key)
	}
	if d.nheld >= maxHeld {
		return d.flush(fullest(d.held))
	}
	return true
}

// feed takes rows until io.EOF, an error or the stop: rows an
// earlier run applied are reported at once, the others go to the workers
// (alone or in batches). stopped reports rows left untaken.
func (d *dispatcher) feed(r *Runner, rows Source, results chan<- Result) (stopped bool, err error) {
	for {
		if d.ctx.Err() != nil {
			stopped = true
			break
		}
		row, rerr := rows.Next()
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
		t := task{row: row, prior: prior}
		if d.batcher != nil {
			if key := d.batcher.BatchKey(row); key != "" {
				if !d.hold(key, t) {
					stopped = true
					break
				}
				continue
			}
		}
		if !d.send(t) {
			stopped = true
			break
		}
	}
	if !stopped && err == nil {
		for _, key := range d.order {
			if _, ok := d.held[key]; ok && !d.flush(key) {
				stopped = true
				break
			}
		}
	}
	if len(d.held) > 0 {
		stopped = true // rows held for a batch that never went stay pending
	}
	return stopped, err
}

func fullest(held map[string][]task) string {
	best, n := "", -1
	for k, ts := range held {
		if len(ts) > n {
			best, n = k, len(ts)
		}
	}
	return best
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

// journalFailed stops the run for good: nothing more may be sent once the
// journal cannot say what was.
func (r *Runner) journalFailed(err error) {
	r.jmu.Lock()
	first := r.jerr == nil
	if first {
		r.jerr = err
	}
	cancel := r.cancel
	r.jmu.Unlock()
	if !first {
		return
	}
	if cancel != nil {
		cancel(err)
	}
}

// sentFor is the sent callback for rows: each is journaled as sent, and a
// journal that failed refuses the request.
func (r *Runner) sentFor(rows []Row, refused *bool) func() error {
	return func() error {
		if r.Journal == nil {
			return nil
		}
		keyer, _ := r.Handler.(Keyer)
		for _, row := range rows {
			if keyer != nil {
				r.Journal.Sent(row.N, keyer.RowKey(row))
			} else {
				r.Journal.Sent(row.N)
			}
		}
		if err := r.Journal.Err(); err != nil {
			*refused = true
			r.journalFailed(err)
			return err
		}
		return nil
	}
}

// record journals a row's result; a result that cannot be written is
// kept to be named, when its request was sent.
func (r *Runner) record(res Result) {
	if r.Journal == nil {
		return
	}
	r.Journal.Record(res)
	if err := r.Journal.Err(); err != nil {
		r.journalFailed(err)
		if !res.NotSent && !res.Untouched {
			r.jmu.Lock()
			r.unrecorded = append(r.unrecorded, res)
			r.jmu.Unlock()
		}
	}
}

// settle decides a row an earlier run sent: done (with the result to keep)
// or to be applied again.
func (r *Runner) settle(ctx context.Context, t task) (Result, bool) {
	if t.prior.Status != Sent {
		return Result{}, false
	}
	res, ok := r.Handler.Settle(ctx, t.row)
	if res.Untouched {
		return res, true
	}
	if ok {
		r.fill(&res, t.row)
		r.record(res)
	}
	return res, ok
}

func (r *Runner) runRow(ctx context.Context, t task) Result {
	if res, done := r.settle(ctx, t); done {
		return res
	}
	refused := false
	res := r.Handler.Apply(ctx, t.row, r.sentFor([]Row{t.row}, &refused))
	if refused {
		return Result{Row: t.row.N, Line: t.row.Line, Untouched: true}
	}
	r.fill(&res, t.row)
	r.record(res)
	return res
}

func (r *Runner) runBatch(ctx context.Context, ts []task) []Result {
	var out []Result
	var rows []Row
	for _, t := range ts {
		if res, done := r.settle(ctx, t); done {
			out = append(out, res)
			continue
		}
		rows = append(rows, t.row)
	}
	if len(rows) == 0 || ctx.Err() != nil {
		for _, row := range rows {
			out = append(out, Result{Row: row.N, Line: row.Line, Untouched: true})
		}
		return out
	}
	refused := false
	results := r.Handler.(Batcher).ApplyBatch(ctx, rows, r.sentFor(rows, &refused))
	for i, row := range rows {
		if refused {
			out = append(out, Result{Row: row.N, Line: row.Line, Untouched: true})
			continue
		}
		res := Result{Outcome: Failed, Message: "the batch gave no result for this row"}
		if i < len(results) {
			res = results[i]
		}
		r.fill(&res, row)
		r.record(res)
		out = append(out, res)
	}
	return out
}

func (r *Runner) fill(res *Result, row Row) {
	res.Row, res.Line = row.N, row.Line
}

// OneLine is a message as a result keeps it: on one line, for the results
// table and the journal.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
