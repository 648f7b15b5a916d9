package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"text/template"
	"time"

	"github.com/itchyny/gojq"
	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/orgctl/orgctl/output/hugepage"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// Formats lists the values -o accepts.
var Formats = []string{"table", "json", "yaml", "csv"}

// Column is one column of a table: a header and where its value comes from.
type Column struct {
	Header string
	// Field is a dot path into the record ("email", "owner.name").
	Field string
	// Value, when set, computes the cell instead of Field.
	Value func(rec map[string]any) string
	// Key marks the column people identify a row by (an email, a name, a
	// path, a job id): a table fitted to the terminal keeps it whole. A
	// table without one keeps its EMAIL, else NAME, else PATH column whole.
	Key bool
	// Names is the kind ("folders", "groups", "users"; or several, comma-
	// separated) of the ids the column holds: on a terminal they show as
	// that kind's names (a folder as its path) when Printer.NameOf knows
	// them. Piped output keeps ids.
	Names string
	// Terminal, when set, replaces the column on a terminal (folders
	// list: NAME becomes PATH); --columns still picks it by its own name.
	Terminal *Column
	// Shorten, when set, shortens a cell to at most width display columns
	// by its structure ("universal through All Users" -> "universal (All
	// Users)" -> "universal") where a table fitted to the terminal must
	// cut it; what it returns wider than width is then cut at a word.
	Shorten func(s string, width int) string
	// Optional columns are left out of a terminal too narrow for the
	// table before other text is cut below a comfortable width (the
	// report's ADMIN, repeated on every row of a user, before its VIA).
	Optional bool
}

// Options selects the format. At most one of JQ and Template is set.
type Options struct {
	Format   string
	JQ       string
	Template string
	// Columns picks and orders the table's columns by name (--columns);
	// empty keeps the command's own.
	Columns []string
	// Rows makes -o csv's tables a parent's to join (see TableWriter):
	// the run is one of several whose output a parent prints as one.
	Rows bool
}

// Validate reports a bad combination before anything is fetched.
// Structured reports whether the user asked for data (json, yaml, jq,
// template) rather than the table, so a view keeps the raw answer for them.
// CSV is the table's rows for a spreadsheet, so it is not.
func (o Options) Structured() bool {
	return (o.Format != "table" && o.Format != "" && o.Format != "csv") || o.JQ != "" || o.Template != ""
}

func (o Options) Validate() error {
	if o.Format != "" && !slices.Contains(Formats, o.Format) {
		return fmt.Errorf("invalid output format %q: use one of %s", o.Format, strings.Join(Formats, ", "))
	}
	if o.JQ != "" && o.Template != "" {
		return fmt.Errorf("--jq and --template cannot be used together")
	}
	if len(o.Columns) > 0 && (o.Format == "json" || o.Format == "yaml" || o.JQ != "" || o.Template != "") {
		return fmt.Errorf("--columns picks the columns of the table, tab-separated and CSV output; it does not apply to -o json, -o yaml, --jq or --template")
	}
	if o.JQ != "" {
		if _, err := compileJQ(o.JQ); err != nil {
			return fmt.Errorf("invalid --jq expression: %v", err)
		}
	}
	if o.Template != "" {
		if _, err := parseTemplate(o.Template); err != nil {
			return fmt.Errorf("invalid --template: %v", err)
		}
	}
	return nil
}

// Printer writes API data to stdout in the chosen format. All formats start
// from the same raw JSON so -o json can print it byte for byte.
//
// Every format but the terminal table and --template streams: it reads data
// in place, one record at a time, and writes through one buffer, so printing
// a large answer costs little beyond the answer itself. Data is checked as
// it is read; if it turns out not to be JSON part-way, what came before has
// been written and Print returns the error (answers from the API have been
// checked whole before they get here).
type Printer struct {
	IO   *IO
	Opts Options
	// NameOf names an id of a kind for Column.Names; false leaves the id.
	NameOf func(kind, id string) (string, bool)
}

// outBufferSize is the write buffer: large enough that writes to a pipe or
// file come in big pieces, small beside any answer worth streaming.
const outBufferSize = 64 << 10

// Print writes data. Empty data (a 204, a delete) prints nothing.
func (p *Printer) Print(data json.RawMessage, cols []Column) error {
	return p.print(data, cols, false)
}

// print is Print; checked says data is known to be valid JSON, so readers
// need not check again what they only step over.
func (p *Printer) print(data json.RawMessage, cols []Column, checked bool) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	w := bufio.NewWriterSize(p.IO.Out, outBufferSize)
	err := whole(p.format(cols), w, data, checked)
	var se *jsonscan.SyntaxError
	if errors.As(err, &se) {
		err = fmt.Errorf("API returned invalid JSON: %w", err)
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// A format writes the value at r's position in one output format. end
// checks what follows the value; a format calls it after reading the value
// and before writing what closes the output.
type format func(w *bufio.Writer, r *jsonscan.Reader, end func() error) error

// whole runs f over data, which must be one value and nothing else.
func whole(f format, w *bufio.Writer, data []byte, checked bool) error {
	r := &jsonscan.Reader{Data: data, Checked: checked}
	return f(w, r, r.End)
}

// format is the chosen format, for columns cols.
func (p *Printer) format(cols []Column) format {
	switch {
	case p.Opts.JQ != "":
		return p.jqValue
	case p.Opts.Template != "":
		return p.templateValue
	case p.Opts.Format == "json":
		if p.IO.OutTTY {
			return indentedValue
		}
		// Compact only drops insignificant whitespace: fields, order and
		// number spellings stay exactly as the API sent them.
		return compactValue
	case p.Opts.Format == "yaml":
		return yamlValue
	case p.Opts.Format == "csv":
		return func(w *bufio.Writer, r *jsonscan.Reader, end func() error) error {
			return p.csvValue(w, r, cols, end)
		}
	}
	if p.IO.OutTTY {
		cols = relativeTimes(cols, time.Now())
	}
	return func(w *bufio.Writer, r *jsonscan.Reader, end func() error) error {
		return p.tableValue(w, r, cols, end)
	}
}

// Rendered is output made ahead of printing, held in memory until
// WriteRendered writes it.
type Rendered struct{ chunks [][]byte }

// Renderer returns a function that makes what Print(data, cols) would
// write, reading data while it is still arriving: r is positioned at the
// value and may wait for more bytes (jsonscan.Reader.More). The output
// stays in memory, so an answer that turns out cut or invalid has printed
// nothing, and the work of printing overlaps the wait for the last byte.
// The function returns nil, with r somewhere inside the value, when the
// value cannot be printed; Print then says why. Renderer returns nil when
// there is nothing to gain: piped -o json prints data as it stands.
func (p *Printer) Renderer(cols []Column) func(r *jsonscan.Reader) *Rendered {
	if p.Opts.Format == "json" && !p.IO.OutTTY && p.Opts.JQ == "" && p.Opts.Template == "" {
		return nil
	}
	f := p.format(cols)
	return func(r *jsonscan.Reader) *Rendered {
		var s spool
		w := bufio.NewWriterSize(&s, outBufferSize)
		if err := f(w, r, func() error { return nil }); err != nil {
			return nil
		}
		w.Flush()
		return &Rendered{s.chunks}
	}
}

// WriteRendered writes what a Renderer made.
func (p *Printer) WriteRendered(x *Rendered) error {
	for _, c := range x.chunks {
		if _, err := p.IO.Out.Write(c); err != nil {
			return err
		}
	}
	return nil
}

// spool keeps output in memory in pieces that never move: growing it never
// copies what it already holds, and only the bytes written take memory.
// After two small pieces, pieces are backed by huge pages, so that filling
// them costs a few page faults, not thousands.
type spool struct {
	chunks [][]byte
}

func (s *spool) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		last := len(s.chunks) - 1
		if last < 0 || len(s.chunks[last]) == cap(s.chunks[last]) {
			var c []byte
			switch {
			case last == -1:
				c = make([]byte, 0, 16<<10)
			case last == 0:
				c = make([]byte, 0, 256<<10)
			default:
				c = hugepage.Alloc(spoolChunk)[:0]
			}
			s.chunks = append(s.chunks, c)
			last++
		}
		c := s.chunks[last]
		m := copy(c[len(c):cap(c)], b)
		s.chunks[last] = c[:len(c)+m]
		b = b[m:]
	}
	return n, nil
}

// spoolChunk is the size of a spool's large pieces: a few huge pages, so
// that a spool of a 30 MB answer's output takes a handful of allocations.
const spoolChunk = 8 << 20

// PrintCompact is Print for data known to be valid JSON with no whitespace
// between tokens, as the client reports of an answer it has checked whole:
// piped -o json is then the data as it stands, written without a second
// reading, and the other formats step over what they do not show without
// checking it again.
func (p *Printer) PrintCompact(data json.RawMessage, cols []Column) error {
	if len(data) == 0 || p.Opts.Format != "json" || p.Opts.JQ != "" || p.Opts.Template != "" || p.IO.OutTTY {
		return p.print(data, cols, true)
	}
	if _, err := p.IO.Out.Write(data); err != nil {
		return err
	}
	_, err := p.IO.Out.Write([]byte{'\n'})
	return err
}

func compileJQ(expr string) (*gojq.Code, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, err
	}
	return gojq.Compile(q)
}

func (p *Printer) jqValue(w *bufio.Writer, r *jsonscan.Reader, end func() error) error {
	q, err := gojq.Parse(p.Opts.JQ)
	if err != nil {
		return err
	}
	var scratch []byte
	if r.Peek() == '[' {
		je, err := p.jqEach(q)
		if err != nil {
			return err
		}
		if je != nil {
			if err := r.Array(func() error { return je.element(w, r) }); err != nil {
				return err
			}
			return end()
		}
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return err
	}
	v, err := r.Value(&scratch)
	if err == nil {
		err = end()
	}
	if err != nil {
		return err
	}
	if p.Opts.Format == "yaml" {
		return writeJQYAML(w, code, v)
	}
	return writeJQResults(w, code, v)
}

// jqEach returns, for a filter that only ever sees one element of a list
// at a time, what runs it on each as it is read instead of decoding the
// whole list first; nil for other filters, and for -o yaml, which writes
// each result as a document of its own.
func (p *Printer) jqEach(q *gojq.Query) (*jqElements, error) {
	each := perElement(q)
	if each == nil || p.Opts.Format == "yaml" {
		return nil, nil
	}
	return newJQElements(each)
}

// jqElements runs a filter on one element of a list at a time.
type jqElements struct {
	each    *gojq.Query
	code    *gojq.Code
	path    []string // the fields the filter reads, when that is all it does
	scratch []byte
}

func newJQElements(each *gojq.Query) (*jqElements, error) {
	code, err := gojq.Compile(each)
	if err != nil {
		return nil, err
	}
	return &jqElements{each: each, code: code, path: fieldPath(each)}, nil
}

func (j *jqElements) element(w *bufio.Writer, r *jsonscan.Reader) error {
	if j.path != nil {
		// Field access needs no decoding: read the value in place.
		start := r.Pos
		v, ok, err := followPath(r, j.path, &j.scratch)
		if err != nil {
			return err
		}
		if ok {
			var field []byte // nil for null
			if v[0] >= 0 {
				field = r.Data[v[0]:v[1]]
			}
			return writeJQField(w, field, &j.scratch)
		}
		r.Pos = start // not an object: gojq says what went wrong
	}
	v, err := r.Value(&j.scratch)
	if err != nil {
		return err
	}
	return writeJQResults(w, j.code, v)
}

// perElement returns, for a filter of the form `.[] | F` or `.[].a.b`, the
// filter to run on each element of an array instead (F, or `.a.b`); nil for
// any other filter. Nothing in those forms can see past the element: `as`
// bindings, function definitions and optional `?` iteration suffixes, which
// could, are left whole.
func perElement(q *gojq.Query) *gojq.Query {
	if q.Meta != nil || len(q.Imports) > 0 || len(q.FuncDefs) > 0 || len(q.Patterns) > 0 {
		return nil
	}
	if q.Op == gojq.OpPipe && q.Left != nil && q.Right != nil && isIterate(q.Left) {
		return q.Right
	}
	if q.Op != 0 || q.Term == nil || q.Term.Type != gojq.TermTypeIdentity {
		return nil
	}
	sl := q.Term.SuffixList
	if len(sl) < 2 || !sl[0].Iter || sl[0].Optional || sl[0].Index != nil {
		return nil
	}
	for _, s := range sl[1:] {
		if s.Iter || s.Optional || s.Index == nil || s.Index.Name == "" {
			return nil
		}
	}
	return &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeIdentity, SuffixList: sl[1:]}}
}

// fieldPath returns the names of a filter that only reads fields
// (`.a.b`), or nil.
func fieldPath(q *gojq.Query) []string {
	if q.Meta != nil || len(q.Imports) > 0 || len(q.FuncDefs) > 0 || len(q.Patterns) > 0 || q.Op != 0 || q.Term == nil {
		return nil
	}
	var path []string
	t := q.Term
	switch t.Type {
	case gojq.TermTypeIdentity:
	case gojq.TermTypeIndex:
		if t.Index == nil || t.Index.Name == "" {
			return nil
		}
		path = append(path, t.Index.Name)
	default:
		return nil
	}
	for _, s := range t.SuffixList {
		if s.Iter || s.Optional || s.Index == nil || s.Index.Name == "" {
			return nil
		}
		path = append(path, s.Index.Name)
	}
	if len(path) == 0 {
		return nil
	}
	return path
}

// followPath reads the value at r's position and finds path in it as jq's
// `.a.b` would: a missing field or a null on the way gives null. ok is
// false when something on the way is neither an object nor null, where jq
// reports an error; v is the result's span in r.Data, {-1, -1} for null.
func followPath(r *jsonscan.Reader, path []string, scratch *[]byte) (v [2]int, ok bool, err error) {
	if c := r.Peek(); c != '{' {
		text, err := r.Skip()
		if err != nil {
			return v, false, err
		}
		return [2]int{-1, -1}, string(text) == "null", nil
	}
	v[0], v[1], err = r.Member(path[0], scratch)
	if err != nil {
		return v, false, err
	}
	for _, key := range path[1:] {
		if v[0] < 0 || r.Data[v[0]] == 'n' {
			return [2]int{-1, -1}, true, nil
		}
		if r.Data[v[0]] != '{' {
			return v, false, nil
		}
		sub := &jsonscan.Reader{Data: r.Data[:v[1]], Pos: v[0]}
		if v[0], v[1], err = sub.Member(key, scratch); err != nil {
			return v, false, err
		}
	}
	if v[0] < 0 {
		return [2]int{-1, -1}, true, nil
	}
	return v, true, nil
}

// writeJQField writes one value read in place as writeJQResults writes its
// decoded form: strings raw, the rest as JSON.
func writeJQField(w *bufio.Writer, v []byte, scratch *[]byte) error {
	switch {
	case len(v) == 0:
		w.WriteString("null")
	case v[0] == '"':
		raw, plain, err := (&jsonscan.Reader{Data: v}).Str()
		if err != nil {
			return err
		}
		w.Write(jsonscan.Text(raw, plain, scratch))
	case v[0] == '{' || v[0] == '[':
		d, err := jsonscan.Decode(v)
		if err != nil {
			return err
		}
		b, err := gojq.Marshal(d)
		if err != nil {
			return err
		}
		w.Write(b)
	default: // numbers as received, true, false, null
		w.Write(v)
	}
	return w.WriteByte('\n')
}

// isIterate reports a filter that is exactly `.[]`.
func isIterate(q *gojq.Query) bool {
	if q.Meta != nil || len(q.Imports) > 0 || len(q.FuncDefs) > 0 || len(q.Patterns) > 0 || q.Op != 0 || q.Term == nil {
		return false
	}
	t := q.Term
	return t.Type == gojq.TermTypeIdentity && len(t.SuffixList) == 1 && t.SuffixList[0].Iter && !t.SuffixList[0].Optional && t.SuffixList[0].Index == nil
}

// writeJQYAML writes each result of the filter as a YAML document, for
// --jq with -o yaml.
func writeJQYAML(w *bufio.Writer, code *gojq.Code, v any) error {
	iter := code.Run(v)
	for n := 0; ; n++ {
		r, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, isErr := r.(error); isErr {
			return fmt.Errorf("--jq: %w", err)
		}
		b, err := gojq.Marshal(r)
		if err != nil {
			return err
		}
		if n > 0 {
			w.WriteString("---\n")
		}
		if err := writeYAML(w, b); err != nil {
			return err
		}
	}
}

func writeJQResults(w *bufio.Writer, code *gojq.Code, v any) error {
	iter := code.Run(v)
	for {
		r, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, isErr := r.(error); isErr {
			return fmt.Errorf("--jq: %w", err)
		}
		// Like `jq -r` (and gh --jq): strings print raw, the rest as JSON.
		if s, isStr := r.(string); isStr {
			w.WriteString(s)
			w.WriteByte('\n')
			continue
		}
		b, err := gojq.Marshal(r)
		if err != nil {
			return err
		}
		w.Write(b)
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
}

func parseTemplate(src string) (*template.Template, error) {
	return template.New("output").Funcs(template.FuncMap{
		"json": func(v any) (string, error) {
			b, err := json.Marshal(v)
			return string(b), err
		},
		"join": func(sep string, v []any) string {
			parts := make([]string, len(v))
			for i, e := range v {
				parts[i] = jsonscan.AsText(e)
			}
			return strings.Join(parts, sep)
		},
	}).Option("missingkey=zero").Parse(src)
}

func (p *Printer) templateValue(w *bufio.Writer, r *jsonscan.Reader, end func() error) error {
	t, err := parseTemplate(p.Opts.Template)
	if err != nil {
		return err
	}
	var scratch []byte
	v, err := r.Value(&scratch)
	if err == nil {
		err = end()
	}
	if err != nil {
		return err
	}
	return t.Execute(w, v)
}

// columnGap pads every cell on its right: two spaces between columns.
var columnGap = tw.Padding{Right: "  ", Overwrite: true}

// widthCacheOff is a zero sync.Once, not sync.OnceFunc, whose call would
// run before every orgctl command.
var widthCacheOff sync.Once

// noWidthCache turns off the table library's cache of text widths: a
// table's cells are mostly distinct, and keeping the cache costs more
// than measuring them again.
func noWidthCache() { widthCacheOff.Do(func() { twwidth.SetCacheCapacity(0) }) }

// writeTable is the terminal form: a header, then columns aligned on
// display width, two spaces apart, no borders or rules, nothing wrapped.
func writeTable(w io.Writer, headers []string, rows [][]string) error {
	if len(rows) == 0 {
		return nil
	}
	// Ambiguous-width characters (±, →, ①) count as narrow whatever the
	// locale, as they always have in this table.
	runewidth.DefaultCondition.EastAsianWidth = false
	noWidthCache()
	var buf bytes.Buffer
	t := tablewriter.NewTable(&buf,
		tablewriter.WithEastAsian(tw.Off),
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Symbols: tw.NewSymbols(tw.StyleNone),
			Settings: tw.Settings{
				Lines:      tw.LinesNone,
				Separators: tw.SeparatorsNone,
			},
		})),
		tablewriter.WithConfig(tablewriter.Config{
			Header: tw.CellConfig{
				Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: tw.WrapNone},
				Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
				Padding:    tw.CellPadding{Global: columnGap},
			},
			Row: tw.CellConfig{
				Formatting: tw.CellFormatting{AutoWrap: tw.WrapNone},
				Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
				Padding:    tw.CellPadding{Global: columnGap},
			},
		}),
	)
	// Cells and headers are trimmed, and tabs in headers widened, as the
	// table has always shown them: padding carries the alignment.
	h := make([]string, len(headers))
	for i, s := range headers {
		h[i] = strings.ReplaceAll(strings.TrimSpace(s), "\t", "    ")
	}
	t.Header(h)
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = strings.TrimSpace(flatten(c))
		}
		if err := t.Append(cells); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	// Lines end in padding; trailing blanks only hurt copy-paste.
	var out strings.Builder
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		trimmed := strings.TrimRight(line, " \n")
		if trimmed == "" && line == "" {
			continue
		}
		out.WriteString(trimmed)
		out.WriteByte('\n')
	}
	_, err := io.WriteString(w, out.String())
	return err
}

func fprintf(w io.Writer, format string, args ...any) { fmt.Fprintf(w, format, args...) }
