package output

import (
	"bufio"
	"encoding/csv"
	"io"

	"github.com/orgctl/orgctl/output/csvguard"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// CSVCell is the cell as CSVWriter writes it, before quoting: a formula
// made inert (see package csvguard, which owns the rule and its inverse).
func CSVCell(s string) string { return csvguard.Cell(s) }

// CSVWriter writes RFC 4180 CSV (fields with commas, quotes or line breaks
// quoted, quotes doubled; lines end in LF, which every spreadsheet reads)
// with every cell passed through CSVCell.
type CSVWriter struct {
	w     *csv.Writer
	cells []string
}

// NewCSVWriter writes to w; call Flush at the end (or after each row that
// must be on disk).
func NewCSVWriter(w io.Writer) *CSVWriter { return &CSVWriter{w: csv.NewWriter(w)} }

// Write writes one row.
func (c *CSVWriter) Write(row []string) error {
	c.cells = c.cells[:0]
	for _, s := range row {
		c.cells = append(c.cells, CSVCell(s))
	}
	return c.w.Write(c.cells)
}

// Header writes a table's header row, as a row; CSV has no marks.
func (c *CSVWriter) Header(names []string, _ []Mark) error { return c.Write(names) }

// Flush writes what is buffered and returns the first error met.
func (c *CSVWriter) Flush() error {
	c.w.Flush()
	return c.w.Error()
}

// csvValue writes the records at r as CSV: a header row of the column names
// (as --columns takes them), then a row per record, the same columns as the
// table.
func (p *Printer) csvValue(w *bufio.Writer, r *jsonscan.Reader, cols []Column, end func() error) error {
	cw := p.TableWriter(w)
	var rr *rowReader
	row := []string{}
	header := func(cols []Column) error {
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = ColumnName(c)
		}
		return cw.Header(names, MarksOf(cols))
	}
	err := eachRecord(r, func() error {
		if rr == nil {
			picked, err := p.columnsAt(r, cols)
			if err != nil {
				return err
			}
			cols, rr = picked, newRowReader(picked)
			if err := header(cols); err != nil {
				return err
			}
		}
		if err := rr.row(r); err != nil {
			return err
		}
		row = row[:0]
		for _, c := range rr.cells {
			row = append(row, string(c))
		}
		return cw.Write(row)
	})
	if err == nil {
		err = end()
	}
	if err == nil && rr == nil && len(cols) > 0 {
		// No records: the header still says what the columns would be.
		picked, serr := SelectColumns(cols, p.Opts.Columns)
		if serr != nil {
			return serr
		}
		err = header(picked)
	}
	if ferr := cw.Flush(); err == nil {
		err = ferr
	}
	return err
}
