package output

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/output/safetext"
)

// hostile is what a member of an org can put in a name: a clipboard write
// (OSC 52), a cleared screen, a window title, a planted link, a C1 CSI, a
// bidi override and isolate, a byte that is not UTF-8.
const hostile = "a\x1b]52;c;aGk=\x07b\x1b[2Jc\x1b]0;title\x07d\x1b]8;;https://evil.example\x1b\\e\u009b31mf\u202eg\u2066h\xffi"

func TestSafeEscapesWhatActs(t *testing.T) {
	got := Safe(hostile)
	want := `a\x1b]52;c;aGk=\x07b\x1b[2Jc\x1b]0;title\x07d\x1b]8;;https://evil.example\x1b\e\u009b31mf\u202eg\u2066h\xffi`
	if got != want {
		t.Errorf("Safe:\n got %s\nwant %s", got, want)
	}
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\u2066", "\u009b", "\xff"} {
		if strings.Contains(got, bad) {
			t.Errorf("Safe left %q in %q", bad, got)
		}
	}
}

func TestSafeKeepsText(t *testing.T) {
	for _, s := range []string{"", "ana@example.com", "Café Zürich", "日本語", "👨\u200d👩\u200d👧", "ops (All Users) → edit", `DOMAIN\user`} {
		if got := Safe(s); got != s {
			t.Errorf("Safe(%q) = %q, want it unchanged", s, got)
		}
	}
	for in, want := range map[string]string{"a\nb": `a\nb`, "a\tb": `a\tb`, "a\rb": `a\rb`, "\u200fx": `\u200fx`, "x\u2028y": `x\u2028y`, "\ufeffz": `\ufeffz`} {
		if got := Safe(in); got != want {
			t.Errorf("Safe(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTerminalWriterLetsOnlyOwnSequences(t *testing.T) {
	var b bytes.Buffer
	w := &terminalWriter{w: &b}
	own := "\x1b[32m✓\x1b[0m done\n\r\x1b[K[###---] 1/2\r\x1b[K"
	w.Write([]byte(own))
	if b.String() != own {
		t.Errorf("own sequences changed: %q", b.String())
	}
	b.Reset()
	w.Write([]byte(hostile + "\n"))
	flushTerminal(w)
	if got, want := b.String(), Safe(hostile)+"\n"; got != want {
		t.Errorf("hostile text:\n got %q\nwant %q", got, want)
	}
}

// A rune or a sequence cut between two writes (a buffered writer's
// boundary) arrives whole; one never completed is escaped at Flush.
func TestTerminalWriterAcrossWrites(t *testing.T) {
	var b bytes.Buffer
	w := &terminalWriter{w: &b}
	text := "é\x1b[31mred\x1b[0m\u202e"
	for i := 0; i < len(text); i++ {
		w.Write([]byte{text[i]})
	}
	flushTerminal(w)
	if got, want := b.String(), "é\x1b[31mred\x1b[0m\\u202e"; got != want {
		t.Errorf("byte by byte: got %q, want %q", got, want)
	}
	b.Reset()
	w.Write([]byte("end\x1b"))
	if b.String() != "end" {
		t.Errorf("an ESC at the end of a write is held back: got %q", b.String())
	}
	flushTerminal(w)
	if got := b.String(); got != `end\x1b` {
		t.Errorf("flushed: got %q", got)
	}
	b.Reset()
	w.Write([]byte("x\xe2\x80"))
	flushTerminal(w)
	if got := b.String(); got != `x\xe2\x80` {
		t.Errorf("cut rune flushed: got %q", got)
	}
}

func TestTableAndDetailAreSafe(t *testing.T) {
	var out bytes.Buffer
	p := &Printer{IO: &IO{Out: &out, OutTTY: true, Width: 200}, Opts: Options{Format: "table"}}
	data := `[{"name":"ops\u001b]52;c;aGk=\u0007 \u202eevil","id":1}]`
	if err := p.Print([]byte(data), []Column{{Header: "NAME", Field: "name"}, {Header: "ID", Field: "id"}}); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); strings.ContainsAny(s, "\x1b\x07\u202e") || !strings.Contains(s, `ops\x1b]52;c;aGk=\x07 \u202eevil`) {
		t.Errorf("table: %q", s)
	}
	out.Reset()
	entries, err := Entries([]byte(`{"name":"x\u001b[2J","a\u202eb":"c"}`), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.PrintEntries(entries); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); strings.ContainsAny(s, "\x1b\u202e") || !strings.Contains(s, `x\x1b[2J`) || !strings.Contains(s, `a\u202eb`) {
		t.Errorf("detail: %q", s)
	}
	// piped TSV stays as received, apart from its documented flattening
	out.Reset()
	p.IO.OutTTY = false
	if err := p.Print([]byte(data), []Column{{Header: "NAME", Field: "name"}}); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "ops\x1b]52;c;aGk=\x07 \u202eevil\n"; got != want {
		t.Errorf("piped: got %q, want %q", got, want)
	}
}

func TestNoticeArgumentsAreSafe(t *testing.T) {
	var errb bytes.Buffer
	s := &IO{Err: &errb}
	s.Success("Created group %s", "ops\x1b]0;t\x07")
	if got, want := errb.String(), "✓ Created group ops\\x1b]0;t\\x07\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSafeLinesKeepsLayout(t *testing.T) {
	if got, want := safetext.Lines("no group \"x\x1b[2J\"\n  try:\tsupport\u202e"), "no group \"x\\x1b[2J\"\n  try:\tsupport\\u202e"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
