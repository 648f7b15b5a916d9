package auth_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
	"github.com/orgctl/orgctl/cmd/auth"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/settings"
)

// authRun runs `auth ARGS` on a fresh Factory with kr as its keyring.
func authRun(t *testing.T, kr cli.TokenStore, stdin string, args ...string) (*cli.Factory, *clitest.IO, error) {
	t.Helper()
	f, tio := clitest.Factory(t, kr, stdin)
	return f, tio, clitest.Execute(f, auth.NewCmd(f), args...)
}

// terminalRun is authRun with stdin and stderr on a terminal.
func terminalRun(t *testing.T, kr cli.TokenStore, stdin string, args ...string) (*cli.Factory, *clitest.IO, error) {
	t.Helper()
	f, tio := clitest.Factory(t, kr, stdin)
	f.IO.InTTY, f.IO.ErrTTY = true, true
	return f, tio, clitest.Execute(f, auth.NewCmd(f), args...)
}

func hasProfile(t *testing.T, name string) bool {
	t.Helper()
	f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
	cfg, err := f.Config()
	if err != nil {
		t.Fatal(err)
	}
	return cfg.HasProfile(name)
}

func TestLoginKeyringUnavailableStoresNothing(t *testing.T) {
	clitest.Isolate(t)
	api, url := clitest.Sandbox(t, sandbox.Options{})
	kr := &clitest.Keyring{Err: &credentials.KeyringError{Op: "write", Err: errors.New("no D-Bus session bus")}}
	f, tio, err := authRun(t, kr, api.AdminToken()+"\n", "login", "--with-token", "--base-url", url)
	if err == nil {
		t.Fatal("login succeeded without a keyring")
	}
	for _, want := range []string{"ORGCTL_TOKEN", "--insecure-storage"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if _, err := f.Tokens.File.Get("default"); !errors.Is(err, credentials.ErrNotFound) {
		t.Errorf("a token file was written: %v (no silent plain-text fallback)", err)
	}
	if _, err := os.Stat(settings.ConfigPath()); !os.IsNotExist(err) {
		t.Errorf("config written although nothing was stored: %v", err)
	}
	if strings.Contains(tio.Out.String()+tio.Err.String(), api.AdminToken()) {
		t.Error("the token was printed")
	}
}

func TestLoginInsecureStorageThenStatusAndLogout(t *testing.T) {
	clitest.Isolate(t)
	api, url := clitest.Sandbox(t, sandbox.Options{})
	tok := api.AdminToken()
	kr := &clitest.Keyring{}
	t.Setenv("ORGCTL_PROFILE", "ci")
	_, tio, err := authRun(t, kr, tok+"\n", "login", "--with-token", "--insecure-storage", "--base-url", url)
	if err != nil {
		t.Fatal(err)
	}
	if kr.Calls != 0 {
		t.Errorf("keyring used %d times with --insecure-storage", kr.Calls)
	}
	fi, err := os.Stat(filepath.Join(settings.TokenFileDir(), "ci"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", fi, err)
	}
	cfgBytes, _ := os.ReadFile(settings.ConfigPath())
	if !strings.Contains(string(cfgBytes), "token_store: file") || strings.Contains(string(cfgBytes), tok) {
		t.Errorf("config = %s", cfgBytes)
	}
	if strings.Contains(tio.Out.String()+tio.Err.String(), tok) {
		t.Error("login printed the token")
	}

	t.Setenv("ORGCTL_OUTPUT", "json")
	_, tio, err = authRun(t, kr, "", "status")
	if err != nil {
		t.Fatal(err)
	}
	out := tio.Out.String()
	if !strings.Contains(out, `"token_source":"file"`) || !strings.Contains(out, `"token_last4":"`+tok[len(tok)-4:]+`"`) || strings.Contains(out, tok) {
		t.Errorf("status = %s", out)
	}

	f, _, err := authRun(t, kr, "", "logout")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Tokens.File.Get("ci"); !errors.Is(err, credentials.ErrNotFound) {
		t.Errorf("token file survived logout: %v", err)
	}
}

func TestLoginRejectedTokenStoresNothing(t *testing.T) {
	clitest.Isolate(t)
	_, url := clitest.Sandbox(t, sandbox.Options{})
	kr := &clitest.Keyring{}
	_, _, err := authRun(t, kr, "tok_not_valid\n", "login", "--with-token", "--base-url", url)
	var ae *cli.AuthError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "nothing was stored") {
		t.Fatalf("err = %v", err)
	}
	if len(kr.Items) != 0 {
		t.Errorf("keyring holds %v", kr.Items)
	}
}

func TestAuthStatus(t *testing.T) {
	api, base := clitest.SandboxEnv(t, sandbox.Options{})
	tok := api.AdminToken()
	_, tio, err := authRun(t, &clitest.Keyring{}, "", "status")
	want := "profile:\tdefault\nbase url:\t" + base + "\ntoken source:\tORGCTL_TOKEN\ntoken:\t…" + tok[len(tok)-4:] + "\nuser:\tadmin@sandbox.example (Sandbox Admin)\napi version:\t4.0.0 (the 4.0 release; read /api/v2/spec: 10 points)\nvalid:\ttrue\n"
	if err != nil || tio.Out.String() != want {
		t.Errorf("status: %v\n%s\nwant:\n%s", err, tio.Out.String(), want)
	}

	t.Setenv("ORGCTL_TOKEN", "tok_rejected_by_sandbox")
	t.Setenv("ORGCTL_OUTPUT", "json")
	_, tio, err = authRun(t, &clitest.Keyring{}, "", "status")
	var st map[string]any
	json.Unmarshal(tio.Out.Bytes(), &st)
	if cli.ExitCode(err) != cli.ExitAuth || st["valid"] != false || st["error"] != "token rejected (HTTP 401)" || st["token_last4"] != "dbox" {
		t.Errorf("rejected token: %v (want exit 4), %s", err, tio.Out.String())
	}
	// ORGCTL_TOKEN overrides the stored login: logging in again cannot help
	if err == nil || !strings.Contains(err.Error(), "unset it to use the stored login") || strings.Contains(err.Error(), "Log in again") {
		t.Errorf("rejected token error: %v", err)
	}

	t.Setenv("ORGCTL_OUTPUT", "")
	t.Setenv("ORGCTL_TOKEN", "")
	t.Setenv("ORGCTL_TOKEN_STORE", "file")
	_, tio, err = authRun(t, &clitest.Keyring{}, "", "status")
	out := tio.Out.String()
	if cli.ExitCode(err) != cli.ExitAuth || !strings.Contains(out, "token source:\t-\n") || strings.Contains(out, "token:\t") || !strings.Contains(out, "valid:\tfalse\n") {
		t.Errorf("not logged in: %v (want exit 4)\n%s", err, out)
	}

	// A base URL orgctl refuses is a usage error, as it is for any
	// command; an unreachable API is a failure.
	t.Setenv("ORGCTL_TOKEN", "tok")
	t.Setenv("ORGCTL_BASE_URL", "http://acme.example.com")
	t.Setenv("ORGCTL_OUTPUT", "json")
	_, tio, err = authRun(t, &clitest.Keyring{}, "", "status")
	if cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(tio.Out.String(), `"error":`) {
		t.Errorf("plain http: %v (exit %d), %s", err, cli.ExitCode(err), tio.Out.String())
	}
	t.Setenv("ORGCTL_OUTPUT", "")
	t.Setenv("ORGCTL_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("ORGCTL_TIMEOUT", "2s")
	_, _, err = authRun(t, &clitest.Keyring{}, "", "status")
	if err == nil || cli.ExitCode(err) != cli.ExitFailure {
		t.Errorf("unreachable API: %v (exit %d)", err, cli.ExitCode(err))
	}
}

func TestAuthTokenPrintsOnlyTheToken(t *testing.T) {
	clitest.Isolate(t)
	kr := &clitest.Keyring{Items: map[string]string{"default": "tok_from_keyring"}}
	_, tio, err := authRun(t, kr, "", "token")
	if err != nil {
		t.Fatal(err)
	}
	if tio.Out.String() != "tok_from_keyring\n" || tio.Err.String() != "" {
		t.Errorf("stdout %q, stderr %q", tio.Out.String(), tio.Err.String())
	}
	_, tio, err = authRun(t, &clitest.Keyring{}, "", "token")
	if cli.ExitCode(err) != cli.ExitAuth || tio.Out.Len() != 0 {
		t.Errorf("not logged in: %v (want exit 4), stdout %q", err, tio.Out.String())
	}
}

func TestAuthLogout(t *testing.T) {
	clitest.Isolate(t)
	t.Setenv("ORGCTL_PROFILE", "nope")
	_, _, err := authRun(t, &clitest.Keyring{}, "", "logout")
	if cli.ExitCode(err) != cli.ExitNotFound || !strings.Contains(err.Error(), `no profile "nope": nothing to log out of`) {
		t.Errorf("unknown profile: %v", err)
	}

	if err := settings.SaveProfile("work", map[string]any{"base_url": "https://acme.example.com", "token_store": "keyring"}, true); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ORGCTL_PROFILE", "work")
	broken := &clitest.Keyring{Items: map[string]string{"work": "tok"}, Err: &credentials.KeyringError{Op: "delete", Err: errors.New("locked")}}
	_, _, err = authRun(t, broken, "", "logout")
	if err == nil || !strings.Contains(err.Error(), "could not remove the token from the keyring (the profile is kept)") {
		t.Errorf("keyring failure: %v", err)
	}
	if !hasProfile(t, "work") {
		t.Error("the profile was removed although its token was not")
	}

	kr := &clitest.Keyring{Items: map[string]string{"work": "tok"}}
	t.Setenv("ORGCTL_TOKEN", "env_tok")
	_, tio, err := authRun(t, kr, "", "logout")
	if err != nil {
		t.Fatal(err)
	}
	// The token goes; the profile and its base URL stay for the next login.
	if _, ok := kr.Items["work"]; ok || !hasProfile(t, "work") || settings.ProfileSetting("work", "base_url") != "https://acme.example.com" {
		t.Errorf("logout kept the token (%v) or lost the profile", kr.Items)
	}
	if !strings.Contains(tio.Err.String(), `Logged out of profile "work"; its settings stay (https://acme.example.com)`) || !strings.Contains(tio.Err.String(), "ORGCTL_TOKEN is still set") {
		t.Errorf("stderr = %q", tio.Err.String())
	}
	// --forget removes the profile too, and the current profile naming it.
	if _, _, err := authRun(t, kr, "", "logout", "--forget"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ORGCTL_PROFILE", "")
	if hasProfile(t, "work") {
		t.Error("--forget kept the profile")
	}
	if cfg, _ := os.ReadFile(settings.ConfigPath()); strings.Contains(string(cfg), "profile: work") {
		t.Errorf("the default profile still names the removed one:\n%s", cfg)
	}
}

func TestAuthLoginInputs(t *testing.T) {
	api, base := clitest.SandboxEnv(t, sandbox.Options{})
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
		kr := &clitest.Keyring{}
		_, _, err := authRun(t, kr, tc.stdin, append([]string{"login"}, tc.args...)...)
		if cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a usage error (exit 2) with %q", tc.name, err, tc.want)
		}
		if len(kr.Items) != 0 {
			t.Errorf("%s: stored %v", tc.name, kr.Items)
		}
	}

	// On a terminal the token is asked for; the base URL too when not given.
	kr := &clitest.Keyring{}
	t.Setenv("ORGCTL_TOKEN", "still_set")
	_, tio, err := terminalRun(t, kr, tok+"\n", "login", "--base-url", base)
	if err != nil {
		t.Fatal(err)
	}
	if kr.Items["default"] != tok {
		t.Errorf("keyring = %v", kr.Items)
	}
	errOut := tio.Err.String()
	for _, want := range []string{"API token for " + base + " (input hidden", "Logged in to " + base + ` as admin@sandbox.example (Sandbox Admin), profile "default" (token …` + tok[len(tok)-4:] + ", stored in the OS keyring).",
		"warning: ORGCTL_TOKEN is set in this environment and takes precedence"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut+tio.Out.String(), tok) {
		t.Error("the token was printed")
	}
	t.Setenv("ORGCTL_PROFILE", "fresh")
	_, tio, err = terminalRun(t, &clitest.Keyring{}, "ftp://acme.example.com\n", "login")
	if !strings.Contains(tio.Err.String(), "Base URL of your organization") || cli.ExitCode(err) != cli.ExitUsage {
		t.Errorf("base URL prompt: %v (want exit 2), stderr %q", err, tio.Err.String())
	}
}

func TestAuthLoginToASpace(t *testing.T) {
	api, _ := clitest.SandboxEnv(t, sandbox.Options{})
	spaceTok, err := sandboxtest.MintSpaceToken(api, "eng", "users:read")
	if err != nil {
		t.Fatal(err)
	}
	api.ResetRequests()
	kr := &clitest.Keyring{}
	_, tio, err := authRun(t, kr, spaceTok, "login", "--space", "eng", "--with-token")
	if err != nil {
		t.Fatalf("%v\n%s", err, tio.Err.String())
	}
	if kr.Items["eng"] != spaceTok {
		t.Errorf("keyring = %v, want the token under the space's name", kr.Items)
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
	reqs := clitest.Sent(api)
	// The third asks whose token it is; this one may not list tokens, so it ends there.
	if len(reqs) != 3 || reqs[0] != "GET /api/v2/spaces" || !strings.HasPrefix(reqs[1], "GET /space/eng/api/v2/users?limit=1") || reqs[2] != "GET /space/eng/api/v2/access_tokens" {
		t.Errorf("sent %v", reqs)
	}

	_, _, err = authRun(t, &clitest.Keyring{}, spaceTok, "login", "--space", "marketing", "--with-token")
	if cli.ExitCode(err) != cli.ExitNotFound || !strings.Contains(err.Error(), `no space "marketing" in this organization (spaces: eng)`) {
		t.Errorf("unknown space: %v", err)
	}
}
