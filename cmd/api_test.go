package cmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

func TestAPICommand(t *testing.T) {
	api, base := sandboxEnv(t)

	// Arbitrary data prints as JSON unless -o says otherwise.
	out := mustRun(t, "api", "GET", "users", "-f", "email=admin@sandbox.example")
	var users []map[string]any
	if err := json.Unmarshal([]byte(out), &users); err != nil || len(users) != 1 || users[0]["email"] != "admin@sandbox.example" {
		t.Errorf("api GET users: %v\n%s", err, out)
	}
	if got := sent(api); len(got) != 1 || got[0] != "GET /api/v2/users?email=admin%40sandbox.example" {
		t.Errorf("sent %v", got)
	}
	out = mustRun(t, "api", "GET", "users", "-f", "email=admin@sandbox.example", "-o", "yaml")
	if !strings.Contains(out, "email: admin@sandbox.example") {
		t.Errorf("-o yaml: %s", out)
	}

	// A full URL on the profile's host is accepted; another host is refused before sending.
	api.ResetRequests()
	mustRun(t, "api", "GET", base+"/api/v2/groups/1")
	if got := sent(api); len(got) != 1 || got[0] != "GET /api/v2/groups/1" {
		t.Errorf("full URL: sent %v", got)
	}
	api.ResetRequests()
	_, _, err := run(t, "", "api", "GET", "https://evil.example.com/api/v2/users")
	if ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), "is not the profile's API host") {
		t.Errorf("other host: %v", err)
	}
	_, _, err = run(t, "", "api", "POST", "users", "--paginate")
	if ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), "--paginate works with GET only") {
		t.Errorf("--paginate on POST: %v", err)
	}
	_, _, err = run(t, "", "api", "GET")
	if ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), "api GET: PATH is missing") {
		t.Errorf("one argument: %v", err)
	}
	if got := sent(api); len(got) != 0 {
		t.Errorf("refused calls sent %v", got)
	}

	// --dry-run prices and prints; --paginate joins pages.
	out = mustRun(t, "api", "POST", "folders", "-f", "name=R", "-f", "folder_type=app", "--dry-run")
	if !strings.HasPrefix(out, "POST "+base+"/api/v2/folders\n{\n  \"folder_type\": \"app\",\n  \"name\": \"R\"\n}\nscope: Folders > Write\n") {
		t.Errorf("api --dry-run:\n%s", out)
	}
	var all, joined []any
	json.Unmarshal([]byte(mustRun(t, "api", "GET", "users")), &all)
	json.Unmarshal([]byte(mustRun(t, "api", "GET", "users", "-f", "limit=2", "--paginate")), &joined)
	if len(all) < 3 || familytest.JSON(t, all) != familytest.JSON(t, joined) {
		t.Errorf("--paginate joined %d of %d users", len(joined), len(all))
	}

	// The scope a command declares names what a 403 lacks.
	t.Setenv("ORGCTL_TOKEN", mustMint(t, api, "users:read"))
	_, _, err = run(t, "", "api", "GET", "/groups")
	if ExitCode(err) != cli.ExitAuth || !strings.Contains(err.Error(), `"Groups > Read"`) {
		t.Errorf("api 403: %v", err)
	}
}
