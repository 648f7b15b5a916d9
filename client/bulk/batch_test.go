package bulk

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// batchHandler batches rows by their "g" value; each ApplyBatch is one
// request. failKey refuses that batch's request (every row fails).
type batchHandler struct {
	mu      sync.Mutex
	batches [][]int
	failKey string
	*recordingHandler
}

func (h *batchHandler) BatchKey(row Row) string { return row.Values["g"][0] }

func (h *batchHandler) ApplyBatch(ctx context.Context, rows []Row, sent func() error) []Result {
	if err := sent(); err != nil {
		return nil
	}
	var ns []int
	out := make([]Result, len(rows))
	for i, r := range rows {
		ns = append(ns, r.N)
		out[i] = Result{Outcome: Created, Key: r.Values["k"][0]}
		if r.Values["g"][0] == h.failKey {
			out[i] = Result{Outcome: Failed, Key: r.Values["k"][0], Message: "refused"}
		}
	}
	h.mu.Lock()
	h.batches = append(h.batches, ns)
	h.mu.Unlock()
	return out
}

func groupedRows(n, groups int) Source {
	i := 0
	return SourceFunc(func() (Row, error) {
		if i == n {
			return Row{}, io.EOF
		}
		i++
		return Row{N: i, Line: i + 1, Values: map[string][]string{"k": {string(rune('a' + i%26))}, "g": {string(rune('A' + i%groups))}}}, nil
	})
}

// Rows with the same batch key go in one ApplyBatch, however the file
// interleaves them; each row's outcome is journaled on its own, a refused
// batch's rows as failed.
func TestRunnerBatchesRowsByKeyAndJournalsEachRow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	j, err := Create(path, Header{ID: "x", Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	h := &batchHandler{recordingHandler: newRecordingHandler(), failKey: "B"}
	r := &Runner{Parallel: 4, Handler: h, Journal: j}
	c, stopped, err := r.Run(context.Background(), groupedRows(30, 3), nil)
	j.Close()
	if err != nil || stopped {
		t.Fatalf("stopped %v, %v", stopped, err)
	}
	if len(h.batches) != 3 {
		t.Fatalf("%d batches %v, want 3 (one per key)", len(h.batches), h.batches)
	}
	for _, b := range h.batches {
		if len(b) != 10 {
			t.Errorf("batch %v: want 10 rows", b)
		}
	}
	if c[Created] != 20 || c[Failed] != 10 {
		t.Errorf("counts %v", c)
	}
	st, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if cs := st.Counts(); cs["created"] != 20 || cs["failed"] != 10 || cs["pending"] != 0 {
		t.Errorf("journal counts %v", cs)
	}
	if s := st.Row(1); s.Status != FailedRow || s.Msg != "refused" { // 1%3 = 1: "B"
		t.Errorf("row 1 = %+v, want failed with the batch's reason", s)
	}
}

// A batch key with more than MaxBatch rows goes in several requests.
func TestRunnerSplitsBatchesAtMaxBatch(t *testing.T) {
	h := &batchHandler{recordingHandler: newRecordingHandler()}
	r := &Runner{Parallel: 2, Handler: h}
	if _, _, err := r.Run(context.Background(), groupedRows(MaxBatch+1, 1), nil); err != nil {
		t.Fatal(err)
	}
	sizes := []int{}
	for _, b := range h.batches {
		sizes = append(sizes, len(b))
	}
	slices.Sort(sizes)
	if !slices.Equal(sizes, []int{1, MaxBatch}) {
		t.Errorf("batch sizes %v, want 1 and %d", sizes, MaxBatch)
	}
}

// breakingHandler breaks the journal (a full disk: /dev/full) while row
// at runs, before or after the row's request leaves.
type breakingHandler struct {
	*recordingHandler
	j         *Journal
	at        int
	afterSent bool
	atCtx     context.Context // the context row at was applied with
}

func (h *breakingHandler) breakJournal(t *testing.T) func() {
	return func() {
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Skip("no /dev/full here:", err)
		}
		h.j.mu.Lock()
		h.j.f = full
		h.j.mu.Unlock()
	}
}

func (h *breakingHandler) apply(t *testing.T) func(ctx context.Context, row Row, sent func() error) Result {
	brk := h.breakJournal(t)
	return func(ctx context.Context, row Row, sent func() error) Result {
		if row.N == h.at {
			h.atCtx = ctx
		}
		if row.N == h.at && !h.afterSent {
			brk()
		}
		if err := sent(); err != nil {
			return Result{Outcome: Failed, Message: err.Error()} // the request was not sent
		}
		h.mu.Lock()
		h.applied[row.N]++
		h.mu.Unlock()
		if row.N == h.at && h.afterSent {
			brk()
		}
		return Result{Outcome: Created, Key: row.Values["k"][0]}
	}
}

type applyFunc struct {
	*recordingHandler
	fn func(ctx context.Context, row Row, sent func() error) Result
}

func (a applyFunc) Apply(ctx context.Context, row Row, sent func() error) Result {
	return a.fn(ctx, row, sent)
}

// A journal that cannot be written stops the run at once: the row whose
// "sent" record failed is not sent, no later row starts, and a row sent
// whose outcome could not be recorded is named.
func TestRunnerStopsAtOnceWhenTheJournalCannotBeWritten(t *testing.T) {
	for _, afterSent := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "journal")
		j, err := Create(path, Header{ID: "x", Rows: 10})
		if err != nil {
			t.Fatal(err)
		}
		h := &breakingHandler{recordingHandler: newRecordingHandler(), j: j, at: 3, afterSent: afterSent}
		r := &Runner{Parallel: 1, Handler: applyFunc{h.recordingHandler, h.apply(t)}, Journal: j}
		_, stopped, err := r.Run(context.Background(), rowsOf(10), nil)
		j.Close()
		if !errors.Is(err, ErrJournal) || !stopped {
			t.Errorf("afterSent=%v: err %v, stopped %v", afterSent, err, stopped)
		}
		want := 2
		if afterSent {
			want = 3
		}
		if len(h.applied) != want {
			t.Errorf("afterSent=%v: applied %v, want rows 1..%d only", afterSent, h.applied, want)
		}
		jerr, unrecorded := r.JournalFailure()
		if jerr == nil {
			t.Errorf("afterSent=%v: no journal failure reported", afterSent)
		}
		// The handler's context ends, for the journal's error, so that its
		// waits for budget (Detach) end too.
		if h.atCtx == nil {
			t.Errorf("afterSent=%v: row %d never ran", afterSent, h.at)
		} else if cause := context.Cause(h.atCtx); cause == nil || cause != jerr {
			t.Errorf("afterSent=%v: the failing row's context ended with %v, want the journal's error %v", afterSent, cause, jerr)
		}
		if afterSent && (len(unrecorded) != 1 || unrecorded[0].Row != 3 || unrecorded[0].Outcome != Created) {
			t.Errorf("unrecorded %+v, want row 3 created", unrecorded)
		}
		if !afterSent && len(unrecorded) != 0 {
			t.Errorf("unrecorded %+v, want none: row 3 was never sent", unrecorded)
		}
	}
}
