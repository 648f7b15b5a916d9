package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// TableWriter writes tables as -o csv prints them: each table's header
// row, then its rows. Header's marks (nil, or one per name) say how a
// table fitted to a terminal treats each column; CSV has no use for them,
// a parent that joins runs' tables does.
type TableWriter interface {
	Header(names []string, marks []Mark) error
	Write(row []string) error
	Flush() error
}

// TableWriter is where p writes -o csv's tables: CSV with formula cells
// guarded, or, for a parent run (Options.Rows), the cells as they are.
func (p *Printer) TableWriter(w io.Writer) TableWriter {
	if p.Opts.Rows {
		return &rowsWriter{w: bufio.NewWriter(w)}
	}
	return NewCSVWriter(w)
}

// Mark is what a table fitted to a terminal must know of a column beyond
// its header (see Column): a key stays whole, an optional column is left
// out first.
type Mark struct {
	Key      bool `json:"key,omitempty"`
	Optional bool `json:"optional,omitempty"`
}

// MarksOf are cols' marks, one per column.
func MarksOf(cols []Column) []Mark {
	marks := make([]Mark, len(cols))
	for i, c := range cols {
		marks[i] = Mark{Key: c.Key, Optional: c.Optional}
	}
	return marks
}

// rowsWriter writes each table as JSON Lines: a line {"header":[...]}
// (with "marks" when a column has one), then a line {"row":[...]} per
// row, every cell a string. A parent that joins
// the tables of several runs reads it (ReadTables): each header is marked
// as one, so a row that reads like its header stays a row, and no cell
// carries the spreadsheet guard, which belongs to the CSV a person reads.
type rowsWriter struct {
	w   *bufio.Writer
	err error
}

type rowsLine struct {
	Header []string `json:"header,omitempty"`
	Marks  []Mark   `json:"marks,omitempty"`
	Row    []string `json:"row,omitempty"`
}

func (r *rowsWriter) line(l rowsLine) error {
	if r.err != nil {
		return r.err
	}
	b, err := json.Marshal(l)
	if err == nil {
		r.w.Write(b)
		err = r.w.WriteByte('\n')
	}
	r.err = err
	return err
}

func (r *rowsWriter) Header(names []string, marks []Mark) error {
	l := rowsLine{Header: append([]string{}, names...)}
	if len(marks) == len(names) && slices.ContainsFunc(marks, func(m Mark) bool { return m != Mark{} }) {
		l.Marks = append([]Mark{}, marks...)
	}
	return r.line(l)
}

func (r *rowsWriter) Write(row []string) error {
	return r.line(rowsLine{Row: append([]string{}, row...)})
}

func (r *rowsWriter) Flush() error {
	if err := r.w.Flush(); r.err == nil {
		r.err = err
	}
	return r.err
}

// Table is one table a run printed: its header, its columns' marks (nil
// when none has one; else one per column) and its rows.
type Table struct {
	Header []string
	Marks  []Mark
	Rows   [][]string
}

// ReadTables reads what a TableWriter of a parent run (Options.Rows)
// wrote: the tables in the order printed.
func ReadTables(b []byte) ([]Table, error) {
	var tables []Table
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		var l struct {
			Header *[]string `json:"header"`
			Marks  []Mark    `json:"marks"`
			Row    *[]string `json:"row"`
		}
		err := dec.Decode(&l)
		if errors.Is(err, io.EOF) {
			return tables, nil
		}
		switch {
		case err != nil:
			return nil, fmt.Errorf("unexpected output: %w", err)
		case l.Header != nil && l.Marks != nil && len(l.Marks) != len(*l.Header):
			return nil, fmt.Errorf("unexpected output: a table's header with %d columns and %d marks", len(*l.Header), len(l.Marks))
		case l.Header != nil:
			tables = append(tables, Table{Header: *l.Header, Marks: l.Marks})
		case l.Row != nil && len(tables) > 0:
			t := &tables[len(tables)-1]
			t.Rows = append(t.Rows, *l.Row)
		default:
			return nil, fmt.Errorf("unexpected output: a line that is neither a table's header nor a row of one")
		}
	}
}
