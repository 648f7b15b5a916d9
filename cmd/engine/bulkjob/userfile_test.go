package bulkjob_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/engine/bulkjob"
	"github.com/orgctl/orgctl/cmd/settings"
)

// readUserFile reads a user file as a hand-written command does, from
// the command line args.
func readUserFile(t *testing.T, o *org, args ...string) (*bulkjob.UserFile, bool, error) {
	t.Helper()
	f, tio := clitest.Factory(t, o.keyring, o.stdin)
	o.out, o.errOut = &tio.Out, &tio.Err
	var uf *bulkjob.UserFile
	var ok bool
	var err error
	c := &cobra.Command{Use: "offboard", RunE: func(c *cobra.Command, _ []string) error {
		uf, ok, err = bulkjob.ReadUserFile(f, c, func() (*settings.Config, error) {
			cfg, _, err := cli.PrinterFor(f)
			return cfg, err
		})
		return nil
	}}
	bulkjob.AddUserFileFlags(c, "offboard")
	if perr := clitest.Parse(c, args...); perr != nil {
		t.Fatal(perr)
	}
	if uf != nil {
		t.Cleanup(uf.Close)
	}
	return uf, ok, err
}

// A hand-written command's file of users is read and checked as a
// declared command's: the same column names and options, every problem
// by line; --skip-invalid leaves the invalid rows out, and --failed holds
// them with those the command could not act on.
func TestAUserFileIsCheckedAsADeclaredCommandsFile(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "Work Email,Team\nana.viewer@sandbox.example,ops\n\" \",ops\ndev.lee@sandbox.example,eng\nana.viewer@sandbox.example,ops\n")

	if _, ok, err := readUserFile(t, o, "--map", "Work Email=user"); ok || err == nil || !strings.Contains(err.Error(), "--map goes with --from FILE") {
		t.Errorf("without --from: ok %v, %v", ok, err)
	}
	_, ok, err := readUserFile(t, o, "--from", "in.csv", "--map", "Work Email=user", "--ignore-unknown")
	want := []string{
		"in.csv:3: user is missing or empty: every row needs one",
		`in.csv:5: duplicate key "ana.viewer@sandbox.example": line 2 has it too (each object once per file)`,
	}
	if got := lines(o.errOut.String()); !ok || !clitest.IsUsage(err) || !reflect.DeepEqual(got[len(got)-2:], want) {
		t.Errorf("ok %v, %v\n%s", ok, err, o.errOut)
	}
	if len(o.sent()) != 0 {
		t.Errorf("sent %q", o.sent())
	}

	uf, ok, err := readUserFile(t, o, "--from", "in.csv", "--map", "Work Email=user", "--ignore-unknown", "--skip-invalid", "--failed", "failed.csv")
	if !ok || err != nil {
		t.Fatalf("ok %v, %v\n%s", ok, err, o.errOut)
	}
	var users []string
	for _, r := range uf.Rows {
		users = append(users, r.User)
	}
	if !reflect.DeepEqual(users, []string{"ana.viewer@sandbox.example", "dev.lee@sandbox.example"}) || len(uf.Invalid) != 2 || uf.Name() != "in.csv" || !uf.SkipInvalid() {
		t.Errorf("rows %+v, invalid %v", uf.Rows, uf.Invalid)
	}
	if !strings.Contains(o.errOut.String(), `orgctl: in.csv: ignoring column "Team" (--ignore-unknown)`) {
		t.Errorf("stderr\n%s", o.errOut)
	}
	// row 3 (dev) failed when acted on; rows 2 and 4 were invalid
	if err := uf.WriteFailed(map[int]string{3: "not offboarded: no such luck"}); err != nil {
		t.Fatal(err)
	}
	wantFailed := []string{
		"Work Email,Team,reason",
		`" ",ops,"invalid, not sent: user is missing or empty: every row needs one"`,
		`dev.lee@sandbox.example,eng,not offboarded: no such luck`,
		`ana.viewer@sandbox.example,ops,"invalid, not sent: duplicate key ""ana.viewer@sandbox.example"": line 2 has it too (each object once per file)"`,
	}
	if got := lines(o.read("failed.csv")); !reflect.DeepEqual(got, wantFailed) {
		t.Errorf("failed.csv\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantFailed, "\n"))
	}
}

// A user file where nothing failed leaves --failed empty, an older file's
// rows gone; and its key is the file's bytes, so an edited file is another.
func TestAUserFileWithoutFailures(t *testing.T) {
	o := newOrg(t)
	o.write("failed.csv", "user,reason\nold@u.example,from before\n")
	o.write("in.csv", "user\nana.viewer@sandbox.example\n")
	uf, _, err := readUserFile(t, o, "--from", "in.csv", "--failed", "failed.csv")
	if err != nil {
		t.Fatal(err)
	}
	if err := uf.WriteFailed(nil); err != nil || o.read("failed.csv") != "" {
		t.Errorf("failed.csv %q, %v", o.read("failed.csv"), err)
	}
	o.write("in.csv", "user\nana.viewer@sandbox.example\ndev.lee@sandbox.example\n")
	edited, _, err := readUserFile(t, o, "--from", "in.csv")
	if err != nil || string(edited.Key()) == string(uf.Key()) || len(uf.Key()) == 0 {
		t.Errorf("keys %x and %x, %v", uf.Key(), edited.Key(), err)
	}
}
