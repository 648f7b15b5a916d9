package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/settings"
)

// runJSON runs `orgctl doctor -o json` on the environment the test set and
// returns its checks by name and the command's error.
func runJSON(t *testing.T) (map[string]doctorCheck, []string, error, *clitest.IO) {
	t.Helper()
	t.Setenv("ORGCTL_OUTPUT", "json")
	f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
	err := clitest.Execute(f, NewCmd(f))
	var list []doctorCheck
	if jerr := json.Unmarshal(tio.Out.Bytes(), &list); jerr != nil {
		t.Fatalf("doctor -o json printed no list: %v\n%s%s", jerr, tio.Out.String(), tio.Err.String())
	}
	byName := map[string]doctorCheck{}
	var names []string
	for _, c := range list {
		byName[c.Name] = c
		names = append(names, c.Name)
	}
	return byName, names, err, tio
}

// TestDoctorSkipsWhatAFailureLeavesUnknown runs the whole command on setups
// that each break one link, and asks every other line what it says. The
// api line is left to its own tests.
func TestDoctorSkipsWhatAFailureLeavesUnknown(t *testing.T) {
	type want struct{ status, says string }
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T) *sandbox.Server
		want  map[string]want
		fails bool
		// sent is what the sandbox may have been asked, nil for no check
		sent []string
		// paid: the 2-point request was announced on stderr
		paid bool
	}{
		{
			name: "no base URL, a token in the environment",
			setup: func(t *testing.T) *sandbox.Server {
				clitest.Isolate(t)
				t.Setenv("ORGCTL_TOKEN", "tok-0000wxyz")
				return nil
			},
			want: map[string]want{
				"config": {checkOK, "no config file"}, "base url": {checkFail, "base"},
				"token": {checkOK, "…wxyz from the ORGCTL_TOKEN variable"}, "login": {checkSkip, "needs a reachable base URL"},
				"keyring": {checkSkip, "no OS keyring"}, "budget": {checkSkip, "needs both"},
				"clock": {checkSkip, "needs an answer from the server"},
			},
			fails: true,
		},
		{
			name: "an instance that is up, no token",
			setup: func(t *testing.T) *sandbox.Server {
				clitest.Isolate(t)
				api, u := clitest.Sandbox(t, sandbox.Options{})
				t.Setenv("ORGCTL_BASE_URL", u)
				return api
			},
			want: map[string]want{
				"base url": {checkOK, "is up"}, "token": {checkFail, "not logged in"},
				"login": {checkSkip, "needs a token"}, "budget": {checkSkip, "needs both"}, "clock": {checkOK, "within 30s"},
			},
			fails: true,
			sent:  []string{"GET /api/checkHealth"},
		},
		{
			name: "a token the instance rejects",
			setup: func(t *testing.T) *sandbox.Server {
				api, _ := clitest.SandboxEnv(t, sandbox.Options{})
				t.Setenv("ORGCTL_TOKEN", "not-a-real-token")
				return api
			},
			want: map[string]want{
				"base url": {checkOK, "is up"}, "token": {checkOK, "from the ORGCTL_TOKEN variable"},
				"login": {checkFail, "the token was rejected (HTTP 401)"}, "budget": {checkOK, "points used"},
			},
			fails: true,
			paid:  true,
		},
		{
			name: "an instance that does not answer",
			setup: func(t *testing.T) *sandbox.Server {
				clitest.Isolate(t)
				hs := httptest.NewServer(sandbox.New(sandbox.Options{}))
				hs.Close()
				t.Setenv("ORGCTL_BASE_URL", hs.URL)
				t.Setenv("ORGCTL_TOKEN", "tok-1234")
				return nil
			},
			want: map[string]want{
				"base url": {checkFail, "unreachable"}, "token": {checkOK, "…1234"},
				"login": {checkSkip, "needs a reachable base URL"},
				// the ledger is this machine's: it is read without the server
				"budget": {checkOK, "0 of 300 points used in the last 1m0s, 300 free (file store)"},
				"clock":  {checkSkip, "needs an answer"},
			},
			fails: true,
		},
		{
			name: "the built-in sandbox",
			setup: func(t *testing.T) *sandbox.Server {
				clitest.Isolate(t)
				t.Setenv("ORGCTL_SANDBOX", "true")
				return nil
			},
			want: map[string]want{
				"base url": {checkOK, "is up"}, "token": {checkOK, "from the sandbox"},
				"login": {checkOK, "the token is accepted"}, "budget": {checkOK, "file store"},
			},
			paid: true,
		},
		{
			name: "quiet: the paid request is not announced",
			setup: func(t *testing.T) *sandbox.Server {
				api, _ := clitest.SandboxEnv(t, sandbox.Options{})
				t.Setenv("ORGCTL_QUIET", "true")
				return api
			},
			want: map[string]want{"login": {checkOK, "accepted"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := tc.setup(t)
			checks, names, err, tio := runJSON(t)
			wantOrder := []string{"config", "base url", "api", "token", "login", "keyring", "budget", "clock"}
			if strings.Join(names, ",") != strings.Join(wantOrder, ",") {
				t.Errorf("checks %v, want %v", names, wantOrder)
			}
			for name, w := range tc.want {
				c := checks[name]
				if c.Status != w.status || !strings.Contains(c.Detail, w.says) {
					t.Errorf("%s: %s %q, want %s saying %q", name, c.Status, c.Detail, w.status, w.says)
				}
			}
			var ee *cli.ExitError
			if tc.fails != (err != nil) || (err != nil && (!errors.As(err, &ee) || ee.Code != cli.ExitFailure)) {
				t.Errorf("err %v, want exit 1: %v", err, tc.fails)
			}
			if tc.sent != nil && api != nil {
				if got := clitest.Sent(api); strings.Join(got, "\n") != strings.Join(tc.sent, "\n") {
					t.Errorf("sent %q, want %q", got, tc.sent)
				}
			}
			if announced := strings.Contains(tio.Err.String(), "GET /users?limit=1 (2 points)"); announced != tc.paid {
				t.Errorf("the paid request announced: %v, want %v; stderr %q", announced, tc.paid, tio.Err.String())
			}
		})
	}
}

func TestDoctorWithAConfigThatDoesNotLoad(t *testing.T) {
	// Without a config there is no output format either: the lines are text.
	clitest.Isolate(t)
	t.Setenv("ORGCTL_TIMEOUT", "forever")
	f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
	err := clitest.Execute(f, NewCmd(f))
	var ee *cli.ExitError
	if !errors.As(err, &ee) || ee.Code != cli.ExitFailure {
		t.Errorf("err %v, want exit 1", err)
	}
	lines := strings.Split(strings.TrimSuffix(tio.Out.String(), "\n"), "\n")
	if len(lines) != 8 || !strings.HasPrefix(lines[0], "✗ config ") || !strings.Contains(lines[0], "ORGCTL_TIMEOUT") {
		t.Fatalf("got\n%s", tio.Out.String())
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "- ") || !strings.HasSuffix(l, "  needs a readable config") {
			t.Errorf("not skipped for want of a config: %q", l)
		}
	}
	if strings.Contains(tio.Err.String(), "points") {
		t.Errorf("a request was announced: %q", tio.Err.String())
	}
}

func TestRejectedTokenHint(t *testing.T) {
	// With ORGCTL_TOKEN set, logging in again would not help: the hint says
	// to check or unset the variable.
	clitest.SandboxEnv(t, sandbox.Options{})
	t.Setenv("ORGCTL_TOKEN", "not-a-real-token")
	checks, _, _, _ := runJSON(t)
	if h := checks["login"].Hint; !strings.Contains(h, "ORGCTL_TOKEN was rejected") {
		t.Errorf("login hint %q", h)
	}
}

// budgetTarget is the sandbox on loopback as doctor's budget line sees it.
func budgetTarget(t *testing.T) (*cli.Factory, *settings.Config, *cli.Target) {
	t.Helper()
	clitest.SandboxEnv(t, sandbox.Options{})
	f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
	cfg, err := f.Config()
	if err != nil {
		t.Fatal(err)
	}
	tgt, err := cli.ResolveTarget(cfg, f.Tokens, f.Transport)
	if err != nil {
		t.Fatal(err)
	}
	return f, cfg, tgt
}

func TestCheckBudget(t *testing.T) {
	t.Run("points spent show as used", func(t *testing.T) {
		f, cfg, tgt := budgetTarget(t)
		l, err := cli.OpenLedger(cfg, tgt, f.IO)
		if err != nil {
			t.Fatal(err)
		}
		tk, err := l.Acquire(context.Background(), "/users")
		if err != nil {
			t.Fatal(err)
		}
		tk.Done(true)
		c := checkBudget(cfg, f, tgt)
		want := "2 of 300 points used in the last 1m0s, 298 free (file store)"
		if c.Status != checkOK || c.Detail != want {
			t.Errorf("got %+v, want ok %q", c, want)
		}
	})
	t.Run("a block the server set", func(t *testing.T) {
		f, cfg, tgt := budgetTarget(t)
		l, err := cli.OpenLedger(cfg, tgt, f.IO)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Blocked(5 * time.Minute); err != nil {
			t.Fatal(err)
		}
		c := checkBudget(cfg, f, tgt)
		if c.Status != checkFail || !strings.HasPrefix(c.Detail, "blocked until ") || !strings.Contains(c.Detail, "(file store)") ||
			!strings.Contains(c.Hint, "--max-wait") {
			t.Errorf("got %+v, want a failing block with a hint", c)
		}
	})
	t.Run("a ledger directory others can write", func(t *testing.T) {
		f, cfg, tgt := budgetTarget(t)
		dir := filepath.Join(settings.StateDir(), "budget")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		c := checkBudget(cfg, f, tgt)
		if c.Status != checkFail || !strings.HasPrefix(c.Detail, dir+": it is writable by others") || c.Hint == "" {
			t.Errorf("got %+v, want the directory, why and how to fix", c)
		}
	})
	t.Run("a shared store that does not answer", func(t *testing.T) {
		f, _, tgt := budgetTarget(t)
		hs := httptest.NewServer(nil)
		hs.Close() // a port nothing listens on
		t.Setenv("ORGCTL_BUDGET_STORE", "redis://"+strings.TrimPrefix(hs.URL, "http://")+"/0")
		f2, _ := clitest.Factory(t, &clitest.Keyring{}, "")
		cfg2, err := f2.Config()
		if err != nil {
			t.Fatal(err)
		}
		c := checkBudget(cfg2, f, tgt)
		if c.Status != checkFail || !strings.Contains(c.Detail, "start the store or fix budget.store") ||
			!strings.Contains(c.Hint, "orgctl config get budget.store") {
			t.Errorf("got %+v, want the store's failure explained", c)
		}
	})
}

func TestPrintDoctor(t *testing.T) {
	checks := []doctorCheck{
		{Name: "config", Status: checkOK, Detail: "fine"},
		{Name: "base url", Status: checkFail, Detail: "https://acme.example.com unreachable: connection refused", Hint: "check the URL"},
		{Name: "keyring", Status: checkSkip, Detail: "not used"},
	}
	t.Run("one line each, names aligned, hint after the detail", func(t *testing.T) {
		clitest.Isolate(t)
		f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
		if err := printDoctor(f, checks); err != nil {
			t.Fatal(err)
		}
		want := "✓ config    fine\n" +
			"✗ base url  https://acme.example.com unreachable: connection refused; check the URL\n" +
			"- keyring   not used\n"
		if got := tio.Out.String(); got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("wrapped under the text on a narrow terminal", func(t *testing.T) {
		clitest.Isolate(t)
		f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
		f.IO.Width = 40
		if err := printDoctor(f, checks[1:2]); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(tio.Out.String(), "\n"), "\n")
		if len(lines) < 2 {
			t.Fatalf("not wrapped at 40 columns:\n%s", tio.Out.String())
		}
		const indent = "            " // mark, space, "base url", two spaces
		for i, l := range lines {
			if n := len([]rune(l)); n > 40 {
				t.Errorf("line %d is %d wide: %q", i, n, l)
			}
			if i > 0 && (!strings.HasPrefix(l, indent) || l[len(indent)] == ' ') {
				t.Errorf("line %d does not continue under the text: %q", i, l)
			}
		}
		joined := strings.Join(strings.Fields(tio.Out.String()), " ")
		if joined != "✗ base url https://acme.example.com unreachable: connection refused; check the URL" {
			t.Errorf("words lost or changed in wrapping: %q", joined)
		}
	})
	t.Run("-o json is the list, without empty hints", func(t *testing.T) {
		clitest.Isolate(t)
		t.Setenv("ORGCTL_OUTPUT", "json")
		f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
		if err := printDoctor(f, checks); err != nil {
			t.Fatal(err)
		}
		var got []map[string]string
		if err := json.Unmarshal(tio.Out.Bytes(), &got); err != nil || len(got) != 3 {
			t.Fatalf("%v: %s", err, tio.Out.String())
		}
		if _, has := got[0]["hint"]; has || got[1]["hint"] != "check the URL" || got[2]["status"] != "skip" {
			t.Errorf("got %v", got)
		}
	})
}
