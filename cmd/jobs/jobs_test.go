package jobs

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/settings"
)

// makeJob journals a job of five rows as a --from run that stopped would:
// two created, one failed, one sent without an answer, one never run.
func makeJob(t *testing.T, id string) {
	t.Helper()
	store := bulk.Store{Dir: filepath.Join(settings.StateDir(), "jobs")}
	if err := os.MkdirAll(filepath.Dir(store.JournalPath(id)), 0o700); err != nil {
		t.Fatal(err)
	}
	j, err := bulk.Create(store.JournalPath(id), bulk.Header{ID: id, Command: "users create", Input: "new.csv", Rows: 5,
		Target: "https://org.example", Created: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	j.Run()
	j.Record(bulk.Result{Row: 1, Outcome: bulk.Created, Key: "ana@example.com", ID: "u1"})
	j.Record(bulk.Result{Row: 2, Outcome: bulk.Created, Key: "bo@example.com", ID: "u2"})
	j.Record(bulk.Result{Row: 3, Outcome: bulk.Failed, Key: "cy@example.com", Message: "email taken"})
	j.Sent(4, "di@example.com")
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
}

func jobsRun(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
	err = clitest.Execute(f, NewCmd(f), args...)
	return tio.Out.String(), tio.Err.String(), err
}

func TestJobsListShowsEachJobWithItsCounts(t *testing.T) {
	clitest.Isolate(t)
	makeJob(t, "3f2a9c1b7d40")
	makeJob(t, "77aa00bb11cc")
	out, _, err := jobsRun(t, "list")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("piped list, one line per job, no header:\n%s", out)
	}
	for _, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != len(jobColumns) || f[1] != "users create" || f[2] != "new.csv" || f[3] != "5" || f[4] != "2" || f[5] != "1" || f[6] != "1" || f[7] != "incomplete" {
			t.Errorf("line %q", l)
		}
	}
	// plain 'orgctl jobs' lists too
	if again, _, err := jobsRun(t); err != nil || again != out {
		t.Errorf("'jobs' alone: %v\n%s\nwant\n%s", err, again, out)
	}
	t.Setenv("ORGCTL_OUTPUT", "json")
	out, _, err = jobsRun(t, "list")
	var docs []map[string]any
	if err != nil || json.Unmarshal([]byte(out), &docs) != nil || len(docs) != 2 {
		t.Fatalf("-o json: %v\n%s", err, out)
	}
	if c := docs[0]["counts"].(map[string]any); c["created"] != 2.0 || c["pending"] != 1.0 || c["unknown"] != 1.0 {
		t.Errorf("counts %v", c)
	}
}

func TestJobsShowFindsAJobByPrefixAndListsItsProblemRows(t *testing.T) {
	clitest.Isolate(t)
	makeJob(t, "3f2a9c1b7d40")
	out, _, err := jobsRun(t, "show", "3f2a")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"id:       3f2a9c1b7d40", "command:  users create", "counts:   2 created, 1 failed, 1 unknown, 1 pending",
		"3\tfailed\tcy@example.com\temail taken", "4\tunknown\tdi@example.com"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "ana@example.com") {
		t.Errorf("show lists a row that was applied:\n%s", out)
	}
	_, _, err = jobsRun(t, "show", "ffff")
	var nf *cli.NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "ffff") {
		t.Errorf("unknown id: %v, want not found (exit 3) naming it", err)
	}
}

func TestJobsRmForgetsTheJob(t *testing.T) {
	clitest.Isolate(t)
	makeJob(t, "3f2a9c1b7d40")
	makeJob(t, "77aa00bb11cc")
	if _, errOut, err := jobsRun(t, "rm", "3f2a"); err != nil || !strings.Contains(errOut, "forgot job 3f2a9c1b7d40") {
		t.Fatalf("rm: %v; stderr %q", err, errOut)
	}
	out, _, _ := jobsRun(t, "list")
	if strings.Contains(out, "3f2a9c1b7d40") || !strings.Contains(out, "77aa00bb11cc") {
		t.Errorf("after rm:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(settings.StateDir(), "jobs", "3f2a9c1b7d40")); !os.IsNotExist(err) {
		t.Errorf("the job's directory is still there: %v", err)
	}
}

func TestFitJobColumnsDropsZeroCountsBeforeTheCommand(t *testing.T) {
	docs := []map[string]any{{"id": "3f2a9c1b7d40", "command": "users create", "input": "new.csv", "rows": 5,
		"counts": map[string]any{"done": 5, "failed": 0, "unknown": 0}, "state": "complete"}}
	var wide []string
	for _, c := range fitJobColumns(docs, 200) {
		wide = append(wide, c.Header)
	}
	if len(wide) != len(jobColumns) {
		t.Errorf("200 columns: %v, want all", wide)
	}
	var narrow []string
	for _, c := range fitJobColumns(docs, 60) {
		narrow = append(narrow, c.Header)
	}
	got := strings.Join(narrow, " ")
	if strings.Contains(got, "UNKNOWN") || strings.Contains(got, "FAILED") || !strings.Contains(got, "ID COMMAND") {
		t.Errorf("60 columns: %v, want the zero counts gone and ID, COMMAND kept", narrow)
	}
}
