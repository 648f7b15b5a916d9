package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"
)

// Field is one named value of a streamed record.
type Field struct {
	Name   string // JSON and CSV key: "outcome"
	Header string // table header: "OUTCOME"
	// Width is the least width of the field's terminal column; the column
	// is as wide as its content (see Records.Expect). The last field is
	// unbounded: it wraps to what is left of the terminal.
	Width int
	// Optional fields are left out of a terminal too narrow for every
	// field (an id is first cut in the middle), so that the last field
	// keeps room to be read.
	Optional bool
	// Key fields are never cut: a value wider than its column is printed
	// whole, pushing the rest of its line.
	Key bool
}

// Records prints records one at a time as they arrive, for outputs too
// long to gather first: on a terminal a table whose columns are as wide as
// their content, piped tab-separated lines without a header, -o json one
// JSON object per line (JSON Lines), -o yaml one document per record, -o
// csv a header row of the field names then a row per record, --jq and
// --template applied to each record.
//
// On a terminal a column's content is what Expect said of it before the
// first record, else the first records' values: the table holds its first
// records back (at most holdMax) until every such column has had a value,
// so that a first record without an id does not size the id column.
type Records struct {
	p      *Printer
	fields []Field
	csv    *CSVRecords // -o csv
	// expect are the widest values the caller knows of before the first
	// record, by field; 0 when unknown.
	expect []int
	held   [][]any
	// widths are the terminal table's column widths, fitted on the first
	// lines; 0 leaves a field out. cut marks the columns fitted narrower
	// than their content (ids, cut in the middle).
	widths []int
	cut    []bool
	// Around, when set, wraps every write to stdout (a progress bar on the
	// same terminal clears itself around it).
	Around func(func())
}

// holdMax is how many records a terminal table holds back while a column
// of unknown width has had no value.
const holdMax = 20

// NewRecords prints records with these fields through p's format.
func NewRecords(p *Printer, fields []Field) *Records {
	return &Records{p: p, fields: fields, expect: make([]int, len(fields))}
}

// Expect says the widest value the named field will have, in display
// columns, before the first record: a column of values known up front
// (a file's keys, its row numbers) is sized by them.
func (r *Records) Expect(name string, width int) {
	for i, f := range r.fields {
		if f.Name == name {
			r.expect[i] = max(r.expect[i], width)
		}
	}
}

// Write prints one record; values are strings or ints, one per field.
func (r *Records) Write(values ...any) error {
	var err error
	write := func() { err = r.write(values) }
	if r.Around != nil {
		r.Around(write)
	} else {
		write()
	}
	return err
}

// Flush prints the records a terminal table still holds back.
func (r *Records) Flush() error {
	if len(r.held) == 0 {
		return nil
	}
	var err error
	flush := func() { err = r.release() }
	if r.Around != nil {
		r.Around(flush)
	} else {
		flush()
	}
	return err
}

func (r *Records) write(values []any) error {
	o := r.p.Opts
	w := r.p.IO.Out
	switch {
	case o.JQ != "" || o.Template != "":
		return r.p.Print(recordJSON(r.fields, values), nil)
	case o.Format == "json":
		_, err := w.Write(append(recordJSON(r.fields, values), '\n'))
		return err
	case o.Format == "yaml":
		if _, err := io.WriteString(w, "---\n"); err != nil {
			return err
		}
		return r.p.Print(recordJSON(r.fields, values), nil)
	case o.Format == "csv":
		if r.csv == nil {
			r.csv = &CSVRecords{w: r.p.TableWriter(w), fields: r.fields}
		}
		return r.csv.Write(values...)
	case !r.p.IO.OutTTY:
		// as the piped table writes a cell: a tab or line break inside a
		// value becomes a space, so that every line has one field per column
		cells := make([]string, len(values))
		for i, v := range values {
			cells[i] = flatten(fmt.Sprint(v))
		}
		_, err := io.WriteString(w, strings.Join(cells, "\t")+"\n")
		return err
	}
	if r.widths == nil {
		r.held = append(r.held, values)
		if !r.known() {
			return nil
		}
		return r.release()
	}
	var b strings.Builder
	r.row(&b, values)
	_, err := io.WriteString(w, b.String())
	return err
}

// known reports whether the held records tell every column's width: each
// column nobody said the width of has had a value, or enough are held.
func (r *Records) known() bool {
	if len(r.held) >= holdMax {
		return true
	}
	for i := range len(r.fields) - 1 {
		if r.expect[i] > 0 {
			continue
		}
		seen := false
		for _, v := range r.held {
			if i < len(v) && cellText(v[i]) != "" {
				seen = true
				break
			}
		}
		if !seen {
			return false
		}
	}
	return true
}

// release fits the table to the held records and prints them under the
// header.
func (r *Records) release() error {
	r.fit(r.p.IO.Width)
	var b strings.Builder
	hs := make([]any, len(r.fields))
	for i, f := range r.fields {
		hs[i] = f.Header
	}
	r.row(&b, hs)
	for _, v := range r.held {
		r.row(&b, v)
	}
	r.held = nil
	_, err := io.WriteString(r.p.IO.Out, b.String())
	return err
}

func cellText(v any) string { return Safe(strings.TrimSpace(flatten(fmt.Sprint(v)))) }

// lastWidth is the least the last field (a message) is given beside the
// others; with less, it goes on lines of its own below them.
const lastWidth = 20

// lastIndent is the indent of a last field put below the others.
const lastIndent = 4

// fit sets the columns' widths for a terminal of the given width: each
// the widest of its header, Width, what Expect said and the held values.
// When they leave the last field too little room, ids are cut in the
// middle down to idFloor, then optional fields are left out; a key is
// never cut.
func (r *Records) fit(width int) {
	n := len(r.fields)
	r.widths = make([]int, n)
	r.cut = make([]bool, n)
	for i, f := range r.fields[:n-1] {
		wd := max(runewidth.StringWidth(f.Header), f.Width, r.expect[i])
		for _, v := range r.held {
			if i < len(v) {
				wd = max(wd, runewidth.StringWidth(cellText(v[i])))
			}
		}
		r.widths[i] = wd
	}
	if width <= 0 {
		return
	}
	// The columns before the last are fitted as a table's are (fitTable's
	// fit), in the width the last field leaves them: ids cut in the middle
	// down to idFloor, then optional fields left out from the right. Other
	// columns, keys among them, keep their width and push their line.
	f := newFit(r.widths[:n-1], width-lastWidth-2)
	isID := func(i int) bool { return isIDColumn(Column{Header: r.fields[i].Header}) }
	if !f.shrink(isID, func(i int) int { return min(r.widths[i], idFloor) }) {
		for i := n - 2; i >= 0 && f.total() > f.width; i-- {
			if r.fields[i].Optional {
				f.keep[i] = false
			}
		}
	}
	for i := range f.limit {
		r.cut[i] = f.limit[i] < r.widths[i]
		r.widths[i] = f.limit[i]
		if !f.keep[i] {
			r.widths[i] = 0
		}
	}
}

// row lays out one table line, in display columns as the table is (a CJK
// character takes two). A value wider than its column is printed whole
// when it is a key or an id its column was not cut for, pushing the rest
// of its line; an id in a cut column is cut in the middle, other text is
// cut with "…". The last value wraps in what is left of the width, or
// below the line when too little is left.
func (r *Records) row(out *strings.Builder, values []any) {
	width := r.p.IO.Width
	used, pushed := 0, 0
	var b strings.Builder
	defer func() { out.WriteString(b.String()) }()
	for i, v := range values {
		s := cellText(v)
		if i == len(values)-1 {
			r.last(&b, s, used+pushed, width)
			return
		}
		wd := r.widths[i]
		if wd == 0 {
			continue
		}
		id := isIDColumn(Column{Header: r.fields[i].Header})
		switch sw := runewidth.StringWidth(s); {
		case sw <= wd:
		case r.fields[i].Key || id && !r.cut[i]:
			pushed += sw - wd
		case id:
			s = cutMiddle(s, wd)
		default:
			s = runewidth.Truncate(s, wd, "…")
		}
		b.WriteString(s)
		b.WriteString(strings.Repeat(" ", max(wd-runewidth.StringWidth(s), 0)+2))
		used += wd + 2
	}
	r.last(&b, "", used+pushed, width)
}

// last ends the line in b with the last value: on the line, wrapped
// under its own column, when that leaves it lastWidth; else on lines of
// its own below, indented by lastIndent.
func (r *Records) last(b *strings.Builder, s string, used, width int) {
	line := strings.TrimRight(b.String(), " ")
	b.Reset()
	b.WriteString(line)
	if s == "" {
		b.WriteString("\n")
		return
	}
	if width <= 0 {
		b.WriteString(strings.Repeat(" ", max(used-runewidth.StringWidth(line), 0)))
		b.WriteString(s + "\n")
		return
	}
	if at := max(used, runewidth.StringWidth(line)+2); width-at >= lastWidth {
		for k, l := range WrapWords(s, max(width-at, 1)) {
			if k == 0 {
				b.WriteString(strings.Repeat(" ", max(at-runewidth.StringWidth(line), 0)))
			} else {
				b.WriteString(strings.Repeat(" ", at))
			}
			b.WriteString(l + "\n")
		}
		return
	}
	b.WriteString("\n")
	for _, l := range WrapWords(s, width-lastIndent) {
		b.WriteString(strings.Repeat(" ", lastIndent) + l + "\n")
	}
}

// recordJSON encodes a record as a JSON object with its fields in order.
func recordJSON(fields []Field, values []any) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.Name)
		b.Write(k)
		b.WriteByte(':')
		var v []byte
		if i < len(values) {
			v, _ = json.Marshal(values[i])
		} else {
			v = []byte("null")
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// CSVRecords writes records as CSV with a header row (reports for
// spreadsheets), cells neutralised by CSVWriter. Each record is flushed, so
// a report is complete up to the last row finished.
type CSVRecords struct {
	w      TableWriter
	fields []Field
	header bool
	cells  []string
}

// NewCSVRecords writes to w.
func NewCSVRecords(w io.Writer, fields []Field) *CSVRecords {
	return &CSVRecords{w: NewCSVWriter(w), fields: fields}
}

// Write writes one record.
func (c *CSVRecords) Write(values ...any) error {
	if !c.header {
		c.header = true
		names := make([]string, len(c.fields))
		marks := make([]Mark, len(c.fields))
		for i, f := range c.fields {
			names[i] = f.Name
			marks[i] = Mark{Key: f.Key, Optional: f.Optional}
		}
		c.w.Header(names, marks)
	}
	c.cells = csvCells(c.cells[:0], values)
	c.w.Write(c.cells)
	return c.w.Flush()
}

func csvCells(cells []string, values []any) []string {
	for _, v := range values {
		switch t := v.(type) {
		case int:
			cells = append(cells, strconv.Itoa(t))
		default:
			cells = append(cells, fmt.Sprint(v))
		}
	}
	return cells
}
