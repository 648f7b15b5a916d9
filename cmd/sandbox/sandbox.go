package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/output/atomicfile"
)

func NewCmd(f *cli.Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "sandbox",
		Short: "Run a built-in, in-memory management API with a demo organization",
		Long: `The sandbox answers like the real management API and enforces its rules: tokens
and scopes, Spaces, the 300-point budget, validation, and the announced resource
rules. Use it to try orgctl and to rehearse scripts without a production org.

Two ways to use it:
  orgctl --sandbox users list     run any command in-process against a persistent
                                  demo org kept in $XDG_STATE_HOME/orgctl/sandbox.json
  orgctl sandbox serve            serve it over HTTP on loopback for other tools

With ORGCTL_SANDBOX_ORG=empty (config key sandbox_org), a new --sandbox org
starts with only its admin instead of the demo data; it applies when the
state is created, so run ` + "`orgctl sandbox reset`" + ` first to switch.`,
		Args: cli.NoArgsGroup,
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	o := &serveOptions{f: f}
	serve := &cobra.Command{
		Use:   "serve",
		Short: "Serve the sandbox API over HTTP until interrupted",
		Long: `Serve the sandbox over HTTP. The first two lines on stdout are shell exports
for ORGCTL_BASE_URL and ORGCTL_TOKEN (an all-scope admin token of the demo org),
so that ` + "`eval \"$(orgctl sandbox serve | head -2)\"`" + ` style setups work.
With --state, the org is loaded from FILE and saved to it after each request
that may change it (before its answer is sent) and again on exit: Ctrl-C,
SIGTERM, or a process killed outright keeps every change answered. --org,
--users, --groups and --folders apply only when FILE does not exist yet.`,
		Example: `  orgctl sandbox serve --addr 127.0.0.1:8080
  orgctl sandbox serve --points 300 --window 6s   # a fast budget for rehearsals
  orgctl sandbox serve --org empty --users 100000 # a large org for load rehearsals
  orgctl sandbox serve --users 5000 --groups 300 --folders 400   # an access review's scale
  orgctl sandbox serve --latency 2s               # slow answers, to interrupt clients mid-request
  orgctl sandbox serve --api-version 2.12         # answer as an instance on the 3.334 release`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			o.seedChanged = c.Flags().Changed("org") || c.Flags().Changed("users") || c.Flags().Changed("groups") || c.Flags().Changed("folders")
			// Main's handler ends the command's context on Ctrl-C or SIGTERM,
			// having recorded which signal it was: a handler of its own
			// here could end the server first, and the run exit 0.
			return serveRun(c.Context(), o)
		},
	}
	serve.Flags().StringVar(&o.addr, "addr", "127.0.0.1:0", "listen on `HOST:PORT` (port 0 picks a free one)")
	serve.Flags().StringVar(&o.state, "state", "", "load the org from and save it to `FILE`")
	serve.Flags().IntVar(&o.points, "points", 300, "budget points per window")
	serve.Flags().DurationVar(&o.window, "window", 60*time.Second, "budget window")
	serve.Flags().DurationVar(&o.block, "block", 60*time.Second, "how long exceeding the budget blocks every call")
	serve.Flags().StringVar(&o.orgName, "org", "demo", "seed the `demo` org or an `empty` one (only its admin and admin token)")
	serve.Flags().IntVar(&o.users, "users", 0, "add `N` synthetic users (user000001@load.example, ...) for load rehearsals")
	serve.Flags().IntVar(&o.groups, "groups", 0, "add `N` synthetic groups (load-group-000, ...), the synthetic users spread over them")
	serve.Flags().IntVar(&o.folders, "folders", 0, "add `N` synthetic app folders, nested ten deep, an app in each; each group gets use on one")
	serve.Flags().DurationVar(&o.latency, "latency", 0, "delay every answer by `DURATION` (the request takes effect at once)")
	serve.Flags().StringVar(&o.apiVersion, "api-version", "4.0", "answer as API `VERSION` 4.0, or 2.12 (the 3.334 release: no 4.0-only operations, parameters or fields, the 2.12 description at /api/v2/spec)")
	var yes bool
	reset := &cobra.Command{
		Use:   "reset",
		Short: "Forget the --sandbox org's changes and start over",
		Long: `Delete the --sandbox org's state file, so the next --sandbox command starts
from a fresh org. Every change made with --sandbox is lost, so reset asks for
confirmation; where stdin is not a terminal it refuses unless --yes is given.`,
		Example: "  orgctl sandbox reset\n  orgctl sandbox reset --yes   # in scripts",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !yes {
				if err := confirmSandboxReset(f); err != nil {
					return err
				}
			}
			if err := os.Remove(cli.SandboxStatePath()); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			if !f.Quiet() {
				f.IO.Success("Reset the --sandbox org: the next --sandbox command starts from a fresh one")
			}
			return nil
		},
	}
	reset.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask for confirmation (required when stdin is not a terminal)")
	c.AddCommand(serve, reset)
	return c
}

// confirmSandboxReset asks on the terminal; without one it refuses, since a script must not wipe
// the org by accident.
func confirmSandboxReset(f *cli.Factory) error {
	if !f.CanPrompt() {
		return cli.Unconfirmed("reset the sandbox", "", "")
	}
	return cli.ConfirmOrCancel(f.Ask(), fmt.Sprintf("Reset the --sandbox org? Every change kept in %s is lost.", cli.SandboxStatePath()))
}

// serveOptions are sandbox serve's flags.
type serveOptions struct {
	f *cli.Factory

	addr, state, orgName   string
	apiVersion             string
	points                 int
	users, groups, folders int
	window, block, latency time.Duration
	// seedChanged: a flag that seeds a new org was given
	seedChanged bool
}

// sandbox checks the flags, before anything is served, and makes the
// server they describe.
func (o *serveOptions) sandbox() (*sandbox.Server, error) {
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil {
		return nil, cli.UsageErrorf("invalid --addr %q: expected HOST:PORT (e.g. 127.0.0.1:8080)", o.addr)
	}
	empty, err := cli.SandboxOrgEmpty(o.orgName)
	if err != nil {
		return nil, cli.UsageErrorf("invalid --org: %v", err)
	}
	for _, n := range []struct {
		flag string
		n    int
	}{{"users", o.users}, {"groups", o.groups}, {"folders", o.folders}} {
		if n.n < 0 {
			return nil, cli.UsageErrorf("invalid --%s %d: expected a count of 0 or more", n.flag, n.n)
		}
	}
	if o.latency < 0 {
		return nil, cli.UsageErrorf("invalid --latency %v: expected a duration of 0 or more", o.latency)
	}
	version, err := sandbox.APIVersionOf(o.apiVersion)
	if err != nil {
		return nil, cli.UsageErrorf("invalid --api-version: %v", err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		o.f.IO.Warn("serving the sandbox on %s: it is reachable from other machines", o.addr)
	}
	srv := sandbox.New(sandbox.Options{Points: o.points, Window: o.window, Block: o.block,
		Empty: empty, Users: o.users, Groups: o.groups, Folders: o.folders, Latency: o.latency, APIVersion: version})
	if o.state == "" {
		return srv, nil
	}
	b, err := os.ReadFile(o.state)
	if errors.Is(err, os.ErrNotExist) {
		return srv, nil
	}
	if err != nil {
		return nil, err
	}
	if err := srv.UnmarshalState(b); err != nil {
		return nil, fmt.Errorf("--state %s: %w", o.state, err)
	}
	if o.seedChanged {
		o.f.IO.Warn("--org, --users, --groups and --folders are ignored: the org is loaded from %s", o.state)
	}
	return srv, nil
}

// stateSaver keeps --state FILE as the sandbox's state: saved after
// each change, before the change's answer goes out, so that no answered
// change is lost however the process ends (Ctrl-C twice, SIGKILL, a
// crash), and once more on exit for the budget window.
type stateSaver struct {
	srv  *sandbox.Server
	path string
	next http.Handler

	mu      sync.Mutex // one write at a time
	changes atomic.Int64
	saved   int64 // changes up to this one are in the file
	warned  bool
	warn    func(format string, args ...any)
}

// ServeHTTP answers r, and saves first when r may have changed the org:
// its answer is held until the file has it.
func (st *stateSaver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		st.next.ServeHTTP(w, r)
		return
	}
	held := &heldAnswer{header: http.Header{}}
	st.next.ServeHTTP(held, r)
	if err := st.save(st.changes.Add(1)); err != nil {
		st.mu.Lock()
		if !st.warned {
			st.warned = true
			st.warn("--state %s: could not save (%v); changes are kept in memory and saved again on exit", st.path, err)
		}
		st.mu.Unlock()
	}
	for k, v := range held.header {
		w.Header()[k] = v
	}
	w.WriteHeader(held.status)
	_, _ = w.Write(held.body.Bytes())
}

// save writes the state unless a save begun after change n already has:
// requests that change the org at once share one write.
func (st *stateSaver) save(n int64) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.saved >= n {
		return nil
	}
	upTo := st.changes.Load()
	if err := st.write(); err != nil {
		return err
	}
	st.saved = upTo
	return nil
}

// write writes the state as it is now; the caller holds mu.
func (st *stateSaver) write() error {
	b, err := st.srv.MarshalState()
	if err != nil {
		return err
	}
	return atomicfile.Write(st.path, b, 0o600)
}

// heldAnswer is an answer kept until the state is saved.
type heldAnswer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (h *heldAnswer) Header() http.Header { return h.header }
func (h *heldAnswer) WriteHeader(code int) {
	if h.status == 0 {
		h.status = code
	}
}
func (h *heldAnswer) Write(b []byte) (int, error) {
	if h.status == 0 {
		h.status = http.StatusOK
	}
	return h.body.Write(b)
}

// serveRun serves the sandbox until ctx is done, then saves its state
// when --state asks for it.
func serveRun(ctx context.Context, o *serveOptions) error {
	f := o.f
	srv, err := o.sandbox()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(f.IO.Out, "export ORGCTL_BASE_URL=http://%s\n", ln.Addr())
	fmt.Fprintf(f.IO.Out, "export ORGCTL_TOKEN=%s\n", srv.AdminToken())
	if fl, ok := f.IO.Out.(interface{ Sync() error }); ok {
		fl.Sync()
	}
	f.IO.Notice("sandbox serving on http://%s (Ctrl-C to stop)", ln.Addr())
	var handler http.Handler = srv
	saver := &stateSaver{srv: srv, path: o.state, next: srv, warn: f.IO.Warn}
	if o.state != "" {
		handler = saver
	}
	hs := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	<-stopped // the requests in flight answered (or 5s passed)
	if o.state == "" {
		return nil
	}
	// Once more for what no change saved (the budget window), after any
	// save a request in flight made.
	saver.mu.Lock()
	defer saver.mu.Unlock()
	return saver.write()
}
