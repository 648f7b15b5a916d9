package bulk

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// item of a whole read: a row, or the line of a problem.
type readItem struct {
	row     *Row
	problem *Problem
}

// readEverything reads a whole file, failing on an error that is neither a
// Problem nor the end, or on a reader that does not end.
func readEverything(t *testing.T, r *Reader, limit int) []readItem {
	t.Helper()
	var out []readItem
	for range limit {
		row, err := r.Next()
		if err == io.EOF {
			return out
		}
		var p *Problem
		switch {
		case errors.As(err, &p):
			out = append(out, readItem{problem: p})
		case err != nil:
			t.Fatalf("Next: %v", err)
		default:
			out = append(out, readItem{row: &row})
		}
	}
	t.Fatalf("no end after %d reads", limit)
	return nil
}

// checkRows asserts what the runner and its journal rely on: rows, the
// ones read and the ones unfit to send (a problem with a row number), are
// numbered 1, 2, 3... in file order, and rows and problems come in the
// order of their lines, each within the file.
func checkRows(t *testing.T, items []readItem, firstLine, lines int) {
	t.Helper()
	n, last := 0, 0
	for _, it := range items {
		line := 0
		if it.row != nil {
			n++
			if it.row.N != n {
				t.Fatalf("row %d numbered %d", n, it.row.N)
			}
			line = it.row.Line
		} else {
			line = it.problem.Line
			if it.problem.Msg == "" {
				t.Fatalf("a problem on line %d says nothing", line)
			}
			if it.problem.Row != 0 {
				n++
				if it.problem.Row != n || it.problem.Record == nil {
					t.Fatalf("row %d, unfit to send, numbered %d with record %q", n, it.problem.Row, it.problem.Record)
				}
			}
		}
		if line < firstLine || line > lines || line < last {
			t.Fatalf("item on line %d after line %d, in a file of %d lines starting at %d", line, last, lines, firstLine)
		}
		last = line
	}
}

// lineCount is how many lines a file has: a final newline ends a line.
func lineCount(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// FuzzCSVReader reads any bytes as a bulk CSV file.
func FuzzCSVReader(f *testing.F) {
	for _, seed := range []string{
		"email,first_name\nada@example.com,Ada\nbob@example.com,Bob\n",
		"\ufeffemail,groups\r\n\"a@b.c\",\"x\ny\"\r\n\r\n\"c@d.e\",z",
		"email,email,\n1,2,3\n\n\n4,5\n",
		"email\n\"unclosed\n",
		"a,b\n1,\"2\"x\n3,4\n",
		"",
		"\n\n\n",
		"a\n\"\"\"\n",
		"email;first-name\r\na@x;A\r\n;\r\n\r\n",
		"\"x,y\"\tz\n1\t2\n,,\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data), CSV)
		header, _, err := r.Header()
		if err != nil {
			if len(bytes.Trim(data, "\r\n")) != 0 { // only a file of no lines has no header row
				t.Fatalf("Header: %v on %q", err, data)
			}
			return
		}
		items := readEverything(t, r, len(data)+10)
		checkRows(t, items, 1, lineCount(data)+1)
		known := map[string]bool{}
		for _, h := range header {
			known[h] = true
		}
		for _, it := range items {
			if it.row == nil {
				continue
			}
			for k := range it.row.Values {
				if !known[k] {
					t.Fatalf("row %d has column %q, not in the header %q", it.row.N, k, header)
				}
			}
		}
	})
}

// FuzzJSONLinesReader reads any bytes as a bulk JSON Lines file: every line
// that is not blank is exactly one row or one problem, in order.
func FuzzJSONLinesReader(f *testing.F) {
	for _, seed := range []string{
		"{\"email\":\"ada@example.com\",\"groups\":[\"a\",\"b\",null],\"admin\":true,\"n\":1.50}\n",
		"{\"a\":1}\r\n\n[1,2]\nnull\n{\"a\":{\"b\":[1]}} {\"c\":2}\n\"str\"\n{bad json\n",
		"{\"a\":1}",
		"",
		"\n",
		"{\"k\":\"\\u0000\\ud800\"}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data), JSONL)
		items := readEverything(t, r, len(data)+10)
		var lines []int // the lines that are not blank
		for i, l := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				lines = append(lines, i+1)
			}
		}
		if len(items) != len(lines) {
			t.Fatalf("%d rows and problems from %d lines that are not blank", len(items), len(lines))
		}
		checkRows(t, items, 1, lineCount(data))
		for i, it := range items {
			line := 0
			if it.row != nil {
				line = it.row.Line
			} else {
				line = it.problem.Line
			}
			if line != lines[i] {
				t.Fatalf("item %d is on line %d, not %d", i+1, line, lines[i])
			}
		}
	})
}
