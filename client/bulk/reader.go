package bulk

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/orgctl/orgctl/output/csvguard"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// Format is how a bulk file spells its rows.
type Format string

const (
	// CSV has a header row naming the columns, then one row per line
	// (a quoted value may span lines).
	CSV Format = "csv"
	// JSONL has one JSON object per line.
	JSONL Format = "jsonl"
)

// Formats are the values ParseFormat accepts.
var Formats = []string{string(CSV), string(JSONL)}

// ParseFormat reads a format's name ("ndjson" is JSON Lines too).
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "csv":
		return CSV, nil
	case "jsonl", "ndjson":
		return JSONL, nil
	}
	return "", fmt.Errorf("unknown input format %q: use csv or jsonl", s)
}

// FormatOf is the format a file name implies: .jsonl and .ndjson are JSON
// Lines, anything else (stdin included) CSV.
func FormatOf(name string) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson":
		return JSONL
	}
	return CSV
}

// Row is one row of input.
type Row struct {
	// N numbers the rows from 1 in file order; a job's journal names rows by it.
	N int
	// Line is where the row starts in the file (the header is line 1 of a CSV).
	Line int
	// Values holds each column's text. A column with several values (a
	// JSON array) has one entry per value; an empty CSV cell and a JSON
	// null are absent, as a flag left out is.
	Values map[string][]string
}

// Problem is what is wrong with one line; reading goes on after it.
type Problem struct {
	Line int
	Msg  string
	// Row, when not 0, is the number of the row the problem is in: a line
	// read whole but unfit to send (a wrong number of values, a control
	// character, not JSON), which --skip-invalid can leave unsent. Record
	// is what the line holds: its values (CSV) or its text (JSON Lines).
	Row    int
	Record []string
}

func (p *Problem) Error() string { return fmt.Sprintf("line %d: %s", p.Line, p.Msg) }

// maxLine bounds one JSON line, so a file without newlines cannot take all memory.
const maxLine = 1 << 20

// Reader streams the rows of a bulk file.
//
// What the runner and its journal rely on, and the fuzz targets check:
// rows, the ones read and the ones unfit to send (a Problem with a row
// number), are numbered 1, 2, 3... in file order; rows and problems come
// in the order of their lines, each within the file; a row holds only the
// header's columns. An empty row (a blank line, or cells that are all
// blank, as spreadsheets write ",,") is no row and no problem: it is
// skipped and takes no number, so both passes over a file agree.
type Reader struct {
	format Format
	n      int

	// CSV
	csv     *csv.Reader
	src     *bufio.Reader
	comma   rune // 0 until set or read from the header row
	header  []string
	hdrErr  []*Problem
	hdrRead bool

	// JSON Lines
	br   *bufio.Reader
	line int
}

// NewReader reads rows of format f from r.
func NewReader(r io.Reader, f Format) *Reader {
	rd := &Reader{format: f}
	src := bufio.NewReaderSize(r, 64<<10)
	// Spreadsheets ("CSV UTF-8") and some exporters start a file with a
	// byte-order mark. It goes before any parsing: the CSV parser would
	// take it for text before a quote and refuse a quoted header.
	if b, _ := src.Peek(3); bytes.Equal(b, []byte("\ufeff")) {
		src.Discard(3)
	}
	if f == JSONL {
		rd.br = src
		return rd
	}
	rd.src = src
	rd.csv = csv.NewReader(rd.src)
	rd.csv.FieldsPerRecord = -1 // a wrong count is reported with its line, and reading goes on
	rd.csv.ReuseRecord = true
	return rd
}

// Delimiters are the separators a CSV's header row is searched for, and
// the ones --delimiter names.
var Delimiters = []rune{',', ';', '\t'}

// SetDelimiter fixes the CSV's separator, instead of reading it from the
// header row. It must come before the first read.
func (r *Reader) SetDelimiter(c rune) { r.comma = c }

// Delimiter is the CSV's separator: set, or read from the header row (0
// before the header is read).
func (r *Reader) Delimiter() rune { return r.comma }

// DelimiterName names a separator as people call it.
func DelimiterName(c rune) string {
	switch c {
	case ',':
		return "comma"
	case ';':
		return "semicolon"
	case '\t':
		return "tab"
	}
	return fmt.Sprintf("%q", c)
}

// sniff picks the separator from the header row: a comma when it has one
// (the header of a comma-separated file with a ";" in a name stays so),
// else a semicolon (what spreadsheets write where the comma is a decimal
// mark) or a tab, whichever it holds more of.
func (r *Reader) sniff() rune {
	b, _ := r.src.Peek(64 << 10) // a shorter file gives what it has
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	inQuote := false
	counts := map[byte]int{}
	for _, c := range b {
		switch {
		case c == '"':
			inQuote = !inQuote
		case !inQuote && (c == ',' || c == ';' || c == '\t'):
			counts[c]++
		}
	}
	switch {
	case counts[','] > 0:
		return ','
	case counts[';'] > 0 && counts[';'] >= counts['\t']:
		return ';'
	case counts['\t'] > 0:
		return '\t'
	}
	return ','
}

// Header reads a CSV's header row: its column names and what is wrong
// with them (empty or repeated names). A JSON Lines file has none: each
// row names its own columns.
func (r *Reader) Header() ([]string, []*Problem, error) {
	if r.format == JSONL || r.hdrRead {
		return r.header, r.hdrErr, nil
	}
	r.hdrRead = true
	if r.comma == 0 {
		r.comma = r.sniff()
	}
	r.csv.Comma = r.comma
	rec, err := r.csv.Read()
	if err == io.EOF {
		return nil, nil, fmt.Errorf("the file is empty: a CSV file starts with a header row naming the columns")
	}
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			r.hdrErr = append(r.hdrErr, &Problem{Line: pe.StartLine, Msg: "header row: " + csvMessage(pe)})
			return nil, r.hdrErr, nil
		}
		return nil, nil, err
	}
	seen := map[string]bool{}
	for i, h := range rec {
		h = strings.TrimSpace(h)
		switch {
		case h == "":
			r.hdrErr = append(r.hdrErr, &Problem{Line: 1, Msg: fmt.Sprintf("header row: column %d has no name", i+1)})
		case seen[strings.ToLower(h)]:
			r.hdrErr = append(r.hdrErr, &Problem{Line: 1, Msg: fmt.Sprintf("header row: column %q appears twice", h)})
		}
		seen[strings.ToLower(h)] = true
		r.header = append(r.header, h)
	}
	return r.header, r.hdrErr, nil
}

// Next returns the next row; a *Problem for a line that holds no row
// (reading can go on); io.EOF after the last row; or another error.
func (r *Reader) Next() (Row, error) {
	if r.format == JSONL {
		return r.nextJSON()
	}
	return r.nextCSV()
}

func (r *Reader) nextCSV() (Row, error) {
	if !r.hdrRead {
		if _, _, err := r.Header(); err != nil {
			return Row{}, err
		}
	}
	for {
		rec, err := r.csv.Read() // blank lines it skips itself
		if err == io.EOF {
			return Row{}, io.EOF
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return Row{}, err
			}
			return Row{}, &Problem{Line: pe.StartLine, Msg: csvMessage(pe)}
		}
		if emptyRecord(rec) {
			continue
		}
		start, _ := r.csv.FieldPos(0)
		row, p := r.csvRow(rec, start)
		if p != nil {
			return Row{}, p
		}
		return row, nil
	}
}

// emptyRecord: every cell blank (",,", or spaces), which is no row.
func emptyRecord(rec []string) bool {
	for _, v := range rec {
		if strings.TrimSpace(v) != "" {
			return false
		}
	}
	return true
}

func (r *Reader) csvRow(rec []string, start int) (Row, *Problem) {
	bad := func(msg string) (Row, *Problem) {
		r.n++
		return Row{}, &Problem{Line: start, Msg: msg, Row: r.n, Record: append([]string(nil), rec...)}
	}
	if len(rec) != len(r.header) {
		return bad(fmt.Sprintf("%d values, but the header row names %d columns", len(rec), len(r.header)))
	}
	size := 0
	for i, v := range rec {
		size += len(v) + 1
		if msg := cellProblem(r.header[i], v); msg != "" {
			return bad(msg)
		}
	}
	if size > maxLine {
		return bad(fmt.Sprintf("line longer than %d MiB", maxLine>>20))
	}
	r.n++
	row := Row{N: r.n, Line: start, Values: make(map[string][]string, len(rec))}
	for i, v := range rec {
		if v == "" {
			continue
		}
		// A file orgctl wrote (a --failed file) has its formula cells
		// guarded for spreadsheets; the value is what the guard stands for.
		row.Values[r.header[i]] = []string{csvguard.Text(v)}
	}
	return row, nil
}

// cellProblem is what makes a cell unfit to send: bytes that are not
// UTF-8 (a file in another encoding, which would arrive as U+FFFD), a
// control character (NUL and the like; tabs and line breaks are text), or
// a size past what a JSON Lines line may hold.
func cellProblem(col, v string) string {
	if len(v) > maxLine {
		return fmt.Sprintf("column %q holds more than %d MiB: a value may hold at most %d MiB", col, maxLine>>20, maxLine>>20)
	}
	if !utf8.ValidString(v) {
		return fmt.Sprintf("bytes that are not UTF-8 in column %q: the file is in another encoding; read it with --encoding windows-1252, latin1 or utf-16", col)
	}
	for _, c := range v {
		if c == 0x7f || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
			return fmt.Sprintf("control character U+%04X in column %q: remove it", c, col)
		}
	}
	return ""
}

func csvMessage(pe *csv.ParseError) string {
	switch {
	case errors.Is(pe.Err, csv.ErrBareQuote):
		return fmt.Sprintf("a quote (\") inside an unquoted value (column %d): quote the whole value and double the quote (\"\")", pe.Column)
	case errors.Is(pe.Err, csv.ErrQuote) && pe.Line != pe.StartLine:
		return fmt.Sprintf("a quoted value opened here is not closed (read on to line %d): add the closing quote", pe.Line)
	case errors.Is(pe.Err, csv.ErrQuote):
		return fmt.Sprintf("a quote (\") closes a quoted value but more text follows it (column %d): double a quote inside a quoted value (\"\")", pe.Column)
	}
	return pe.Err.Error()
}

func (r *Reader) nextJSON() (Row, error) {
	for {
		b, tooLong, err := r.readLine()
		if err == io.EOF && b == nil {
			return Row{}, io.EOF
		}
		if err != nil && err != io.EOF {
			return Row{}, err
		}
		r.line++
		if tooLong {
			return Row{}, &Problem{Line: r.line, Msg: fmt.Sprintf("line longer than %d MiB", maxLine>>20)}
		}
		t := bytes.TrimSpace(b)
		if len(t) == 0 {
			continue // a blank line is no row (an editor's last newline, say)
		}
		bad := func(msg string) (Row, error) {
			r.n++
			return Row{}, &Problem{Line: r.line, Msg: msg, Row: r.n, Record: []string{string(t)}}
		}
		if !utf8.Valid(t) {
			return bad("bytes that are not UTF-8: the file is in another encoding; read it with --encoding windows-1252, latin1 or utf-16")
		}
		values, msg := jsonValues(t)
		if msg != "" {
			return bad(msg)
		}
		for _, k := range sortedKeys(values) {
			for _, v := range values[k] {
				if msg := cellProblem(k, v); msg != "" {
					return bad(msg)
				}
			}
		}
		r.n++
		return Row{N: r.n, Line: r.line, Values: values}, nil
	}
}

// readLine reads one line without its newline; a line past maxLine is
// skipped to its end and reported too long.
func (r *Reader) readLine() ([]byte, bool, error) {
	var buf []byte
	tooLong := false
	for {
		part, err := r.br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(part) > maxLine {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, part...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			if len(buf) == 0 && !tooLong {
				return nil, false, io.EOF
			}
			return bytes.TrimRight(buf, "\r\n"), tooLong, nil
		case err != nil:
			return nil, false, err
		}
		if buf == nil {
			buf = []byte{}
		}
		return bytes.TrimRight(buf, "\r\n"), tooLong, nil
	}
}

// jsonValues turns one JSON object into column values: strings as they
// are, numbers and booleans as their JSON text, arrays as repeated values,
// objects as JSON text; null leaves the column out.
func jsonValues(b []byte) (map[string][]string, string) {
	if k := repeatedKey(b); k != "" {
		return nil, fmt.Sprintf("key %q is given twice: give each field once", k)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Sprintf("expected a JSON object, found %s", te.Value)
		}
		return nil, fmt.Sprintf("not valid JSON: %v", err)
	}
	if obj == nil {
		return nil, "expected a JSON object, found null"
	}
	if dec.More() {
		return nil, "more than one JSON value on the line: put each object on its own line"
	}
	out := make(map[string][]string, len(obj))
	for k, v := range obj {
		switch t := v.(type) {
		case nil:
		case []any:
			vals := make([]string, 0, len(t))
			for _, e := range t {
				if e != nil {
					vals = append(vals, jsonscan.AsText(e))
				}
			}
			out[k] = vals
		default:
			out[k] = []string{jsonscan.AsText(v)}
		}
	}
	return out, ""
}

// repeatedKey is a key the object on the line gives twice ("" if none):
// decoding would silently keep the last.
func repeatedKey(b []byte) string {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return ""
		}
		k, _ := t.(string)
		if seen[k] {
			return k
		}
		seen[k] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}

func sortedKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
