package orgfiles_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/orgfiles"
)

// orgSandbox serves a demo org with a budget large enough that export,
// plan and apply in one test never pace.
func orgSandbox(t *testing.T) *sandbox.Server {
	t.Helper()
	api, _ := clitest.SandboxEnv(t, sandbox.Options{Points: 100000})
	t.Setenv("ORGCTL_BUDGET_POINTS", "100000")
	return api
}

// run runs export, plan or apply (args[0]) on a fresh Factory.
func run(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
	root := &cobra.Command{Use: "orgctl"}
	root.AddCommand(orgfiles.NewCmds(f)...)
	err = clitest.Execute(f, root, args...)
	return tio.Out.String(), tio.Err.String(), err
}

// firstName is a user's first name as the API has it.
func firstName(t *testing.T, email string) string {
	t.Helper()
	f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
	c, err := f.Client()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(context.Background(), client.Request{Method: http.MethodGet, Path: "/users", Query: url.Values{"email": {email}}})
	if err != nil {
		t.Fatal(err)
	}
	var users []struct {
		FirstName string `json:"first_name"`
	}
	if err := json.Unmarshal(resp.Data, &users); err != nil || len(users) != 1 {
		t.Fatalf("GET /users?email=%s: %v %s", email, err, resp.Data)
	}
	return users[0].FirstName
}

func TestOrgExportPlanApplyRoundTrip(t *testing.T) {
	api := orgSandbox(t)
	dir := filepath.Join(t.TempDir(), "org")
	if _, errOut, err := run(t, "export", "--dir", dir); err != nil {
		t.Fatalf("export: %v\n%s", err, errOut)
	}
	user := filepath.Join(dir, "users", "ana.viewer@sandbox.example.yaml")
	b, err := os.ReadFile(user)
	if err != nil {
		t.Fatalf("export wrote no file for Ana: %v", err)
	}
	if !strings.Contains(string(b), "first_name: Ana\n") {
		t.Fatalf("Ana's file:\n%s", b)
	}

	// Exported as it is, the org has nothing to change.
	out, errOut, err := run(t, "plan", "--dir", dir, "--exit-code")
	if err != nil {
		t.Fatalf("plan right after export: %v\n%s%s", err, out, errOut)
	}

	// A reviewed change: the plan names the field, old and new, and exits 7.
	os.WriteFile(user, []byte(strings.Replace(string(b), "first_name: Ana\n", "first_name: Anna\n", 1)), 0o644)
	out, errOut, err = run(t, "plan", "--dir", dir, "--exit-code")
	if cli.ExitCode(err) != cli.ExitFindings {
		t.Fatalf("plan --exit-code with a change: exit %d (%v), want 7\n%s%s", cli.ExitCode(err), err, out, errOut)
	}
	if !strings.Contains(out+errOut, "first_name") || !strings.Contains(out+errOut, "Ana") || !strings.Contains(out+errOut, "Anna") {
		t.Errorf("plan does not show first_name Ana -> Anna:\n%s%s", out, errOut)
	}
	t.Setenv("ORGCTL_OUTPUT", "json")
	out, _, _ = run(t, "plan", "--dir", dir)
	if !json.Valid([]byte(out)) {
		t.Errorf("plan -o json is not JSON:\n%s", out)
	}
	t.Setenv("ORGCTL_OUTPUT", "")

	// Unattended apply without --yes refuses before any write.
	api.ResetRequests()
	if _, _, err := run(t, "apply", "--dir", dir); cli.ExitCode(err) != cli.ExitUsage {
		t.Fatalf("apply without --yes: exit %d (%v), want 2", cli.ExitCode(err), err)
	}
	for _, r := range api.Requests() {
		if r.Method != "GET" {
			t.Errorf("apply without --yes sent %s %s", r.Method, r.Path)
		}
	}
	// Secrets are never exported: apply reads them from the environment.
	t.Setenv("ORGCTL_SECRET_STRIPE_KEY_PRODUCTION", "sk_test_from_env")
	if _, errOut, err := run(t, "apply", "--dir", dir, "--yes"); err != nil {
		t.Fatalf("apply --yes: %v\n%s", err, errOut)
	}
	if got := firstName(t, "ana.viewer@sandbox.example"); got != "Anna" {
		t.Errorf("after apply, first_name = %q, want Anna", got)
	}
	if out, errOut, err := run(t, "plan", "--dir", dir, "--exit-code"); err != nil {
		t.Errorf("plan after apply still has changes: %v\n%s%s", err, out, errOut)
	}
}

func TestOrgPlanRefusesABadFileBeforeAnyRequest(t *testing.T) {
	api := orgSandbox(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "users"), 0o755)
	os.WriteFile(filepath.Join(dir, "users", "x@example.com.yaml"), []byte("email: x@example.com\nfavourite_colour: blue\n"), 0o644)
	api.ResetRequests()
	_, _, err := run(t, "plan", "--dir", dir)
	if cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), "x@example.com.yaml:2") {
		t.Fatalf("plan with an unknown field: exit %d, %v; want 2 naming FILE:2", cli.ExitCode(err), err)
	}
	if n := len(api.Requests()); n != 0 {
		t.Errorf("a bad file still sent %d requests", n)
	}
}
