package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/template"

	"github.com/itchyny/gojq"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
	yaml "go.yaml.in/yaml/v3"
)

// Formats lists the values -o accepts.
var Formats = []string{"table", "json", "yaml"}

// Column is one column of a table: a header and where its value comes from.
type Column struct {
	Header string
	// Field is a dot path into the record ("email", "owner.name").
	Field string
	// Value, when set, computes the cell instead of Field.
	Value func(rec map[string]any) string
}

// Options selects the format. At most one of JQ and Template is set.
type Options struct {
	Format   string
	JQ       string
	Template string
}

// Validate reports a bad combination before anything is fetched.
func (o Options) Validate() error {
	switch o.Format {
	case "", "table", "json", "yaml":
	default:
		return fmt.Errorf("invalid output format %q: use one of %s", o.Format, strings.Join(Formats, ", "))
	}
	if o.JQ != "" && o.Template != "" {
		return fmt.Errorf("--jq and --template cannot be used together")
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
type Printer struct {
	IO   *IO
	Opts Options
}

// Print writes data. Empty data (a 204, a delete) prints nothing.
func (p *Printer) Print(data json.RawMessage, cols []Column) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	switch {
	case p.Opts.JQ != "":
		return p.printJQ(data)
	case p.Opts.Template != "":
		return p.printTemplate(data)
	}
	switch p.Opts.Format {
	case "json":
		return p.printJSON(data)
	case "yaml":
		return printYAML(p.IO.Out, data)
	default:
		return p.printTable(data, cols)
	}
}

func (p *Printer) printJSON(data []byte) error {
	var buf bytes.Buffer
	var err error
	if p.IO.OutTTY {
		err = json.Indent(&buf, data, "", "  ")
	} else {
		// Compact only drops insignificant whitespace: fields, order and
		// number spellings stay exactly as the API sent them.
		err = json.Compact(&buf, data)
	}
	if err != nil {
		return fmt.Errorf("API returned invalid JSON: %w", err)
	}
	buf.WriteByte('\n')
	_, err = p.IO.Out.Write(buf.Bytes())
	return err
}

func printYAML(w io.Writer, data []byte) error {
	// JSON is YAML: decoding into a Node keeps key order and number text.
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return fmt.Errorf("API returned invalid JSON: %w", err)
	}
	resetStyle(&n)
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return err
	}
	return enc.Close()
}

func resetStyle(n *yaml.Node) {
	n.Style = 0 // let the encoder quote only where YAML needs it
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && yaml11Bool[strings.ToLower(n.Value)] {
		// YAML 1.1 readers would take these for booleans.
		n.Style = yaml.DoubleQuotedStyle
	}
	for _, c := range n.Content {
		resetStyle(c)
	}
}

var yaml11Bool = map[string]bool{"y": true, "yes": true, "n": true, "no": true, "on": true, "off": true}

func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("API returned invalid JSON: %w", err)
	}
	return v, nil
}

func compileJQ(expr string) (*gojq.Code, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, err
	}
	return gojq.Compile(q)
}

func (p *Printer) printJQ(data []byte) error {
	code, err := compileJQ(p.Opts.JQ)
	if err != nil {
		return err
	}
	v, err := decode(data)
	if err != nil {
		return err
	}
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
			fmt.Fprintln(p.IO.Out, s)
			continue
		}
		b, err := gojq.Marshal(r)
		if err != nil {
			return err
		}
		fmt.Fprintln(p.IO.Out, string(b))
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
				parts[i] = cell(e)
			}
			return strings.Join(parts, sep)
		},
	}).Option("missingkey=zero").Parse(src)
}

func (p *Printer) printTemplate(data []byte) error {
	t, err := parseTemplate(p.Opts.Template)
	if err != nil {
		return err
	}
	v, err := decode(data)
	if err != nil {
		return err
	}
	return t.Execute(p.IO.Out, v)
}

func (p *Printer) printTable(data []byte, cols []Column) error {
	v, err := decode(data)
	if err != nil {
		return err
	}
	var recs []any
	switch t := v.(type) {
	case []any:
		recs = t
	default:
		recs = []any{t}
	}
	if len(cols) == 0 {
		cols = defaultColumns(data, recs)
	}
	rows := make([][]string, 0, len(recs))
	for _, r := range recs {
		rows = append(rows, rowOf(r, cols))
	}
	if !p.IO.OutTTY {
		return writeTSV(p.IO.Out, rows)
	}
	headers := make([]string, len(cols))
	for i, c := range cols {
		headers[i] = c.Header
	}
	return writeTable(p.IO.Out, headers, rows)
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
func defaultColumns(data []byte, recs []any) []Column {
	if len(recs) == 0 {
		return nil
	}
	first, ok := recs[0].(map[string]any)
	if !ok {
		return []Column{{Header: "VALUE"}}
	}
	keys := orderedKeys(data)
	var cols []Column
	for _, k := range keys {
		switch first[k].(type) {
		case map[string]any, []any:
			continue
		}
		cols = append(cols, Column{Header: strings.ToUpper(k), Field: k})
	}
	if len(cols) == 0 {
		for k := range first {
			cols = append(cols, Column{Header: strings.ToUpper(k), Field: k})
		}
		sort.Slice(cols, func(i, j int) bool { return cols[i].Field < cols[j].Field })
	}
	return cols
}

// orderedKeys returns the keys of the first object in data (an object or an
// array of objects), in the order the API sent them.
func orderedKeys(data []byte) []string {
	var arr []json.RawMessage
	if json.Unmarshal(data, &arr) == nil {
		if len(arr) == 0 {
			return nil
		}
		data = arr[0]
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

// writeTSV is the piped form scripts depend on: no header, one record per
// line, tab-separated, with tabs and newlines inside values flattened.
func writeTSV(w io.Writer, rows [][]string) error {
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(flatten(c))
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var flattener = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")

func flatten(s string) string { return flattener.Replace(s) }

func writeTable(w io.Writer, headers []string, rows [][]string) error {
	if len(rows) == 0 {
		return nil
	}
	var buf bytes.Buffer
	t := tablewriter.NewTable(&buf,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Settings: tw.Settings{
				Separators: tw.SeparatorsNone,
				Lines:      tw.LinesNone,
			},
		})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithPadding(tw.Padding{Left: "", Right: "  ", Overwrite: true}),
	)
	t.Header(headers)
	for _, r := range rows {
		flat := make([]string, len(r))
		for i, c := range r {
			flat[i] = flatten(c)
		}
		if err := t.Append(flat); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	// tablewriter pads the last column; trailing blanks only hurt copy-paste.
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
