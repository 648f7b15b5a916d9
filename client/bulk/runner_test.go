package bulk

import (
	"context"
	"io"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// recordingHandler applies rows by remembering them; block, when set,
// holds every Apply until it is closed.
type recordingHandler struct {
	mu      sync.Mutex
	applied map[int]int
	settled map[int]int
	block   chan struct{}
	started chan int
	running atomic.Int32
	peak    atomic.Int32
}

func newRecordingHandler() *recordingHandler {
	return &recordingHandler{applied: map[int]int{}, settled: map[int]int{}}
}

func (h *recordingHandler) Apply(ctx context.Context, row Row, sent func() error) Result {
	n := h.running.Add(1)
	defer h.running.Add(-1)
	for {
		p := h.peak.Load()
		if n <= p || h.peak.CompareAndSwap(p, n) {
			break
		}
	}
	sent()
	if h.started != nil {
		h.started <- row.N
	}
	if h.block != nil {
		<-h.block
	}
	h.mu.Lock()
	h.applied[row.N]++
	h.mu.Unlock()
	return Result{Outcome: Created, ID: "id" + row.Values["k"][0], Key: row.Values["k"][0]}
}

// Settle proves even rows applied and leaves odd ones to Apply.
func (h *recordingHandler) Settle(ctx context.Context, row Row) (Result, bool) {
	h.mu.Lock()
	h.settled[row.N]++
	h.mu.Unlock()
	if row.N%2 == 0 {
		return Result{Outcome: Created, ID: "found", Key: row.Values["k"][0]}, true
	}
	return Result{}, false
}

func rowsOf(n int) SourceFunc {
	i := 0
	return func() (Row, error) {
		if i == n {
			return Row{}, io.EOF
		}
		i++
		return Row{N: i, Line: i + 1, Values: map[string][]string{"k": {string(rune('a' + i%26))}}}, nil
	}
}

func TestRunnerRunsEveryRowOnceWithParallelWorkers(t *testing.T) {
	h := newRecordingHandler()
	var mu sync.Mutex
	var emitted []Result
	r := &Runner{Parallel: 4, Handler: h}
	emit := func(res Result) { mu.Lock(); emitted = append(emitted, res); mu.Unlock() }
	h.block = make(chan struct{})
	h.started = make(chan int, 100)
	done := make(chan Counts)
	go func() {
		c, stopped, err := r.Run(context.Background(), rowsOf(50), emit)
		if err != nil || stopped {
			t.Errorf("run: stopped %v, %v", stopped, err)
		}
		done <- c
	}()
	for range 4 {
		<-h.started
	}
	close(h.block)
	c := <-done
	if c[Created] != 50 || len(emitted) != 50 {
		t.Fatalf("counts %v, emitted %d", c, len(emitted))
	}
	for n := 1; n <= 50; n++ {
		if h.applied[n] != 1 {
			t.Errorf("row %d applied %d times", n, h.applied[n])
		}
	}
	if p := h.peak.Load(); p != 4 {
		t.Errorf("peak concurrency %d, want 4", p)
	}
	if d, _, _, _ := r.Progress(); d != 50 {
		t.Errorf("progress says %d done", d)
	}
}

// Stopping takes no new row, lets the rows in flight finish and records
// them; the rows never started have no record, so a resume runs them.
func TestRunnerStopsTakingRowsButFinishesThoseInFlight(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	j, err := Create(path, Header{ID: "x", Rows: 100})
	if err != nil {
		t.Fatal(err)
	}
	h := newRecordingHandler()
	h.block = make(chan struct{})
	h.started = make(chan int, 100)
	ctx, cancel := context.WithCancel(context.Background())
	r := &Runner{Parallel: 3, Handler: h, Journal: j}
	type out struct {
		c       Counts
		stopped bool
	}
	res := make(chan out)
	go func() {
		c, stopped, _ := r.Run(ctx, rowsOf(100), nil)
		res <- out{c, stopped}
	}()
	for range 3 {
		<-h.started
	}
	// cancel returns once the runner's own context, made from ctx, is
	// done: the stop is seen before any row in flight can finish.
	cancel()
	close(h.block)
	o := <-res
	j.Close()
	if !o.stopped || o.c[Created] != 3 {
		t.Fatalf("stopped %v, counts %v: the 3 rows in flight should finish, no other start", o.stopped, o.c)
	}
	st, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c := st.Counts(); c["created"] != 3 || c["pending"] != 97 {
		t.Errorf("journal counts %v", c)
	}
}

// A resume skips applied rows without a call, runs failed and pending
// ones, and settles rows that were sent without an answer.
func TestRunnerResumesFromTheJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	j, _ := Create(path, Header{ID: "x", Rows: 6})
	j.Record(Result{Row: 1, Outcome: Created, ID: "id1", Key: "b"})
	j.Record(Result{Row: 2, Outcome: Failed, Message: "boom"})
	j.Sent(3) // odd: Settle cannot prove it, so it is applied
	j.Sent(4) // even: Settle finds it
	j.Record(Result{Row: 5, Outcome: Skipped})
	j.Close()
	prior, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	j, _ = Reopen(path, prior)
	h := newRecordingHandler()
	var earlier []int
	r := &Runner{Parallel: 2, Handler: h, Journal: j, Prior: prior}
	c, _, err := r.Run(context.Background(), rowsOf(6), func(res Result) {
		if res.Earlier {
			earlier = append(earlier, res.Row)
		}
	})
	j.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(h.applied) != 3 || h.applied[2] != 1 || h.applied[3] != 1 || h.applied[6] != 1 {
		t.Errorf("applied %v, want rows 2, 3 and 6", h.applied)
	}
	if len(h.settled) != 2 || h.settled[3] != 1 || h.settled[4] != 1 {
		t.Errorf("settled %v, want rows 3 and 4", h.settled)
	}
	if len(earlier) != 2 || c[Created] != 5 || c[Skipped] != 1 {
		t.Errorf("earlier %v counts %v", earlier, c)
	}
	st, _ := Load(path)
	if cs := st.Counts(); cs["created"] != 5 || cs["skipped"] != 1 || st.Runs != 0 {
		t.Errorf("journal counts %v", cs)
	}
}

// untouchedHandler is stopped before any lookup could settle a row.
type untouchedHandler struct{ *recordingHandler }

func (h *untouchedHandler) Settle(context.Context, Row) (Result, bool) {
	return Result{Untouched: true}, true
}

// A row to settle that the stop caught before its lookup stays a row to
// settle: marking it pending would let the next run send it blindly.
func TestRunnerKeepsARowToSettleWhenStoppedBeforeTheLookup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	j, _ := Create(path, Header{ID: "x", Rows: 1})
	j.Sent(1)
	j.Close()
	prior, _ := Load(path)
	j, _ = Reopen(path, prior)
	h := &untouchedHandler{newRecordingHandler()}
	emitted := 0
	r := &Runner{Parallel: 1, Handler: h, Journal: j, Prior: prior}
	_, stopped, _ := r.Run(context.Background(), rowsOf(1), func(Result) { emitted++ })
	j.Close()
	st, _ := Load(path)
	if st.Row(1).Status != Sent || len(h.applied) != 0 || emitted != 0 || !stopped {
		t.Errorf("row 1 = %+v, applied %v, emitted %d, stopped %v", st.Row(1), h.applied, emitted, stopped)
	}
}
