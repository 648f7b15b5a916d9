package bulk

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
)

// rowsFrom numbers rows first..last as one phase.
func rowsFrom(first, last int) SourceFunc {
	n := first - 1
	return func() (Row, error) {
		if n == last {
			return Row{}, io.EOF
		}
		n++
		return Row{N: n, Line: n + 1, Values: map[string][]string{"k": {string(rune('a' + n%26))}}}, nil
	}
}

func testJob(t *testing.T, dir string, h Handler, resume bool, phases ...Source) Job {
	t.Helper()
	return Job{Store: Store{Dir: dir}, Header: Header{ID: "job1", Command: "orgctl test", Rows: 6},
		Resume: resume, Parallel: 2, Handler: h, Phases: phases}
}

// runJob runs j as a command does: Open, ready (when set) with what earlier
// runs left, declining the job when it errs, then every result.
func runJob(ctx context.Context, j Job, ready func(*State) error) (Summary, []Result, error) {
	s, err := Open(j)
	if err != nil {
		return Summary{}, nil, err
	}
	defer s.Close()
	if ready != nil {
		if err := ready(s.Prior()); err != nil {
			return Summary{}, nil, err
		}
	}
	var results []Result
	for r := range s.Results(ctx) {
		results = append(results, r)
	}
	sum, err := s.End()
	return sum, results, err
}

func TestRunJournalsEveryRowAndEnds(t *testing.T) {
	dir := t.TempDir()
	h := newRecordingHandler()
	j := testJob(t, dir, h, true, rowsFrom(1, 3), rowsFrom(4, 6))
	s, err := Open(j)
	if err != nil {
		t.Fatal(err)
	}
	var during []int
	var rows []int
	for r := range s.Results(context.Background()) {
		done, _, _, _ := s.Progress()
		during = append(during, done)
		rows = append(rows, r.Row)
	}
	sum, err := s.End()
	if err != nil {
		t.Fatal(err)
	}
	if sum.Counts[Created] != 6 || sum.Done != 6 || sum.Stopped || sum.JournalErr != nil || !sum.Changed() {
		t.Errorf("summary %+v", sum)
	}
	if len(rows) != 6 || len(during) != 6 || during[0] < 1 {
		t.Errorf("results for rows %v, progress %v as they came", rows, during)
	}
	for _, r := range rows[:3] {
		if r > 3 {
			t.Errorf("rows %v: the second phase began before the first ended", rows)
		}
	}
	st, err := Load(j.Store.JournalPath("job1"))
	if err != nil || !st.Ended || st.Counts()["created"] != 6 {
		t.Fatalf("journal %+v, %v", st, err)
	}
	if _, err := s.End(); err != nil {
		t.Errorf("End again: %v", err)
	}
	// The rows run once: a second loop runs nothing and says so.
	for r := range s.Results(context.Background()) {
		t.Errorf("a second loop over the results ran row %d", r.Row)
	}
	if _, err := s.End(); err == nil {
		t.Error("a second loop over the results was not refused")
	}
	again, err := Open(j)
	if err != nil {
		t.Fatalf("End did not let the lock go: %v", err)
	}
	if _, err := again.End(); err == nil {
		t.Error("End of a session whose rows never ran reported no error")
	}
	if _, err := Open(j); err != nil {
		t.Errorf("End of a session whose rows never ran kept the lock: %v", err)
	}
}

// Leaving the loop over the results early stops the run as a stopped
// context does: the rows not yet run stay for the next run.
func TestLeavingTheResultsEarlyStopsTheRun(t *testing.T) {
	dir := t.TempDir()
	h := newRecordingHandler()
	j := testJob(t, dir, h, true, rowsFrom(1, 6))
	j.Parallel = 1
	s, err := Open(j)
	if err != nil {
		t.Fatal(err)
	}
	for range s.Results(context.Background()) {
		break
	}
	sum, err := s.End()
	if err != nil || !sum.Stopped || sum.Done >= 6 {
		t.Fatalf("summary %+v, %v: want a stopped run", sum, err)
	}
	st, err := Load(j.Store.JournalPath("job1"))
	if err != nil || st.Ended {
		t.Fatalf("journal %+v, %v: want one the next run goes on from", st, err)
	}
}

// A resumed job sends nothing for rows an earlier run applied; a job that
// does not resume starts a journal of its own every run.
func TestRunResumesOrStartsAfresh(t *testing.T) {
	for _, resume := range []bool{true, false} {
		dir := t.TempDir()
		h := newRecordingHandler()
		ctx, cancel := context.WithCancel(context.Background())
		// The first run stops after three rows.
		first := rowsFrom(1, 6)
		stopAfter := SourceFunc(func() (Row, error) {
			r, err := first()
			if r.N == 4 {
				cancel()
			}
			return r, err
		})
		j := testJob(t, dir, h, resume, stopAfter)
		j.Parallel = 1
		sum, _, err := runJob(ctx, j, nil)
		if err != nil || !sum.Stopped {
			t.Fatalf("first run: %+v %v", sum, err)
		}
		var seen *State
		j = testJob(t, dir, h, resume, rowsFrom(1, 6))
		sum, _, err = runJob(context.Background(), j, func(prior *State) error { seen = prior; return nil })
		if err != nil {
			t.Fatal(err)
		}
		if seen == nil || seen.Ended {
			t.Errorf("resume %v: Ready saw %+v, want the first run's unended journal", resume, seen)
		}
		h.mu.Lock()
		twice := h.applied[1]
		h.mu.Unlock()
		if resume && (twice != 1 || sum.Earlier == 0) {
			t.Errorf("resumed: row 1 applied %d times, %d by earlier runs", twice, sum.Earlier)
		}
		if !resume && (twice != 2 || sum.Earlier != 0) {
			t.Errorf("afresh: row 1 applied %d times, %d by earlier runs", twice, sum.Earlier)
		}
	}
}

// A job declined once opened sends nothing and writes no journal; Restart forgets the
// earlier run's.
func TestRunReadyRefusesAndRestartForgets(t *testing.T) {
	dir := t.TempDir()
	h := newRecordingHandler()
	refused := errors.New("no")
	j := testJob(t, dir, h, true, rowsFrom(1, 6))
	if _, _, err := runJob(context.Background(), j, func(*State) error { return refused }); !errors.Is(err, refused) {
		t.Fatalf("err %v", err)
	}
	if len(h.applied) != 0 {
		t.Errorf("applied %v after a refusal", h.applied)
	}
	if _, err := os.Stat(j.Store.JournalPath("job1")); !os.IsNotExist(err) {
		t.Errorf("a journal was written: %v", err)
	}
	j.Phases = []Source{rowsFrom(1, 6)}
	if _, _, err := runJob(context.Background(), j, nil); err != nil {
		t.Fatal(err)
	}
	j.Restart = true
	j.Phases = []Source{rowsFrom(1, 6)}
	var seen *State
	if _, _, err := runJob(context.Background(), j, func(prior *State) error { seen = prior; return nil }); err != nil {
		t.Fatal(err)
	}
	if seen != nil || h.applied[1] != 2 {
		t.Errorf("after Restart: Ready saw %+v, row 1 applied %d times", seen, h.applied[1])
	}
}

func TestRunRefusesABusyJob(t *testing.T) {
	dir := t.TempDir()
	j := testJob(t, dir, newRecordingHandler(), true, rowsFrom(1, 1))
	unlock, err := j.Store.Lock("job1")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	_, _, err = runJob(context.Background(), j, nil)
	var busy *BusyError
	if !errors.As(err, &busy) || busy.ID != "job1" || !errors.Is(err, ErrBusy) {
		t.Errorf("err %v, want a BusyError", err)
	}
}

// What an earlier job knew is in the new journal before any row: its
// applied rows are not sent, its unanswered ones are settled first, and
// the earlier job is gone once that is written.
func TestRunCarriesAnEarlierJobAndRemovesIt(t *testing.T) {
	dir := t.TempDir()
	h := newRecordingHandler()
	old := testJob(t, dir, h, true, rowsFrom(1, 2))
	old.Header.ID = "old"
	if _, _, err := runJob(context.Background(), old, nil); err != nil {
		t.Fatal(err)
	}
	h = newRecordingHandler()
	j := testJob(t, dir, h, true, rowsFrom(1, 6))
	j.Carry = Carry{From: "old", Rows: map[int]RowState{
		2: {Status: Done, Outcome: Created, ID: "x", Key: "b"},
		4: {Status: Sent, Key: "d"},
	}}
	sum, _, err := runJob(context.Background(), j, nil)
	if err != nil {
		t.Fatal(err)
	}
	if h.applied[2] != 0 || h.settled[4] != 1 || h.applied[4] != 0 || sum.Earlier != 1 {
		t.Errorf("applied %v, settled %v, earlier %d", h.applied, h.settled, sum.Earlier)
	}
	if _, err := os.Stat(j.Store.JournalPath("old")); !os.IsNotExist(err) {
		t.Errorf("the earlier job is still there: %v", err)
	}
}
