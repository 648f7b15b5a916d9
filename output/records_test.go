package output

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"
)

var testFields = []Field{
	{Name: "row", Header: "ROW", Width: 4},
	{Name: "key", Header: "KEY", Width: 10},
	{Name: "outcome", Header: "OUTCOME", Width: 8},
	{Name: "message", Header: "MESSAGE"},
}

func recordsOut(t *testing.T, tty bool, opts Options, width int) string {
	t.Helper()
	var out bytes.Buffer
	p := &Printer{IO: &IO{Out: &out, OutTTY: tty, Width: width}, Opts: opts}
	r := NewRecords(p, testFields)
	r.Write(1, "ada@example.com", "created", "")
	r.Write(2, "bob", "failed", "HTTP 409:\nalready exists")
	return out.String()
}

// Piped, a record is a line of one field per column, as the piped table
// writes it: a line break or tab inside a value is a space, never another
// field that would shift what cut -f reads.
func TestRecordsPipedAreTabSeparatedWithoutHeader(t *testing.T) {
	got := recordsOut(t, false, Options{Format: "table"}, 0)
	want := "1\tada@example.com\tcreated\t\n2\tbob\tfailed\tHTTP 409: already exists\n"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	var out bytes.Buffer
	NewRecords(&Printer{IO: &IO{Out: &out}}, testFields).Write(3, "a\tb", "failed", "x\r\ny")
	if got, want := out.String(), "3\ta b\tfailed\tx  y\n"; got != want {
		t.Errorf("tabs and breaks in values: got %q, want %q", got, want)
	}
}

func TestRecordsOnATerminalAreATable(t *testing.T) {
	got := recordsOut(t, true, Options{Format: "table"}, 0)
	want := "ROW   KEY              OUTCOME   MESSAGE\n" +
		"1     ada@example.com  created\n" +
		"2     bob              failed    HTTP 409: already exists\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestRecordsAsJSONLines(t *testing.T) {
	got := recordsOut(t, true, Options{Format: "json"}, 0)
	want := `{"row":1,"key":"ada@example.com","outcome":"created","message":""}` + "\n" +
		`{"row":2,"key":"bob","outcome":"failed","message":"HTTP 409:\nalready exists"}` + "\n"
	if got != want {
		t.Errorf("got %q", got)
	}
	if got := recordsOut(t, false, Options{JQ: ".key"}, 0); got != "ada@example.com\nbob\n" {
		t.Errorf("--jq per record: %q", got)
	}
}

func TestCSVRecordsHaveAHeader(t *testing.T) {
	var b bytes.Buffer
	c := NewCSVRecords(&b, testFields)
	c.Write(1, "a,b", "created", "")
	if b.String() != "row,key,outcome,message\n1,\"a,b\",created,\n" {
		t.Errorf("got %q", b.String())
	}
}

// syncBuffer is a bytes.Buffer safe for the progress goroutine and the
// test, which can wait for what it expects to be written: a test waits on
// the writes themselves, never on a guess of how long they take.
type syncBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{}
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.wrote == nil {
		s.wrote = make(chan struct{}, 1)
	}
	select {
	case s.wrote <- struct{}{}:
	default: // a signal is already pending; the waiter rereads the buffer
	}
	return s.b.Write(p)
}

// waitFor returns once ok holds for what has been written.
func (s *syncBuffer) waitFor(ok func(string) bool) {
	s.mu.Lock()
	if s.wrote == nil {
		s.wrote = make(chan struct{}, 1)
	}
	wrote := s.wrote
	s.mu.Unlock()
	for !ok(s.String()) {
		<-wrote
	}
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestProgressPrintsPlainLinesWhenPiped(t *testing.T) {
	var w syncBuffer
	p := &Progress{W: &w, Every: 30 * time.Millisecond, Stats: func() ProgressStats {
		return ProgressStats{Done: 120, Total: 600, Failed: 2, ETA: 14 * time.Second, ETAKnown: true}
	}}
	p.Start()
	w.waitFor(func(s string) bool { return strings.Count(s, "\n") >= 2 })
	p.Stop()
	lines := strings.Split(strings.TrimSpace(w.String()), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "orgctl: 120/600 rows done, 2 failed, ") || !strings.HasSuffix(lines[0], ", about 14s left") {
		t.Errorf("lines %q", lines)
	}
	if strings.Contains(w.String(), "\r") {
		t.Error("a piped progress line redraws")
	}
}

func TestProgressBarClearsAroundOtherOutput(t *testing.T) {
	var w syncBuffer
	p := &Progress{W: &w, TTY: true, Stats: func() ProgressStats { return ProgressStats{Done: 1, Total: 4} }}
	p.Start()
	// Wait for the first drawing, however long a loaded machine takes to
	// schedule it: the point is what Pause does to a bar on screen.
	w.waitFor(func(s string) bool { return strings.Contains(s, "rows") })
	p.Pause(func() { w.Write([]byte("result\n")) })
	p.Stop()
	s := w.String()
	if !strings.Contains(s, "[######------------------] 1/4 rows") || !strings.Contains(s, "\r\x1b[Kresult\n\r\x1b[K[") {
		t.Errorf("got %q", s)
	}
	if !strings.HasSuffix(s, "\r\x1b[K") {
		t.Errorf("Stop left the bar on screen: %q", s)
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{14 * time.Second: "14s", 185 * time.Second: "3m05s", 3720 * time.Second: "1h02m"} {
		if got := Duration(d); got != want {
			t.Errorf("%v: %q", d, got)
		}
	}
}

func TestRecordsAsYAMLDocuments(t *testing.T) {
	got := recordsOut(t, false, Options{Format: "yaml"}, 0)
	if !strings.HasPrefix(got, "---\nrow: 1\nkey: ada@example.com\noutcome: created\n") || strings.Count(got, "---\n") != 2 {
		t.Errorf("got %q", got)
	}
}

func TestCSVCellNeutralisesFormulas(t *testing.T) {
	for in, want := range map[string]string{
		"=1+1": "'=1+1", "+SUM(1+1)": "'+SUM(1+1)", "-2+3": "'-2+3", "@A1": "'@A1",
		"\tx": "'\tx", "\rx": "'\rx", "-": "'-", "+": "'+", "-1.": "'-1.", "--5": "'--5",
		"-12": "-12", "+3.5": "+3.5", "12": "12", "": "", "a=b": "a=b", "plain": "plain",
	} {
		if got := CSVCell(in); got != want {
			t.Errorf("CSVCell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCSVOutputHasTheTableColumnsAndNeutralisedCells(t *testing.T) {
	var out bytes.Buffer
	p := &Printer{IO: &IO{Out: &out}, Opts: Options{Format: "csv"}}
	cols := []Column{{Header: "ID", Field: "id"}, {Header: "USER NAME", Field: "name"}}
	data := `[{"id":1,"name":"=HYPERLINK(\"http://x\",\"y\")"},{"id":2,"name":"a,b"}]`
	if err := p.Print([]byte(data), cols); err != nil {
		t.Fatal(err)
	}
	want := "id,user-name\n1,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"\n2,\"a,b\"\n"
	if out.String() != want {
		t.Errorf("got %q\nwant %q", out.String(), want)
	}
	out.Reset()
	if err := p.Print([]byte(`[]`), cols); err != nil || out.String() != "id,user-name\n" {
		t.Errorf("empty list: %q, %v", out.String(), err)
	}
}

// A job's results on a narrow terminal: each column as wide as its
// content, the key whole; the id is cut in the middle, then the optional
// fields go, so that the message keeps room; the message wraps under its
// column, or below the line when the key leaves it too little. No line is
// wider than the terminal but for a key wider than the terminal itself.
func TestRecordsFitANarrowTerminal(t *testing.T) {
	fields := []Field{
		{Name: "row", Header: "ROW"},
		{Name: "line", Header: "LINE", Optional: true},
		{Name: "key", Header: "KEY", Key: true},
		{Name: "outcome", Header: "OUTCOME"},
		{Name: "id", Header: "ID", Optional: true},
		{Name: "message", Header: "MESSAGE"},
	}
	const reason = "HTTP 409: a user with this email already exists"
	write := func(width int) string {
		var out bytes.Buffer
		r := NewRecords(&Printer{IO: &IO{Out: &out, OutTTY: true, Width: width}}, fields)
		r.Expect("key", len("former.employee@sandbox.example"))
		r.Write(2, 3, "ana.viewer@sandbox.example", "failed", "", reason)
		r.Write(1, 2, "former.employee@sandbox.example", "created", "user_0000000000000000005a4d0000000005", "")
		r.Flush()
		return out.String()
	}
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, width := range []int{50, 60, 80, 100, 140} {
		got := write(width)
		for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			if n := len([]rune(l)); n > width {
				t.Errorf("width %d: a line of %d: %q", width, n, l)
			}
		}
		if !strings.Contains(got, "former.employee@sandbox.example ") || !strings.Contains(got, "ana.viewer@sandbox.example ") {
			t.Errorf("width %d: a key was cut:\n%s", width, got)
		}
		if !strings.Contains(words(got), reason) {
			t.Errorf("width %d: the message was cut:\n%s", width, got)
		}
		if strings.Contains(got, "…") && width > 100 {
			t.Errorf("width %d: nothing needs cutting:\n%s", width, got)
		}
	}
	if got := write(140); !strings.Contains(got, "user_0000000000000000005a4d0000000005\n") || !strings.HasPrefix(got, "ROW  LINE  KEY ") {
		t.Errorf("width 140: columns as wide as their content, the id whole:\n%s", got)
	}
	if got := write(100); !regexp.MustCompile(`user_0+…[0-9a-f]*0000000005\n`).MatchString(got) || !strings.Contains(got, "LINE") {
		t.Errorf("width 100: want the id cut in the middle and the line kept:\n%s", got)
	}
	if got := write(60); strings.Contains(got, "user_") || strings.Contains(got, "LINE") {
		t.Errorf("width 60: want the id and line left out:\n%s", got)
	}
	if got := write(0); !strings.Contains(got, "user_0000000000000000005a4d0000000005") || !strings.Contains(got, reason) {
		t.Errorf("unknown width: values whole:\n%s", got)
	}
}

// The first records are held back while a column of unknown width has had
// no value, so that a first row without an id does not make the id column
// two wide; an id wider than the ones the column was fitted to is printed
// whole.
func TestRecordsSizeColumnsByTheirFirstValues(t *testing.T) {
	fields := []Field{{Name: "key", Header: "KEY", Key: true}, {Name: "id", Header: "ID"}, {Name: "message", Header: "MESSAGE"}}
	var out bytes.Buffer
	r := NewRecords(&Printer{IO: &IO{Out: &out, OutTTY: true, Width: 80}}, fields)
	r.Write("a@x", "", "invalid")
	if out.Len() != 0 {
		t.Fatalf("printed before any id was seen: %q", out.String())
	}
	r.Write("b@x", "12", "")
	r.Write("a-much-longer-key@x", "12345", "")
	want := "KEY  ID  MESSAGE\n" +
		"a@x      invalid\n" +
		"b@x  12\n" +
		"a-much-longer-key@x  12345\n"
	if got := out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	out.Reset()
	r = NewRecords(&Printer{IO: &IO{Out: &out, OutTTY: true, Width: 80}}, fields)
	r.Write("a@x", "", "invalid")
	r.Flush()
	if got := out.String(); got != "KEY  ID  MESSAGE\na@x      invalid\n" {
		t.Errorf("flushed: %q", got)
	}
}

// While the budget holds the job back the line says so and until when; a
// server slower than the budget makes the observed pace the ETA.
func TestProgressSaysWhenItWaitsAndTrustsTheSlowerPace(t *testing.T) {
	at := time.Date(2026, 11, 26, 17, 45, 12, 0, time.Local)
	p := &Progress{Stats: func() ProgressStats { return ProgressStats{} }}
	p.start = time.Now().Add(-10 * time.Second)
	line := p.line(ProgressStats{Done: 10, Total: 110, ETA: 0, ETAKnown: true, ResumeAt: at})
	if !strings.HasSuffix(line, "; waiting for the budget, resuming at 17:45:12") {
		t.Errorf("waiting: %q", line)
	}
	// 10 rows in 10 s, 100 left: 1m40s at the pace seen, though the budget says 0s
	p = &Progress{Stats: func() ProgressStats { return ProgressStats{} }}
	p.start = time.Now().Add(-10 * time.Second)
	if line := p.line(ProgressStats{Done: 10, Total: 110, ETA: 0, ETAKnown: true}); !strings.HasSuffix(line, "about 1m40s left") {
		t.Errorf("slow server: %q", line)
	}
	// the budget slower than the pace seen: the budget's ETA stands
	if line := p.line(ProgressStats{Done: 10, Total: 110, ETA: 5 * time.Minute, ETAKnown: true}); !strings.HasSuffix(line, "about 5m00s left") {
		t.Errorf("slow budget: %q", line)
	}
	if bar := p.fitBar(ProgressStats{Done: 10, Total: 110, ResumeAt: at}, 0); !strings.Contains(bar, "waiting for the budget, resuming at 17:45:12") {
		t.Errorf("bar: %q", bar)
	}
}

// On a terminal the columns line up in display columns, as the table's
// do: a CJK key, two columns a character, is padded and cut by its width.
func TestRecordsAlignWideText(t *testing.T) {
	var out bytes.Buffer
	r := NewRecords(&Printer{IO: &IO{Out: &out, OutTTY: true}}, testFields)
	r.Write(1, "日本語", "created", "")
	r.Write(2, "日本語のグループ名", "failed", "x")
	r.Write(3, "bob", "failed", "y")
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	at := func(l string) int { // the display column OUTCOME starts at
		i := strings.Index(l, "created")
		if i < 0 {
			i = strings.Index(l, "failed")
		}
		if i < 0 {
			i = strings.Index(l, "OUTCOME")
		}
		return runewidth.StringWidth(l[:i])
	}
	for _, l := range lines[1:] {
		if at(l) != at(lines[0]) {
			t.Errorf("OUTCOME at column %d, the header's at %d:\n%s", at(l), at(lines[0]), out.String())
		}
	}
	if !strings.Contains(lines[2], "日本語の… ") {
		t.Errorf("a key wider than its column is cut to its width: %q", lines[2])
	}
}
