package output

import (
	"bufio"
	"encoding/json"
	"sort"
	"strings"

	"github.com/orgctl/orgctl/output/jsonscan"
)

// eachRecord calls fn positioned at each record of data: the elements of a
// top-level array, or data itself. fn must read the record.
func eachRecord(data []byte, fn func(r *jsonscan.Reader) error) error {
	r := &jsonscan.Reader{Data: data}
	var err error
	if r.Peek() == '[' {
		err = r.Array(func() error { return fn(r) })
	} else {
		err = fn(r)
	}
	if err != nil {
		return err
	}
	return r.End()
}

// rowReader turns records into cells, reading each record once, in place:
// only the fields the columns name are decoded. A column with a Value
// function needs the whole record decoded; then every record is.
type rowReader struct {
	cols   []Column
	paths  [][]string // each column's Field split at dots
	decode bool

	cells   [][]byte // the current row, valid until the next call
	bufs    [][]byte // per-column storage for cells that had to be decoded
	spans   [][2]int // per column: the field's value in the record, or {-1}
	scratch []byte
}

func newRowReader(cols []Column) *rowReader {
	rr := &rowReader{cols: cols, paths: make([][]string, len(cols)), bufs: make([][]byte, len(cols)), spans: make([][2]int, len(cols))}
	for i, c := range cols {
		rr.paths[i] = strings.Split(c.Field, ".")
		if c.Value != nil {
			rr.decode = true
		}
	}
	return rr
}

// row reads the record at r's position into rr.cells.
func (rr *rowReader) row(r *jsonscan.Reader) error {
	rr.cells = rr.cells[:0]
	if rr.decode || r.Peek() != '{' {
		v, err := r.Value(&rr.scratch)
		if err != nil {
			return err
		}
		for _, c := range rowOf(v, rr.cols) {
			rr.cells = append(rr.cells, []byte(c))
		}
		return nil
	}
	for i := range rr.spans {
		rr.spans[i] = [2]int{-1}
	}
	err := r.Object(func(key []byte, plain bool) error {
		k := jsonscan.Text(key, plain, &rr.scratch)
		start := -1
		for i, p := range rr.paths {
			if string(k) == p[0] {
				if start < 0 {
					start = r.Pos
					if _, err := r.Skip(); err != nil {
						return err
					}
				}
				// A repeated key replaces the earlier value, as in a decoded map.
				rr.spans[i] = [2]int{start, r.Pos}
			}
		}
		if start < 0 {
			_, err := r.Skip()
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i, p := range rr.paths {
		v := rr.spans[i]
		for _, seg := range p[1:] {
			if v[0] < 0 {
				break
			}
			v = rr.member(r.Data[v[0]:v[1]], seg, v[0])
		}
		var cell []byte
		if v[0] >= 0 {
			cell, rr.bufs[i], err = cellOf(r.Data[v[0]:v[1]], rr.bufs[i][:0])
			if err != nil {
				return err
			}
		}
		rr.cells = append(rr.cells, cell)
	}
	return nil
}

// member finds the last value of key in the object text obj (which starts
// at offset base of the whole input); {-1} when obj is not an object or
// lacks the key.
func (rr *rowReader) member(obj []byte, key string, base int) [2]int {
	if obj[0] != '{' {
		return [2]int{-1}
	}
	start, end, _ := (&jsonscan.Reader{Data: obj}).Member(key, &rr.scratch)
	if start < 0 {
		return [2]int{-1}
	}
	return [2]int{base + start, base + end}
}

// cellOf renders one value as cell does for its decoded form, appending to
// buf when the text must be decoded.
func cellOf(v []byte, buf []byte) (out, newBuf []byte, err error) {
	switch v[0] {
	case '"':
		r := &jsonscan.Reader{Data: v}
		raw, plain, err := r.Str()
		if err != nil {
			return nil, buf, err
		}
		if plain {
			return raw, buf, nil
		}
		buf = jsonscan.Unquote(buf, raw)
		return buf, buf, nil
	case 'n':
		return nil, buf, nil
	case '{', '[':
		d, err := jsonscan.Decode(v)
		if err != nil {
			return nil, buf, err
		}
		buf = append(buf, cell(d)...)
		return buf, buf, nil
	}
	return v, buf, nil // numbers, true and false as received
}

// writeTSVRow writes one row in the piped form scripts depend on: cells
// separated by tabs, with tabs and line breaks inside values flattened to
// spaces.
func writeTSVRow(w *bufio.Writer, cells [][]byte) {
	for i, c := range cells {
		if i > 0 {
			w.WriteByte('\t')
		}
		start := 0
		for j, b := range c {
			if b == '\t' || b == '\n' || b == '\r' {
				w.Write(c[start:j])
				w.WriteByte(' ')
				start = j + 1
			}
		}
		w.Write(c[start:])
	}
	w.WriteByte('\n')
}

func (p *Printer) printTable(w *bufio.Writer, data []byte, cols []Column) error {
	var rr *rowReader
	var rows [][]string // the terminal table aligns columns, so it needs them all
	err := eachRecord(data, func(r *jsonscan.Reader) error {
		if rr == nil {
			if len(cols) == 0 {
				first := &jsonscan.Reader{Data: data, Pos: r.Pos}
				var scratch []byte
				v, err := first.Value(&scratch)
				if err != nil {
					return err
				}
				cols = defaultColumns(data[r.Pos:first.Pos], v)
			}
			rr = newRowReader(cols)
		}
		if err := rr.row(r); err != nil {
			return err
		}
		if !p.IO.OutTTY {
			writeTSVRow(w, rr.cells)
			return nil
		}
		row := make([]string, len(rr.cells))
		for i, c := range rr.cells {
			row[i] = string(c)
		}
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		return err
	}
	if !p.IO.OutTTY || len(rows) == 0 {
		return nil
	}
	headers := make([]string, len(cols))
	for i, c := range cols {
		headers[i] = c.Header
	}
	return writeTable(w, headers, rows)
}

func rowOf(r any, cols []Column) []string {
	rec, ok := r.(map[string]any)
	if !ok {
		return []string{cell(r)}
	}
	row := make([]string, len(cols))
	for i, c := range cols {
		if c.Value != nil {
			row[i] = c.Value(rec)
		} else {
			row[i] = cell(Lookup(rec, c.Field))
		}
	}
	return row
}

// Lookup follows a dot path into a decoded JSON object; missing is nil.
func Lookup(rec map[string]any, path string) any {
	var cur any = rec
	for _, k := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}

// cell renders one value on one line: scalars plainly, structures as JSON.
func cell(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case json.Number:
		return t.String()
	case bool:
		if t {
			return "true"
		}
		return "false"
	default:
		b, _ := json.Marshal(t)
		return string(b)
	}
}

// defaultColumns uses the first record's scalar fields in document order,
// for data whose family declares no columns.
func defaultColumns(firstRaw []byte, first any) []Column {
	rec, ok := first.(map[string]any)
	if !ok {
		return []Column{{Header: "VALUE"}}
	}
	var cols []Column
	for _, k := range orderedKeys(firstRaw) {
		switch rec[k].(type) {
		case map[string]any, []any:
			continue
		}
		cols = append(cols, Column{Header: strings.ToUpper(k), Field: k})
	}
	if len(cols) == 0 {
		for k := range rec {
			cols = append(cols, Column{Header: strings.ToUpper(k), Field: k})
		}
		sort.Slice(cols, func(i, j int) bool { return cols[i].Field < cols[j].Field })
	}
	return cols
}

// orderedKeys returns the keys of the object obj in the order the API sent
// them.
func orderedKeys(obj []byte) []string {
	r := &jsonscan.Reader{Data: obj}
	var keys []string
	var scratch []byte
	r.Object(func(k []byte, plain bool) error {
		keys = append(keys, string(jsonscan.Text(k, plain, &scratch)))
		_, err := r.Skip()
		return err
	})
	return keys
}

var flattener = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")

func flatten(s string) string { return flattener.Replace(s) }
