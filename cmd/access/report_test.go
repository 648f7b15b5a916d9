package access

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
)

func TestNewCmdReportParsesAndChecksItsFlags(t *testing.T) {
	f, _, _ := clitest.Buffered(t, "")
	for _, tc := range []struct {
		args []string
		want ReportOptions
		err  string
	}{
		{args: nil, want: ReportOptions{Method: "auto"}},
		{args: []string{"--dry-run", "--method", "list-objects"}, want: ReportOptions{Method: "list-objects", DryRun: true}},
		{args: []string{"--since", "q2.csv", "--write", "q3.csv", "--exit-code"}, want: ReportOptions{Method: "auto", Since: "q2.csv", Write: "q3.csv", ExitCode: true}},
		{args: []string{"--method", "fast"}, err: `invalid --method "fast"`},
		{args: []string{"--exit-code"}, err: "--exit-code needs --since"},
		{args: []string{"--write", "q3.csv"}, err: "--write goes with --since"},
	} {
		got := clitest.ParseOptions(t, f, NewCmdReport, tc.err, tc.args...)
		if tc.err != "" {
			continue
		}
		tc.want.Factory = f
		if *got != tc.want {
			t.Errorf("%v: options %+v, want %+v", tc.args, *got, tc.want)
		}
	}
}

func TestReportRunDryRunSaysWhatItWouldRead(t *testing.T) {
	f, out, errOut, _ := clitest.SandboxFactory(t, "")
	if err := reportRun(context.Background(), &ReportOptions{Factory: f, Method: "auto", DryRun: true}); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if out.Len() != 0 {
		t.Errorf("a dry run printed data:\n%s", out)
	}
	for _, want := range []string{"permissions report: ", "  access-lists: ", "reading by "} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestReportRunThenWhatChangedSince(t *testing.T) {
	f, out, errOut, _ := clitest.SandboxFactory(t, "csv")
	if err := reportRun(context.Background(), &ReportOptions{Factory: f, Method: "auto"}); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	var dropped string
	var kept []string
	for _, l := range lines {
		if dropped == "" && strings.Contains(l, "former.employee@sandbox.example") && strings.Contains(l, "app:/Finance") {
			dropped = l
			continue
		}
		kept = append(kept, l)
	}
	if !strings.HasPrefix(lines[0], "USER,ACTIVE,") || dropped == "" {
		t.Fatalf("report CSV has no header or no row of former.employee on app:/Finance:\n%s", out)
	}
	prev := filepath.Join(t.TempDir(), "prev.csv")
	if err := os.WriteFile(prev, []byte(strings.Join(kept, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	out.Reset()
	err := reportRun(context.Background(), &ReportOptions{Factory: f, Method: "auto", Since: prev, ExitCode: true})
	var exit *cli.ExitError
	if !errors.As(err, &exit) || exit.Code != cli.ExitFindings {
		t.Fatalf("a change with --exit-code: %v, want exit %d\n%s", err, cli.ExitFindings, errOut)
	}
	// the header and the one row left out of the earlier report, granted since
	changes := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(changes) != 2 || !strings.HasPrefix(changes[0], "CHANGE,USER,") ||
		!strings.HasPrefix(changes[1], "granted,former.employee@sandbox.example,folder,app:/Finance,,edit,") {
		t.Errorf("changes:\n%s", out)
	}

	// --write may name the --since file, as a rolling baseline: read
	// first, then replaced whole, with no temporary file left beside it
	out.Reset()
	if err := reportRun(context.Background(), &ReportOptions{Factory: f, Method: "auto", Since: prev, Write: prev}); err != nil {
		t.Fatalf("--since and --write the same file: %v\n%s", err, errOut)
	}
	if !strings.Contains(out.String(), "granted,former.employee@sandbox.example,folder,app:/Finance,") {
		t.Errorf("changes against the file before it was replaced:\n%s", out)
	}
	written, err := access.ReadCSV(prev)
	if err != nil || len(written) != len(lines)-1 {
		t.Errorf("--write kept %d rows (%v), want the %d of the whole report", len(written), err, len(lines)-1)
	}
	if ents, _ := os.ReadDir(filepath.Dir(prev)); len(ents) != 1 {
		t.Errorf("beside the report: %v", ents)
	}
}
