package output

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

func printer(tty bool, o Options) (*Printer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &Printer{IO: &IO{Out: &out, Err: &errb, OutTTY: tty}, Opts: o}, &out
}

func mustPrint(t *testing.T, tty bool, o Options, data string, cols []Column) string {
	t.Helper()
	p, out := printer(tty, o)
	if err := p.Print(json.RawMessage(data), cols); err != nil {
		t.Fatalf("Print: %v", err)
	}
	return out.String()
}

var userCols = []Column{
	{Header: "ID", Field: "id"},
	{Header: "EMAIL", Field: "email"},
	{Header: "OWNER", Field: "owner.name"},
	{Header: "ACTIVE", Field: "active"},
}

const users = `[{"id":"u1","email":"ada@example.com","owner":{"name":"Root"},"active":true},
 {"id":"user_22","email":"b@x.io","owner":null,"active":false,"extra":1}]`

func TestTableOnTerminal(t *testing.T) {
	got := mustPrint(t, true, Options{}, users, userCols)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("want header + 2 rows, got %q", got)
	}
	if !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[0], "EMAIL") || !strings.Contains(lines[0], "OWNER") {
		t.Errorf("header = %q", lines[0])
	}
	// Columns are aligned: each header starts where its values start.
	for _, h := range []string{"EMAIL", "OWNER", "ACTIVE"} {
		col := strings.Index(lines[0], h)
		if l := lines[1]; col >= len(l) || l[col-1] != ' ' || l[col] == ' ' {
			t.Errorf("column %s (at %d) not aligned in %q", h, col, l)
		}
		if l := lines[2]; l[col-1] != ' ' {
			t.Errorf("column %s (at %d) not aligned in %q", h, col, l)
		}
	}
	if !strings.Contains(lines[1], "Root") || !strings.Contains(lines[1], "true") {
		t.Errorf("row = %q", lines[1])
	}
	for _, l := range lines {
		if strings.HasSuffix(l, " ") || strings.ContainsAny(l, "|+─│") {
			t.Errorf("line %q has trailing blanks or borders", l)
		}
	}
}

// The terminal layout, byte for byte: columns aligned on display width (CJK
// wide, combining marks and ambiguous-width symbols narrow), cells and
// headers trimmed, tabs in headers widened, a short row left short, no
// trailing blanks.
func TestTableLayoutOnTerminal(t *testing.T) {
	headers := []string{"ID", " NAME ", "NOTE\tX", "名前"}
	rows := [][]string{
		{"u1", "Ada Lovelace", "  padded  ", "日本語"},
		{"user_22", "Zoë", "\u00a0nbsp\u00a0", "한국어"},
		{"3", "e\u0301", "1,000", "ｆｕｌｌ"},
		{"only one cell"},
		{"", "", "", ""},
		{"x", "±→①", "a\tb", "line1\nline2"},
	}
	want := "ID             NAME          NOTE    X  名前\n" +
		"u1             Ada Lovelace  padded     日本語\n" +
		"user_22        Zoë           nbsp       한국어\n" +
		"3              e\u0301             1,000      ｆｕｌｌ\n" +
		"only one cell\n" +
		"\n" +
		"x              ±→①           a b        line1 line2\n"
	for _, locale := range []string{"C.UTF-8", "ja_JP.UTF-8"} {
		t.Setenv("LC_ALL", locale)
		var out bytes.Buffer
		if err := writeTable(&out, headers, rows); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("LC_ALL=%s: table =\n%q\nwant\n%q", locale, out.String(), want)
		}
	}
}

func TestTSVWhenPiped(t *testing.T) {
	got := mustPrint(t, false, Options{}, users, userCols)
	want := "u1\tada@example.com\tRoot\ttrue\nuser_22\tb@x.io\t\tfalse\n"
	if got != want {
		t.Errorf("TSV = %q, want %q", got, want)
	}
}

func TestTableFlattensTabsAndNewlines(t *testing.T) {
	data := `[{"id":"a\tb","email":"line1\nline2\r\n"}]`
	cols := userCols[:2]
	if got := mustPrint(t, false, Options{}, data, cols); got != "a b\tline1 line2  \n" {
		t.Errorf("TSV = %q", got)
	}
	got := mustPrint(t, true, Options{}, data, cols)
	if strings.Count(got, "\n") != 2 || strings.Contains(got, "\t") {
		t.Errorf("terminal table broke a row: %q", got)
	}
}

func TestTableSingleObjectAndStructuredCells(t *testing.T) {
	data := `{"id":"g1","members":[1,2],"meta":{"k":"v"},"n":1.50}`
	cols := []Column{{Header: "ID", Field: "id"}, {Header: "MEMBERS", Field: "members"}, {Header: "META", Field: "meta"}, {Header: "N", Field: "n"}, {Header: "MISSING", Field: "nope.deeper"}}
	got := mustPrint(t, false, Options{}, data, cols)
	if got != "g1\t[1,2]\t{\"k\":\"v\"}\t1.50\t\n" {
		t.Errorf("TSV = %q", got)
	}
}

func TestColumnValueFunc(t *testing.T) {
	cols := []Column{{Header: "NAME", Value: func(r map[string]any) string { return r["first"].(string) + " " + r["last"].(string) }}}
	if got := mustPrint(t, false, Options{}, `[{"first":"Ada","last":"L"}]`, cols); got != "Ada L\n" {
		t.Errorf("got %q", got)
	}
}

func TestEmptyData(t *testing.T) {
	for _, tty := range []bool{true, false} {
		for _, f := range Formats {
			if got := mustPrint(t, tty, Options{Format: f}, "  ", userCols); got != "" {
				t.Errorf("format %s tty=%v printed %q for empty data", f, tty, got)
			}
		}
		if got := mustPrint(t, tty, Options{}, "[]", userCols); got != "" {
			t.Errorf("empty list printed %q (tty=%v)", got, tty)
		}
	}
}

func TestDefaultColumnsFollowDocumentOrder(t *testing.T) {
	data := `[{"zeta":"z","id":"1","nested":{"a":1},"list":[1],"alpha":true,"num":2.50}]`
	got := mustPrint(t, true, Options{}, data, nil)
	header := strings.Fields(strings.Split(got, "\n")[0])
	want := []string{"ZETA", "ID", "ALPHA", "NUM"}
	if strings.Join(header, " ") != strings.Join(want, " ") {
		t.Errorf("default header = %v, want %v (document order, scalars only)", header, want)
	}
	if got := mustPrint(t, false, Options{}, data, nil); got != "z\t1\ttrue\t2.50\n" {
		t.Errorf("TSV = %q", got)
	}
	// A list of scalars gets one VALUE column.
	if got := mustPrint(t, false, Options{}, `["a","b"]`, nil); got != "a\nb\n" {
		t.Errorf("scalar list = %q", got)
	}
	// Objects with only structured fields still show something, sorted.
	if got := mustPrint(t, true, Options{}, `{"b":{"x":1},"a":[2]}`, nil); !strings.HasPrefix(got, "A") || !strings.Contains(got, `{"x":1}`) {
		t.Errorf("structured-only object = %q", got)
	}
}

// The API's bytes, with odd spacing, number spellings and unknown fields.
const raw = `{"id": "u1", "score": 1.50, "big": 12345678901234567890123, "exp": 1e3,  "new_field": {"z": 1, "a": "é"}, "type": "robot"}`

func TestJSONCompactWhenPipedIsByteFaithful(t *testing.T) {
	got := mustPrint(t, false, Options{Format: "json"}, raw, userCols)
	want := `{"id":"u1","score":1.50,"big":12345678901234567890123,"exp":1e3,"new_field":{"z":1,"a":"é"},"type":"robot"}` + "\n"
	if got != want {
		t.Errorf("json = %s, want %s", got, want)
	}
}

func TestJSONPrettyOnTerminal(t *testing.T) {
	got := mustPrint(t, true, Options{Format: "json"}, raw, userCols)
	if !strings.Contains(got, "\n  \"score\": 1.50,\n") || !strings.Contains(got, "\"big\": 12345678901234567890123") || !strings.Contains(got, "\"exp\": 1e3") {
		t.Errorf("pretty json = %s", got)
	}
	// Same bytes once whitespace is dropped.
	var c bytes.Buffer
	json.Compact(&c, []byte(got))
	var w bytes.Buffer
	json.Compact(&w, []byte(raw))
	if c.String() != w.String() {
		t.Errorf("pretty json changed content:\n%s\n%s", c.String(), w.String())
	}
	if strings.Index(got, "new_field") > strings.Index(got, "type") {
		t.Errorf("key order changed: %s", got)
	}
}

func TestJSONInvalid(t *testing.T) {
	p, _ := printer(false, Options{Format: "json"})
	if err := p.Print(json.RawMessage(`{"a":`), nil); err == nil {
		t.Error("invalid JSON printed without error")
	}
}

func TestYAMLKeepsOrderAndQuotesBooleanWords(t *testing.T) {
	data := `{"zeta":"yes","alpha":"no","on":"On","n":1.50,"flag":true,"when":"2025-01-02","nums":[1,2],"obj":{"y":"Y","b":"off"},"plain":"hello"}`
	got := mustPrint(t, false, Options{Format: "yaml"}, data, nil)
	wantLines := []string{
		`zeta: "yes"`, `alpha: "no"`, `"on": "On"`, `"n": 1.50`, `flag: true`, `plain: hello`, `  "y": "Y"`, `  b: "off"`, `  - 1`, `when: "2025-01-02"`,
	}
	for _, l := range wantLines {
		if !strings.Contains(got, l+"\n") && !strings.Contains(got, strings.TrimSpace(l)+"\n") {
			t.Errorf("yaml lacks %q:\n%s", l, got)
		}
	}
	if strings.Index(got, "zeta") > strings.Index(got, "alpha") || strings.Index(got, "alpha") > strings.Index(got, "plain") {
		t.Errorf("yaml reordered keys:\n%s", got)
	}
	// A YAML reader gets the same strings back, not booleans.
	var back map[string]any
	if err := yaml.Unmarshal([]byte(got), &back); err != nil {
		t.Fatal(err)
	}
	if back["zeta"] != "yes" || back["alpha"] != "no" || back["flag"] != true {
		t.Errorf("round trip = %v", back)
	}
	if strings.Contains(got, "{") || strings.Contains(got, `"zeta"`) {
		t.Errorf("yaml kept JSON flow style:\n%s", got)
	}
}

func TestJQ(t *testing.T) {
	data := `[{"id":"u1","n":1.50,"tags":["a"]},{"id":"u2","n":2,"tags":[]}]`
	tests := map[string]string{
		`.[].id`:                  "u1\nu2\n", // raw strings, like jq -r
		`.[0]`:                    `{"id":"u1","n":1.50,"tags":["a"]}` + "\n",
		`.[] | .n`:                "1.50\n2\n",
		`map(.id) | length`:       "2\n",
		`.[] | select(.n>1.6)`:    `{"id":"u2","n":2,"tags":[]}` + "\n",
		`.[1].tags`:               "[]\n",
		`.[0].missing`:            "null\n",
		`.[] | .id + "\tx"`:       "u1\tx\nu2\tx\n",
		`[.[] | .id] | join(",")`: "u1,u2\n",
	}
	for expr, want := range tests {
		for _, tty := range []bool{true, false} {
			if got := mustPrint(t, tty, Options{JQ: expr}, data, userCols); got != want {
				t.Errorf("--jq %q (tty=%v) = %q, want %q", expr, tty, got, want)
			}
		}
	}
	p, _ := printer(false, Options{JQ: `.[] | error("boom")`})
	if err := p.Print(json.RawMessage(data), nil); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("jq runtime error = %v", err)
	}
}

func TestTemplate(t *testing.T) {
	data := `[{"first":"Ada","last":"L","n":1.50,"tags":["x","y"],"o":{"k":"v"}},{"first":"Bo","last":"M","n":2,"tags":[]}]`
	tests := map[string]string{
		`{{range .}}{{.first}} {{.last}}{{"\n"}}{{end}}`: "Ada L\nBo M\n",
		`{{range .}}{{.n}};{{end}}`:                      "1.50;2;",
		`{{(index . 0).o | json}}`:                       `{"k":"v"}`,
		`{{join "," (index . 0).tags}}`:                  "x,y",
		`{{(index . 1).missing}}`:                        "<no value>",
	}
	for tpl, want := range tests {
		if got := mustPrint(t, false, Options{Template: tpl}, data, nil); got != want {
			t.Errorf("--template %q = %q, want %q", tpl, got, want)
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		o    Options
		want string
	}{
		{Options{}, ""},
		{Options{Format: "table"}, ""},
		{Options{Format: "json"}, ""},
		{Options{Format: "yaml", JQ: ".id"}, ""},
		{Options{Format: "xml"}, `invalid output format "xml": use one of table, json, yaml`},
		{Options{Format: "JSON"}, `invalid output format "JSON"`},
		{Options{JQ: ".a", Template: "{{.}}"}, "--jq and --template cannot be used together"},
		{Options{JQ: ".[ "}, "invalid --jq expression"},
		{Options{JQ: "undefined_fn(1)"}, "invalid --jq expression"},
		{Options{Template: "{{.a"}, "invalid --template"},
		{Options{Template: "{{nosuchfunc .}}"}, "invalid --template"},
	}
	for _, tc := range tests {
		err := tc.o.Validate()
		if tc.want == "" {
			if err != nil {
				t.Errorf("Validate(%+v) = %v", tc.o, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want %q", tc.o, err, tc.want)
		}
	}
}

func TestLookup(t *testing.T) {
	rec := map[string]any{"a": map[string]any{"b": map[string]any{"c": "deep"}}, "s": "x"}
	if Lookup(rec, "a.b.c") != "deep" || Lookup(rec, "s.t") != nil || Lookup(rec, "none") != nil {
		t.Error("Lookup failed")
	}
}

func TestNotices(t *testing.T) {
	var errb bytes.Buffer
	s := &IO{Err: &errb, Color: true}
	s.Warn("careful %d", 1)
	s.Notice("plain %s", "note")
	if got := errb.String(); got != "\x1b[33mwarning: \x1b[0mcareful 1\nplain note\n" {
		t.Errorf("stderr = %q", got)
	}
	errb.Reset()
	s.Color = false
	s.Warn("careful")
	if errb.String() != "warning: careful\n" {
		t.Errorf("uncoloured warn = %q", errb.String())
	}
}

func TestSystemHonoursForceTTYAndNoColor(t *testing.T) {
	t.Setenv("ORGCTL_FORCE_TTY", "1")
	t.Setenv("NO_COLOR", "1")
	s := System()
	if !s.OutTTY || !s.ErrTTY || s.Color {
		t.Errorf("System() = OutTTY %v ErrTTY %v Color %v; want forced TTY without colour", s.OutTTY, s.ErrTTY, s.Color)
	}
}

func TestSelectFieldsKeepsOrderAndValuesAsReceived(t *testing.T) {
	got, err := SelectFields([]byte(` [{"a":1.50,"b":"x","c":{"d":1}}, {"b":null}, 7] `), []string{"c", "a"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"c":{"d":1},"a":1.50},{"c":null,"a":null},7]`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
	got, _ = SelectFields([]byte(`{"id":"u1","email":"e"}`), []string{"email"})
	if string(got) != `{"email":"e"}` {
		t.Errorf("one object: %s", got)
	}
}

// firstWrite keeps the first slice written to it.
type firstWrite struct {
	bytes.Buffer
	first []byte
}

func (w *firstWrite) Write(p []byte) (int, error) {
	if w.first == nil {
		w.first = p
	}
	return w.Buffer.Write(p)
}

func TestPrintCompactPrintsAsPrintDoes(t *testing.T) {
	data := json.RawMessage(`[{"id":"u1","score":1.50,"email":"a@x","new_field":{"z":1}},{"id":"u2","score":2,"email":"b@x"}]`)
	for _, tc := range []struct {
		tty  bool
		opts Options
	}{
		{false, Options{Format: "json"}}, {true, Options{Format: "json"}}, {false, Options{Format: "yaml"}},
		{false, Options{}}, {true, Options{}}, {false, Options{Format: "json", JQ: ".[].email"}},
		{false, Options{Format: "json", Template: "{{range .}}{{.id}} {{end}}"}},
	} {
		p, want := printer(tc.tty, tc.opts)
		if err := p.Print(data, userCols); err != nil {
			t.Fatal(err)
		}
		var got firstWrite
		p.IO.Out = &got
		if err := p.PrintCompact(data, userCols); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("tty %v %+v: PrintCompact wrote %q, Print %q", tc.tty, tc.opts, got.String(), want.String())
		}
	}
	// Piped -o json writes the checked data itself, not a copy read anew.
	p, _ := printer(false, Options{Format: "json"})
	var w firstWrite
	p.IO.Out = &w
	if err := p.PrintCompact(data, nil); err != nil {
		t.Fatal(err)
	}
	if len(w.first) != len(data) || &w.first[0] != &data[0] {
		t.Errorf("piped -o json did not write the data as it stands (first write %d bytes)", len(w.first))
	}
	// Nothing to print stays nothing.
	w.Reset()
	if err := p.PrintCompact(nil, nil); err != nil || w.Len() != 0 {
		t.Errorf("empty data: %q, %v", w.String(), err)
	}
}

// A spool holds what was written in order, across the boundaries of its
// growing pieces, whatever the sizes of the writes.
func TestSpoolKeepsEveryByteAcrossPieces(t *testing.T) {
	var s spool
	var want bytes.Buffer
	rng := rand.New(rand.NewPCG(1, 2))
	for want.Len() < 10<<20 {
		b := make([]byte, rng.IntN(1<<20))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		if n, err := s.Write(b); n != len(b) || err != nil {
			t.Fatalf("Write(%d bytes) = %d, %v", len(b), n, err)
		}
		want.Write(b)
	}
	if len(s.chunks) < 3 {
		t.Fatalf("%d bytes fit in %d pieces: the boundaries were not crossed", want.Len(), len(s.chunks))
	}
	var got bytes.Buffer
	if err := (&Printer{IO: &IO{Out: &got}}).WriteRendered(&Rendered{s.chunks}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatal("the spool's bytes differ from those written")
	}
}

func TestColourOnlyWhereAllowed(t *testing.T) {
	var on, off bytes.Buffer
	(&IO{Err: &on, Color: true}).Warn("low on %s", "points")
	(&IO{Err: &on, Color: true}).Success("Added %s", "ana")
	(&IO{Err: &off}).Warn("low on %s", "points")
	(&IO{Err: &off}).Success("Added %s", "ana")
	if want := "\x1b[33mwarning: \x1b[0mlow on points\n\x1b[32m✓ \x1b[0mAdded ana\n"; on.String() != want {
		t.Errorf("with colour: %q, want %q", on.String(), want)
	}
	if want := "warning: low on points\n✓ Added ana\n"; off.String() != want {
		t.Errorf("without colour: %q, want %q", off.String(), want)
	}
	for _, c := range []struct {
		env  map[string]string
		tty  bool
		want bool
	}{
		{map[string]string{}, true, true},
		{map[string]string{}, false, false},
		{map[string]string{"NO_COLOR": "1"}, true, false},
		{map[string]string{"NO_COLOR": ""}, true, true}, // empty: not set (no-color.org)
		{map[string]string{"CLICOLOR_FORCE": "1"}, false, true},
		{map[string]string{"CLICOLOR_FORCE": "0"}, false, false},
		{map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, false, false},
		{map[string]string{"TERM": "dumb"}, true, false},
		{map[string]string{"CLICOLOR": "0"}, true, false},
	} {
		for _, k := range []string{"NO_COLOR", "CLICOLOR_FORCE", "CLICOLOR", "TERM"} {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
		for k, v := range c.env {
			t.Setenv(k, v)
		}
		if got := colorAllowed(c.tty); got != c.want {
			t.Errorf("env %v, terminal %v: colour %v, want %v", c.env, c.tty, got, c.want)
		}
	}
}
