package output

// Differential tests: every streaming writer against the whole-document code
// it replaced (kept below as the reference), on fixed tricky inputs and under
// fuzzing. Run a fuzz target with e.g.
//
//	go test ./output -run '^$' -fuzz FuzzYAML -fuzztime 60s

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/itchyny/gojq"
	"github.com/orgctl/orgctl/output/jsonscan"
	yaml "go.yaml.in/yaml/v3"
)

// --- the reference: how each format was made before it streamed ---

// referenceYAMLFromYAMLParser is the former printer: yaml.v3 reads the JSON
// as YAML into a Node, styles are reset, and yaml.v3 encodes it.
func referenceYAMLFromYAMLParser(data []byte) ([]byte, *yaml.Node, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, nil, err
	}
	parsed := cloneNode(&n)
	resetStyle(&n)
	out, err := encodeNode(&n)
	return out, parsed, err
}

// referenceYAML is yaml.v3's encoder on the Node the former printer built,
// but with the JSON read by encoding/json: it differs from the former
// printer only where yaml.v3's parser reads JSON wrongly.
func referenceYAML(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := jsonNode(dec)
	if err != nil {
		return nil, err
	}
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{n}}
	resetStyle(doc)
	return encodeNode(doc)
}

func encodeNode(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func resetStyle(n *yaml.Node) {
	n.Style = 0
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && yaml11Bool[strings.ToLower(n.Value)] {
		n.Style = yaml.DoubleQuotedStyle
	}
	for _, c := range n.Content {
		resetStyle(c)
	}
}

var yaml11Bool = map[string]bool{"y": true, "yes": true, "n": true, "no": true, "on": true, "off": true}

func jsonNode(dec *json.Decoder) (*yaml.Node, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		if t == '{' {
			n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := jsonNode(dec)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k.(string)}, v)
			}
			_, err := dec.Token()
			return n, err
		}
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for dec.More() {
			v, err := jsonNode(dec)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, v)
		}
		_, err := dec.Token()
		return n, err
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t}, nil
	case json.Number:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: t.String()}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(t)}, nil
	default:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
}

func cloneNode(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = nil
	for _, k := range n.Content {
		c.Content = append(c.Content, cloneNode(k))
	}
	return &c
}

// sameValues reports whether yaml.v3's parse of the JSON (a) holds the same
// strings, numbers and structure as encoding/json's (b).
func sameValues(a, b *yaml.Node) bool {
	if a.Kind == yaml.DocumentNode {
		return len(a.Content) == 1 && sameValues(a.Content[0], b)
	}
	if a.Kind != b.Kind || len(a.Content) != len(b.Content) {
		return false
	}
	if a.Kind == yaml.ScalarNode {
		quoted := a.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
		return a.Value == b.Value && quoted == (b.Tag == "!!str")
	}
	for i := range a.Content {
		if !sameValues(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

func referenceDecode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// referenceTable is the former table printer: decode everything, build
// every row, then write.
func referenceTable(data []byte, cols []Column, tty bool) (string, error) {
	v, err := referenceDecode(data)
	if err != nil {
		return "", err
	}
	var recs []any
	switch t := v.(type) {
	case []any:
		recs = t
	default:
		recs = []any{t}
	}
	if len(cols) == 0 {
		cols = referenceDefaultColumns(data, recs)
	}
	rows := make([][]string, 0, len(recs))
	for _, r := range recs {
		rows = append(rows, rowOf(r, cols))
	}
	var out bytes.Buffer
	if !tty {
		for _, r := range rows {
			for i, c := range r {
				if i > 0 {
					out.WriteByte('\t')
				}
				out.WriteString(flatten(c))
			}
			out.WriteByte('\n')
		}
		return out.String(), nil
	}
	// On a terminal, text from the data is shown as Safe shows it.
	headers := make([]string, len(cols))
	for i, c := range cols {
		headers[i] = Safe(c.Header)
	}
	for _, r := range rows {
		for i, c := range r {
			r[i] = Safe(flatten(c))
		}
	}
	err = writeTable(&out, headers, rows)
	return out.String(), err
}

func referenceDefaultColumns(data []byte, recs []any) []Column {
	if len(recs) == 0 {
		return nil
	}
	first, ok := recs[0].(map[string]any)
	if !ok {
		return []Column{{Header: "VALUE"}}
	}
	var arr []json.RawMessage
	if json.Unmarshal(data, &arr) == nil {
		data = arr[0]
	}
	var keys []string
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.Token()
	for dec.More() {
		t, _ := dec.Token()
		keys = append(keys, t.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
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

func referenceJQ(expr string, data []byte) (string, error) {
	code, err := compileJQ(expr)
	if err != nil {
		return "", err
	}
	v, err := referenceDecode(data)
	if err != nil {
		return "", err
	}
	var out strings.Builder
	iter := code.Run(v)
	for {
		r, ok := iter.Next()
		if !ok {
			return out.String(), nil
		}
		if err, isErr := r.(error); isErr {
			return out.String(), err
		}
		if s, isStr := r.(string); isStr {
			out.WriteString(s + "\n")
			continue
		}
		b, err := gojq.Marshal(r)
		if err != nil {
			return out.String(), err
		}
		out.Write(append(b, '\n'))
	}
}

// --- the streaming side ---

// stream prints data in format f, as Print does, or as PrintCompact does
// when checked.
func stream(f format, data []byte, checked bool) ([]byte, error) {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	err := whole(f, w, data, checked)
	w.Flush()
	return buf.Bytes(), err
}

// streamTable prints data as a table in every way the engine does.
func streamTable(t *testing.T, data []byte, cols []Column, tty bool) (string, error) {
	t.Helper()
	return allWays(t, data, &Printer{IO: &IO{Out: io.Discard, Err: io.Discard, OutTTY: tty}}, cols)
}

func streamJQ(t *testing.T, expr string, data []byte) (string, error) {
	t.Helper()
	return allWays(t, data, &Printer{IO: &IO{Out: io.Discard, Err: io.Discard}, Opts: Options{JQ: expr}}, nil)
}

// allWays prints data through p's format as Print does, unchecked, and
// returns what it wrote. For valid data it also prints it as checked (as
// PrintCompact does), which must write the same. And it renders data while
// it arrives in pieces of several sizes (as the client has Renderer do): a
// rendering that succeeds must have read valid JSON and made what printing
// that writes; one that fails must be of data printing fails on.
func allWays(t *testing.T, data []byte, p *Printer, cols []Column) (string, error) {
	t.Helper()
	f := p.format(cols)
	run := func(data []byte, checked bool) (string, error) {
		out, err := stream(f, data, checked)
		return string(out), err
	}
	out, err := run(data, false)
	// What printing writes for a given input, unchecked, as printed once:
	// the renderings mostly read the whole value, and printing it again
	// would only repeat the same call on the same bytes.
	type printed struct {
		out string
		err error
	}
	printedFor := map[string]printed{string(data): {out, err}}
	valid := json.Valid(data)
	if valid {
		if cout, cerr := run(data, true); cout != out || fmt.Sprint(cerr) != fmt.Sprint(err) {
			t.Fatalf("%q printed as checked: %q, %v; unchecked: %q, %v", data, cout, cerr, out, err)
		}
	}
	render := p.Renderer(cols)
	if render == nil {
		return out, err
	}
	value := bytes.TrimSpace(data)
	for _, piece := range []int{1, 7, max(1, len(value))} {
		// The value arrives a byte at a time, a few at a time, or all at once.
		r := arriving(value, piece)
		x := render(r)
		if x == nil {
			if valid && err == nil {
				t.Fatalf("%q rendered in pieces of %d: failed; printed: %q", data, piece, out)
			}
			continue
		}
		read := value[:r.Pos]
		if !json.Valid(read) {
			t.Fatalf("%q rendered in pieces of %d: rendered %q, which is not JSON", data, piece, read)
		}
		pr, ok := printedFor[string(read)]
		if !ok {
			pr.out, pr.err = run(read, false)
			printedFor[string(read)] = pr
		}
		want, werr := pr.out, pr.err
		var got bytes.Buffer
		if err := (&Printer{IO: &IO{Out: &got}}).WriteRendered(x); err != nil {
			t.Fatal(err)
		}
		if werr != nil || got.String() != want {
			t.Fatalf("%q rendered in pieces of %d:\n got: %q\nwant: %q (%v)", data, piece, got.String(), want, werr)
		}
	}
	return out, err
}

// arriving reads data as if it were still arriving: it starts with none of
// it and gets piece more bytes each time it asks.
func arriving(data []byte, piece int) *jsonscan.Reader {
	r := &jsonscan.Reader{Data: data[:0]}
	r.Arriving = func() bool { return len(r.Data) < len(data) }
	r.More = func() bool {
		if len(r.Data) == len(data) {
			return false
		}
		r.Data = data[:min(len(data), len(r.Data)+piece)]
		return true
	}
	return r
}

// --- inputs ---

// trickyStrings are texts whose YAML form depends on yaml.v3's finer rules.
var trickyStrings = []string{
	"", " ", "a", "hello world", "yes", "No", "ON", "off", "y", "Y", "n", "true", "False", "NULL", "null", "~",
	"-", "- a", "-a", "--", "---", "--- x", "...", "?", "? x", "?x", ":", ": x", "a:b", "a: b", "a:", "#", "a #b", "a#b",
	"'", "'q'", "it's", "\"", "\\", "\\n", "@x", "`x", "%x", "&a", "*a", "!t", "|", ">", "[", "]", "{", "}", ",", "a,b", "[a]",
	"\n", "a\n", "a\nb", "a\n\n", "\na", " a\nb", "a \nb", "a\n b", "a\n\nb\n", "\n\n", "a\r\nb", "\r", "a\tb", "\t",
	"\u0000", "a\u0000#b", "\u0007", "\u001b", "\u007f", "\u0085", "a\u0085b", "\u00a0", "a\u00a0", "\u2028", "a\u2028b", "a\u2029\nb",
	"é", "naïve", "日本語", "😀", "a😀b", "\ufeff", "\ufeffabc", "\ufffe", "\uffff", "\ud7ff", "\ue000",
	"0", "1", "-1", "+1", "01", "007", "1.5", ".5", "5.", "1e3", "1E+3", "1e", ".inf", "-.inf", "+.INF", ".NaN", ".nan", ".x",
	"0x1F", "0X1f", "0o17", "0O17", "0b101", "-0b101", "0b", "0b2", "0b-1", "-0o7", "1_000", "1__0", "_1", "0x_1", "9223372036854775808",
	"18446744073709551616", "1e400", "2024-01-02", "2024-1-2", "2024-01-02T03:04:05Z", "2024-01-02T03:04:05.123+01:00",
	"2024-01-02 03:04:05", "2024-01-02t03:04:05z", "2024-13-45", "20240-01-02", "2024-", "12:30", "1:2:3",
	"2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T23:59:59Z", "0000-02-29T00:00:00Z",
	"2024-04-31T00:00:00Z", "2024-01-02T24:00:00Z", "2024-01-02T23:60:00Z", "2024-01-02T23:59:60Z", "2024-01-02T03:04:05.Z",
	"2024-01-02T03:04:05.1234567890123Z", "2024-01-02T03:04:05+24:00", "2024-01-02T03:04:05+23:60", "2024-01-02T03:04:05-05:30",
	"2024-01-02T03:04:05+0530", "2024-01-02T03:04:05z", "2024-01-02T03:04:05", "2024-1-2T3:4:5Z", "2024-01-02T03:04:05Zx",
	"2024-01-02T03:04:05.5+01:00", "2024-00-10T00:00:00Z", "2024-01-00T00:00:00Z", "2024-01-02T03:04:05 Z",
	"<<", "=", "a b  c", "  leading", "trailing  ", strings.Repeat("k", 128), strings.Repeat("k", 129), strings.Repeat("é", 70),
	"user@example.com", "https://example.com/a?b=c#d", "C:\\path", "{{.x}}", "$HOME",
}

var trickyNumbers = []string{"0", "-0", "1", "-1", "1.50", "1e3", "1E3", "1e+3", "1e-3", "-1.5e-10", "12345678901234567890123", "1e999", "0.0"}

// fixtureDocs are whole documents exercising structure.
var fixtureDocs = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `"x"`, `"a\nb"`, `"a\nb\n"`, `" a\nb"`, `"yes"`, `[[]]`, `[{}]`, `{"a":{}}`, `{"a":[]}`,
	`[[1,2],[3,[4,[]]]]`, `[[[{"a":1}]]]`, `{"a":[[1]]}`, `{"a":[{"b":[{"c":{}}]}]}`, `[{"a":1,"b":[1,{"c":"d"}]},{}]`,
	`{"k":"a\nb","l":["x\ny",{"m":"p\nq\n"}]}`, `[" a\nb","a\n\n","\n"]`, `{"a\nb":1}`, `{"` + strings.Repeat("k", 129) + `":{"x":1}}`,
	`{"` + strings.Repeat("k", 129) + `":[1,2]}`, `{"` + strings.Repeat("k", 129) + `":"v\nw"}`, `{"a\u2028b":"c"}`,
	`{"":""}`, `{"a":"", "b":[""]}`, `{"a": 1, "a": 2}`, ` { "sp" : [ 1 , 2 ] , "t" : { } } `, "{\"tab\":\t1}",
	`["\ud83d\ude00", "\u00e9\u0041", "\/", "\ud800", "\udc00x", "\ud800\u0041"]`,
	// Invalid UTF-8 decodes to U+FFFD, in short strings and in long ones
	// read eight bytes at a time.
	"[\"0\xad\",\"0\xad\"]", "{\"k\xff\":\"abcdefgh\xc3\x28ijklmnop\",\"x\":[\"\xe2\x82\",\"abcdefghijklmno\xf0\x9f\x98\"]}",
	`{"zeta":"yes","alpha":"no","on":"On","n":1.50,"flag":true,"when":"2025-01-02","nums":[1,2],"obj":{"y":"Y","b":"off"},"plain":"hello"}`,
	// Elements holding lists of like elements, whose commas look like
	// those between elements; items that end their line, and some that
	// do not.
	`[{"a":[{"a":1},{"a":2}],"b":{"a":[{"a":{"a":3}}]}},{"a":3},{"a":[1,{"a":4},{"a":"x\ny"}]},{"a":"p\nq\n"},{"b":1}]`,
	`[[1,[2,3]],[4,[5,[6]]],[7],[]]`, `["a,b", "c", " ,\"d", "e\n", "f"]`, `[{ "sp" : 1 } , { "sp" : 2 },{"sp":3}]`,
	`[{"a":"x\n"},{"a":"y\n"},{"b":1},{"a":"z\n"}]`, `["x\n","y\n","z"]`,
	// Keys of one length, first and last byte, some to be quoted.
	`[{"k1x":1,"k:x":2,"k x":3,"k#x":4},{"k1x":5,"k:x":6,"k x":7,"k#x":8}]`,
	// Records whose keys move, come escaped, change what they hold, or
	// are written as "? key".
	`[{"a":1,"b":{"c":2}},{"a":1,"b":[{"c":3}]},{"\u0061":"x","b":{"c":{"d":4}}},{"b":{"c":5},"a":6},{"a":{"b":{"c":7}}},{"a" : 8, "b":{ "c":9}}]`,
	`[{"` + strings.Repeat("k", 129) + `":1,"a\nb":2,"c":3},{"` + strings.Repeat("k", 129) + `":4,"a\nb":5,"c":6},{"c":7,"a\nb":8},{"x":9,"y":10,"a\nb":11},{"x":12,"y":13,"a\nb":14}]`,
}

// wideRecords is a list of records with more keys than a Shape keeps.
func wideRecords() string {
	var b strings.Builder
	b.WriteByte('[')
	for r := range 3 {
		if r > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		for k := range jsonscan.MaxShapeKeys + 3 {
			if k > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%d":{"v":%d}`, (k+r/2)%(jsonscan.MaxShapeKeys+3), k)
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return b.String()
}

func fixtureInputs() []string {
	docs := append(slices.Clip(fixtureDocs), wideRecords())
	for _, s := range trickyStrings {
		b, _ := json.Marshal(s)
		docs = append(docs, string(b), `{`+string(b)+`:`+string(b)+`}`, `[`+string(b)+`]`, `{"k":[`+string(b)+`,{"x":`+string(b)+`}]}`,
			// A key again, in the next record and deeper.
			`[{`+string(b)+`:1},{"a":{`+string(b)+`:[`+string(b)+`]},`+string(b)+`:2}]`)
	}
	for _, n := range trickyNumbers {
		docs = append(docs, n, `{"n":`+n+`}`, `[`+n+`]`)
	}
	return docs
}

// genJSON writes a random JSON document driven by seed, drawing strings and
// numbers from the tricky sets and varying whitespace and escapes.
func genJSON(seed []byte) string {
	var s1, s2 uint64
	for i, b := range seed {
		if i%2 == 0 {
			s1 = s1*131 + uint64(b)
		} else {
			s2 = s2*137 + uint64(b)
		}
	}
	rng := rand.New(rand.NewPCG(s1, s2))
	var b strings.Builder
	var gen func(depth int)
	ws := func() {
		if rng.IntN(6) == 0 {
			b.WriteString([]string{" ", "\n", "\t", "\r\n  "}[rng.IntN(4)])
		}
	}
	str := func() {
		s := trickyStrings[rng.IntN(len(trickyStrings))]
		if rng.IntN(3) == 0 {
			s += trickyStrings[rng.IntN(len(trickyStrings))]
		}
		if rng.IntN(4) == 0 {
			// The same text with every non-ASCII or quoted character escaped.
			b.WriteByte('"')
			for _, r := range s {
				switch {
				case r == '"' || r == '\\' || r < 0x20 || r > 0x7e:
					if r > 0xFFFF {
						r1, r2 := surrogates(r)
						fmt.Fprintf(&b, `\u%04x\u%04X`, r1, r2)
					} else {
						fmt.Fprintf(&b, `\u%04x`, r)
					}
				case r == '/' && rng.IntN(2) == 0:
					b.WriteString(`\/`)
				default:
					b.WriteRune(r)
				}
			}
			b.WriteByte('"')
			return
		}
		enc, _ := json.Marshal(s)
		b.Write(enc)
	}
	key := func() {
		if rng.IntN(2) == 0 {
			// Names the table columns and jq filters in these tests ask for.
			b.WriteString([]string{`"k"`, `"x"`, `"a"`, `"n"`, `""`, `"\u006b"`}[rng.IntN(6)])
			return
		}
		str()
	}
	gen = func(depth int) {
		ws()
		k := rng.IntN(10)
		if depth > 4 {
			k = 4 + rng.IntN(6)
		}
		switch {
		case k < 2:
			b.WriteByte('{')
			n := rng.IntN(4)
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				ws()
				key()
				ws()
				b.WriteByte(':')
				gen(depth + 1)
			}
			ws()
			b.WriteByte('}')
		case k < 4:
			b.WriteByte('[')
			n := rng.IntN(4)
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				gen(depth + 1)
			}
			ws()
			b.WriteByte(']')
		case k < 7:
			str()
		case k < 9:
			b.WriteString(trickyNumbers[rng.IntN(len(trickyNumbers))])
		default:
			b.WriteString([]string{"true", "false", "null"}[rng.IntN(3)])
		}
		ws()
	}
	gen(0)
	return b.String()
}

func surrogates(r rune) (rune, rune) {
	r -= 0x10000
	return 0xD800 + (r>>10)&0x3FF, 0xDC00 + r&0x3FF
}

// --- the checks ---

func checkYAML(t *testing.T, data []byte) {
	t.Helper()
	out, err := allWays(t, data, &Printer{IO: &IO{}, Opts: Options{Format: "yaml"}}, nil)
	got := []byte(out)
	if !json.Valid(data) {
		if err == nil {
			t.Fatalf("streaming YAML accepted invalid JSON %q", data)
		}
		return
	}
	if err != nil {
		t.Fatalf("streaming YAML of %q: %v", data, err)
	}
	want, err := referenceYAML(data)
	if err != nil {
		t.Fatalf("yaml.v3 on %q: %v", data, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("YAML of %q differs from yaml.v3's:\n got: %q\nwant: %q", data, got, want)
	}
	// Where yaml.v3's own parser reads the JSON as encoding/json does, the
	// bytes are exactly the former printer's.
	former, parsed, err := referenceYAMLFromYAMLParser(data)
	if err != nil {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	fromJSON, _ := jsonNode(dec)
	if sameValues(parsed, fromJSON) && !bytes.Equal(got, former) {
		t.Fatalf("YAML of %q differs from the former printer's:\n got: %q\nwant: %q", data, got, former)
	}
}

func checkJSON(t *testing.T, data []byte) {
	t.Helper()
	compact, cerr := stream(compactValue, data, false)
	out, ierr := allWays(t, data, &Printer{IO: &IO{OutTTY: true}, Opts: Options{Format: "json"}}, nil)
	indented := []byte(out)
	if !json.Valid(data) {
		if cerr == nil || ierr == nil {
			t.Fatalf("streaming JSON accepted invalid %q (compact err %v, indent err %v)", data, cerr, ierr)
		}
		return
	}
	if cerr != nil || ierr != nil {
		t.Fatalf("streaming JSON of valid %q: %v / %v", data, cerr, ierr)
	}
	var want bytes.Buffer
	json.Compact(&want, data)
	want.WriteByte('\n')
	if !bytes.Equal(compact, want.Bytes()) {
		t.Fatalf("compact %q:\n got: %q\nwant: %q", data, compact, want.Bytes())
	}
	want.Reset()
	json.Indent(&want, bytes.TrimSpace(data), "", "  ")
	want.WriteByte('\n')
	if !bytes.Equal(indented, want.Bytes()) {
		t.Fatalf("indent %q:\n got: %q\nwant: %q", data, indented, want.Bytes())
	}
}

func checkDecode(t *testing.T, data []byte) {
	t.Helper()
	got, err := jsonscan.Decode(data)
	if !json.Valid(data) {
		if err == nil {
			t.Fatalf("decodeValue accepted invalid %q", data)
		}
		return
	}
	want, _ := referenceDecode(data)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("jsonscan.Decode(%q) = %#v, %v; encoding/json: %#v", data, got, err, want)
	}
}

var tableColumns = [][]Column{
	nil,
	{{Header: "K", Field: "k"}, {Header: "X", Field: "k.x"}, {Header: "E", Field: ""}, {Header: "A", Field: "a"}, {Header: "N", Field: "n"}},
	{{Header: "K", Field: "k"}, {Header: "V", Value: func(r map[string]any) string { return fmt.Sprint(len(r)) }}},
}

func checkTable(t *testing.T, data []byte) {
	t.Helper()
	if !json.Valid(data) {
		for _, cols := range tableColumns {
			streamTable(t, data, cols, false) // the rendering must not take it
		}
		return
	}
	for _, cols := range tableColumns {
		for _, tty := range []bool{false, true} {
			got, err := streamTable(t, data, cols, tty)
			want, werr := referenceTable(data, cols, tty)
			if err != nil || werr != nil || got != want {
				t.Fatalf("table (tty=%v, %d columns) of %q:\n got: %q (%v)\nwant: %q (%v)", tty, len(cols), data, got, err, want, werr)
			}
		}
	}
}

var jqFilters = []string{".[]", ".[].k", ".[].k.x", ".[] | .k", ".[] | .k.x", ".[] | .x.k.a", ".[] | keys?", ".[] | type", ".[] | tostring", ".[].k.x.y", ".[] | select(type == \"object\") | .k"}

func checkJQ(t *testing.T, data []byte) {
	t.Helper()
	if !json.Valid(data) {
		for _, f := range jqFilters[:3] {
			streamJQ(t, f, data) // the rendering must not take it
		}
		return
	}
	data = bytes.TrimSpace(data)
	list := []byte("[" + string(data) + "," + string(data) + "]")
	for _, f := range jqFilters {
		for _, d := range [][]byte{data, list} {
			got, err := streamJQ(t, f, d)
			want, werr := referenceJQ(f, d)
			if got != want || (err == nil) != (werr == nil) || err != nil && !strings.Contains(err.Error(), werr.Error()) {
				t.Fatalf("--jq %s on %q:\n got: %q (%v)\nwant: %q (%v)", f, d, got, err, want, werr)
			}
		}
	}
}

func TestStreamingMatchesReferenceOnFixtures(t *testing.T) {
	for _, d := range fixtureInputs() {
		data := []byte(d)
		checkJSON(t, data)
		checkDecode(t, data)
		checkYAML(t, bytes.TrimSpace(data))
		checkTable(t, bytes.TrimSpace(data))
		checkJQ(t, data)
	}
}

func TestStreamingMatchesReferenceOnGeneratedDocs(t *testing.T) {
	for i := 0; i < 1000; i++ {
		data := []byte(genJSON([]byte(fmt.Sprint(i))))
		checkJSON(t, data)
		checkDecode(t, data)
		checkYAML(t, bytes.TrimSpace(data))
		checkTable(t, bytes.TrimSpace(data))
		checkJQ(t, data)
	}
}

func TestInvalidJSONIsRejected(t *testing.T) {
	bad := []string{`{`, `[1,]`, `{"a"}`, `{"a":1,}`, `01`, `1.`, `.5`, `-`, `1e`, `tru`, `nul`, `"a`, "\"\x01\"", `"\x"`, `"\u12"`,
		`[1 2]`, `{"a":1 "b":2}`, `{1:2}`, `1 2`, `[]]`, `"a"x`}
	for _, d := range bad {
		data := []byte(d)
		if json.Valid(data) {
			t.Fatalf("%q is valid JSON: not a useful case", d)
		}
		checkJSON(t, data)
		checkDecode(t, data)
		checkYAML(t, data)
	}
	// encoding/json's nesting limit, without the 100 MB of indentation
	// checkJSON would make of it.
	for _, depth := range []int{jsonscan.MaxDepth, jsonscan.MaxDepth + 1} {
		deep := []byte(strings.Repeat("[", depth) + strings.Repeat("]", depth))
		_, cerr := stream(compactValue, deep, false)
		_, yerr := stream(yamlValue, deep, false)
		_, derr := jsonscan.Decode(deep)
		if valid := json.Valid(deep); (cerr == nil) != valid || (yerr == nil) != valid || (derr == nil) != valid {
			t.Errorf("depth %d: json.Valid %v, compact err %v, yaml err %v, decode err %v", depth, valid, cerr, yerr, derr)
		}
	}
}

func FuzzYAML(f *testing.F) {
	for _, d := range fixtureDocs {
		f.Add([]byte(d), false)
	}
	f.Add([]byte("seed"), true)
	f.Fuzz(func(t *testing.T, b []byte, generate bool) {
		data := b
		if generate {
			data = []byte(genJSON(b))
		}
		if len(data) > 16384 {
			return // keeps each run short; size adds nothing the rules see
		}
		checkYAML(t, bytes.TrimSpace(data))
	})
}

func FuzzJSONFormats(f *testing.F) {
	for _, d := range fixtureDocs {
		f.Add([]byte(d), false)
	}
	f.Add([]byte("seed"), true)
	f.Fuzz(func(t *testing.T, b []byte, generate bool) {
		data := b
		if generate {
			data = []byte(genJSON(b))
		}
		if len(data) > 4096 {
			// Deep nesting makes indentation quadratic: the references
			// would take the fuzzer's time, not the code under test.
			return
		}
		checkJSON(t, data)
		checkDecode(t, data)
		checkTable(t, bytes.TrimSpace(data))
		checkJQ(t, bytes.TrimSpace(data))
	})
}

// isRFC3339 is a shortcut past time.Parse: whatever it accepts, the first
// of yaml.v3's timestamp layouts must accept too.
func TestRFC3339ShortcutAcceptsOnlyWhatTimeParseDoes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	accepted := 0
	for i := 0; i < 300000; i++ {
		b := []byte("2024-01-02T03:04:05.000+01:00")[:20+rng.IntN(10)]
		for k := range b {
			if rng.IntN(8) == 0 {
				b[k] = "0123456789"[rng.IntN(10)]
			}
			if rng.IntN(60) == 0 {
				b[k] = "-:T.Z+ z"[rng.IntN(8)]
			}
		}
		s := string(b)
		if s[4] != '-' || !isRFC3339(s) {
			continue
		}
		accepted++
		if _, err := time.Parse(timestampLayouts[0], s); err != nil {
			t.Fatalf("isRFC3339(%q), but time.Parse: %v", s, err)
		}
	}
	if accepted < 1000 {
		t.Fatalf("only %d of the generated timestamps were accepted: the test checks too little", accepted)
	}
}

// Lists broken between or inside elements, after the first element, where
// rendering hands them to other goroutines: nothing of them may be taken.
func TestRenderingRefusesBrokenLists(t *testing.T) {
	for _, d := range []string{`[1,2 3]`, `[1,2,]`, `[{"a":1},{"a":2}{"a":3}]`, `[1,"a",tru]`, `[1,[2,3]`, `[1,"\x"]`,
		`[{"a":1}, {"a":"b\"}]`, `[1,2}`, `[{"a":1},{"a":1]]`, "[1,\"a\x01\"]", `[1, , 2]`, `[1,2] 3`, `[{"k":1},{"k":[}]`,
		`[1,12.5.6]`, `[1,truex]`, `[1,"a"x]`, `[1,{}x]`, `[1,-]`, `[1,0x1]`,
		`[{"a":[{"a":1},{"a":2}]},{"a":[{"a":1} {"a":2}]},{"a":3}]`, `[{"a":[{"a":1},{"a":2}]},{"a":[{"a":1},{"a":2}},{"a":3}]`} {
		checkTable(t, []byte(d))
		checkJQ(t, []byte(d))
	}
}
