package engine_test

// Declared operations run through their commands against the sandbox: the
// dry run's plan, what is sent, the confirmation, the output options and
// the streamed list, as the engine gives them to every family.

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/families/familytest"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// sandboxEnv isolates the test and points orgctl at a fresh demo sandbox on
// loopback through ORGCTL_BASE_URL and ORGCTL_TOKEN.
func sandboxEnv(t *testing.T) (*sandbox.Server, string) {
	t.Helper()
	return clitest.SandboxEnv(t, sandbox.Options{})
}

func cost(path string) int { return ratebudget.DefaultConfig().Cost(path) }

func TestDryRunSingleRequest(t *testing.T) {
	api, base := sandboxEnv(t)
	out := familytest.MustExec(t, "users", "delete", "user_1", "--dry-run")
	want := fmt.Sprintf("DELETE %s/api/v2/users/user_1\nscope: Users > Write\ncost: %d points (users); would be sent now; nothing sent (--dry-run)\n",
		base, cost("/users/user_1"))
	if out != want {
		t.Errorf("dry run:\n%s\nwant:\n%s", out, want)
	}

	out = familytest.MustExec(t, "users", "delete", "user_1", "--dry-run", "-o", "json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("-o json: %v\n%s", err, out)
	}
	wantDoc := map[string]any{"method": "DELETE", "path": "/api/v2/users/user_1", "url": base + "/api/v2/users/user_1",
		"scope": "Users > Write", "family": "users", "cost": float64(cost("/users/user_1")), "wait_seconds": float64(0)}
	if familytest.JSON(t, doc) != familytest.JSON(t, wantDoc) {
		t.Errorf("dry run -o json = %s\nwant %s", familytest.JSON(t, doc), familytest.JSON(t, wantDoc))
	}

	// The query and body are part of the plan.
	// (a folder by id is looked up first: it may be a system folder)
	out = familytest.MustExec(t, "folders", "delete", "app_9", "--recursive", "--dry-run", "-o", "json", "--jq", ".requests[1].path")
	if strings.TrimSpace(out) != "/api/v2/folders/app_9?recursive=true" {
		t.Errorf("path with query = %s", out)
	}
	out = familytest.MustExec(t, "folders", "create", "--name", "R", "--type", "app", "--dry-run")
	if !strings.Contains(out, "POST "+base+"/api/v2/folders\n{\n  \"folder_type\": \"app\",\n  \"name\": \"R\"\n}\n") {
		t.Errorf("body in the plan:\n%s", out)
	}
	if n := len(api.Requests()); n != 0 {
		t.Errorf("a dry run sent %d requests", n)
	}
}

func TestDryRunWithoutLogin(t *testing.T) {
	clitest.Isolate(t)
	out := familytest.MustExec(t, "users", "delete", "user_1", "--dry-run")
	want := fmt.Sprintf("DELETE /api/v2/users/user_1\nscope: Users > Write\ncost: %d points (users); unknown (not logged in); nothing sent (--dry-run)\n", cost("/users/user_1"))
	if out != want {
		t.Errorf("dry run without login:\n%s\nwant:\n%s", out, want)
	}
	out = familytest.MustExec(t, "users", "delete", "user_1", "--dry-run", "-o", "json")
	if strings.Contains(out, "wait_seconds") || strings.Contains(out, `"url"`) {
		t.Errorf("dry run -o json without login claims a wait or URL: %s", out)
	}
}

func TestDryRunSeveralRequests(t *testing.T) {
	api, base := sandboxEnv(t)
	out := familytest.MustExec(t, "config-vars", "update", "5a4d000b-0000-4000-8000-000000000001", "--value", "5a4d000f-0000-4000-8000-000000000001=new", "--dry-run")
	get, put := cost("/configuration_variables/5a4d000b-0000-4000-8000-000000000001"), cost("/configuration_variables/5a4d000b-0000-4000-8000-000000000001")
	want := fmt.Sprintf("GET %[1]s/api/v2/configuration_variables/5a4d000b-0000-4000-8000-000000000001   (reads the current state first; %[3]d points)\n"+
		"PUT %[1]s/api/v2/configuration_variables/5a4d000b-0000-4000-8000-000000000001\n"+
		"{\n  \"values\": [\n    {\n      \"environment_id\": \"5a4d000f-0000-4000-8000-000000000001\",\n      \"value\": \"new\"\n    }\n  ]\n}\n"+
		"scope: Configuration Variables > Write\n"+
		"cost: %[2]d points in 2 requests; would be sent now; nothing sent (--dry-run)\n", base, get+put, get)
	if out != want {
		t.Errorf("read-merge-write plan:\n%s\nwant:\n%s", out, want)
	}

	out = familytest.MustExec(t, "config-vars", "update", "5a4d000b-0000-4000-8000-000000000001", "--value", "5a4d000f-0000-4000-8000-000000000001=new", "--dry-run", "-o", "json")
	var plan struct {
		Cost     int
		Wait     *float64 `json:"wait_seconds"`
		Requests []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	if plan.Cost != get+put || plan.Wait == nil || len(plan.Requests) != 2 ||
		plan.Requests[0]["method"] != "GET" || plan.Requests[0]["note"] != "reads the current state first" ||
		plan.Requests[0]["scope"] != "Configuration Variables > Read" ||
		plan.Requests[1]["method"] != "PUT" || familytest.JSON(t, plan.Requests[1]["body"]) != `{"values":[{"environment_id":"5a4d000f-0000-4000-8000-000000000001","value":"new"}]}` {
		t.Errorf("plan -o json = %s", out)
	}

	out = familytest.MustExec(t, "users", "create", "--email", "a@b.c", "--first-name", "A", "--last-name", "L", "--admin", "--dry-run")
	total := cost("/users") + cost("/users/{userId}")
	if !strings.Contains(out, fmt.Sprintf("then: PATCH the new user's is_admin (%d points, built from the answer)\n", cost("/users/{userId}"))) ||
		!strings.HasSuffix(out, fmt.Sprintf("scope: Users > Write\ncost: %d points in 2 requests; would be sent now; nothing sent (--dry-run)\n", total)) {
		t.Errorf("plan with a follow-up:\n%s", out)
	}
	out = familytest.MustExec(t, "users", "create", "--email", "a@b.c", "--first-name", "A", "--last-name", "L", "--admin", "--dry-run", "-o", "json")
	plan.Requests = nil
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	if len(plan.Requests) != 2 || plan.Requests[1]["then"] != "PATCH the new user's is_admin" || plan.Requests[1]["method"] != nil {
		t.Errorf("follow-up in -o json = %s", out)
	}
	if n := len(api.Requests()); n != 0 {
		t.Errorf("dry runs sent %d requests", n)
	}
}

func TestDryRunMultipartShowsTheSummary(t *testing.T) {
	sandboxEnv(t)
	zip := familytest.BodyFile(t, "PK\x03\x04")
	out := familytest.MustExec(t, "custom-components", "revisions", "create", "LIB", "--files", zip, "--version-bump", "minor", "--dry-run", "-o", "json", "--jq", ".body")
	if strings.TrimSpace(out) != `{"files":"@`+zip+` (4 bytes)","version_bump":"minor"}` {
		t.Errorf("multipart dry run body = %s", out)
	}
}

func TestSendUsersCreateAdmin(t *testing.T) {
	api, _ := sandboxEnv(t)
	out := familytest.MustExec(t, "users", "create", "--email", "new@example.com", "--first-name", "New", "--last-name", "Admin", "--admin", "-o", "json")
	reqs := api.Requests()
	if len(reqs) != 2 || reqs[0].Method != http.MethodPost || reqs[0].Path != "/api/v2/users" || reqs[1].Method != http.MethodPatch {
		t.Fatalf("sent %v", clitest.Sent(api))
	}
	var created struct {
		ID      string `json:"id"`
		Email   string `json:"email"`
		IsAdmin bool   `json:"is_admin"`
	}
	if err := json.Unmarshal([]byte(out), &created); err != nil {
		t.Fatal(err)
	}
	if created.Email != "new@example.com" || !created.IsAdmin || reqs[1].Path != "/api/v2/users/"+created.ID {
		t.Errorf("printed %s after %v", out, clitest.Sent(api))
	}
	var patch any
	json.Unmarshal(reqs[1].Body, &patch)
	if got := familytest.JSON(t, patch); got != `{"operations":[{"op":"replace","path":"/is_admin","value":true}]}` {
		t.Errorf("PATCH body = %s", got)
	}
	var post map[string]any
	json.Unmarshal(reqs[0].Body, &post)
	if _, ok := post["is_admin"]; ok {
		t.Errorf("create body carries is_admin: %s", reqs[0].Body)
	}
}

func TestSendConfigVarsUpdateMerges(t *testing.T) {
	api, _ := sandboxEnv(t)
	var vars []struct {
		ID     string `json:"id"`
		Name   string `json:"name"`
		Values []struct {
			Env   string `json:"environment_id"`
			Value string `json:"value"`
		} `json:"values"`
	}
	json.Unmarshal([]byte(familytest.MustExec(t, "config-vars", "list", "-o", "json")), &vars)
	if len(vars) == 0 || len(vars[0].Values) < 2 {
		t.Fatalf("the demo org has no variable with two values: %+v", vars)
	}
	v := vars[0]
	api.ResetRequests()
	familytest.MustExec(t, "config-vars", "update", v.ID, "--value", v.Values[1].Env+"=changed", "--description", "new text", "-q")
	reqs := api.Requests()
	if len(reqs) != 2 || reqs[0].Method != http.MethodGet || reqs[1].Method != http.MethodPut ||
		reqs[0].Path != "/api/v2/configuration_variables/"+v.ID || reqs[1].Path != reqs[0].Path {
		t.Fatalf("sent %v", clitest.Sent(api))
	}
	want := fmt.Sprintf(`{"description":"new text","name":%q,"secret":false,"values":[{"environment_id":%q,"value":%q},{"environment_id":%q,"value":"changed"}]}`,
		v.Name, v.Values[0].Env, v.Values[0].Value, v.Values[1].Env)
	var got any
	json.Unmarshal(reqs[1].Body, &got)
	if familytest.JSON(t, got) != want {
		t.Errorf("PUT body = %s\nwant       %s", reqs[1].Body, want)
	}
}

func TestSendPagination(t *testing.T) {
	api, _ := sandboxEnv(t)
	var all []map[string]any
	json.Unmarshal([]byte(familytest.MustExec(t, "users", "list", "-o", "json")), &all)
	if len(all) < 3 {
		t.Fatalf("the demo org has %d users; the test needs 3 or more", len(all))
	}
	api.ResetRequests()
	out, errOut, err := familytest.Exec(t, "", "users", "list", "--limit", "2", "--all", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var joined []map[string]any
	if err := json.Unmarshal([]byte(out), &joined); err != nil {
		t.Fatalf("joined pages are not one array: %v\n%s", err, out)
	}
	if familytest.JSON(t, joined) != familytest.JSON(t, all) {
		t.Errorf("--all joined %d users, want the %d of one unpaged list", len(joined), len(all))
	}
	pages := (len(all) + 1) / 2
	reqs := clitest.Sent(api)
	if len(reqs) != pages || !strings.Contains(reqs[0], "limit=2") || !strings.Contains(reqs[len(reqs)-1], "next_token=") {
		t.Errorf("requests %v, want %d pages of 2", reqs, pages)
	}
	if errOut != "" {
		t.Errorf("--all printed a notice: %q", errOut)
	}

	out, errOut, err = familytest.Exec(t, "", "users", "list", "--limit", "2", "-o", "json")
	json.Unmarshal([]byte(out), &joined)
	if err != nil || len(joined) != 2 || errOut != "more results available: add --all to fetch every page\n" {
		t.Errorf("one page: %d users, stderr %q, err %v", len(joined), errOut, err)
	}
	_, errOut, _ = familytest.Exec(t, "", "users", "list", "--limit", "2", "--quiet")
	if errOut != "" {
		t.Errorf("--quiet still printed %q", errOut)
	}
	// A list that fits in its page says nothing.
	_, errOut, _ = familytest.Exec(t, "", "users", "list", "--limit", "100")
	if errOut != "" {
		t.Errorf("a complete page printed %q", errOut)
	}
}

func TestConfirmation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tty   bool
		stdin string
		yes   bool
		sent  bool
		err   error
		exit  int
	}{
		{name: "yes on a terminal", tty: true, stdin: "y\n", sent: true},
		{name: "YES on a terminal", tty: true, stdin: " YES \n", sent: true},
		{name: "no on a terminal", tty: true, stdin: "n\n", err: cli.ErrCancelled, exit: cli.ExitFailure},
		{name: "empty answer", tty: true, stdin: "\n", err: cli.ErrCancelled, exit: cli.ExitFailure},
		{name: "end of input", tty: true, stdin: "", err: cli.ErrCancelled, exit: cli.ExitFailure},
		{name: "not a terminal", tty: false, stdin: "y\n", exit: cli.ExitUsage},
		{name: "--yes off a terminal", tty: false, yes: true, sent: true},
		{name: "--yes on a terminal asks nothing", tty: true, yes: true, sent: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api, _ := sandboxEnv(t)
			f, tio := clitest.Factory(t, &clitest.Keyring{}, tc.stdin)
			f.IO.InTTY, f.IO.ErrTTY = tc.tty, tc.tty
			// support: a built-in group (admin, All Users) the API refuses to delete.
			args := []string{"groups", "delete", "6"}
			if tc.yes {
				args = append(args, "--yes")
			}
			err := familytest.Run(f, args...)
			switch {
			case tc.sent && err != nil:
				t.Fatalf("err = %v", err)
			case tc.err != nil && !errors.Is(err, tc.err):
				t.Fatalf("err = %v, want %v", err, tc.err)
			case !tc.sent && cli.ExitCode(err) != tc.exit:
				t.Fatalf("err = %v, exit %d, want %d", err, cli.ExitCode(err), tc.exit)
			}
			if !tc.sent && !tc.tty && !strings.Contains(err.Error(), "refusing to run `orgctl groups delete 6` without confirmation: stdin is not a terminal; pass --yes") {
				t.Errorf("refusal = %q", err)
			}
			// The prompt names the group and what follows; the list read
			// (once nobody is refused for want of a person to ask) that says
			// the group is no built-in one names it.
			prompt := "Delete group support? Its members lose the access it gives them; this cannot be undone. [y/N] "
			if asked := strings.Contains(tio.Err.String(), prompt); asked != (tc.tty && !tc.yes) {
				t.Errorf("prompt shown = %v, stderr %q", asked, tio.Err.String())
			}
			reqs := clitest.Sent(api)
			if tc.tty || tc.yes {
				if len(reqs) == 0 || reqs[0] != "GET /api/v2/groups" {
					t.Errorf("not read before the delete: sent %v", reqs)
				} else {
					reqs = reqs[1:]
				}
			}
			if tc.sent != (len(reqs) == 1 && reqs[0] == "DELETE /api/v2/groups/6") {
				t.Errorf("sent %v", reqs)
			}
		})
	}
}

// A prompt names what it acts on by its natural key and labels, whether
// the command was given a name (found by the resolve phase, no extra read)
// or an id (one read).
func TestConfirmationNamesTheObject(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		prompt string
		reads  []string
	}{
		{[]string{"users", "delete", "ana.viewer@sandbox.example"},
			"Disable user ana.viewer@sandbox.example (Ana Souza)? They can no longer sign in;",
			[]string{"GET /api/v2/users?email=ana.viewer%40sandbox.example"}},
		{[]string{"users", "delete", "user_0000000000000000005a4d0000000004"},
			"Disable user ana.viewer@sandbox.example (Ana Souza)? They can no longer sign in;",
			// by id, nothing says whether she is the last admin: the list does
			[]string{"GET /api/v2/users", "GET /api/v2/users/user_0000000000000000005a4d0000000004"}},
		{[]string{"groups", "delete", "support"},
			"Delete group support? Its members lose the access it gives them; this cannot be undone. [y/N] ",
			[]string{"GET /api/v2/groups"}},
		{[]string{"folders", "delete", "app_8"},
			"Delete folder app:/Finance (app)? With --recursive, everything in it goes too; this cannot be undone. [y/N] ",
			[]string{"GET /api/v2/folders"}},
		// by id, a group is found in the list that says it is no built-in
		// one, which names it too
		{[]string{"groups", "delete", "6"},
			"Delete group support? Its members lose the access it gives them; this cannot be undone. [y/N] ",
			[]string{"GET /api/v2/groups"}},
	} {
		api, _ := sandboxEnv(t)
		f, tio := clitest.Factory(t, &clitest.Keyring{}, "n\n")
		f.IO.InTTY, f.IO.ErrTTY = true, true
		err := familytest.Run(f, tc.args...)
		if !errors.Is(err, cli.ErrCancelled) {
			t.Errorf("%v: err = %v, want cancelled", tc.args, err)
		}
		if !strings.Contains(tio.Err.String(), tc.prompt) {
			t.Errorf("%v: stderr %q, want the prompt %q", tc.args, tio.Err.String(), tc.prompt)
		}
		if got := clitest.Sent(api); strings.Join(got, "\n") != strings.Join(tc.reads, "\n") {
			t.Errorf("%v: sent %v, want %v", tc.args, got, tc.reads)
		}
	}
}

func TestOutputOptionsAreCheckedBeforeSending(t *testing.T) {
	api, _ := sandboxEnv(t)
	_, _, err := familytest.Exec(t, "", "users", "list", "-o", "xml")
	if cli.ExitCode(err) != cli.ExitUsage {
		t.Errorf("-o xml: %v (exit %d)", err, cli.ExitCode(err))
	}
	_, _, err = familytest.Exec(t, "", "users", "list", "--jq", ".[")
	if cli.ExitCode(err) != cli.ExitUsage {
		t.Errorf("bad --jq: %v (exit %d)", err, cli.ExitCode(err))
	}
	if n := len(api.Requests()); n != 0 {
		t.Errorf("%d requests sent with bad output options", n)
	}
}

// A list large enough to be rendered while it arrives prints exactly what
// printing it after the fact prints, in every format that renders: per
// element or over the whole list.
func TestLargeListPrintsAsAfterTheFact(t *testing.T) {
	clitest.SandboxEnv(t, sandbox.Options{Users: 3000})
	data := familytest.MustExec(t, "users", "list", "-o", "json")
	if len(data) < 512<<10 {
		t.Fatalf("the list is %d bytes: too small to be rendered while it arrives", len(data))
	}
	for _, c := range []struct {
		args []string
		opts output.Options
		cols []output.Column
	}{
		{nil, output.Options{}, families.UserColumns},
		{[]string{"-o", "yaml"}, output.Options{Format: "yaml"}, nil},
		{[]string{"--jq", ".[].email"}, output.Options{JQ: ".[].email"}, nil},
		{[]string{"--jq", ".[] | select(.is_admin) | {id}"}, output.Options{JQ: ".[] | select(.is_admin) | {id}"}, nil},
		{[]string{"--jq", "map(.email) | length"}, output.Options{JQ: "map(.email) | length"}, nil},
		{[]string{"--template", "{{range .}}{{.email}} {{.first_name}}\n{{end}}"}, output.Options{Template: "{{range .}}{{.email}} {{.first_name}}\n{{end}}"}, nil},
	} {
		var want strings.Builder
		p := &output.Printer{IO: &output.IO{Out: &want}, Opts: c.opts}
		if err := p.Print(json.RawMessage(data), c.cols); err != nil {
			t.Fatal(err)
		}
		if got := familytest.MustExec(t, append([]string{"users", "list"}, c.args...)...); got != want.String() {
			t.Errorf("users list %v: %d bytes, after the fact %d bytes; first difference at %d", c.args, len(got), want.Len(), firstDiff(got, want.String()))
		}
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
