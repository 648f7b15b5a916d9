package bulk

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/orgctl/orgctl/output/fsguard"
)

// Outcome is what became of one row.
type Outcome string

const (
	Created Outcome = "created"
	Updated Outcome = "updated"
	Deleted Outcome = "deleted"
	// Skipped: nothing was sent (the object already exists and --on-exists skip).
	Skipped Outcome = "skipped"
	Failed  Outcome = "failed"
	// Unknown: a request was sent and no answer came back; it may have been applied.
	Unknown Outcome = "unknown"
)

// Applied reports whether a row with this outcome needs nothing more.
func (o Outcome) Applied() bool {
	switch o {
	case Created, Updated, Deleted, Skipped:
		return true
	}
	return false
}

// Header describes a job; it is the journal's first record.
type Header struct {
	ID      string   `json:"id"`
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
	Flags   []string `json:"flags,omitempty"`
	Input   string   `json:"input"`
	Format  Format   `json:"format"`
	Rows    int      `json:"rows"`
	// Path is the input file's absolute path ("" for stdin): a later job
	// of the same command on an edited file finds this one by it.
	Path   string `json:"path,omitempty"`
	Target string `json:"target"`
	// Account is a digest of who the job acted as (the URL and the token):
	// a job of another account is another org's, never resumed here.
	Account string    `json:"account,omitempty"`
	Created time.Time `json:"created"`
}

// record is one journal line's JSON.
type record struct {
	T       string         `json:"t"` // job, run, sent, done, failed, unknown, unsent, end
	Row     int            `json:"row,omitempty"`
	Outcome Outcome        `json:"o,omitempty"`
	ID      string         `json:"id,omitempty"`
	Key     string         `json:"k,omitempty"`
	Msg     string         `json:"msg,omitempty"`
	At      *time.Time     `json:"at,omitempty"`
	PID     int            `json:"pid,omitempty"`
	Job     *Header        `json:"job,omitempty"`
	Counts  map[string]int `json:"counts,omitempty"`
}

// Status is where a row stands according to the journal.
type Status uint8

const (
	// Pending rows have not been sent (or were stopped before sending).
	Pending Status = iota
	// Sent rows left without an answer recorded: their outcome is unknown
	// until a lookup settles it.
	Sent
	// Done rows were applied (or skipped); a resume sends nothing for them.
	Done
	// FailedRow rows were answered with an error; a resume runs them again.
	FailedRow
)

// RowState is one row's last known fate.
type RowState struct {
	Status  Status
	Outcome Outcome
	ID      string
	Key     string
	Msg     string
}

// State is what a journal says about a job.
type State struct {
	Header Header
	// Runs counts the runs that have written to the journal.
	Runs int
	// Ended: the last run finished (every row was taken) rather than being stopped or killed.
	Ended bool
	// Last is when the journal last changed.
	Last time.Time
	// Damaged counts unreadable records before the last (a torn last
	// record, from a kill mid-write, is expected and not counted).
	Damaged int
	// DamagedLines are their line numbers in the journal, and DamagedRows
	// the rows those that still name one were about: each such row that
	// was not known applied is taken as sent without an answer, so a
	// resume looks it up (or reports it unknown) instead of sending it
	// blindly a second time.
	DamagedLines []int
	DamagedRows  []int

	rows []RowState // by row number - 1
	good int64      // length of the readable prefix
}

// Row is the state of row n (Pending when the journal has nothing on it).
func (s *State) Row(n int) RowState {
	if s == nil || n < 1 || n > len(s.rows) {
		return RowState{}
	}
	return s.rows[n-1]
}

// Counts tallies the rows by their last known fate: outcome names, plus
// "pending" for rows with nothing recorded (out of Header.Rows).
func (s *State) Counts() map[string]int {
	c := map[string]int{}
	seen := 0
	for _, r := range s.rows {
		switch r.Status {
		case Done:
			c[string(r.Outcome)]++
		case FailedRow:
			c[string(Failed)]++
		case Sent:
			c[string(Unknown)]++
		default:
			continue
		}
		seen++
	}
	if p := s.Header.Rows - seen; p > 0 {
		c["pending"] = p
	}
	return c
}

// EachRow calls fn for every row the journal has something on, in row order.
func (s *State) EachRow(fn func(n int, r RowState)) {
	for i, r := range s.rows {
		if r.Status != Pending {
			fn(i+1, r)
		}
	}
}

func (s *State) set(n int, r RowState) {
	if n < 1 || n > 1<<26 {
		return
	}
	for len(s.rows) < n {
		s.rows = append(s.rows, RowState{})
	}
	s.rows[n-1] = r
}

// encode frames a record as "<crc32c of the JSON, 8 hex digits> <JSON>\n",
// so a line cut short by a kill mid-write is recognised and ignored.
func encode(r record) []byte {
	js, _ := json.Marshal(r)
	out := make([]byte, 0, len(js)+10)
	out = fmt.Appendf(out, "%08x ", crc32.Checksum(js, crc32.MakeTable(crc32.Castagnoli)))
	out = append(out, js...)
	return append(out, '\n')
}

// decode reads one framed line (without its newline).
func decode(line []byte) (record, bool) {
	var r record
	if len(line) < 10 || line[8] != ' ' {
		return r, false
	}
	sum, err := strconv.ParseUint(string(line[:8]), 16, 32)
	if err != nil || uint32(sum) != crc32.Checksum(line[9:], crc32.MakeTable(crc32.Castagnoli)) {
		return r, false
	}
	if json.Unmarshal(line[9:], &r) != nil {
		return r, false
	}
	return r, true
}

// Load reads a journal. A torn last record is ignored.
func Load(path string) (*State, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st := &State{}
	if fi, err := f.Stat(); err == nil {
		st.Last = fi.ModTime()
	}
	br := bufio.NewReaderSize(f, 64<<10)
	var off int64
	type damage struct{ line, row int }
	var bad []damage
	first := true
	lineNo := 0
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			off += int64(len(line))
			lineNo++
			r, ok := decode(line[:len(line)-1])
			if !ok {
				bad = append(bad, damage{lineNo, damagedRow(line)})
				continue
			}
			if first {
				if r.T != "job" || r.Job == nil {
					return nil, fmt.Errorf("%s is not a job journal", path)
				}
				st.Header = *r.Job
				first = false
				st.good = off
				continue
			}
			// Only unreadable records followed by good ones are damage.
			for _, d := range bad {
				st.Damaged++
				st.DamagedLines = append(st.DamagedLines, d.line)
				if d.row > 0 {
					st.DamagedRows = append(st.DamagedRows, d.row)
					if prev := st.Row(d.row); prev.Status == Pending || prev.Status == FailedRow {
						st.set(d.row, RowState{Status: Sent, Key: prev.Key})
					}
				}
			}
			bad = bad[:0]
			st.apply(r)
			st.good = off
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if first {
		return nil, fmt.Errorf("%s is not a job journal (no readable header)", path)
	}
	return st, nil
}

// DamageNote says what the journal's damaged records mean for a resume
// ("" when there are none), for a warning naming the job.
func (s *State) DamageNote() string {
	if s == nil || s.Damaged == 0 {
		return ""
	}
	lines := make([]string, len(s.DamagedLines))
	for i, l := range s.DamagedLines {
		lines[i] = strconv.Itoa(l)
	}
	recs := "records"
	if s.Damaged == 1 {
		recs = "record"
	}
	msg := fmt.Sprintf("%d damaged %s in the middle of its journal (%s %s)", s.Damaged, recs, plural(len(lines), "line"), strings.Join(lines, ", "))
	if n := len(s.DamagedRows); n > 0 {
		var rows []string
		seen := map[int]bool{}
		for _, r := range s.DamagedRows {
			if !seen[r] {
				seen[r] = true
				rows = append(rows, strconv.Itoa(r))
			}
		}
		msg += fmt.Sprintf("; %s %s, which they were about, %s taken as sent without an answer: looked up before anything is sent again, or reported unknown",
			plural(len(rows), "row"), strings.Join(rows, ", "), map[bool]string{true: "is", false: "are"}[len(rows) == 1])
	}
	if lost := s.Damaged - len(s.DamagedRows); lost > 0 {
		msg += fmt.Sprintf("; %d name no readable row: what they recorded is lost, so a row they marked applied runs again", lost)
	}
	return msg
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// damagedRow is the row a damaged record still names ("row":N intact), or 0.
func damagedRow(line []byte) int {
	i := bytes.Index(line, []byte(`"row":`))
	if i < 0 {
		return 0
	}
	j := i + len(`"row":`)
	k := j
	for k < len(line) && line[k] >= '0' && line[k] <= '9' {
		k++
	}
	if k == j || k-j > 8 || k >= len(line) || (line[k] != ',' && line[k] != '}') {
		return 0
	}
	n, err := strconv.Atoi(string(line[j:k]))
	if err != nil || n > 1<<26 {
		return 0
	}
	return n
}

func (s *State) apply(r record) {
	switch r.T {
	case "run":
		s.Runs++
		s.Ended = false
	case "end":
		s.Ended = true
	case "sent":
		prev := s.Row(r.Row)
		key := r.Key
		if key == "" {
			key = prev.Key
		}
		s.set(r.Row, RowState{Status: Sent, Key: key})
	case "done":
		s.set(r.Row, RowState{Status: Done, Outcome: r.Outcome, ID: r.ID, Key: r.Key, Msg: r.Msg})
	case "failed":
		s.set(r.Row, RowState{Status: FailedRow, Outcome: Failed, ID: r.ID, Key: r.Key, Msg: r.Msg})
	case "unknown":
		s.set(r.Row, RowState{Status: Sent, Outcome: Unknown, Key: r.Key, Msg: r.Msg})
	case "unsent":
		s.set(r.Row, RowState{})
	}
}

// Journal appends records to a job's journal file. It is safe for
// concurrent use. Every record is written at once, so a killed process
// loses nothing it wrote; fsync (which only a power cut needs) runs every
// SyncEvery records or SyncAfter, whichever comes first, and on Close.
type Journal struct {
	mu        sync.Mutex
	f         *os.File
	unsynced  int
	err       error
	syncEvery int
	stop      chan struct{}
	done      chan struct{}
}

const (
	// SyncEvery bounds the records a power cut can lose...
	SyncEvery = 256
	// SyncAfter ...and how old they can be.
	SyncAfter = 250 * time.Millisecond
)

// Create starts a new journal at path with the job's header. It fails if
// the file exists.
func Create(path string, h Header) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	j := newJournal(f)
	j.write(record{T: "job", Job: &h})
	if err := j.Sync(); err != nil {
		j.Close()
		return nil, err
	}
	return j, nil
}

// Reopen continues a journal that Load read: the torn end of a record a
// kill cut short is cut off, so the next record starts on a line of its own.
func Reopen(path string, st *State) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|fsguard.NoFollow, 0o600)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > st.good {
		if err := f.Truncate(st.good); err != nil {
			f.Close()
			return nil, err
		}
	}
	return newJournal(f), nil
}

func newJournal(f *os.File) *Journal {
	j := &Journal{f: f, syncEvery: SyncEvery, stop: make(chan struct{}), done: make(chan struct{})}
	go j.syncLoop()
	return j
}

func (j *Journal) syncLoop() {
	defer close(j.done)
	t := time.NewTicker(SyncAfter)
	defer t.Stop()
	for {
		select {
		case <-j.stop:
			return
		case <-t.C:
			j.mu.Lock()
			if j.unsynced > 0 {
				j.syncLocked()
			}
			j.mu.Unlock()
		}
	}
}

func (j *Journal) write(r record) {
	b := encode(r)
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return
	}
	// One write per record: O_APPEND keeps concurrent records whole.
	if _, err := j.f.Write(b); err != nil {
		j.err = fmt.Errorf("journal %s: %w", j.f.Name(), err)
		return
	}
	j.unsynced++
	if j.unsynced >= j.syncEvery {
		j.syncLocked()
	}
}

func (j *Journal) syncLocked() {
	if err := j.f.Sync(); err != nil && j.err == nil {
		j.err = fmt.Errorf("journal %s: %w", j.f.Name(), err)
	}
	j.unsynced = 0
}

// Run marks the start of a run (first or resumed).
func (j *Journal) Run() {
	now := time.Now().UTC()
	j.write(record{T: "run", At: &now, PID: os.Getpid()})
}

// Sent records that row n's change is about to leave: from now on its
// outcome is unknown until Record. key, when known, is the row's natural
// key, by which a job on an edited input finds the row again.
func (j *Journal) Sent(n int, key ...string) {
	r := record{T: "sent", Row: n}
	if len(key) > 0 {
		r.Key = key[0]
	}
	j.write(r)
}

// Carry writes what an earlier job knew of a row, as this job's row n.
func (j *Journal) Carry(n int, rs RowState) {
	switch rs.Status {
	case Done:
		j.write(record{T: "done", Row: n, Outcome: rs.Outcome, ID: rs.ID, Key: rs.Key, Msg: rs.Msg})
	case Sent:
		j.write(record{T: "sent", Row: n, Key: rs.Key})
		if rs.Outcome == Unknown {
			j.write(record{T: "unknown", Row: n, Key: rs.Key, Msg: rs.Msg})
		}
	}
}

// Record writes a row's result.
func (j *Journal) Record(r Result) {
	rec := record{Row: r.Row, Outcome: r.Outcome, ID: r.ID, Key: r.Key, Msg: r.Message}
	switch {
	case r.NotSent:
		rec = record{T: "unsent", Row: r.Row}
	case r.Outcome.Applied():
		rec.T = "done"
	case r.Outcome == Failed:
		rec.T, rec.Outcome = "failed", ""
	default:
		rec.T, rec.Outcome = "unknown", ""
	}
	j.write(rec)
}

// End marks a run that took every row.
func (j *Journal) End(counts map[string]int) {
	now := time.Now().UTC()
	j.write(record{T: "end", At: &now, Counts: counts})
}

// Err is the first write or sync error (records after it are lost).
func (j *Journal) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// Sync forces what was written to disk.
func (j *Journal) Sync() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.syncLocked()
	return j.err
}

// Close syncs and closes the journal.
func (j *Journal) Close() error {
	select {
	case <-j.stop:
		return j.err
	default:
	}
	close(j.stop)
	<-j.done
	err := j.Sync()
	if cerr := j.f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	return err
}
