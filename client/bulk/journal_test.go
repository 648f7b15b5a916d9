package bulk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestJournalRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	j, err := Create(path, Header{ID: "abc", Command: "orgctl users create", Rows: 4, Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	j.Run()
	j.Sent(1)
	j.Record(Result{Row: 1, Outcome: Created, ID: "user_1", Key: "a@x"})
	j.Sent(2)
	j.Record(Result{Row: 2, Outcome: Failed, Key: "b@x", Message: "HTTP 400"})
	j.Sent(3) // killed before the answer
	j.Sent(4)
	j.Record(Result{Row: 4, NotSent: true})
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Header.ID != "abc" || st.Runs != 1 || st.Ended {
		t.Errorf("header %+v runs %d ended %v", st.Header, st.Runs, st.Ended)
	}
	for n, want := range map[int]RowState{
		1: {Status: Done, Outcome: Created, ID: "user_1", Key: "a@x"},
		2: {Status: FailedRow, Outcome: Failed, Key: "b@x", Msg: "HTTP 400"},
		3: {Status: Sent},
		4: {},
	} {
		if got := st.Row(n); got != want {
			t.Errorf("row %d = %+v, want %+v", n, got, want)
		}
	}
	c := st.Counts()
	if c["created"] != 1 || c["failed"] != 1 || c["unknown"] != 1 || c["pending"] != 1 {
		t.Errorf("counts %v", c)
	}
}

// A kill -9 in the middle of a write leaves a torn last line: it is
// ignored, and the next run's records start on a line of their own.
func TestJournalIgnoresAndCutsATornLastRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	j, err := Create(path, Header{ID: "abc", Rows: 3})
	if err != nil {
		t.Fatal(err)
	}
	j.Sent(1)
	j.Record(Result{Row: 1, Outcome: Created, ID: "u1"})
	j.Sent(2)
	j.Close()
	whole, _ := os.ReadFile(path)
	torn := encode(record{T: "done", Row: 2, Outcome: Created, ID: "u2"})
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.Write(torn[:len(torn)-7])
	f.Close()

	st, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Row(2).Status != Sent || st.Damaged != 0 {
		t.Fatalf("row 2 = %+v, damaged %d: the torn record must not count", st.Row(2), st.Damaged)
	}
	j2, err := Reopen(path, st)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != string(whole) {
		t.Fatal("Reopen did not cut the torn record off")
	}
	j2.Record(Result{Row: 2, Outcome: Created, ID: "u2"})
	j2.Close()
	st, err = Load(path)
	if err != nil || st.Row(2).Status != Done || st.Row(2).ID != "u2" {
		t.Fatalf("after reopen: %+v %v", st.Row(2), err)
	}
}

func TestJournalCountsDamageInTheMiddle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	j, _ := Create(path, Header{ID: "abc", Rows: 2})
	j.Record(Result{Row: 1, Outcome: Created})
	j.Record(Result{Row: 2, Outcome: Created})
	j.Close()
	b, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(b), "\n")
	lines[1] = strings.Replace(lines[1], `"row":1`, `"row":7`, 1) // checksum no longer matches
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600)
	st, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	// The damaged record still names a row (here its number is the damage):
	// that row is looked up before anything is sent, never sent blindly.
	if st.Damaged != 1 || st.Row(1).Status != Pending || st.Row(7).Status != Sent || st.Row(2).Status != Done {
		t.Errorf("damaged %d, rows %+v %+v %+v", st.Damaged, st.Row(1), st.Row(2), st.Row(7))
	}
	if note := st.DamageNote(); !strings.Contains(note, "1 damaged record in the middle of its journal (line 2); row 7, which they were about, is taken as sent") {
		t.Errorf("note %q", note)
	}
}

func TestLoadRejectsOtherFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	os.WriteFile(path, []byte("hello\n"), 0o600)
	if _, err := Load(path); err == nil {
		t.Error("a file without a job header loaded")
	}
}

func TestStoreFindsLocksAndForgetsJobs(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	id := JobID("orgctl users create", []string{"--on-exists=skip"}, "https://x", []byte{1})
	if id == JobID("orgctl users create", nil, "https://x", []byte{1}) || len(id) != 12 {
		t.Fatalf("id %q must depend on the flags", id)
	}
	unlock, err := s.Lock(id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lock(id); err != ErrBusy {
		t.Errorf("second lock: %v", err)
	}
	if err := s.Remove(id); err != ErrBusy {
		t.Errorf("removing a running job: %v", err)
	}
	j, err := Create(s.JournalPath(id), Header{ID: id, Rows: 1})
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	jobs, err := s.List()
	if err != nil || len(jobs) != 1 || !jobs[0].Running {
		t.Fatalf("list %+v %v", jobs, err)
	}
	unlock()
	if got, err := s.Find(id[:4]); err != nil || got != id {
		t.Errorf("find by prefix: %q %v", got, err)
	}
	if _, err := s.Find("zzzz"); err == nil {
		t.Error("found a job that does not exist")
	}
	if err := s.Remove(id); err != nil {
		t.Fatal(err)
	}
	if jobs, _ := s.List(); len(jobs) != 0 {
		t.Errorf("after rm: %+v", jobs)
	}
}

func TestSpoolKeepsStdinInTheJob(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	p, sum, err := s.Spool(strings.NewReader("email\na@x\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := InputHash()
	h.Write([]byte("email\na@x\n"))
	if string(sum) != string(h.Sum(nil)) {
		t.Error("spool hash differs from the bytes' hash")
	}
	kept, err := s.Keep(p, "job1")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(kept); string(b) != "email\na@x\n" {
		t.Errorf("kept %q", b)
	}
	p2, _, _ := s.Spool(strings.NewReader("email\na@x\n"))
	if _, err := s.Keep(p2, "job1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p2); !os.IsNotExist(err) {
		t.Error("a second spool of a kept job was left behind")
	}
}
