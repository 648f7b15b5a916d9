package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
	"github.com/orgctl/orgctl/cmd/api"
	"github.com/orgctl/orgctl/cmd/budget"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
)

// apiRun runs `api ARGS` on a fresh Factory and returns its stdout.
func apiRun(t *testing.T, args ...string) (string, error) {
	t.Helper()
	f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
	err := clitest.Execute(f, api.NewCmd(f), args...)
	return tio.Out.String(), err
}

func mustAPI(t *testing.T, args ...string) string {
	t.Helper()
	out, err := apiRun(t, args...)
	if err != nil {
		t.Fatalf("api %v: %v", args, err)
	}
	return out
}

func TestAPICommand(t *testing.T) {
	srv, base := clitest.SandboxEnv(t, sandbox.Options{})

	// Arbitrary data prints as JSON unless -o says otherwise.
	out := mustAPI(t, "GET", "users", "-f", "email=admin@sandbox.example")
	var users []map[string]any
	if err := json.Unmarshal([]byte(out), &users); err != nil || len(users) != 1 || users[0]["email"] != "admin@sandbox.example" {
		t.Errorf("api GET users: %v\n%s", err, out)
	}
	if got := clitest.Sent(srv); len(got) != 1 || got[0] != "GET /api/v2/users?email=admin%40sandbox.example" {
		t.Errorf("sent %v", got)
	}
	t.Setenv("ORGCTL_OUTPUT", "yaml")
	out = mustAPI(t, "GET", "users", "-f", "email=admin@sandbox.example")
	if !strings.Contains(out, "email: admin@sandbox.example") {
		t.Errorf("-o yaml: %s", out)
	}
	t.Setenv("ORGCTL_OUTPUT", "")

	// A full URL on the profile's host is accepted; another host is refused before sending.
	srv.ResetRequests()
	mustAPI(t, "GET", base+"/api/v2/groups/1")
	if got := clitest.Sent(srv); len(got) != 1 || got[0] != "GET /api/v2/groups/1" {
		t.Errorf("full URL: sent %v", got)
	}
	srv.ResetRequests()
	_, err := apiRun(t, "GET", "https://evil.example.com/api/v2/users")
	if cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), "is not the profile's API host") {
		t.Errorf("other host: %v", err)
	}
	_, err = apiRun(t, "POST", "users", "--paginate")
	if cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), "--paginate works with GET only") {
		t.Errorf("--paginate on POST: %v", err)
	}
	_, err = apiRun(t, "GET")
	if cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), "api GET: PATH is missing") {
		t.Errorf("one argument: %v", err)
	}
	if got := clitest.Sent(srv); len(got) != 0 {
		t.Errorf("refused calls sent %v", got)
	}

	// --dry-run prices and prints; --paginate joins pages.
	out = mustAPI(t, "POST", "folders", "-f", "name=R", "-f", "folder_type=app", "--dry-run")
	if !strings.HasPrefix(out, "POST "+base+"/api/v2/folders\n{\n  \"folder_type\": \"app\",\n  \"name\": \"R\"\n}\nscope: Folders > Write\n") {
		t.Errorf("api --dry-run:\n%s", out)
	}
	var all, joined []any
	json.Unmarshal([]byte(mustAPI(t, "GET", "users")), &all)
	json.Unmarshal([]byte(mustAPI(t, "GET", "users", "-f", "limit=2", "--paginate")), &joined)
	a, _ := json.Marshal(all)
	j, _ := json.Marshal(joined)
	if len(all) < 3 || string(a) != string(j) {
		t.Errorf("--paginate joined %d of %d users", len(joined), len(all))
	}

	// The scope a command declares names what a 403 lacks.
	tok, err := sandboxtest.MintToken(srv, "users:read")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ORGCTL_TOKEN", tok)
	_, err = apiRun(t, "GET", "/groups")
	if cli.ExitCode(err) != cli.ExitAuth || !strings.Contains(err.Error(), `"Groups > Read"`) {
		t.Errorf("api 403: %v", err)
	}
}

// A page that is not the last says how to fetch the rest: with api's own
// flag, --paginate, not the lists' --all.
func TestAPIPageNoticeNamesPaginate(t *testing.T) {
	clitest.SandboxEnv(t, sandbox.Options{})
	f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
	if err := clitest.Execute(f, api.NewCmd(f), "GET", "users", "-f", "limit=2"); err != nil {
		t.Fatal(err)
	}
	if got := tio.Err.String(); got != "more results available: add --paginate to fetch every page\n" {
		t.Errorf("api notice = %q", got)
	}
}

// A raw call is charged for the path it sends, as the service routes it:
// the dry run's price is what the ledger takes when the request goes, and
// a path that is no family's (case, another version's prefix) costs the
// most a request can (10), as the server that answers it charges.
func TestAPIChargesThePathItSends(t *testing.T) {
	srv, _ := clitest.SandboxEnv(t, sandbox.Options{})
	used := func() int {
		t.Helper()
		t.Setenv("ORGCTL_OUTPUT", "json")
		defer t.Setenv("ORGCTL_OUTPUT", "")
		f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
		if err := clitest.Execute(f, budget.NewCmd(f), "status"); err != nil {
			t.Fatal(err)
		}
		var st struct{ Used int }
		if err := json.Unmarshal(tio.Out.Bytes(), &st); err != nil {
			t.Fatalf("budget status: %v\n%s", err, tio.Out.String())
		}
		return st.Used
	}
	for _, tc := range []struct {
		path, sent string
		cost       int
	}{
		{"/users", "/api/v2/users", 2},
		{"/Users", "/api/v2/Users", 10},
		{"/api/v1/users", "/api/v2/api/v1/users", 10},
		{"/api/v2/users", "/api/v2/users", 2},
		{"/api/v2/api/v2/users", "/api/v2/api/v2/users", 10},
	} {
		dry := mustAPI(t, "GET", tc.path, "--dry-run")
		if want := fmt.Sprintf("cost: %d points", tc.cost); !strings.Contains(dry, want) || !strings.Contains(dry, tc.sent+"\n") {
			t.Errorf("api %s --dry-run: want %s for %s:\n%s", tc.path, want, tc.sent, dry)
		}
		before := used()
		srv.ResetRequests()
		apiRun(t, "GET", tc.path) // a path no family's is answered 404
		if got := clitest.Sent(srv); len(got) != 1 || got[0] != "GET "+tc.sent {
			t.Errorf("api %s: sent %v, want GET %s", tc.path, got, tc.sent)
		}
		if got := used() - before; got != tc.cost {
			t.Errorf("api %s: the ledger took %d points, want %d", tc.path, got, tc.cost)
		}
	}
}
