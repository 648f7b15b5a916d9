package auth_test

// The login flow against a real Secret Service (.ci/keyring-tests.sh runs
// it): the token goes to the keyring, never to a file, and other commands
// find it there.

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/auth"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/credentials/keyringtest"
	"github.com/orgctl/orgctl/cmd/families/familytest"
	"github.com/orgctl/orgctl/output"
)

func TestRealKeyringLoginFlow(t *testing.T) {
	keyringtest.Need(t)
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	for _, k := range []string{"ORGCTL_TOKEN", "ORGCTL_BASE_URL", "ORGCTL_PROFILE", "ORGCTL_TOKEN_STORE"} {
		t.Setenv(k, "")
	}
	api := sandbox.New(sandbox.Options{})
	hs := httptest.NewServer(api)
	defer hs.Close()
	tok := api.AdminToken()
	profile := fmt.Sprintf("orgctl-flow-%d", os.Getpid())
	t.Cleanup(func() { credentials.Keyring{Timeout: 5 * time.Second}.Delete(profile) })

	out, errOut, err := runKeyring(t, tok+"\n", "auth", "login", "--with-token", "--base-url", hs.URL, "--profile", profile)
	if err != nil {
		t.Fatalf("login: %v\n%s", err, errOut)
	}
	if !strings.Contains(errOut, "stored in the OS keyring") || strings.Contains(out+errOut, tok) {
		t.Errorf("login said %q", errOut)
	}
	if got, ok := keyringtest.Lookup(t, profile); !ok || got != tok {
		t.Fatalf("secret-tool lookup service orgctl username %s: found=%v, token matches=%v", profile, ok, got == tok)
	}
	if _, err := os.Stat(filepath.Join(dir, "config", "orgctl", "tokens", profile)); !os.IsNotExist(err) {
		t.Errorf("a plain-text token file exists next to the keyring item: %v", err)
	}

	out, _, err = runKeyring(t, "", "auth", "status", "--profile", profile, "-o", "json")
	if err != nil {
		t.Fatalf("status: %v", err)
	}
	if !strings.Contains(out, `"token_source":"keyring"`) || !strings.Contains(out, `"valid":true`) || strings.Contains(out, tok) {
		t.Errorf("status = %s", out)
	}
	out, _, err = runKeyring(t, "", "auth", "token", "--profile", profile)
	if err != nil || strings.TrimSpace(out) != tok {
		t.Errorf("auth token: err=%v, matches=%v", err, strings.TrimSpace(out) == tok)
	}
	out, _, err = runKeyring(t, "", "users", "list", "--profile", profile, "--jq", ".[0].email")
	if err != nil || strings.TrimSpace(out) == "" {
		t.Errorf("users list with the keyring token: %q %v", out, err)
	}

	if _, errOut, err := runKeyring(t, "", "auth", "logout", "--profile", profile); err != nil {
		t.Fatalf("logout: %v\n%s", err, errOut)
	}
	if _, ok := keyringtest.Lookup(t, profile); ok {
		t.Error("secret-tool still finds the token after logout")
	}
	if _, _, err := runKeyring(t, "", "auth", "token", "--profile", profile); err == nil {
		t.Error("auth token succeeded after logout")
	}
}

// runKeyring executes one command line of auth, or of a family, with the
// Factory's real keyring.
func runKeyring(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	f := cli.NewFactory("test")
	f.IO = &output.IO{In: strings.NewReader(stdin), Out: &out, Err: &errb}
	var err error
	if args[0] == "auth" {
		root := clitest.Root(f, auth.NewCmd(f))
		root.SetArgs(args)
		err = root.ExecuteContext(context.Background())
	} else {
		err = familytest.Run(f, args...)
	}
	return out.String(), errb.String(), err
}
