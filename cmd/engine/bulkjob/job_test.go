package bulkjob_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

func peopleFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "people.csv")
	csv := "email,first-name,last-name\nada.jobtest@example.com,Ada,Lovelace\ngrace.jobtest@example.com,Grace,Hopper\n"
	if err := os.WriteFile(path, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func posts(sent []string) int {
	n := 0
	for _, s := range sent {
		if s == "POST /api/v2/users" {
			n++
		}
	}
	return n
}

// A job sends each row once through the engine and prints each result as
// it comes, piped as tab-separated records; run again on the same file it
// sends nothing: its journal says both rows were applied.
func TestAJobSendsEachRowOnceAndResumesFromItsJournal(t *testing.T) {
	f, out, errOut, api := clitest.SandboxFactory(t, "table")
	file := peopleFile(t)
	op := familytest.Op(t, "users", "create")
	if err := clitest.Execute(f, engine.Command(op, f), "--from", file); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("stdout %q", out)
	}
	// rows run in parallel: their results come as they finish
	slices.Sort(lines)
	for i, want := range []string{"1\t2\tada.jobtest@example.com\tcreated\tuser_", "2\t3\tgrace.jobtest@example.com\tcreated\tuser_"} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("result %q, want it to start %q", lines[i], want)
		}
	}
	sent := posts(clitest.Sent(api))
	if sent != 2 {
		t.Fatalf("%d creates sent: %q", sent, clitest.Sent(api))
	}
	out.Reset()
	errOut.Reset()
	if err := clitest.Execute(f, engine.Command(op, f), "--from", file); err != nil {
		t.Fatalf("rerun: %v\n%s", err, errOut)
	}
	if n := posts(clitest.Sent(api)); n != sent {
		t.Errorf("the rerun sent %d more creates", n-sent)
	}
	if !strings.Contains(errOut.String(), "2 of 2 rows") || !strings.Contains(errOut.String(), "by earlier runs") {
		t.Errorf("rerun's summary: %q", errOut)
	}
}

// A dry run checks the whole file and counts what it would send, and sends
// nothing.
func TestADryRunCountsAndSendsNothing(t *testing.T) {
	f, out, errOut, api := clitest.SandboxFactory(t, "table")
	before := len(clitest.Sent(api))
	op := familytest.Op(t, "users", "create")
	if err := clitest.Execute(f, engine.Command(op, f), "--from", peopleFile(t), "--dry-run"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if !strings.Contains(out.String(), "2 rows, all valid") || !strings.Contains(out.String(), "2 x POST /api/v2/users") {
		t.Errorf("dry run:\n%s", out)
	}
	for _, s := range clitest.Sent(api)[before:] {
		if !strings.HasPrefix(s, "GET ") {
			t.Errorf("the dry run sent %s", s)
		}
	}
}
