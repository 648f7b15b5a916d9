package bulkjob_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// --failed holds the rows to fix and run again: those the check found
// invalid (--skip-invalid) and those the API refused, in the input's own
// columns and order, each with its reason; nothing else.
func TestFailedHoldsTheInvalidAndRefusedRowsInTheInputsColumns(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "last-name,email,first-name\n"+
		"One,one@f.example,One\n"+ // created
		"Two,not-an-email,Two\n"+ // invalid value
		"Admin,admin@sandbox.example,Sandbox\n"+ // exists: the API refuses it
		"Four,four@f.example,Four,extra\n"+ // a value too many: kept as the line held it
		"Five,five@f.example,Five\n") // created
	r := o.run("users create", "--from", "in.csv", "--skip-invalid", "--failed", "failed.csv", "--parallel", "1")
	if r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	if n := o.count("POST /api/v2/users"); n != 3 {
		t.Errorf("%d creates sent, want 3 (the two invalid rows stay unsent)", n)
	}
	want := []string{
		"last-name,email,first-name,reason",
		`Two,not-an-email,Two,"invalid, not sent: invalid value ""not-an-email"" for email: expected an email address such as ada@example.com"`,
		`Admin,admin@sandbox.example,Sandbox,"already exists (the API said: User with email ""admin@sandbox.example"" already exists): --on-exists skip or update lets the job go on past it"`,
		`Four,four@f.example,Four,extra,"invalid, not sent: 4 values, but the header row names 3 columns"`,
	}
	if got := lines(o.read("failed.csv")); !reflect.DeepEqual(got, want) {
		t.Errorf("failed.csv\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A job where nothing fails leaves --failed with no row to run again, an
// old file's rows gone.
func TestFailedOfAJobWithoutFailuresHasNoRows(t *testing.T) {
	o := newOrg(t)
	o.write("failed.csv", "email,reason\nold@f.example,from before\n")
	o.write("in.csv", "email,first-name,last-name\nok@f.example,O,K\n")
	if r := o.run("users create", "--from", "in.csv", "--failed", "failed.csv"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	for _, l := range lines(o.read("failed.csv")) {
		if l != "email,first-name,last-name,reason" {
			t.Errorf("failed.csv has %q", l)
		}
	}
}

// The spreadsheet guard orgctl puts before a formula-like cell is taken off
// when the file is read, and put on once when it is written: a --failed
// file run again, still failing, keeps each cell as it was, whichever way
// the row failed. Were the guard added again, the value sent once the row
// is fixed would begin with a quote the user never typed.
func TestFailedOfAFailedFileKeepsItsCellsAsTheyWere(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "email,first-name,last-name\n"+
		"not-an-email,=Bad,-2+3\n"+ // invalid value: read, then written
		"two@f.example,@SUM(1),Two,extra\n") // invalid line: written as it was read
	if r := o.run("users create", "--from", "in.csv", "--skip-invalid", "--failed", "failed.csv"); r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	first := lines(o.read("failed.csv"))
	if len(first) != 3 || !strings.HasPrefix(first[1], "not-an-email,'=Bad,'-2+3,") || !strings.HasPrefix(first[2], "two@f.example,'@SUM(1),Two,extra,") {
		t.Fatalf("failed.csv\n%s", strings.Join(first, "\n"))
	}
	// run again as it is: both rows fail again, for the same reasons
	if r := o.run("users create", "--from", "failed.csv", "--ignore-unknown", "--skip-invalid", "--failed", "again.csv"); r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	again := lines(o.read("again.csv"))
	if len(again) != 3 || !strings.HasPrefix(again[1], "not-an-email,'=Bad,'-2+3,") || !strings.HasPrefix(again[2], "two@f.example,'@SUM(1),Two,extra,") {
		t.Errorf("again.csv\n%s", strings.Join(again, "\n"))
	}
	// fixed, the row sends the value itself
	o.write("fixed.csv", "email,first-name,last-name\n"+strings.SplitN(again[2], ",extra,", 2)[0]+"\n")
	if r := o.run("users create", "--from", "fixed.csv"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	if b := o.bodies("POST", "/api/v2/users"); len(b) != 1 || b[0]["first_name"] != "@SUM(1)" {
		t.Errorf("sent %v, want first_name @SUM(1)", b)
	}
}

// JSON Lines: a failed row is its object with a "reason"; a line that is
// no object is kept as its text.
func TestFailedOfJSONLines(t *testing.T) {
	o := newOrg(t)
	o.write("in.jsonl", `{"email":"a@f.example","first-name":"A","last-name":"<A&B>"}`+"\n"+
		`{"email":"bad","first-name":"B","last-name":"B"}`+"\n"+
		`{"email":`+"\n")
	if r := o.run("users create", "--from", "in.jsonl", "--skip-invalid", "--failed", "failed.jsonl"); r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	got := lines(o.read("failed.jsonl"))
	if len(got) != 2 {
		t.Fatalf("failed.jsonl\n%s", strings.Join(got, "\n"))
	}
	var row map[string]string
	if err := json.Unmarshal([]byte(got[0]), &row); err != nil {
		t.Fatal(err)
	}
	if row["email"] != "bad" || row["first-name"] != "B" || !strings.HasPrefix(row["reason"], `invalid, not sent: invalid value "bad" for email`) {
		t.Errorf("row %q", row)
	}
	var line map[string]string
	if err := json.Unmarshal([]byte(got[1]), &line); err != nil {
		t.Fatal(err)
	}
	if line["line"] != `{"email":` || !strings.HasPrefix(line["reason"], "invalid, not sent: ") {
		t.Errorf("line %q", line)
	}
}
