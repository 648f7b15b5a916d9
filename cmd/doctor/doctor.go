package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/published"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/fsguard"
)

// Check outcomes. A skipped check does not apply here (the keyring when the
// token comes from elsewhere, the spec on an instance that serves none) and
// does not fail the run.
const (
	checkOK   = "ok"
	checkFail = "fail"
	checkSkip = "skip"
)

// doctorCheck is one line of `orgctl doctor`.
type doctorCheck struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail"`
	// Hint says what to do about a failure.
	Hint string `json:"hint,omitempty"`
}

// maxClockSkew is the largest difference from the server's clock that
// passes: the budget's 60-second window is kept on the local clock.
const maxClockSkew = 30 * time.Second

// doctorProbeTimeout bounds the unauthenticated health probe.
const doctorProbeTimeout = 5 * time.Second

func NewCmd(f *cli.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check the whole setup: config, URL, API version, token, keyring, budget, clock",
		Long: `Check, one line each, whether orgctl can work here, and say what to do about
what fails:

  config    the config file parses and every key and value is one orgctl knows
  base url  the instance answers GET /api/checkHealth (costs no points, sends no token)
  api       the API version the instance's own description gives (GET /api/v2/spec,
            10 points, read at most once a day per login and then taken from
            the cache; the line says which), when it serves one
  token     a token is present, and where it comes from
  login     the token is accepted: one request (GET /users?limit=1, 2 points),
            announced on stderr before it is sent
  keyring   the OS keyring answers (a session bus exists and a read returns in time)
  budget    points used and free in the current window, and any block
  clock     the local clock against the server's Date header

Exit status: 0 when every check passes (or does not apply), 1 otherwise.
-o json prints the checks as a list for CI.`,
		Example: "  orgctl doctor\n  orgctl doctor --profile staging\n  orgctl doctor -o json --jq '.[] | select(.status == \"fail\")'",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			checks := runDoctor(c.Context(), f)
			if err := printDoctor(f, checks); err != nil {
				return err
			}
			for _, ch := range checks {
				if ch.Status == checkFail {
					return &cli.ExitError{Code: cli.ExitFailure}
				}
			}
			return nil
		},
	}
}

// runDoctor runs every check in order; a check whose prerequisite failed
// is skipped with the reason.
func runDoctor(ctx context.Context, f *cli.Factory) []doctorCheck {
	var checks []doctorCheck
	add := func(c doctorCheck) { checks = append(checks, c) }

	cfg, cfgErr := f.Config()
	add(checkConfigFile(cfgErr))
	if cfgErr != nil {
		for _, name := range []string{"base url", "api", "token", "login", "keyring", "budget", "clock"} {
			add(doctorCheck{Name: name, Status: checkSkip, Detail: "needs a readable config"})
		}
		return checks
	}

	base, transport, baseErr := doctorBase(cfg)
	health := probeHealth(ctx, base, transport, baseErr)
	add(health.check)

	var t *cli.Target
	var tokErr error
	if baseErr == nil {
		t, tokErr = cli.ResolveTarget(cfg, f.Tokens, f.Transport)
	} else {
		// The token line is about the token: find it even without a URL.
		var tok, src string
		if tok, src, tokErr = cli.ResolveToken(cfg, f.Tokens); tokErr == nil {
			t = &cli.Target{Token: tok, Source: src}
		}
	}
	switch {
	case !health.reached:
		add(doctorCheck{Name: "api", Status: checkSkip, Detail: "needs a reachable base URL"})
	case tokErr != nil:
		add(doctorCheck{Name: "api", Status: checkSkip, Detail: "needs a token: the description is read per login"})
	default:
		add(checkSpec(ctx, f, cfg, t))
	}
	add(doctorToken(cfg, t, tokErr))
	switch {
	case tokErr != nil:
		add(doctorCheck{Name: "login", Status: checkSkip, Detail: "needs a token"})
	case !health.reached:
		add(doctorCheck{Name: "login", Status: checkSkip, Detail: "needs a reachable base URL"})
	default:
		if !f.Quiet() {
			f.IO.Notice("doctor: checking the token with one request: GET /users?limit=1 (2 points)")
		}
		add(checkLogin(ctx, f, cfg, t))
	}
	add(checkKeyring(cfg, f.Tokens, t))
	if tokErr != nil || baseErr != nil {
		add(doctorCheck{Name: "budget", Status: checkSkip, Detail: "the ledger is kept per host and token: needs both"})
	} else {
		add(checkBudget(cfg, f, t))
	}
	add(health.clock)
	return checks
}

// checkConfigFile reports a config that does not load, and keys or values
// in the file that orgctl would reject or ignore.
func checkConfigFile(loadErr error) doctorCheck {
	c := doctorCheck{Name: "config"}
	path := settings.ConfigPath()
	_, statErr := os.Stat(path)
	noFile := errors.Is(statErr, os.ErrNotExist)
	if loadErr != nil {
		c.Status, c.Detail = checkFail, loadErr.Error()
		// The error says where the value was set; the file is only named
		// when there is one to fix.
		c.Hint = "fix the value where it is set, or see `orgctl config list` (each setting and where it comes from)"
		if !noFile {
			c.Hint = fmt.Sprintf("fix the value where it is set (the file is %s), or see `orgctl config list`", path)
		}
		return c
	}
	if noFile {
		c.Status, c.Detail = checkOK, fmt.Sprintf("no config file at %s: settings come from the environment and defaults", path)
		return c
	}
	doc, err := settings.LoadDoc()
	if err != nil {
		c.Status, c.Detail, c.Hint = checkFail, err.Error(), "fix the file by hand or with `orgctl config set`"
		return c
	}
	// The loader only warns of these; for doctor they are findings.
	if problems := settings.UnknownKeys(doc, families.Called); len(problems) > 0 {
		c.Status, c.Detail = checkFail, strings.Join(problems, "; ")
		c.Hint = "correct or remove them with `orgctl config set KEY VALUE` / `orgctl config unset KEY`"
		return c
	}
	c.Status, c.Detail = checkOK, path+" is valid"
	return c
}

// doctorBase is the instance's URL and the transport that reaches it (the
// in-process one for --sandbox).
func doctorBase(cfg *settings.Config) (string, http.RoundTripper, error) {
	if cfg.Sandbox {
		t, err := cli.SandboxTarget(cfg)
		if err != nil {
			return "", nil, err
		}
		return t.BaseURL, t.Transport, nil
	}
	raw := cfg.BaseURL
	u, err := client.ValidateBaseURL(raw, cfg.InsecureHTTP)
	if err != nil {
		return "", nil, err
	}
	return u.String(), http.DefaultTransport, nil
}

// healthResult is the health probe's line and the clock line it measures.
type healthResult struct {
	check   doctorCheck
	clock   doctorCheck
	reached bool
}

// probeHealth asks GET /api/checkHealth, without the token, and compares
// the answer's Date with the local clock.
func probeHealth(ctx context.Context, base string, rt http.RoundTripper, baseErr error) healthResult {
	r := healthResult{
		check: doctorCheck{Name: "base url"},
		clock: doctorCheck{Name: "clock", Status: checkSkip, Detail: "needs an answer from the server"},
	}
	if baseErr != nil {
		r.check.Status, r.check.Detail = checkFail, baseErr.Error()
		if !strings.Contains(r.check.Detail, "ORGCTL_BASE_URL") {
			r.check.Hint = "set it with `orgctl config set base_url https://YOUR-INSTANCE` or ORGCTL_BASE_URL"
		}
		return r
	}
	sent := time.Now()
	resp, body, err := probe(ctx, rt, base+"/api/checkHealth")
	took := time.Since(sent)
	if err != nil {
		r.check.Status, r.check.Detail = checkFail, fmt.Sprintf("%s unreachable: %v", base, err)
		r.check.Hint = "check the URL (`orgctl config get base_url`), that the instance is up, and the network or proxy between"
		return r
	}
	if resp.StatusCode/100 != 2 {
		r.check.Status, r.check.Detail = checkFail, fmt.Sprintf("%s answered GET /api/checkHealth with HTTP %d: %s", base, resp.StatusCode, firstBodyLine(body))
		r.check.Hint = "check that base_url is the instance's address (without /api/v2), and the instance's status"
		return r
	}
	r.reached = true
	r.check.Status, r.check.Detail = checkOK, fmt.Sprintf("%s is up (GET /api/checkHealth: HTTP %d in %s)", base, resp.StatusCode, took.Round(time.Millisecond))
	r.clock = clockCheck(resp.Header.Get("Date"), sent.Add(took/2))
	return r
}

// clockCheck compares the server's Date (whole seconds) with the local
// time the answer was made, taken as the request's midpoint.
func clockCheck(date string, local time.Time) doctorCheck {
	c := doctorCheck{Name: "clock"}
	if date == "" {
		c.Status, c.Detail = checkSkip, "the server sent no Date header"
		return c
	}
	server, err := http.ParseTime(date)
	if err != nil {
		c.Status, c.Detail = checkSkip, fmt.Sprintf("unreadable Date header %q", date)
		return c
	}
	skew := local.Sub(server).Truncate(time.Second)
	abs := skew
	if abs < 0 {
		abs = -abs
	}
	if abs > maxClockSkew {
		ahead := "ahead of"
		if skew < 0 {
			ahead = "behind"
		}
		c.Status, c.Detail = checkFail, fmt.Sprintf("the local clock is %s %s the server's", abs, ahead)
		c.Hint = "sync the clock (e.g. `timedatectl set-ntp true`): the rate budget's window runs on it"
		return c
	}
	c.Status, c.Detail = checkOK, fmt.Sprintf("within %s of the server's (Date header, 1 s resolution)", maxClockSkew)
	return c
}

// checkSpec says the API version the instance's own description gives
// and what knowing it cost; an instance that serves none is no failure.
func checkSpec(ctx context.Context, f *cli.Factory, cfg *settings.Config, t *cli.Target) doctorCheck {
	c := doctorCheck{Name: "api"}
	cl, err := cli.TargetClient(f, cfg, t)
	var r published.Reading
	if err == nil {
		r, err = cli.ReadPublished(ctx, cl, t)
	}
	switch {
	case err != nil:
		c.Status, c.Detail = checkSkip, err.Error()
	case r.Desc == nil:
		c.Status, c.Detail = checkSkip, cli.PublishedVersion(r, cfg)
	default:
		c.Status, c.Detail = checkOK, "API version "+cli.PublishedVersion(r, cfg)
	}
	return c
}

// probe sends one unauthenticated GET, following no redirect.
func probe(ctx context.Context, rt http.RoundTripper, url string) (*http.Response, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, doctorProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, err
	}
	hc := &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Do(req)
	if err != nil {
		var ue interface{ Unwrap() error }
		if errors.As(err, &ue) && ue.Unwrap() != nil {
			err = ue.Unwrap() // "dial tcp ...: connection refused" without the method and URL again
		}
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp, body, err
}

// firstBodyLine is the start of an error page for one line of doctor's:
// at most 120 characters, cut between characters, without the line end.
func firstBodyLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return s
}

// doctorToken says whether a token is there and where it comes from; only
// its last four characters are shown.
func doctorToken(cfg *settings.Config, t *cli.Target, err error) doctorCheck {
	c := doctorCheck{Name: "token"}
	if err != nil {
		c.Status, c.Detail = checkFail, err.Error()
		if !strings.Contains(c.Detail, "auth login") {
			c.Hint = fmt.Sprintf("log in with `orgctl auth login --profile %s`, or set ORGCTL_TOKEN", cfg.Profile)
		}
		return c
	}
	from := map[string]string{
		cli.SourceEnv: "the ORGCTL_TOKEN variable", cli.SourceKeyring: "the OS keyring",
		cli.SourceFile: "the token file (" + settings.TokenFileDir() + ")", cli.SourceSandbox: "the sandbox",
	}[t.Source]
	c.Status, c.Detail = checkOK, fmt.Sprintf("…%s from %s (profile %s)", cli.Last4(t.Token), from, cfg.Profile)
	return c
}

// checkLogin spends the one 2-point request that proves the token works.
func checkLogin(ctx context.Context, f *cli.Factory, cfg *settings.Config, t *cli.Target) doctorCheck {
	c := doctorCheck{Name: "login"}
	valid, err := cli.VerifyToken(ctx, f, cfg, t)
	switch {
	case err != nil:
		c.Status, c.Detail = checkFail, err.Error()
		c.Hint = "see the error; `orgctl auth status --debug` shows the request"
	case !valid:
		c.Status, c.Detail = checkFail, "the token was rejected (HTTP 401)"
		c.Hint = cli.RejectedTokenAdvice(cfg.Profile)
	default:
		c.Status, c.Detail = checkOK, "the token is accepted (GET /users?limit=1, 2 points)"
	}
	return c
}

// checkKeyring probes the keyring. It fails only when the login is kept
// there; otherwise an unusable keyring is noted and skipped.
func checkKeyring(cfg *settings.Config, stores cli.TokenStores, t *cli.Target) doctorCheck {
	c := doctorCheck{Name: "keyring"}
	p, ok := stores.Keyring.(interface{ Reachable() error })
	if !ok {
		c.Status, c.Detail = checkSkip, "no OS keyring in this build"
		return c
	}
	err := p.Reachable()
	var ke *credentials.KeyringError
	if errors.As(err, &ke) {
		err = ke.Err
	}
	inUse := cfg.TokenStore == cli.SourceKeyring || (t != nil && t.Source == cli.SourceKeyring)
	switch {
	case err == nil:
		c.Status, c.Detail = checkOK, "the OS keyring answers"
	case inUse:
		c.Status, c.Detail = checkFail, fmt.Sprintf("the OS keyring, where this profile's login is kept, does not answer: %v", err)
		c.Hint = "unlock the keyring or start a session bus; or use ORGCTL_TOKEN, or `orgctl auth login --insecure-storage`"
	default:
		from := "the token comes from elsewhere"
		if t != nil {
			from = "the token comes from " + t.Source
		}
		c.Status, c.Detail = checkSkip, fmt.Sprintf("not used (%s); unreachable here: %v", from, err)
	}
	return c
}

// checkBudget reads the ledger without sending anything.
func checkBudget(cfg *settings.Config, f *cli.Factory, t *cli.Target) doctorCheck {
	c := doctorCheck{Name: "budget"}
	l, err := cli.OpenLedger(cfg, t, f.IO)
	var insecure *fsguard.InsecureError
	if errors.As(err, &insecure) {
		c.Status, c.Detail, c.Hint = checkFail, insecure.Path+": it "+insecure.Why, insecure.Fix
		return c
	}
	if err != nil {
		c.Status, c.Detail = checkFail, cli.ExplainStoreError(err).Error()
		c.Hint = "check budget.store (`orgctl config get budget.store`)"
		return c
	}
	st, err := l.Status()
	if err != nil {
		c.Status, c.Detail = checkFail, cli.ExplainStoreError(err).Error()
		c.Hint = "check budget.store (`orgctl config get budget.store`)"
		return c
	}
	if !st.BlockedUntil.IsZero() && time.Now().Before(st.BlockedUntil) {
		c.Status = checkFail
		c.Detail = fmt.Sprintf("blocked until %s (%s store)", st.BlockedUntil.Format(time.RFC3339), st.Store)
		c.Hint = "wait for the block to end; orgctl waits by itself up to --max-wait"
		return c
	}
	c.Status = checkOK
	c.Detail = fmt.Sprintf("%d of %d points used in the last %s, %d free (%s store)", st.Used, st.Points, st.Window, st.Free, st.Store)
	if st.Note != "" {
		c.Detail += "; " + st.Note
	}
	return c
}

// printDoctor writes one line per check, or the list as data for -o json.
func printDoctor(f *cli.Factory, checks []doctorCheck) error {
	cfg, err := f.Config()
	if err == nil {
		p, err := cli.NewPrinter(f.IO, cfg)
		if err != nil {
			return err
		}
		if p.Opts.Structured() {
			b, _ := json.Marshal(checks)
			return p.Print(b, nil)
		}
	}
	on := f.IO.ColorOut
	mark := map[string]string{checkOK: output.Paint(on, output.Green, "✓"), checkFail: output.Paint(on, output.Red, "✗"), checkSkip: "-"}
	width := 0
	for _, c := range checks {
		width = max(width, len(c.Name))
	}
	// On a terminal the text wraps under itself: the mark, the name and
	// two spaces before it.
	indent := 1 + 1 + width + 2
	for _, c := range checks {
		text := c.Detail
		if c.Hint != "" {
			text += "; " + c.Hint
		}
		lines := []string{text}
		if f.IO.Width > indent+20 {
			lines = output.WrapWords(text, f.IO.Width-indent)
		}
		fmt.Fprintf(f.IO.Out, "%s %-*s  %s\n", mark[c.Status], width, c.Name, strings.Join(lines, "\n"+strings.Repeat(" ", indent)))
	}
	return nil
}
