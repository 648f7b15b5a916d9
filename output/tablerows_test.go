package output

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// A parent run's tables read back as written: a row equal to its header
// stays a row, formula cells keep no guard, two tables stay two, and a
// header keeps the marks of its columns (a key, an optional column).
func TestRowsReadBackAsWritten(t *testing.T) {
	var b bytes.Buffer
	p := &Printer{Opts: Options{Format: "csv", Rows: true}}
	w := p.TableWriter(&b)
	w.Header([]string{"name"}, nil)
	w.Write([]string{"name"})
	w.Write([]string{"=SUM(1)"})
	w.Header([]string{"stage", "name"}, []Mark{{Optional: true}, {Key: true}})
	w.Write([]string{"-x", "a,\"b\"\nc"})
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTables(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	want := []Table{
		{Header: []string{"name"}, Rows: [][]string{{"name"}, {"=SUM(1)"}}},
		{Header: []string{"stage", "name"}, Marks: []Mark{{Optional: true}, {Key: true}}, Rows: [][]string{{"-x", "a,\"b\"\nc"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	// without Rows, -o csv guards as ever
	b.Reset()
	p.Opts.Rows = false
	w = p.TableWriter(&b)
	w.Header([]string{"name"}, []Mark{{Key: true}})
	w.Write([]string{"=SUM(1)"})
	w.Flush()
	if b.String() != "name\n'=SUM(1)\n" {
		t.Fatalf("CSV %q", b.String())
	}
	for _, bad := range []string{"name\n", `{"row":["x"]}`, `{"header":["a"]}` + "\n{}", `{"header":["a","b"],"marks":[{"key":true}]}`} {
		if _, err := ReadTables([]byte(bad)); err == nil || !strings.Contains(err.Error(), "unexpected output") {
			t.Errorf("ReadTables(%q): %v", bad, err)
		}
	}
}
