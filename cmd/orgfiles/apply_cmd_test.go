package orgfiles_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/orgfiles"
)

// exported exports the demo org and returns the directory.
func exported(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "org")
	if _, errOut, err := run(t, "export", "--dir", dir); err != nil {
		t.Fatalf("export: %v\n%s", err, errOut)
	}
	return dir
}

// edit replaces old with new in the file at path, which must hold old.
func edit(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q:\n%s", path, old, b)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writes are the requests the sandbox was sent that change something.
func writes(api *sandbox.Server) []string {
	var out []string
	for _, r := range api.Requests() {
		// listObjects is a read sent as a POST
		if r.Method != http.MethodGet && !strings.HasSuffix(r.Path, "/permissions/listObjects") {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

func userFile(dir, email string) string { return filepath.Join(dir, "users", email+".yaml") }

func TestPlanExitCodes(t *testing.T) {
	orgSandbox(t)
	dir := exported(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"no change", []string{"--exit-code"}, cli.ExitOK},
		{"no change, no flag", nil, cli.ExitOK},
	} {
		_, errOut, err := run(t, append([]string{"plan", "--dir", dir}, tc.args...)...)
		if cli.ExitCode(err) != tc.code {
			t.Errorf("%s: exit %d (%v), want %d\n%s", tc.name, cli.ExitCode(err), err, tc.code, errOut)
		}
	}
	// a user in no file is unmanaged: no change, unless it is asked to count
	if err := os.Remove(userFile(dir, "dev.lee@sandbox.example")); err != nil {
		t.Fatal(err)
	}
	out, _, err := run(t, "plan", "--dir", dir, "--exit-code")
	if err != nil || !strings.Contains(out, "1 live object is in no file") || !strings.Contains(out, "users dev.lee@sandbox.example") {
		t.Errorf("an unmanaged user with --exit-code: %v\n%s", err, out)
	}
	if _, _, err := run(t, "plan", "--dir", dir, "--fail-on-unmanaged"); cli.ExitCode(err) != cli.ExitFindings {
		t.Errorf("--fail-on-unmanaged: exit %d (%v), want 7", cli.ExitCode(err), err)
	}
	out, _, err = run(t, "plan", "--dir", dir, "--prune", "--exit-code")
	if cli.ExitCode(err) != cli.ExitFindings || !strings.Contains(out, "  - delete dev.lee@sandbox.example") {
		t.Errorf("--prune deletes the unmanaged user: exit %d\n%s", cli.ExitCode(err), out)
	}
}

func TestPlanRefusesBeforeAnyRequest(t *testing.T) {
	api := orgSandbox(t)
	dir := exported(t)
	for _, tc := range []struct {
		name string
		args []string
		env  [2]string
		says string
	}{
		{"a directory that is not there", []string{"plan", "--dir", filepath.Join(dir, "nope")}, [2]string{}, "does not exist: run `orgctl export --dir"},
		{"an empty --dir", []string{"plan", "--dir", " "}, [2]string{}, "--dir needs a directory"},
		{"a kind that is none", []string{"plan", "--dir", dir, "--only", "gropus"}, [2]string{}, "--only:"},
		{"markdown filtered", []string{"plan", "--dir", dir}, [2]string{"ORGCTL_JQ", ".changes"}, "-o markdown renders the plan whole"},
		{"apply without a directory or plan", []string{"apply", "--yes"}, [2]string{}, "apply needs --dir DIR, or a plan saved by"},
		{"apply with --parallel 0", []string{"apply", "--dir", dir, "--yes", "--parallel", "0"}, [2]string{}, "invalid --parallel 0"},
		{"a saved plan with --dir", []string{"apply", "x.plan", "--dir", dir, "--yes"}, [2]string{}, "leave out --dir, --prune and --only"},
		{"a saved plan with --prune", []string{"apply", "x.plan", "--prune", "--yes"}, [2]string{}, "leave out --dir, --prune and --only"},
		{"a saved plan that is not there", []string{"apply", filepath.Join(dir, "x.plan"), "--yes"}, [2]string{}, "cannot read the plan"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env[0] != "" {
				t.Setenv(tc.env[0], tc.env[1])
				t.Setenv("ORGCTL_OUTPUT", "markdown")
			}
			api.ResetRequests()
			_, _, err := run(t, tc.args...)
			if cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("exit %d (%v), want 2 saying %q", cli.ExitCode(err), err, tc.says)
			}
			if n := len(api.Requests()); n != 0 {
				t.Errorf("%d requests sent: %v", n, clitest.Sent(api))
			}
		})
	}
}

// A saved plan is applied as reviewed, once; an object someone changed
// since refuses it whole.
func TestSavedPlan(t *testing.T) {
	api := orgSandbox(t)
	dir := exported(t)
	edit(t, userFile(dir, "ana.viewer@sandbox.example"), "first_name: Ana\n", "first_name: Anna\n")
	edit(t, userFile(dir, "dev.lee@sandbox.example"), "first_name: Dev\n", "first_name: Devon\n")
	planFile := filepath.Join(t.TempDir(), "p.plan")
	if _, errOut, err := run(t, "plan", "--dir", dir, "--out", planFile); err != nil || !strings.Contains(errOut, "plan saved to "+planFile) {
		t.Fatalf("plan --out: %v\n%s", err, errOut)
	}
	// someone renames dev in the meantime
	f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
	cl, err := f.Client()
	if err != nil {
		t.Fatal(err)
	}
	o := struct{ id string }{}
	resp, err := cl.Do(context.Background(), client.Request{Method: http.MethodGet, Path: "/users"})
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range strings.Split(string(resp.Data), "},{") {
		if strings.Contains(part, `"dev.lee@sandbox.example"`) {
			i := strings.Index(part, `"id":"`) + len(`"id":"`)
			o.id = part[i : i+strings.Index(part[i:], `"`)]
		}
	}
	if _, err := cl.Do(context.Background(), client.Request{Method: http.MethodPatch, Path: "/users/" + o.id,
		Body: []byte(`{"operations":[{"op":"replace","path":"/first_name","value":"D."}]}`)}); err != nil {
		t.Fatal(err)
	}
	api.ResetRequests()
	_, _, err = run(t, "apply", planFile, "--yes")
	if cli.ExitCode(err) != cli.ExitFailure || !strings.Contains(err.Error(), "dev.lee@sandbox.example") ||
		!strings.Contains(err.Error(), "nothing was sent: plan again (`orgctl plan --dir "+dir+" --out "+planFile+"`)") {
		t.Fatalf("a conflict: exit %d, %v", cli.ExitCode(err), err)
	}
	if w := writes(api); len(w) != 0 {
		t.Errorf("a refused plan sent %v", w)
	}
	// planned again, it applies, and then has nothing left
	if _, errOut, err := run(t, "plan", "--dir", dir, "--out", planFile); err != nil {
		t.Fatalf("plan --out: %v\n%s", err, errOut)
	}
	if _, errOut, err := run(t, "apply", planFile, "--yes"); err != nil {
		t.Fatalf("apply: %v\n%s", err, errOut)
	}
	if got := firstName(t, "dev.lee@sandbox.example"); got != "Devon" {
		t.Errorf("dev's first name %q after apply", got)
	}
	api.ResetRequests()
	out, _, err := run(t, "apply", planFile, "--yes")
	if err != nil || out != "Nothing to send: every change of "+planFile+" is made.\n" {
		t.Errorf("applied again: %v %q", err, out)
	}
	if w := writes(api); len(w) != 0 {
		t.Errorf("applied again, it sent %v", w)
	}
	// another org refuses it
	other := sandbox.New(sandbox.Options{Points: 100000})
	_, u := clitest.Sandbox(t, sandbox.Options{Points: 100000})
	t.Setenv("ORGCTL_BASE_URL", u)
	t.Setenv("ORGCTL_TOKEN", other.AdminToken())
	if _, _, err := run(t, "apply", planFile, "--yes"); cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), "was planned for") {
		t.Errorf("another org: exit %d, %v", cli.ExitCode(err), err)
	}
}

// apply refuses a plan that takes the token's own user's admin rights, and
// sends nothing of it; demoting another admin while one stays is allowed.
func TestApplyRefusesToDemoteTheTokensOwnUser(t *testing.T) {
	api := orgSandbox(t)
	dir := exported(t)
	edit(t, userFile(dir, "admin@sandbox.example"), "admin: true\n", "admin: false\n")
	api.ResetRequests()
	_, _, err := run(t, "apply", "--dir", dir, "--yes")
	if cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), "refusing to demote admin@sandbox.example: the API token in use is this user's") ||
		!strings.Contains(err.Error(), "plan with --only") {
		t.Fatalf("exit %d, %v", cli.ExitCode(err), err)
	}
	if w := writes(api); len(w) != 0 {
		t.Errorf("a refused apply sent %v", w)
	}
	edit(t, userFile(dir, "admin@sandbox.example"), "admin: false\n", "admin: true\n")
	edit(t, userFile(dir, "priya.ops@sandbox.example"), "admin: true\n", "admin: false\n")
	if _, errOut, err := run(t, "apply", "--dir", dir, "--yes"); err != nil {
		t.Errorf("demoting priya while admin stays: %v\n%s", err, errOut)
	}
}

func TestUsersSync(t *testing.T) {
	api := orgSandbox(t)
	hr := hrCSV(t, "email,first_name,last_name,department\n"+
		"ana.viewer@sandbox.example,Ana,Souza,finance\n"+
		"new.hire@x.example,New,Hire,sales\n")
	syncRun := func(args ...string) (string, string, error) {
		t.Helper()
		f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
		err := clitest.Execute(f, orgfiles.NewCmdUsersSync(f, nil), append([]string{"--from", hr}, args...)...)
		return tio.Out.String(), tio.Err.String(), err
	}
	api.ResetRequests()
	out, errOut, err := syncRun("--disable-missing", "--exit-code")
	if cli.ExitCode(err) != cli.ExitFindings {
		t.Fatalf("exit %d (%v)\n%s%s", cli.ExitCode(err), err, out, errOut)
	}
	for _, want := range []string{"+ create new.hire@x.example", "- delete dev.lee@sandbox.example"} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "delete former.employee") {
		t.Errorf("a user the org has disabled is disabled again:\n%s", out)
	}
	if !strings.Contains(out, "Unmanaged: 2 live objects are in no file (this plan deletes them but 1 user already disabled, which prune leaves; listed below).") {
		t.Errorf("the plan says it deletes the user already disabled:\n%s", out)
	}
	// admins the file lacks stay, and the notice says so
	if strings.Contains(out, "delete admin@sandbox.example") || strings.Contains(out, "delete priya.ops") || !strings.Contains(errOut, "2 admins the file lacks are kept") {
		t.Errorf("admins are disabled, or not said to be kept:\n%s%s", out, errOut)
	}
	if w := writes(api); len(w) != 0 {
		t.Errorf("without --yes sync sent %v", w)
	}
	_, errOut, err = syncRun("--disable-missing", "--max-changes", "1", "--yes")
	if cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), "more than --max-changes 1: nothing was sent") || !strings.Contains(errOut, "Plan: 1 to create") {
		t.Errorf("--max-changes: exit %d, %v\n%s", cli.ExitCode(err), err, errOut)
	}
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--yes", "--dry-run"}, "pass one"},
		{[]string{"--group-column", "Email"}, "that column names the user"},
		{[]string{"--max-changes", "-1"}, "give the most changes to allow"},
		{[]string{"--map", "Dept"}, "give COLUMN=FIELD"},
	} {
		if _, _, err := syncRun(tc.args...); cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: exit %d, %v; want 2 saying %q", tc.args, cli.ExitCode(err), err, tc.says)
		}
	}
	if w := writes(api); len(w) != 0 {
		t.Errorf("refused syncs sent %v", w)
	}
}

func hrCSV(t *testing.T, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hr.csv")
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
