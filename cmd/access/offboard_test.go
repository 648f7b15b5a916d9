package access

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
)

func TestNewCmdOffboardParsesOneUserOrAFile(t *testing.T) {
	f, _, _ := clitest.Buffered(t, "")
	dir := t.TempDir()
	csv := filepath.Join(dir, "leavers.csv")
	if err := os.WriteFile(csv, []byte("Email Address,Team\nana@x.example,ops\nuser_b1,dev\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		emails []string
		rows   []int
		dry    bool
		err    string
	}{
		{args: []string{"gone@x.example", "--yes"}, emails: []string{"gone@x.example"}},
		{args: []string{"gone@x.example", "--dry-run"}, emails: []string{"gone@x.example"}, dry: true},
		{args: []string{"--from", csv, "--map", "Email Address=user", "--ignore-unknown", "--yes"}, emails: []string{"ana@x.example", "user_b1"}, rows: []int{1, 2}},
		{args: []string{"gone@x.example", "--from", csv, "--yes"}, err: "pass EMAIL or --from FILE, not both"},
		{args: []string{"--yes"}, err: "pass the EMAIL of the user to offboard, or --from FILE"},
		{args: []string{"gone@x.example"}, err: "pass --yes"},
		{args: []string{"gone@x.example", "--map", "a=user", "--yes"}, err: "--from"},
		{args: []string{"--from", csv, "--yes"}, err: "the header row does not fit the command"},
	} {
		got := clitest.ParseOptions(t, f, NewCmdOffboard, tc.err, tc.args...)
		if tc.err != "" {
			continue
		}
		if !slices.Equal(got.Emails, tc.emails) || !slices.Equal(got.Rows, tc.rows) || got.DryRun != tc.dry || got.Yes == tc.dry || (got.File != nil) != (tc.rows != nil) {
			t.Errorf("%v: options %+v", tc.args, got)
		}
	}
}

// Offboarding's --from takes the file options every --from takes.
func TestOffboardFromHasTheFileOptions(t *testing.T) {
	f, _, _ := clitest.Buffered(t, "")
	c := NewCmdOffboard(f, nil)
	for _, name := range []string{"from", "map", "ignore-unknown", "skip-invalid", "failed", "delimiter", "encoding"} {
		if c.Flags().Lookup(name) == nil {
			t.Errorf("users offboard has no --%s", name)
		}
	}
	if !strings.Contains(c.Long, "\nScope:  users:write (Users > Write)\n") || !strings.Contains(c.Long, "Permissions > Write") || c.Annotations["cost"] != "2" {
		t.Errorf("help or annotations lack the facts: %v\n%s", c.Annotations, c.Long)
	}
	// what is sent is said once, and as the run sends it: the reach after
	// is worked out, not read (offboard.txtar counts the reads)
	if strings.Count(c.Long, "Requests: ") != 1 || !strings.Contains(c.Long, "eight POST\n/permissions/listObjects (effective and direct, per type); then") ||
		!strings.Contains(c.Long, "not read again") {
		t.Errorf("help on the requests:\n%s", c.Long)
	}
}

func TestOffboardRunShowsTheReachThenEndsIt(t *testing.T) {
	f, out, errOut, _ := clitest.SandboxFactory(t, "")
	o := &OffboardOptions{Factory: f, Emails: []string{"former.employee@sandbox.example"}, DryRun: true}
	if err := offboardRun(context.Background(), o); err != nil {
		t.Fatalf("dry run: %v\n%s", err, errOut)
	}
	// Piped, objects are named by id: the lists that name them cost points
	// only a person at a terminal needs.
	if !strings.Contains(out.String(), "before\tformer.employee@sandbox.example\tfolder\tapp_8\tedit\tdirect; ") {
		t.Errorf("reach before:\n%s", out)
	}
	for _, want := range []string{"Offboarding former.employee@sandbox.example (already disabled):\n", "  - remove former.employee@sandbox.example from group support\n", "Cost: read 11 requests, 97 points; to send 3 requests, 20 points"} { // the API description among the reads
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("dry run stderr lacks %q:\n%s", want, errOut)
		}
	}
	direct := func() int {
		cl, err := f.Client()
		if err != nil {
			t.Fatal(err)
		}
		org := access.NewOrg(cl)
		subject, _, err := org.Subject(context.Background(), "former.employee@sandbox.example", "")
		if err != nil {
			t.Fatal(err)
		}
		items, err := org.ListObjects(context.Background(), subject, "folder", false)
		if err != nil {
			t.Fatal(err)
		}
		return len(items)
	}
	if direct() != 1 {
		t.Fatal("the dry run changed the user's grants")
	}

	out.Reset()
	errOut.Reset()
	o = &OffboardOptions{Factory: f, Emails: []string{"former.employee@sandbox.example"}, Yes: true}
	if err := offboardRun(context.Background(), o); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if n := direct(); n != 0 {
		t.Errorf("%d direct grant(s) remain after offboarding", n)
	}
	if !strings.Contains(errOut.String(), "Nothing remains: former.employee@sandbox.example") {
		t.Errorf("stderr:\n%s", errOut)
	}

	errOut.Reset()
	if err := offboardRun(context.Background(), o); err != nil || !strings.Contains(errOut.String(), "Nothing to do") {
		t.Errorf("second run: %v\n%s", err, errOut)
	}
}
