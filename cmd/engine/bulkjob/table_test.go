package bulkjob_test

import (
	"encoding/csv"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
)

// On a terminal the results are a table printed as they come, its
// columns sized by the file before the first row (its widest key, its
// last line), so every row lines up with the header though none is held
// back; the key is never cut, and the whole fits the terminal.
func TestResultsOnATerminalLineUpAsTheyCome(t *testing.T) {
	const long = "a.much.longer.address@t.example"
	for _, width := range []int{100, 72} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			o := newOrg(t)
			o.width = width
			o.write("in.csv", "email,first-name,last-name\na@t.example,A,A\nadmin@sandbox.example,S,A\n"+long+",L,L\n")
			r := o.run("users create", "--from", "in.csv", "--parallel", "1")
			if r.code != 1 {
				t.Fatalf("exit %d\n%s", r.code, r.err)
			}
			got := lines(r.out)
			// narrower, the optional columns (LINE, ID) go first
			if len(got) < 4 || !strings.HasPrefix(got[0], "ROW  ") || !strings.Contains(got[0], "  KEY  ") ||
				strings.Contains(got[0], "LINE") != (width >= 100) {
				t.Fatalf("stdout\n%s", r.out)
			}
			at := strings.Index(got[0], "OUTCOME")
			if want := strings.Index(got[0], "KEY") + len(long) + 2; at != want {
				t.Errorf("OUTCOME at %d, want %d: KEY as wide as the file's widest key", at, want)
			}
			var keys []string
			for _, l := range got[1:] {
				if runewidth.StringWidth(l) > width {
					t.Errorf("%d columns, wider than the terminal: %q", runewidth.StringWidth(l), l)
				}
				if strings.TrimSpace(l[:at]) == "" {
					continue // a message's wrapped line
				}
				key := strings.TrimSpace(l[strings.Index(got[0], "KEY"):at])
				keys = append(keys, key)
				if o := strings.Fields(l[at:])[0]; o != "created" && o != "failed" {
					t.Errorf("outcome %q not under OUTCOME: %q", o, l)
				}
			}
			if want := []string{"a@t.example", "admin@sandbox.example", long}; !reflect.DeepEqual(keys, want) {
				t.Errorf("keys %q, want %q", keys, want)
			}
		})
	}
}

// --report is every row's result as CSV, whole (no cell cut to fit), the
// rows an earlier run applied included: the whole job, not this run.
func TestTheReportIsTheWholeJob(t *testing.T) {
	o := newOrg(t)
	o.width = 60
	o.write("in.csv", "email,first-name,last-name\na@t.example,A,A\nadmin@sandbox.example,S,A\n")
	if r := o.run("users create", "--from", "in.csv", "--report", "first.csv", "--parallel", "1"); r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	r := o.run("users create", "--from", "in.csv", "--report", "report.csv")
	if r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	recs, err := csv.NewReader(strings.NewReader(o.read("report.csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || !reflect.DeepEqual(recs[0], []string{"row", "line", "key", "outcome", "id", "message"}) {
		t.Fatalf("report %q", recs)
	}
	byRow := map[string][]string{}
	for _, rec := range recs[1:] {
		byRow[rec[0]] = rec
	}
	if a := byRow["1"]; a[2] != "a@t.example" || a[3] != "created" || !strings.HasPrefix(a[4], "user_") || len(a[4]) != len(adminID) {
		t.Errorf("row 1, applied by the first run: %q", a)
	}
	if b := byRow["2"]; b[3] != "failed" || b[4] != adminID ||
		b[5] != `already exists (the API said: User with email "admin@sandbox.example" already exists): --on-exists skip or update lets the job go on past it` {
		t.Errorf("row 2: %q", b)
	}
	// stdout is this run's: the earlier row is in the summary only
	if strings.Contains(r.out, "a@t.example") {
		t.Errorf("stdout\n%s", r.out)
	}
}
