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

// Field is one named value of a streamed record. Width is the column's
// width in the terminal table (the last column takes what is left).
type Field struct {
	Name   string // JSON and CSV key: "outcome"
	Header string // table header: "OUTCOME"
	Width  int
	// Optional fields are left out of a terminal too narrow for every
	// field (an id is first cut in the middle), so that no line wraps.
	Optional bool
}

// Records prints records one at a time as they arrive, for outputs too
// long to gather first: on a terminal a table with fixed column widths,
// piped tab-separated lines without a header, -o json one JSON object per
// line (JSON Lines), -o yaml one document per record, -o csv a header row
// of the field names then a row per record, --jq and --template
// applied to each record.
type Records struct {
	p      *Printer
	fields []Field
	header bool
	csv    *CSVRecords // -o csv
	// widths are the terminal table's column widths, fitted on the first
	// line; 0 leaves a field out.
	widths []int
	// Around, when set, wraps every write to stdout (a progress bar on the
	// same terminal clears itself around it).
	Around func(func())
}

// NewRecords prints records with these fields through p's format.
func NewRecords(p *Printer, fields []Field) *Records {
	return &Records{p: p, fields: fields}
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
	var b strings.Builder
	if !r.header {
		r.header = true
		hs := make([]any, len(r.fields))
		for i, f := range r.fields {
			hs[i] = f.Header
		}
		r.row(&b, hs)
	}
	r.row(&b, values)
	_, err := io.WriteString(w, b.String())
	return err
}

// lastWidth is the least the last field (a message) is given before the
// others give way.
const lastWidth = 20

// fit sets the columns' widths for a terminal of the given width: the
// fields' own, when they fit with room for the last; else ids are cut in
// the middle down to idFloor, then optional fields are left out.
func (r *Records) fit(width int) {
	r.widths = make([]int, len(r.fields))
	for i, f := range r.fields {
		r.widths[i] = f.Width
	}
	used := func() int {
		u := 0
		for i := 0; i < len(r.widths)-1; i++ {
			if r.widths[i] > 0 {
				u += r.widths[i] + 2
			}
		}
		return u
	}
	if width <= 0 {
		return
	}
	for i, f := range r.fields[:len(r.fields)-1] {
		if over := used() + lastWidth - width; over > 0 && isIDColumn(Column{Header: f.Header}) {
			r.widths[i] = max(idFloor, r.widths[i]-over)
		}
	}
	for i := len(r.fields) - 2; i >= 0 && used()+lastWidth > width; i-- {
		if r.fields[i].Optional {
			r.widths[i] = 0
		}
	}
}

// row lays out one table line, in display columns as the table is (a CJK
// character takes two); a value wider than its column is cut with "…" (an
// id in the middle), and the last takes what is left of the width.
func (r *Records) row(b *strings.Builder, values []any) {
	width := r.p.IO.Width
	if r.widths == nil {
		r.fit(width)
	}
	used := 0
	for i, v := range values {
		s := Safe(oneLine(fmt.Sprint(v)))
		if i == len(values)-1 {
			if width > 0 && used < width {
				s = runewidth.Truncate(s, max(8, width-used), "…")
			}
			b.WriteString(s)
			break
		}
		wd := r.fields[i].Width
		if i < len(r.widths) {
			wd = r.widths[i]
		}
		if wd == 0 {
			continue
		}
		if runewidth.StringWidth(s) > wd && isIDColumn(Column{Header: r.fields[i].Header}) {
			s = cutMiddle(s, wd)
		} else {
			s = runewidth.Truncate(s, wd, "…")
		}
		b.WriteString(s)
		b.WriteString(strings.Repeat(" ", max(wd-runewidth.StringWidth(s), 0)+2))
		used += wd + 2
	}
	b.WriteString("\n")
}

// oneLine keeps a value on its terminal line: each run of line breaks and
// tabs becomes one space, and none is left at either end.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\t\r\n") {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\t' || r == '\r' || r == '\n' }), " ")
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
		for i, f := range c.fields {
			names[i] = f.Name
		}
		c.w.Header(names)
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
