package bulkjob

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/output"
)

// summaryOf is what a job's summary says of sum, for a file of rows.
func summaryOf(name string, rows int, quiet bool, sum bulk.Summary, stopped bool) string {
	var errOut bytes.Buffer
	in := &fileInput{jobSpec: &jobSpec{}, src: bulkSource{name: name}}
	j := &jobOutput{in: in, io: &output.IO{Err: &errOut}, quiet: quiet, checked: &checkPass{rows: rows}}
	j.summary("0a1b2c", sum, stopped)
	return errOut.String()
}

// The summary is the job's last word on stderr: how many rows of the file
// finished, by outcome in a fixed order, and what to do about those that
// did not go as asked.
func TestTheSummarySaysEachOutcomeAndWhatToDoNext(t *testing.T) {
	const again = "run the same command again"
	for _, c := range []struct {
		name    string
		file    string
		rows    int
		quiet   bool
		sum     bulk.Summary
		stopped bool
		want    []string
	}{{
		name: "all applied",
		file: "in.csv", rows: 3,
		sum:  bulk.Summary{Counts: bulk.Counts{bulk.Created: 2, bulk.Skipped: 1}, Done: 3, Took: 1500 * time.Millisecond},
		want: []string{"orgctl: 3 of 3 rows of in.csv: 2 created, 1 skipped in 1.5s; job 0a1b2c"},
	}, {
		name: "quiet: nothing when all went well",
		file: "in.csv", rows: 3, quiet: true,
		sum: bulk.Summary{Counts: bulk.Counts{bulk.Created: 3}, Done: 3},
	}, {
		name: "outcomes in their order, earlier runs counted",
		file: "in.csv", rows: 6,
		sum: bulk.Summary{Counts: bulk.Counts{bulk.Unknown: 1, bulk.Deleted: 2, bulk.Failed: 1, bulk.Updated: 1, bulk.Created: 1},
			Done: 6, Earlier: 2, Took: 2 * time.Second},
		want: []string{
			"orgctl: 6 of 6 rows of in.csv: 1 created, 1 updated, 2 deleted, 1 failed, 1 unknown (2 of them by earlier runs) in 2.0s; job 0a1b2c",
			"orgctl: 1 row failed (see the results, or `orgctl jobs show 0a1b2c`); " + again + " to retry them",
			"orgctl: 1 row sent without an answer may have been applied; " + again + " to look them up (rows orgctl cannot look up are listed by `orgctl jobs show 0a1b2c`: check those by hand)",
		},
	}, {
		name: "quiet still says what failed",
		file: "in.csv", rows: 2, quiet: true,
		sum: bulk.Summary{Counts: bulk.Counts{bulk.Failed: 2}, Done: 2},
		want: []string{
			"orgctl: 2 of 2 rows of in.csv: 2 failed in 0.0s; job 0a1b2c",
			"orgctl: 2 rows failed (see the results, or `orgctl jobs show 0a1b2c`); " + again + " to retry them",
		},
	}, {
		name: "stopped before any row finished, on stdin",
		file: "stdin", rows: 4, stopped: true,
		sum: bulk.Summary{Stopped: true},
		want: []string{
			"orgctl: 0 of 4 rows of stdin: none finished in 0.0s; job 0a1b2c",
			"orgctl: stopped: the rows in flight finished and were recorded; to resume, " + again + " with the same input on stdin:",
			"  " + ResumeLine(),
		},
	}} {
		t.Run(c.name, func(t *testing.T) {
			got := summaryOf(c.file, c.rows, c.quiet, c.sum, c.stopped)
			if want := strings.Join(c.want, "\n"); strings.TrimSuffix(got, "\n") != want {
				t.Errorf("summary\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// The line to resume with is this command line as a shell reads it back.
func TestResumeLineQuotesForAShell(t *testing.T) {
	defer func(args []string) { os.Args = args }(os.Args)
	os.Args = []string{"/usr/bin/orgctl", "users", "create", "--from", "my people.csv", "--map", "Work E-mail=email", "--jq", `.[] | "$x"`, "it's", ""}
	want := `orgctl users create --from 'my people.csv' --map 'Work E-mail=email' --jq '.[] | "$x"' 'it'\''s' ''`
	if got := ResumeLine(); got != want {
		t.Errorf("ResumeLine()\n%s\nwant\n%s", got, want)
	}
}

// A job whose journal cannot be written stops, and names the rows it sent
// without recording their outcome: a rerun cannot know what became of
// them without looking.
func TestAJournalThatCannotBeWrittenNamesTheUnrecordedRows(t *testing.T) {
	var errOut bytes.Buffer
	in := &fileInput{jobSpec: &jobSpec{}, src: bulkSource{name: "in.csv"}}
	j := &jobOutput{in: in, io: &output.IO{Err: &errOut}, checked: &checkPass{rows: 20}}
	full := errors.New("no space left on device")

	err := j.journalFailed("0a1b2c", bulk.Summary{JournalErr: full})
	if err == nil || err.Error() != "job 0a1b2c stopped: its journal could not be written (no space left on device), so nothing more was sent; every request sent is recorded" {
		t.Errorf("error %v", err)
	}
	if !strings.Contains(errOut.String(), "orgctl: stopped: ") {
		t.Errorf("the summary of a stopped job: %q", errOut.String())
	}
	var sent []bulk.Result
	for i := range 12 {
		sent = append(sent, bulk.Result{Row: i + 1, Line: i + 2, Key: fmt.Sprintf("u%d@x", i), Outcome: bulk.Created})
	}
	err = j.journalFailed("0a1b2c", bulk.Summary{JournalErr: full, Unrecorded: sent})
	msg := err.Error()
	if !strings.Contains(msg, "; sent but not recorded: line 2 (u0@x: created), line 3 (u1@x: created), ") ||
		!strings.Contains(msg, "line 11 (u9@x: created), and 2 more (a rerun looks these up") || strings.Contains(msg, "u10@x") {
		t.Errorf("error %v", msg)
	}
}

// A dry run's lookups say which rows would fail, by line, each error once,
// in the order of the first row it fails; past five lines, how many more.
func TestTheNameCheckNamesTheFailingRowsByLine(t *testing.T) {
	nc := &nameCheck{requests: 2, points: 7, rows: 8, failing: map[string][]int{
		`no group "nope"`:   {9, 11},
		`no user "ghost@x"`: {3, 4, 5, 6, 7, 8},
	}}
	var b bytes.Buffer
	nc.write(&b, "in.csv")
	want := "names looked up now (reads only: 2 requests, 7 points): 8 rows would fail:\n" +
		`  in.csv:3,4,5,6,7,and 1 more: no user "ghost@x"` + "\n" +
		`  in.csv:9,11: no group "nope"` + "\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	(&nameCheck{requests: 1, points: 1, failing: map[string][]int{}}).write(&b, "in.csv")
	if b.String() != "names looked up now (reads only: 1 request, 1 point): every row's names were found\n" {
		t.Errorf("got %q", b.String())
	}
	doc := nc.doc()
	fails := doc["failures"].([]any)
	if doc["failing_rows"] != 8 || len(fails) != 2 || fails[0].(map[string]any)["error"] != `no user "ghost@x"` {
		t.Errorf("doc %v", doc)
	}
}

// Problems are listed by line, a hundred at most; notices (values the
// description does not list) once each, at their first line, with how
// many more lines have them.
func TestProblemAndNoticeLists(t *testing.T) {
	pl := &problemList{name: "in.csv"}
	if err := pl.report(&bytes.Buffer{}); err != nil {
		t.Errorf("no problem: %v", err)
	}
	for i := range maxProblems + 2 {
		pl.add(i+2, "bad")
	}
	pl.add(0, "(a summary of many lines)")
	var b bytes.Buffer
	err := pl.report(&b)
	got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(got) != maxProblems+1 || got[0] != "in.csv:2: bad" || got[maxProblems] != "in.csv: ... and 3 problems more" {
		t.Errorf("%d lines, first %q, last %q", len(got), got[0], got[len(got)-1])
	}
	if err == nil || err.Error() != "in.csv: 103 problems; nothing was sent" {
		t.Errorf("error %v", err)
	}
	// a summary without a line is printed without one
	pl = &problemList{name: "in.jsonl"}
	pl.add(0, "(unknown field on 3 lines in all)")
	b.Reset()
	pl.report(&b)
	if b.String() != "in.jsonl: (unknown field on 3 lines in all)\n" {
		t.Errorf("got %q", b.String())
	}

	nl := &noticeList{name: "in.csv", first: map[string]int{}, seen: map[string]int{}}
	nl.add(3, []string{"robot is new"})
	nl.add(4, []string{"robot is new", "cyborg is new"})
	nl.add(9, []string{"robot is new"})
	b.Reset()
	nl.report(&b)
	if want := "in.csv:3: notice: robot is new (and on 2 more lines)\nin.csv:4: notice: cyborg is new\n"; b.String() != want {
		t.Errorf("notices\n%s\nwant\n%s", b.String(), want)
	}
}
