package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/families/familytest"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

func testConfig(t *testing.T) *settings.Config {
	t.Helper()
	f, _ := testFactory(t, &testKeyring{}, "")
	cfg, err := f.Config()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestBudgetConfig(t *testing.T) {
	isolate(t)
	for _, k := range []string{"ORGCTL_BUDGET_POINTS", "ORGCTL_BUDGET_WINDOW", "ORGCTL_BUDGET_BLOCK", "ORGCTL_BUDGET_RESERVE", "ORGCTL_MAX_WAIT", "ORGCTL_BUDGET_COSTS_USERS"} {
		t.Setenv(k, "")
	}
	if got, want := testConfig(t).Budget, ratebudget.DefaultConfig(); familytest.JSON(t, got) != familytest.JSON(t, want) {
		t.Errorf("defaults = %+v, want %+v", got, want)
	}

	t.Setenv("ORGCTL_BUDGET_POINTS", "100")
	t.Setenv("ORGCTL_BUDGET_WINDOW", "30s")
	t.Setenv("ORGCTL_BUDGET_BLOCK", "90s")
	t.Setenv("ORGCTL_BUDGET_RESERVE", "20")
	t.Setenv("ORGCTL_MAX_WAIT", "1m")
	t.Setenv("ORGCTL_BUDGET_COSTS_USERS", "7")
	if err := settings.SaveProfile("default", map[string]any{"budget": map[string]any{"costs": map[string]any{"groups": 9, "reports": 3}}}, true); err != nil {
		t.Fatal(err)
	}
	b := testConfig(t).Budget
	if b.Points != 100 || b.Window != 30*time.Second || b.Block != 90*time.Second || b.Reserve != 20 || b.MaxWait != time.Minute {
		t.Errorf("overrides = %+v", b)
	}
	if b.Cost("/users") != 7 || b.Cost("/groups/1") != 9 || b.Cost("/reports") != 3 || b.Cost("/folders") != ratebudget.DefaultConfig().Cost("/folders") {
		t.Errorf("costs = %v: users %d groups %d reports %d", b.Costs, b.Cost("/users"), b.Cost("/groups/1"), b.Cost("/reports"))
	}
}

func TestBudgetStatus(t *testing.T) {
	sandboxEnv(t)
	mustRun(t, "users", "list")
	out := mustRun(t, "budget", "status", "-o", "json")
	var st struct {
		Key          string
		Points, Used int
		Free         int
		Window       float64 `json:"window_seconds"`
		NextFree     *string `json:"next_free"`
		BlockedUntil *string `json:"blocked_until"`
		Costs        map[string]int
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	used := cost("/users")
	if st.Points != 300 || st.Used != used || st.Free != 300-used || st.Window != 60 || st.NextFree == nil || st.BlockedUntil != nil ||
		st.Costs["users"] != cost("/users") || !strings.HasPrefix(st.Key, "127.0.0.1_") {
		t.Errorf("status = %s", out)
	}
	if _, err := time.Parse(time.RFC3339Nano, *st.NextFree); err != nil {
		t.Errorf("next_free %q: %v", *st.NextFree, err)
	}

	out = mustRun(t, "budget", "status")
	for _, want := range []string{"key:\t" + st.Key + "\n", "used:\t2 of 300 points in the last 1m0s (reserve 0)\n", "free:\t298 points\n", "next free:\t", "costs:\n", "users\t2\n", "permissions\t10\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "blocked until") {
		t.Errorf("status shows a block:\n%s", out)
	}
	out = mustRun(t, "budget")
	if !strings.Contains(out, "ORGCTL_BUDGET_POINTS") {
		t.Errorf("budget prints its help: %s", out)
	}
}

func TestWaitAnnouncer(t *testing.T) {
	var buf strings.Builder
	io1 := &output.IO{Err: &buf}
	until := time.Date(2026, 1, 2, 15, 4, 5, 0, time.Local)
	cli.WaitAnnouncer(io1)(ratebudget.Wait{Duration: 2500 * time.Millisecond, Until: until, Reason: ratebudget.ReasonWindowFull, Used: 299, Limit: 300})
	cli.WaitAnnouncer(io1)(ratebudget.Wait{Duration: 60 * time.Second, Until: until, Reason: ratebudget.ReasonBlocked})
	want := "orgctl: rate budget: waiting 2.5s (299 of 300 points used); resuming at 15:04:05\n" +
		"orgctl: rate budget: waiting 1m0s (the server blocked this token); resuming at 15:04:05\n"
	if buf.String() != want {
		t.Errorf("piped announcements:\n%q\nwant\n%q", buf.String(), want)
	}

	// On a terminal a countdown redraws one line and clears it when the wait is over.
	r, w := io.Pipe()
	defer r.Close()
	cli.WaitAnnouncer(&output.IO{Err: w, ErrTTY: true})(ratebudget.Wait{Duration: time.Second, Until: time.Now().Add(-time.Second), Reason: ratebudget.ReasonWindowFull})
	got := make([]byte, 4)
	if _, err := io.ReadFull(r, got); err != nil || string(got) != "\r\x1b[K" {
		t.Errorf("terminal countdown after the wait wrote %q (%v), want the line cleared", got, err)
	}
}

func TestAuthStatus(t *testing.T) {
	api, base := sandboxEnv(t)
	tok := api.AdminToken()
	out := mustRun(t, "auth", "status")
	want := "profile:\tdefault\nbase url:\t" + base + "\ntoken source:\tORGCTL_TOKEN\ntoken:\t…" + tok[len(tok)-4:] + "\nuser:\tadmin@sandbox.example (Sandbox Admin)\nvalid:\ttrue\n"
	if out != want {
		t.Errorf("status:\n%s\nwant:\n%s", out, want)
	}

	t.Setenv("ORGCTL_TOKEN", "tok_rejected_by_sandbox")
	out, _, err := run(t, "", "auth", "status", "-o", "json")
	var st map[string]any
	json.Unmarshal([]byte(out), &st)
	if ExitCode(err) != cli.ExitAuth || st["valid"] != false || st["error"] != "token rejected (HTTP 401)" || st["token_last4"] != "dbox" {
		t.Errorf("rejected token: exit %d, %s", ExitCode(err), out)
	}
	if !strings.Contains(err.Error(), "log in again with `orgctl auth login --profile default`") {
		t.Errorf("rejected token error: %v", err)
	}

	t.Setenv("ORGCTL_TOKEN", "")
	t.Setenv("ORGCTL_TOKEN_STORE", "file")
	out, _, err = run(t, "", "auth", "status")
	if ExitCode(err) != cli.ExitAuth || !strings.Contains(out, "token source:\t-\n") || strings.Contains(out, "token:\t") || !strings.Contains(out, "valid:\tfalse\n") {
		t.Errorf("not logged in: exit %d\n%s", ExitCode(err), out)
	}

	// A base URL orgctl refuses exits 2, as it does for any command; an
	// unreachable API is a failure.
	t.Setenv("ORGCTL_TOKEN", "tok")
	t.Setenv("ORGCTL_BASE_URL", "http://acme.example.com")
	out, _, err = run(t, "", "auth", "status", "-o", "json")
	if ExitCode(err) != cli.ExitUsage || !strings.Contains(out, `"error":`) {
		t.Errorf("plain http: exit %d, %s", ExitCode(err), out)
	}
	t.Setenv("ORGCTL_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("ORGCTL_TIMEOUT", "2s")
	_, _, err = run(t, "", "auth", "status")
	if err == nil || ExitCode(err) != cli.ExitFailure {
		t.Errorf("unreachable API: %v (exit %d)", err, ExitCode(err))
	}
}

func TestAuthTokenPrintsOnlyTheToken(t *testing.T) {
	isolate(t)
	kr := &testKeyring{items: map[string]string{"default": "tok_from_keyring"}}
	f, tio := testFactory(t, kr, "")
	if err := execute(context.Background(), f, []string{"auth", "token"}, nil); err != nil {
		t.Fatal(err)
	}
	if tio.out.String() != "tok_from_keyring\n" || tio.err.String() != "" {
		t.Errorf("stdout %q, stderr %q", tio.out.String(), tio.err.String())
	}
	f, tio = testFactory(t, &testKeyring{}, "")
	err := execute(context.Background(), f, []string{"auth", "token"}, nil)
	if ExitCode(err) != cli.ExitAuth || tio.out.Len() != 0 {
		t.Errorf("not logged in: %v, stdout %q", err, tio.out.String())
	}
}

func TestAuthLogout(t *testing.T) {
	isolate(t)
	_, _, err := run(t, "", "auth", "logout", "--profile", "nope")
	if ExitCode(err) != cli.ExitNotFound || !strings.Contains(err.Error(), `no profile "nope": nothing to log out of`) {
		t.Errorf("unknown profile: %v", err)
	}

	if err := settings.SaveProfile("work", map[string]any{"base_url": "https://acme.example.com", "token_store": "keyring"}, true); err != nil {
		t.Fatal(err)
	}
	broken := &testKeyring{items: map[string]string{"work": "tok"}, err: &credentials.KeyringError{Op: "delete", Err: errors.New("locked")}}
	f, _ := testFactory(t, broken, "")
	err = execute(context.Background(), f, []string{"auth", "logout", "--profile", "work"}, nil)
	if err == nil || !strings.Contains(err.Error(), "could not remove the token from the keyring (the profile is kept)") {
		t.Errorf("keyring failure: %v", err)
	}
	if !testConfig(t).HasProfile("work") {
		t.Error("the profile was removed although its token was not")
	}

	kr := &testKeyring{items: map[string]string{"work": "tok"}}
	t.Setenv("ORGCTL_TOKEN", "env_tok")
	f, tio := testFactory(t, kr, "")
	if err := execute(context.Background(), f, []string{"auth", "logout", "--profile", "work"}, nil); err != nil {
		t.Fatal(err)
	}
	// The token goes; the profile and its base URL stay for the next login.
	if _, ok := kr.items["work"]; ok || !testConfig(t).HasProfile("work") || settings.ProfileSetting("work", "base_url") != "https://acme.example.com" {
		t.Errorf("logout kept the token (%v) or lost the profile", kr.items)
	}
	if !strings.Contains(tio.err.String(), `Logged out of profile "work"; its settings stay (https://acme.example.com)`) || !strings.Contains(tio.err.String(), "ORGCTL_TOKEN is still set") {
		t.Errorf("stderr = %q", tio.err.String())
	}
	// --forget removes the profile too, and the current profile naming it.
	f, _ = testFactory(t, kr, "")
	if err := execute(context.Background(), f, []string{"auth", "logout", "--profile", "work", "--forget"}, nil); err != nil {
		t.Fatal(err)
	}
	if testConfig(t).HasProfile("work") {
		t.Error("--forget kept the profile")
	}
	if cfg, _ := os.ReadFile(settings.ConfigPath()); strings.Contains(string(cfg), "profile: work") {
		t.Errorf("the default profile still names the removed one:\n%s", cfg)
	}
}

func TestAuthLoginInputs(t *testing.T) {
	api, base := sandboxEnv(t)
	tok := api.AdminToken()
	t.Setenv("ORGCTL_TOKEN", "")
	t.Setenv("ORGCTL_BASE_URL", "")
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"no terminal, no --with-token", tok, nil, "stdin is not a terminal: pass the token on stdin with --with-token"},
		{"no base URL", tok, []string{"--with-token"}, "no base URL: pass --base-url"},
		{"empty token", "\n", []string{"--with-token", "--base-url", base}, "empty token: nothing to store"},
		{"token with spaces", "tok en\n", []string{"--with-token", "--base-url", base}, "the token contains whitespace"},
		{"plain http elsewhere", tok, []string{"--with-token", "--base-url", "http://acme.example.com"}, "http"},
	} {
		kr := &testKeyring{}
		f, _ := testFactory(t, kr, tc.stdin)
		err := execute(context.Background(), f, append([]string{"auth", "login"}, tc.args...), nil)
		if ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v (exit %d), want exit 2 with %q", tc.name, err, ExitCode(err), tc.want)
		}
		if len(kr.items) != 0 {
			t.Errorf("%s: stored %v", tc.name, kr.items)
		}
	}

	// On a terminal the token is asked for; the base URL too when not given.
	kr := &testKeyring{}
	f, tio := testFactory(t, kr, tok+"\n")
	f.IO.InTTY, f.IO.ErrTTY = true, true
	t.Setenv("ORGCTL_TOKEN", "still_set")
	if err := execute(context.Background(), f, []string{"auth", "login", "--base-url", base}, nil); err != nil {
		t.Fatal(err)
	}
	if kr.items["default"] != tok {
		t.Errorf("keyring = %v", kr.items)
	}
	errOut := tio.err.String()
	for _, want := range []string{"API token for " + base + " (input hidden", "Logged in to " + base + ` as admin@sandbox.example (Sandbox Admin), profile "default" (token …` + tok[len(tok)-4:] + ", stored in the OS keyring).",
		"warning: ORGCTL_TOKEN is set in this environment and takes precedence"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut+tio.out.String(), tok) {
		t.Error("the token was printed")
	}
	f, tio = testFactory(t, &testKeyring{}, "ftp://acme.example.com\n")
	f.IO.InTTY, f.IO.ErrTTY = true, true
	err := execute(context.Background(), f, []string{"auth", "login", "--profile", "fresh"}, nil)
	if !strings.Contains(tio.err.String(), "Base URL of your organization") || ExitCode(err) != cli.ExitUsage {
		t.Errorf("base URL prompt: %v, stderr %q", err, tio.err.String())
	}
}

func TestAuthLoginToASpace(t *testing.T) {
	api, _ := sandboxEnv(t)
	spaceTok, err := sandboxtest.MintSpaceToken(api, "eng", "users:read")
	if err != nil {
		t.Fatal(err)
	}
	api.ResetRequests()
	kr := &testKeyring{}
	f, tio := testFactory(t, kr, spaceTok)
	if err := execute(context.Background(), f, []string{"auth", "login", "--space", "eng", "--with-token"}, nil); err != nil {
		t.Fatalf("%v\n%s", err, tio.err.String())
	}
	if kr.items["eng"] != spaceTok {
		t.Errorf("keyring = %v, want the token under the space's name", kr.items)
	}
	doc, err := settings.LoadDoc()
	if err != nil {
		t.Fatal(err)
	}
	space, _ := doc.Get("eng", "space")
	base, _ := doc.Get("eng", "base_url")
	if space == nil || space.Value != "eng" || base == nil || !strings.HasSuffix(base.Value, "/space/eng") {
		t.Errorf("profile eng: space %v, base_url %v", space, base)
	}
	reqs := sent(api)
	// The third asks whose token it is; this one may not list tokens, so it ends there.
	if len(reqs) != 3 || reqs[0] != "GET /api/v2/spaces" || !strings.HasPrefix(reqs[1], "GET /space/eng/api/v2/users?limit=1") || reqs[2] != "GET /space/eng/api/v2/access_tokens" {
		t.Errorf("sent %v", reqs)
	}

	f, _ = testFactory(t, &testKeyring{}, spaceTok)
	err = execute(context.Background(), f, []string{"auth", "login", "--space", "marketing", "--with-token"}, nil)
	if ExitCode(err) != cli.ExitNotFound || !strings.Contains(err.Error(), `no space "marketing" in this organization (spaces: eng)`) {
		t.Errorf("unknown space: %v", err)
	}
}
