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
	for _, width := range []int{60, 100, 200} {
		got := printAt(t, width, true)
		lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		if len(lines) != 4 {
			t.Fatalf("width %d: %d lines, want a header and 3 rows:\n%s", width, len(lines), got)
		}
		for _, l := range lines {
			if w := runewidth.StringWidth(l); w > width {
				t.Errorf("width %d: line of %d columns: %q", width, w, l)
			}
		}
		if !strings.HasPrefix(lines[0], "ID ") || !regexpOrder(lines[0], "ID", "EMAIL", "FIRST NAME", "NOTE", "ACTIVE") {
			t.Errorf("width %d: header %q lost the column order", width, lines[0])
		}
		if runewidth.StringWidth(strings.Split(wide, "\n")[0]) <= width {
			if got != wide {
				t.Errorf("width %d: a table that fits was changed:\n%s\nwant\n%s", width, got, wide)
			}
			continue
		}
		if !strings.Contains(got, "…") {
			t.Errorf("width %d: cut without an ellipsis:\n%s", width, got)
		}
		// ids keep their kind's prefix and their distinguishing tail
		if !strings.HasPrefix(lines[3], "user_") || !strings.Contains(strings.Fields(lines[3])[0], "…") ||
			!strings.HasSuffix(strings.Fields(lines[3])[0], "05") {
			t.Errorf("width %d: id cell %q not cut in the middle", width, strings.Fields(lines[3])[0])
		}
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
