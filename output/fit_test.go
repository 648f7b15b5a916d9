package output

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
)

const fitData = `[
 {"id":"user_0000000000000000005a4d0000000001","email":"admin@sandbox.example","first_name":"Sandbox","note":"the first administrator, made when the org was","active":true},
 {"id":"user_0000000000000000005a4d0000000004","email":"ana.viewer@sandbox.example","first_name":"Ana","note":"–","active":true},
 {"id":"user_0000000000000000005a4d0000000005","email":"former.employee@sandbox.example","first_name":"Fôrmer 名前","note":"","active":false}
]`

var fitColumns = []Column{{Header: "ID", Field: "id"}, {Header: "EMAIL", Field: "email"},
	{Header: "FIRST NAME", Field: "first_name"}, {Header: "NOTE", Field: "note"}, {Header: "ACTIVE", Field: "active"}}

func printAt(t *testing.T, width int, tty bool, names ...string) string {
	t.Helper()
	var out bytes.Buffer
	p := &Printer{IO: &IO{Out: &out, OutTTY: tty, Width: width}, Opts: Options{Columns: names}}
	if err := p.Print([]byte(fitData), fitColumns); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestTableFitsTheTerminal(t *testing.T) {
	wide := printAt(t, 0, true)
	for _, width := range []int{30, 40, 60, 80, 100, 200} {
		got := printAt(t, width, true)
		lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		if len(lines) != 4 {
			t.Fatalf("width %d: %d lines, want a header and 3 rows:\n%s", width, len(lines), got)
		}
		for _, l := range lines {
			if w := runewidth.StringWidth(l); w > width {
				t.Errorf("width %d: line of %d columns (it would wrap): %q", width, w, l)
			}
		}
		if runewidth.StringWidth(strings.Split(wide, "\n")[0]) <= width {
			if got != wide {
				t.Errorf("width %d: a table that fits was changed:\n%s\nwant\n%s", width, got, wide)
			}
			continue
		}
		// the key column, EMAIL, stays whole while anything else can give
		if width >= 40 && !strings.Contains(got, "former.employee@sandbox.example") {
			t.Errorf("width %d: the email was cut:\n%s", width, got)
		}
		if !strings.Contains(got, "…") && strings.Contains(lines[0], "ID") {
			t.Errorf("width %d: cut without an ellipsis:\n%s", width, got)
		}
		// the columns kept keep their order
		if !regexpOrder(lines[0], "EMAIL") {
			t.Errorf("width %d: header %q lost the key column", width, lines[0])
		}
		switch first := strings.Fields(lines[3])[0]; {
		case strings.HasPrefix(lines[0], "ID "):
			// ids keep their kind's prefix and their distinguishing tail
			if !strings.HasPrefix(first, "user_") || !strings.Contains(first, "…") || !strings.HasSuffix(first, "05") {
				t.Errorf("width %d: id cell %q not cut in the middle", width, first)
			}
		case width >= 100:
			t.Errorf("width %d: the id column was left out while text could give:\n%s", width, got)
		}
	}
}

func TestFitOrder(t *testing.T) {
	// 100: ids cut to their floor, the note cut to a readable width, nothing left out
	got := printAt(t, 100, true)
	if !strings.HasPrefix(got, "ID  ") || !strings.Contains(got, "user_…000001  admin@sandbox.example") {
		t.Errorf("width 100: ids not cut first:\n%s", got)
	}
	// 60: the ids go, the email stays whole, the note is cut
	got = printAt(t, 60, true)
	if strings.Contains(got, "user_") || !strings.HasPrefix(got, "EMAIL ") || !strings.Contains(got, "former.employee@sandbox.example  ") {
		t.Errorf("width 60: want the ids left out and the email whole:\n%s", got)
	}
	// --columns keeps what was asked for: cut, never left out
	got = printAt(t, 40, true, "id", "email")
	if !strings.HasPrefix(got, "ID") {
		t.Errorf("width 40 with --columns id,email: the id column was left out:\n%s", got)
	}
	// a declared key wins over the guess
	cols := append([]Column(nil), fitColumns...)
	cols[0].Key = true
	var out bytes.Buffer
	p := &Printer{IO: &IO{Out: &out, OutTTY: true, Width: 50}}
	if err := p.Print([]byte(fitData), cols); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "user_0000000000000000005a4d0000000005") {
		t.Errorf("a key id column was cut:\n%s", out.String())
	}
}

// Columns with Names show names on a terminal, ids when piped; Terminal
// swaps a column on a terminal only.
func TestNamesOnATerminal(t *testing.T) {
	data := `[{"id":"a1","name":"Customer Lookup","folder_id":"app_7"},{"id":"a2","name":"Header","folder_id":"app_99"}]`
	cols := []Column{{Header: "NAME", Field: "name", Terminal: &Column{Header: "NAME", Field: "name", Key: true}},
		{Header: "FOLDER", Field: "folder_id", Names: "folders"}}
	asked := 0
	nameOf := func(kind, id string) (string, bool) {
		asked++
		if kind == "folders" && id == "app_7" {
			return "app:/Operations", true
		}
		return "", false
	}
	var tty, piped bytes.Buffer
	(&Printer{IO: &IO{Out: &tty, OutTTY: true}, NameOf: nameOf}).Print([]byte(data), cols)
	(&Printer{IO: &IO{Out: &piped}, NameOf: nameOf}).Print([]byte(data), cols)
	if !strings.Contains(tty.String(), "Customer Lookup  app:/Operations") || !strings.Contains(tty.String(), "Header           app_99") {
		t.Errorf("terminal:\n%s", tty.String())
	}
	if piped.String() != "Customer Lookup\tapp_7\nHeader\tapp_99\n" {
		t.Errorf("piped: %q", piped.String())
	}
}

func regexpOrder(s string, words ...string) bool {
	at := 0
	for _, w := range words {
		i := strings.Index(s[at:], w)
		if i < 0 {
			// a header cut to fit keeps its start
			i = strings.Index(s[at:], w[:min(len(w), 4)])
			if i < 0 {
				return false
			}
		}
		at += i + 1
	}
	return true
}

func TestPipedOutputIsNeverCut(t *testing.T) {
	piped := printAt(t, 0, false)
	if got := printAt(t, 40, false); got != piped {
		t.Errorf("piped output changed by a width:\n%s\nwant\n%s", got, piped)
	}
	if !strings.Contains(piped, "user_0000000000000000005a4d0000000005\tformer.employee@sandbox.example\t") {
		t.Errorf("piped output lost whole values:\n%s", piped)
	}
}

func TestColumnsPickAndOrder(t *testing.T) {
	got := printAt(t, 0, false, "email", "ID")
	if want := "admin@sandbox.example\tuser_0000000000000000005a4d0000000001\n"; !strings.HasPrefix(got, want) {
		t.Errorf("--columns email,ID piped = %q", got)
	}
	got = printAt(t, 0, true, "first_name", "active")
	if !strings.HasPrefix(got, "FIRST NAME   ACTIVE\nSandbox      true\n") {
		t.Errorf("--columns first_name,active on a terminal = %q", got)
	}
	var out bytes.Buffer
	p := &Printer{IO: &IO{Out: &out}, Opts: Options{Columns: []string{"email", "nick", "x"}}}
	err := p.Print([]byte(fitData), fitColumns)
	var ue *UnknownColumnsError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `unknown column "nick", "x" in --columns: available columns are id,email,first-name,note,active`) {
		t.Errorf("unknown columns: %v", err)
	}
	if out.Len() != 0 {
		t.Errorf("printed %q before refusing", out.String())
	}
	// data without declared columns is picked from its own fields
	out.Reset()
	p.Opts.Columns = []string{"b", "a"}
	if err := p.Print([]byte(`[{"a":1,"b":"x"}]`), nil); err != nil || out.String() != "x\t1\n" {
		t.Errorf("undeclared columns: %q, %v", out.String(), err)
	}
}

func TestCutMiddle(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{"user_0000000000000000005a4d0000000004", 16, "user_00…00000004"},
		{"5a4d0006-0000-4000-8000-000000000001", 11, "5a4d0…00001"},
		{"short", 10, "short"},
	} {
		if got := cutMiddle(tc.in, tc.width); got != tc.want || (got != tc.in && runewidth.StringWidth(got) != tc.width) {
			t.Errorf("cutMiddle(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}

// A forced terminal takes its width from ORGCTL_WIDTH, else COLUMNS (go
// test's stdout is no terminal, so GetSize tells nothing here).
func TestForcedTerminalWidth(t *testing.T) {
	t.Setenv("ORGCTL_FORCE_TTY", "1")
	for _, tc := range []struct {
		width, columns string
		want           int
	}{
		{"77", "66", 77},
		{"", "66", 66},
		{"wide", "66", 66},
		{"", "", 0},
	} {
		t.Setenv("ORGCTL_WIDTH", tc.width)
		t.Setenv("COLUMNS", tc.columns)
		if got := System().Width; got != tc.want {
			t.Errorf("ORGCTL_WIDTH=%q COLUMNS=%q: width %d, want %d", tc.width, tc.columns, got, tc.want)
		}
	}
	t.Setenv("ORGCTL_FORCE_TTY", "")
	t.Setenv("ORGCTL_WIDTH", "77")
	if s := System(); !s.OutTTY && s.Width != 0 {
		t.Errorf("piped stdout got width %d: piped output is never fitted", s.Width)
	}
}

// An optional column goes before other text is cut below a comfortable
// width, and a column that knows its structure is shortened by it, never
// mid-word; the key column stays whole.
func TestFitOptionalAndShorten(t *testing.T) {
	data := `[{"user":"former.employee@sandbox.example","admin":"false","object":"Customer Lookup","via":"direct; universal through All Users; universal through support"}]`
	short := func(s string, width int) string {
		if width >= len("direct; universal") {
			return "direct; universal"
		}
		return "direct +1"
	}
	cols := []Column{{Header: "USER", Field: "user", Key: true}, {Header: "ADMIN", Field: "admin", Optional: true},
		{Header: "OBJECT", Field: "object"}, {Header: "VIA", Field: "via", Shorten: short}}
	var out bytes.Buffer
	p := &Printer{IO: &IO{Out: &out, OutTTY: true, Width: 72}}
	if err := p.Print([]byte(data), cols); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.Contains(got, "ADMIN") || !strings.Contains(got, "former.employee@sandbox.example  Customer Lookup  direct; universal") {
		t.Errorf("at 72:\n%s", got)
	}
	if got := CutAtWord("universal through All Users", 20); got != "universal through…" {
		t.Errorf("CutAtWord = %q", got)
	}
}
