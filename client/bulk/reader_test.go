package bulk

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

// readAll collects rows and problems as "LINE: message" strings.
func readAll(t *testing.T, f Format, in string) (rows []Row, problems []string) {
	t.Helper()
	r := NewReader(strings.NewReader(in), f)
	if f == CSV {
		_, hp, err := r.Header()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range hp {
			problems = append(problems, fmt.Sprintf("%d: %s", p.Line, p.Msg))
		}
	}
	for {
		row, err := r.Next()
		if err == io.EOF {
			return rows, problems
		}
		var p *Problem
		if errors.As(err, &p) {
			problems = append(problems, fmt.Sprintf("%d: %s", p.Line, p.Msg))
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
}

func TestCSVRowsCarryTheirLines(t *testing.T) {
	in := "\ufeffemail,first-name,note\n" +
		"ada@example.com,Ada,\n" +
		"bob@example.com,Bob,\"two\nlines\"\n" +
		"cy@example.com,Cy,\"say \"\"hi\"\"\"\n"
	rows, problems := readAll(t, CSV, in)
	if len(problems) != 0 {
		t.Fatalf("problems: %q", problems)
	}
	if len(rows) != 3 {
		t.Fatalf("got %d rows", len(rows))
	}
	want := []struct {
		n, line int
		vals    map[string][]string
	}{
		{1, 2, map[string][]string{"email": {"ada@example.com"}, "first-name": {"Ada"}}},
		{2, 3, map[string][]string{"email": {"bob@example.com"}, "first-name": {"Bob"}, "note": {"two\nlines"}}},
		{3, 5, map[string][]string{"email": {"cy@example.com"}, "first-name": {"Cy"}, "note": {`say "hi"`}}},
	}
	for i, w := range want {
		if rows[i].N != w.n || rows[i].Line != w.line || !reflect.DeepEqual(rows[i].Values, w.vals) {
			t.Errorf("row %d = %+v, want %+v", i, rows[i], w)
		}
	}
}

func TestCSVProblemsAreReportedWithTheirLinesAndReadingGoesOn(t *testing.T) {
	in := "email,name\n" +
		"a@x,A\n" +
		"\n" +
		"b@x,B,extra\n" +
		"c@x,C \"quoted\"\n" +
		"d@x,D\n" +
		"e@x,\"E\"x\n" +
		"f@x,F\n" +
		"\n\n"
	rows, problems := readAll(t, CSV, in)
	want := []string{
		"4: 3 values, but the header row names 2 columns",
		`5: a quote (") inside an unquoted value (column 7): quote the whole value and double the quote ("")`,
		`7: a quote (") closes a quoted value but more text follows it (column 7): double a quote inside a quoted value ("")`,
	}
	if !reflect.DeepEqual(problems, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%d@%d", r.N, r.Line))
	}
	// a line read whole but unfit (line 4) is a row all the same, which
	// --skip-invalid can leave unsent: the rows after it count it
	if strings.Join(got, " ") != "1@2 3@6 4@8" {
		t.Errorf("rows %v", got)
	}
}

func TestEmptyRowsAreNoRowsAndNoProblems(t *testing.T) {
	// as spreadsheets save them: a row of empty cells, blank lines, spaces
	rows, problems := readAll(t, CSV, "email,name\r\na@x,A\r\n,\r\n\r\n , \r\nb@x,B\r\n,,\r\n\r\n")
	if len(problems) != 0 {
		t.Errorf("problems %q", problems)
	}
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%d@%d", r.N, r.Line))
	}
	if strings.Join(got, " ") != "1@2 2@6" {
		t.Errorf("rows %v", got)
	}
	rows, problems = readAll(t, JSONL, "{\"a\":1}\n\n  \n{\"a\":2}\n\n")
	if len(problems) != 0 || len(rows) != 2 || rows[1].N != 2 || rows[1].Line != 4 {
		t.Errorf("rows %+v problems %q", rows, problems)
	}
}

func TestCSVDelimiterIsReadFromTheHeader(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want rune
	}{
		{"email;first-name;last-name\na@x;A;B\n", ';'},
		{"email\tfirst-name\tlast-name\na@x\tA\tB\n", '\t'},
		{"email,first-name,last-name\na@x,A,B\n", ','},
		{"\"e;mail\",first-name,last-name\na@x,A,B\n", ','}, // a ";" in a quoted name is no separator
		{"email,first;name,last\na@x,A,B\n", ','},           // a comma wins: it is the default
		{"\"email;x\"\ta\tb\n1\t2\t3\n", '\t'},              // quoted semicolons do not count
	} {
		r := NewReader(strings.NewReader(tc.in), CSV)
		h, hp, err := r.Header()
		if err != nil || len(hp) != 0 || r.Delimiter() != tc.want {
			t.Errorf("%q: delimiter %q header %q problems %v err %v", tc.in, r.Delimiter(), h, hp, err)
			continue
		}
		row, err := r.Next()
		if err != nil || len(row.Values) != 3 {
			t.Errorf("%q: row %+v err %v", tc.in, row, err)
		}
	}
	// set, it is not guessed: a semicolon header read with commas is one column
	r := NewReader(strings.NewReader("a;b\n1;2\n"), CSV)
	r.SetDelimiter(',')
	if h, _, _ := r.Header(); len(h) != 1 || h[0] != "a;b" {
		t.Errorf("header %q", h)
	}
}

func TestCSVUnclosedQuoteNamesWhereItOpened(t *testing.T) {
	_, problems := readAll(t, CSV, "email,name\na@x,\"open\nb@x,B\n")
	if len(problems) != 1 || !strings.HasPrefix(problems[0], "2: a quoted value opened here is not closed") {
		t.Errorf("problems %q", problems)
	}
}

func TestCSVHeaderProblems(t *testing.T) {
	_, problems := readAll(t, CSV, "email,,Email\na,b,c\n")
	want := []string{"1: header row: column 2 has no name", `1: header row: column "Email" appears twice`}
	if !reflect.DeepEqual(problems, want) {
		t.Errorf("problems %q", problems)
	}
	r := NewReader(strings.NewReader(""), CSV)
	if _, _, err := r.Header(); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty file: %v", err)
	}
}

func TestCSVWithoutFinalNewlineHasNoBlankLine(t *testing.T) {
	rows, problems := readAll(t, CSV, "email\r\na@x\r\nb@x")
	if len(problems) != 0 || len(rows) != 2 || rows[1].Line != 3 {
		t.Errorf("rows %+v problems %q", rows, problems)
	}
}

func TestJSONLinesValues(t *testing.T) {
	in := `{"email":"a@x","active":false,"n":12.50,"user":["u1","u2"],"metadata":{"team":"ops"},"gone":null}` + "\n" +
		"\n" +
		`[1,2]` + "\n" +
		`{"email":` + "\n" +
		`{"a":1} {"b":2}` + "\n" +
		`{"email":"b@x"}`
	rows, problems := readAll(t, JSONL, in)
	want := []string{
		"3: expected a JSON object, found array",
		"4: not valid JSON: unexpected EOF",
		"5: more than one JSON value on the line: put each object on its own line",
	}
	if !reflect.DeepEqual(problems, want) {
		t.Errorf("problems:\n%s", strings.Join(problems, "\n"))
	}
	// lines 3 to 5 are rows unfit to send (rows 2 to 4); line 2 is no row
	if len(rows) != 2 || rows[1].N != 5 || rows[1].Line != 6 {
		t.Fatalf("rows %+v", rows)
	}
	wantVals := map[string][]string{"email": {"a@x"}, "active": {"false"}, "n": {"12.50"}, "user": {"u1", "u2"},
		"metadata": {`{"team":"ops"}`}}
	if !reflect.DeepEqual(rows[0].Values, wantVals) {
		t.Errorf("values %v", rows[0].Values)
	}
}

func TestJSONLineTooLongIsOneProblem(t *testing.T) {
	in := `{"a":"` + strings.Repeat("x", maxLine) + `"}` + "\n" + `{"a":"b"}` + "\n"
	rows, problems := readAll(t, JSONL, in)
	if len(problems) != 1 || !strings.HasPrefix(problems[0], "1: line longer than") || len(rows) != 1 || rows[0].Line != 2 {
		t.Errorf("rows %+v problems %q", rows, problems)
	}
}

func TestFormats(t *testing.T) {
	for name, want := range map[string]Format{"a.jsonl": JSONL, "B.NDJSON": JSONL, "a.csv": CSV, "-": CSV, "x.txt": CSV} {
		if got := FormatOf(name); got != want {
			t.Errorf("FormatOf(%q) = %s", name, got)
		}
	}
	if f, err := ParseFormat("ndjson"); err != nil || f != JSONL {
		t.Errorf("ndjson: %v %v", f, err)
	}
	if _, err := ParseFormat("xml"); err == nil {
		t.Error("xml accepted")
	}
}
