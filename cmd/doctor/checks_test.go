package doctor

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/settings"
)

func TestFirstBodyLine(t *testing.T) {
	long := strings.Repeat("x", 130)
	for _, tc := range []struct{ body, want string }{
		{"", ""},
		{"  \n\n  Service Unavailable\nmore detail\n", "Service Unavailable"},
		{"one line", "one line"},
		// a CR left in would send the cursor back over the line
		{"Bad Gateway\r\n<html>", "Bad Gateway"},
		{long, strings.Repeat("x", 120) + "…"},
		{strings.Repeat("x", 120), strings.Repeat("x", 120)},
	} {
		if got := firstBodyLine([]byte(tc.body)); got != tc.want {
			t.Errorf("firstBodyLine(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}

func TestFirstBodyLineCutsWholeCharacters(t *testing.T) {
	// 119 ASCII bytes then a two-byte character: a cut at byte 120 would
	// split it and print invalid UTF-8.
	body := strings.Repeat("a", 119) + "é and more"
	got := firstBodyLine([]byte(body))
	if !utf8.ValidString(got) {
		t.Fatalf("firstBodyLine cut a character in two: %q", got)
	}
	if !strings.HasSuffix(got, "…") || !strings.HasPrefix(got, strings.Repeat("a", 119)) {
		t.Errorf("firstBodyLine(%q) = %q: want the first 120 characters at most, then …", body, got)
	}
	if n := utf8.RuneCountInString(strings.TrimSuffix(got, "…")); n > 120 {
		t.Errorf("kept %d characters, want at most 120", n)
	}
}

// authSeen wraps a handler, remembering the Authorization headers it got.
type authSeen struct {
	mu   sync.Mutex
	auth []string
	h    http.Handler
}

func (a *authSeen) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.auth = append(a.auth, r.Header.Get("Authorization"))
	a.mu.Unlock()
	a.h.ServeHTTP(w, r)
}

func TestProbeHealth(t *testing.T) {
	serve := func(h http.Handler) (string, *authSeen) {
		seen := &authSeen{h: h}
		hs := httptest.NewServer(seen)
		t.Cleanup(hs.Close)
		return hs.URL, seen
	}
	sandboxURL, sandboxSeen := serve(sandbox.New(sandbox.Options{}))
	downURL, _ := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "  down for maintenance\nback at noon", http.StatusServiceUnavailable)
	}))
	var redirectFollowed bool
	redirectURL, _ := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/checkHealth" {
			redirectFollowed = true
			return
		}
		http.Redirect(w, r, "/login", http.StatusFound)
	}))
	skewed := time.Now().Add(-3 * time.Minute).UTC().Format(http.TimeFormat)
	skewedURL, _ := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", skewed)
	}))
	noDateURL, _ := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Date"] = nil // the server then sends none
	}))
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()

	for _, tc := range []struct {
		name    string
		base    string
		baseErr error
		status  string
		reached bool
		says    []string
		saysNot []string
		hint    string // "" for none
		clock   string
	}{
		{name: "the sandbox is up", base: sandboxURL, status: checkOK, reached: true,
			says: []string{sandboxURL + " is up", "GET /api/checkHealth: HTTP 200"}, clock: checkOK},
		{name: "an error page", base: downURL, status: checkFail,
			says:    []string{"answered GET /api/checkHealth with HTTP 503: down for maintenance"},
			saysNot: []string{"back at noon"}, hint: "without /api/v2", clock: checkSkip},
		{name: "a redirect is an answer, not followed", base: redirectURL, status: checkFail,
			says: []string{"HTTP 302"}, hint: "instance's address", clock: checkSkip},
		{name: "nothing listens", base: closedURL, status: checkFail,
			says: []string{closedURL + " unreachable", "connection refused"}, saysNot: []string{"Get \""},
			hint: "check the URL", clock: checkSkip},
		{name: "a server clock three minutes behind", base: skewedURL, status: checkOK, reached: true, clock: checkFail},
		{name: "no Date header", base: noDateURL, status: checkOK, reached: true, clock: checkSkip},
		{name: "no base URL", baseErr: errors.New("no base URL set"), status: checkFail,
			says: []string{"no base URL set"}, hint: "orgctl config set base_url", clock: checkSkip},
		{name: "an error that already names the variable", baseErr: errors.New("ORGCTL_BASE_URL is not a URL"),
			status: checkFail, clock: checkSkip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := probeHealth(context.Background(), tc.base, http.DefaultTransport, tc.baseErr)
			c := r.check
			if c.Name != "base url" || c.Status != tc.status || r.reached != tc.reached {
				t.Errorf("got %s %s reached=%v, want base url %s reached=%v: %+v", c.Name, c.Status, r.reached, tc.status, tc.reached, c)
			}
			for _, s := range tc.says {
				if !strings.Contains(c.Detail, s) {
					t.Errorf("detail %q does not say %q", c.Detail, s)
				}
			}
			for _, s := range tc.saysNot {
				if strings.Contains(c.Detail, s) {
					t.Errorf("detail %q says %q", c.Detail, s)
				}
			}
			if (tc.hint == "") != (c.Hint == "") || !strings.Contains(c.Hint, tc.hint) {
				t.Errorf("hint %q, want one with %q", c.Hint, tc.hint)
			}
			if r.clock.Name != "clock" || r.clock.Status != tc.clock {
				t.Errorf("clock %+v, want %s", r.clock, tc.clock)
			}
		})
	}
	for _, a := range sandboxSeen.auth {
		if a != "" {
			t.Errorf("the health probe sent a token: %q", a)
		}
	}
	if redirectFollowed {
		t.Error("the probe followed a redirect")
	}
}

func TestDoctorToken(t *testing.T) {
	clitest.Isolate(t)
	cfg := &settings.Config{Profile: "staging"}
	for _, tc := range []struct {
		name   string
		target *cli.Target
		err    error
		status string
		says   string
		hint   string
	}{
		{name: "from the environment", target: &cli.Target{Token: "tok-abcd1234", Source: cli.SourceEnv},
			status: checkOK, says: "…1234 from the ORGCTL_TOKEN variable (profile staging)"},
		{name: "from the keyring", target: &cli.Target{Token: "secret-9876", Source: cli.SourceKeyring},
			status: checkOK, says: "…9876 from the OS keyring"},
		{name: "from the file", target: &cli.Target{Token: "secret-5555", Source: cli.SourceFile},
			status: checkOK, says: "from the token file (" + settings.TokenFileDir() + ")"},
		{name: "a short token shows none of itself", target: &cli.Target{Token: "abc", Source: cli.SourceSandbox},
			status: checkOK, says: "…*** from the sandbox"},
		{name: "an error that says how to log in", err: errors.New("not logged in: run `orgctl auth login --profile staging`"),
			status: checkFail, says: "not logged in"},
		{name: "an error that does not", err: errors.New("token has a control character"),
			status: checkFail, says: "control character", hint: "log in with `orgctl auth login --profile staging`, or set ORGCTL_TOKEN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := doctorToken(cfg, tc.target, tc.err)
			if c.Name != "token" || c.Status != tc.status || !strings.Contains(c.Detail, tc.says) || c.Hint != tc.hint {
				t.Errorf("got %+v\nwant %s saying %q with hint %q", c, tc.status, tc.says, tc.hint)
			}
			if tc.target != nil && strings.Contains(c.Detail, tc.target.Token) && len(tc.target.Token) > 4 {
				t.Errorf("the whole token is shown: %q", c.Detail)
			}
		})
	}
}

// probedKeyring is a keyring that can say whether it answers.
type probedKeyring struct {
	clitest.Keyring
	err error
}

func (k *probedKeyring) Reachable() error { return k.err }

func TestCheckKeyring(t *testing.T) {
	noBus := errors.New("no session bus")
	for _, tc := range []struct {
		name   string
		store  cli.TokenStore
		cfg    settings.Config
		target *cli.Target
		status string
		says   string
		hint   bool
	}{
		{name: "a build without a keyring", store: &clitest.Keyring{}, status: checkSkip, says: "no OS keyring in this build"},
		{name: "it answers", store: &probedKeyring{}, target: &cli.Target{Source: cli.SourceEnv}, status: checkOK, says: "answers"},
		{name: "down while the login is kept there", store: &probedKeyring{err: noBus},
			target: &cli.Target{Source: cli.SourceKeyring}, status: checkFail, says: "where this profile's login is kept, does not answer: no session bus", hint: true},
		{name: "down while the profile says keyring and no token was found", store: &probedKeyring{err: noBus},
			cfg: settings.Config{TokenStore: cli.SourceKeyring}, status: checkFail, says: "does not answer", hint: true},
		{name: "down, the token comes from the environment", store: &probedKeyring{err: noBus},
			target: &cli.Target{Source: cli.SourceEnv}, status: checkSkip, says: "not used (the token comes from ORGCTL_TOKEN); unreachable here: no session bus"},
		{name: "down, no token at all", store: &probedKeyring{err: noBus},
			status: checkSkip, says: "the token comes from elsewhere"},
		{name: "the keyring's own wording is not repeated", store: &probedKeyring{err: &credentials.KeyringError{Op: "probe", Err: noBus}},
			target: &cli.Target{Source: cli.SourceFile}, status: checkSkip, says: "unreachable here: no session bus"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := checkKeyring(&tc.cfg, cli.TokenStores{Keyring: tc.store}, tc.target)
			if c.Name != "keyring" || c.Status != tc.status || !strings.Contains(c.Detail, tc.says) || (c.Hint != "") != tc.hint {
				t.Errorf("got %+v\nwant %s saying %q, hint %v", c, tc.status, tc.says, tc.hint)
			}
			if strings.Contains(c.Detail, "OS keyring unavailable") {
				t.Errorf("the KeyringError's advice is repeated in the detail: %q", c.Detail)
			}
		})
	}
}

func TestCheckConfigFile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		file    string // "" for none
		loadErr error
		status  string
		says    []string
		hint    string
	}{
		{name: "no file", status: checkOK, says: []string{"no config file at", "environment and defaults"}},
		{name: "a valid file", file: "base_url: https://acme.example.com\nprofiles:\n  ci:\n    timeout: 10s\n",
			status: checkOK, says: []string{"config.yaml is valid"}},
		{name: "an unknown key, with the nearest one", file: "bse_url: https://acme.example.com\n",
			status: checkFail, says: []string{`unknown setting "bse_url"`, `did you mean "base_url"?`}, hint: "orgctl config unset KEY"},
		{name: "a key read only from the environment", file: "token: abc\n",
			status: checkFail, says: []string{"read from the environment only (ORGCTL_TOKEN)"}, hint: "orgctl config set"},
		{name: "problems in a profile, each told", file: "profiles:\n  ci:\n    profile: x\n    colour: red\n",
			status: checkFail, says: []string{"profile is a top-level setting", `unknown setting "colour"`, "; "}},
		{name: "not YAML", file: "base_url: [unclosed\n", status: checkFail, hint: "fix the file by hand"},
		{name: "a config that does not load", file: "timeout: forever\n", loadErr: errors.New("timeout: not a duration"),
			status: checkFail, says: []string{"timeout: not a duration"}, hint: "or see `orgctl config list`"},
		{name: "a bad value from the environment, no file", loadErr: errors.New("invalid timeout (from ORGCTL_TIMEOUT)"),
			status: checkFail, says: []string{"ORGCTL_TIMEOUT"}, hint: "fix the value where it is set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clitest.Isolate(t)
			path := settings.ConfigPath()
			if tc.file != "" {
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			c := checkConfigFile(tc.loadErr)
			if c.Name != "config" || c.Status != tc.status {
				t.Errorf("got %+v, want %s", c, tc.status)
			}
			for _, s := range tc.says {
				if !strings.Contains(c.Detail, s) {
					t.Errorf("detail %q does not say %q", c.Detail, s)
				}
			}
			if tc.status == checkOK && c.Hint != "" {
				t.Errorf("a passing check with a hint: %q", c.Hint)
			}
			if !strings.Contains(c.Hint, tc.hint) || (tc.status == checkFail && c.Hint == "") {
				t.Errorf("hint %q, want one with %q", c.Hint, tc.hint)
			}
			// The hint names the file when there is one, and never one that
			// is not there.
			if tc.loadErr != nil && strings.Contains(c.Hint, path) != (tc.file != "") {
				t.Errorf("hint %q: names %s %v, want %v", c.Hint, path, strings.Contains(c.Hint, path), tc.file != "")
			}
		})
	}
}
