package output

import (
	"bufio"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"

	"github.com/orgctl/orgctl/output/jsonscan"
)

// eachRecord calls fn positioned at each record of the value at r's
// position: the elements of an array, or the value itself. fn must read
// the record.
func eachRecord(r *jsonscan.Reader, fn func() error) error {
	if r.Peek() == '[' {
		return r.Array(fn)
	}
	return fn()
}

// columnsAt is the table's columns, cols or, when there are none, those of
// the record at r's position (which stays to be read), as --columns picks.
func (p *Printer) columnsAt(r *jsonscan.Reader, cols []Column) ([]Column, error) {
	if len(cols) == 0 {
		start := r.Pos
		var scratch []byte
		v, err := r.Value(&scratch)
		if err != nil {
			return nil, err
		}
		cols = defaultColumns(r.Data[start:r.Pos], v)
		r.Pos = start
	}
	return SelectColumns(cols, p.Opts.Columns)
}

// tsvRows writes records as the piped table does, a tab-separated line
// each; the first record fixes the columns when none are given.
type tsvRows struct {
	p    *Printer
	cols []Column
	rr   *rowReader
}

func (t *tsvRows) element(w *bufio.Writer, r *jsonscan.Reader) error {
	if t.rr == nil {
		cols, err := t.p.columnsAt(r, t.cols)
		if err != nil {
			return err
		}
		t.cols, t.rr = cols, newRowReader(cols)
	}
	if err := t.rr.row(r); err != nil {
		return err
	}
	writeTSVRow(w, t.rr.cells)
	return nil
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
		buf = append(buf, jsonscan.AsText(d)...)
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

func (p *Printer) tableValue(w *bufio.Writer, r *jsonscan.Reader, cols []Column, end func() error) error {
	if !p.IO.OutTTY {
		t := &tsvRows{p: p, cols: cols}
		if err := eachRecord(r, func() error { return t.element(w, r) }); err != nil {
			return err
		}
		return end()
	}
	var rr *rowReader
	var rows [][]string // the terminal table aligns columns, so it needs them all
	err := eachRecord(r, func() error {
		if rr == nil {
			picked, err := p.columnsAt(r, cols)
			if err != nil {
				return err
			}
			cols = terminalColumns(picked)
			rr = newRowReader(cols)
		}
		if err := rr.row(r); err != nil {
			return err
		}
		row := make([]string, len(rr.cells))
		for i, c := range rr.cells {
			row[i] = string(c)
			if i < len(cols) && cols[i].Names != "" && p.NameOf != nil && len(c) > 0 {
				if name, ok := p.NameOf(cols[i].Names, row[i]); ok {
					row[i] = name
				}
			}
			row[i] = Safe(flatten(row[i]))
		}
		rows = append(rows, row)
		return nil
	})
	if err == nil {
		err = end()
	}
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	headers := make([]string, len(cols))
	for i, c := range cols {
		headers[i] = Safe(c.Header)
	}
	headers, rows = fitTable(cols, headers, rows, p.IO.Width, len(p.Opts.Columns) == 0)
	return writeTable(w, headers, rows)
}

// terminalColumns are cols as a terminal shows them (Column.Terminal).
func terminalColumns(cols []Column) []Column {
	out := make([]Column, len(cols))
	for i, c := range cols {
		if c.Terminal != nil {
			c = *c.Terminal
		}
		out[i] = c
	}
	return out
}

func rowOf(r any, cols []Column) []string {
	rec, ok := r.(map[string]any)
	if !ok {
		return []string{jsonscan.AsText(r)}
	}
	row := make([]string, len(cols))
	for i, c := range cols {
		if c.Value != nil {
			row[i] = c.Value(rec)
		} else {
			row[i] = jsonscan.AsText(Lookup(rec, c.Field))
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

// ColumnName is how --columns names a column: its header in lower case,
// spaces as dashes ("USER ID" -> "user-id").
func ColumnName(c Column) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(c.Header)), " ", "-")
}

// UnknownColumnsError is a --columns name that the table does not have.
type UnknownColumnsError struct {
	Unknown   []string
	Available []string
}

func (e *UnknownColumnsError) Error() string {
	return fmt.Sprintf("unknown column %s in --columns: available columns are %s",
		strings.Join(quoteAll(e.Unknown), ", "), strings.Join(e.Available, ","))
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// SelectColumns picks and orders cols by the names given (ColumnName, or
// the column's field path). No names keep cols as they are.
func SelectColumns(cols []Column, names []string) ([]Column, error) {
	if len(names) == 0 {
		return cols, nil
	}
	var out []Column
	var unknown []string
	for _, n := range names {
		want := strings.ToLower(strings.TrimSpace(n))
		found := false
		for _, c := range cols {
			if ColumnName(c) == want || strings.ReplaceAll(ColumnName(c), "-", "_") == want || (c.Field != "" && strings.ToLower(c.Field) == want) {
				out = append(out, c)
				found = true
				break
			}
		}
		if !found {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		avail := make([]string, len(cols))
		for i, c := range cols {
			avail[i] = ColumnName(c)
		}
		return nil, &UnknownColumnsError{Unknown: unknown, Available: avail}
	}
	return out, nil
}

// isIDColumn reports a column of ids: they are cut in the middle, keeping
// the prefix that names the kind and the tail that tells ids apart.
func isIDColumn(c Column) bool {
	h := strings.ToUpper(strings.TrimSpace(c.Header))
	return !c.Key && (h == "ID" || strings.HasSuffix(h, " ID"))
}

// keyColumn is the index of the column a fitted table keeps whole, or -1.
func keyColumn(cols []Column) int {
	for i, c := range cols {
		if c.Key {
			return i
		}
	}
	for _, h := range []string{"EMAIL", "NAME", "PATH"} {
		for i, c := range cols {
			if strings.ToUpper(strings.TrimSpace(c.Header)) == h {
				return i
			}
		}
	}
	return -1
}

// minColumnWidth is the narrowest a column is cut to: room for a few
// characters and the ellipsis.
const minColumnWidth = 5

// comfortable is how far text is cut before ids are left out: enough to
// read most names and notes.
const comfortable = 20

// idFloor is the narrowest an id is cut to: its kind's prefix and enough
// of its tail to tell rows apart ("user_…000001").
const idFloor = 12

// fitTable makes the aligned table at most width columns wide, so that no
// row wraps. The key column (keyColumn) stays whole. Ids give way first:
// cut in the middle down to idFloor. Then other text is cut (the widest
// first) to a comfortable width; then, when drop allows it (the user did
// not pick the columns), Optional columns are left out, and when the table
// has a key column, ids. A column with Shorten is cut by its structure.
// Then text is cut further, none below minColumnWidth or its header; last,
// with drop, columns are left out from the right, and only then is the
// key cut. Order stays as it is. width <= 0
// leaves the table as it is.
func fitTable(cols []Column, headers []string, rows [][]string, width int, drop bool) ([]string, [][]string) {
	if width <= 0 || len(headers) == 0 {
		return headers, rows
	}
	n := len(headers)
	widths, floor := columnWidths(headers, rows)
	key := keyColumn(cols)
	if key >= n {
		key = -1
	}
	isID := func(i int) bool { return i < len(cols) && isIDColumn(cols[i]) }
	// A table may mark more than one column Key (an access change's user
	// and object): each stays whole as the first does.
	whole := func(i int) bool { return i == key || (key >= 0 && i < len(cols) && cols[i].Key) }
	f := newFit(widths, width)
	total, shrink := f.total, f.shrink
	idFloorOf := func(i int) int { return max(floor[i], min(widths[i], idFloor)) }
	other := func(i int) bool { return !whole(i) && !isID(i) }
	comfortably := func(i int) int { return max(floor[i], min(widths[i], comfortable)) }
	fitted := shrink(isID, idFloorOf) || shrink(other, comfortably)
	if !fitted && drop {
		f.leaveOut(func(i int) bool { return i < len(cols) && cols[i].Optional && !whole(i) })
		fitted = total() <= width || shrink(other, comfortably)
	}
	if !fitted && drop && key >= 0 {
		f.leaveOut(func(i int) bool { return isID(i) && !whole(i) })
		fitted = total() <= width
	}
	if !fitted {
		fitted = shrink(func(i int) bool { return !whole(i) }, func(i int) int { return floor[i] })
	}
	if !fitted && drop {
		if fitted = f.dropFromRight(whole, key >= 0); fitted {
			// The room a left-out column gave back goes to the columns
			// cut to make room for it: cut again, as little as now needed.
			for i := range f.limit {
				f.limit[i] = widths[i]
			}
			_ = shrink(isID, idFloorOf) || shrink(other, comfortably) ||
				shrink(func(i int) bool { return !whole(i) }, func(i int) int { return floor[i] })
		}
	}
	if !fitted {
		shrink(func(int) bool { return true }, func(int) int { return 1 })
	}
	return f.cut(cols, headers, rows)
}

// dropFromRight leaves out columns from the right, never the key (nor
// the first column when there is no key), until the rest fit; it reports
// whether they do.
func (f *fit) dropFromRight(whole func(int) bool, keyed bool) bool {
	for i := len(f.keep) - 1; i >= 0; i-- {
		if !whole(i) && f.keep[i] && (keyed || i > 0) {
			f.keep[i] = false
			if f.total() <= f.width {
				return true
			}
		}
	}
	return false
}

// columnWidths are each column's widest cell (its header included), and
// the width below which it is not narrowed while others can be.
func columnWidths(headers []string, rows [][]string) (widths, floor []int) {
	n := len(headers)
	widths, floor = make([]int, n), make([]int, n)
	for i, h := range headers {
		widths[i] = runewidth.StringWidth(strings.TrimSpace(h))
		floor[i] = max(min(widths[i], 12), minColumnWidth)
	}
	for _, r := range rows {
		for i := 0; i < n && i < len(r); i++ {
			widths[i] = max(widths[i], runewidth.StringWidth(strings.TrimSpace(flatten(r[i]))))
		}
	}
	return widths, floor
}

// cut is the table as fitted: the kept columns, each cell and header cut
// to its column's limit.
func (f *fit) cut(cols []Column, headers []string, rows [][]string) ([]string, [][]string) {
	n := len(headers)
	out := make([][]string, len(rows))
	for ri, r := range rows {
		cells := make([]string, 0, n)
		for i, c := range r {
			if i < n && !f.keep[i] {
				continue
			}
			c = strings.TrimSpace(flatten(c))
			if i < n && runewidth.StringWidth(c) > f.limit[i] {
				c = cutCell(cols, i, c, f.limit[i])
			}
			cells = append(cells, c)
		}
		out[ri] = cells
	}
	hs := make([]string, 0, n)
	for i, h := range headers {
		if f.keep[i] {
			hs = append(hs, runewidth.Truncate(strings.TrimSpace(h), f.limit[i], "…"))
		}
	}
	return hs, out
}

// fit is the state of fitting a table: which columns are shown and how
// wide each may be.
type fit struct {
	width int
	keep  []bool
	limit []int
}

func newFit(widths []int, width int) *fit {
	f := &fit{width: width, keep: make([]bool, len(widths)), limit: append([]int(nil), widths...)}
	for i := range f.keep {
		f.keep[i] = true
	}
	return f
}

// total is the shown columns' width with two spaces between them.
func (f *fit) total() int {
	t, shown := 0, 0
	for i := range f.limit {
		if f.keep[i] {
			t += f.limit[i]
			shown++
		}
	}
	return t + 2*max(shown-1, 0)
}

// shrink cuts the widest of the columns ok allows, one character at a
// time, down to their floors; false when none can give more.
func (f *fit) shrink(ok func(i int) bool, floorOf func(i int) int) bool {
	for f.total() > f.width {
		widest := -1
		for i := range f.limit {
			if f.keep[i] && ok(i) && f.limit[i] > floorOf(i) && (widest < 0 || f.limit[i] > f.limit[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			return false
		}
		f.limit[widest]--
	}
	return true
}

// leaveOut hides the columns which says.
func (f *fit) leaveOut(which func(i int) bool) {
	for i := range f.keep {
		if which(i) {
			f.keep[i] = false
		}
	}
}

// cutCell cuts a cell of column i to width: an id in the middle, a
// column that knows its structure by it, other text at the end.
func cutCell(cols []Column, i int, c string, width int) string {
	switch {
	case i < len(cols) && isIDColumn(cols[i]):
		return cutMiddle(c, width)
	case i < len(cols) && cols[i].Shorten != nil:
		return CutAtWord(cols[i].Shorten(c, width), width)
	}
	return runewidth.Truncate(c, width, "…")
}

// CutAtWord shortens s to width display columns, cutting after the last
// whole word that fits and marking the cut with "…"; a first word wider
// than width is cut where it must.
func CutAtWord(s string, width int) string {
	if runewidth.StringWidth(s) <= width {
		return s
	}
	cut := runewidth.Truncate(s, width, "…")
	body := strings.TrimSuffix(cut, "…")
	if i := strings.LastIndexAny(body, " ;,("); i > 0 {
		if next := s[len(body):]; next != "" && !strings.ContainsAny(next[:1], " ;,)") {
			body = strings.TrimRight(body[:i], " ;,(")
		}
	}
	return body + "…"
}

// cutMiddle shortens s to width display columns with an ellipsis in the
// middle: "user_0000000000000000005a4d0000000004" at 16 -> "user_00…00000004".
func cutMiddle(s string, width int) string {
	if width < 3 {
		return runewidth.Truncate(s, width, "…")
	}
	rs := []rune(s)
	head := (width - 1) / 2
	tail := width - 1 - head // the tail tells ids apart: it gets the odd column
	if head+tail >= len(rs) {
		return s
	}
	return string(rs[:head]) + "…" + string(rs[len(rs)-tail:])
}
