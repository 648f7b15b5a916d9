package cmd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/output/atomicfile"
)

// sandboxBaseURL is the in-process sandbox's address: a .localhost name is
// loopback by definition, and nothing listens on it; requests never leave
// the process.
const sandboxBaseURL = "http://sandbox.localhost"

func sandboxStatePath() string { return filepath.Join(stateDir(), "sandbox.json") }

func sandboxOptions(cfg *Config) sandbox.Options {
	var o sandbox.Options
	if cfg != nil {
		o.Points = cfg.v.GetInt("sandbox_points")
		o.Window = cfg.v.GetDuration("sandbox_window")
		o.Block = cfg.v.GetDuration("sandbox_block")
	}
	return o
}

// sandboxTarget points a command at the persistent local demo org.
func sandboxTarget(cfg *Config) (*apiTarget, error) {
	if err := os.MkdirAll(stateDir(), 0o700); err != nil {
		return nil, err
	}
	ft := sandbox.NewFileTransport(sandboxStatePath(), sandboxOptions(cfg))
	tok, err := ft.AdminToken()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return &apiTarget{BaseURL: sandboxBaseURL, Token: tok, Source: sourceSandbox, Transport: ft}, nil
}

func newSandboxCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "sandbox",
		Short: "Run a built-in, in-memory management API with a demo organization",
		Long: `The sandbox answers like the real management API and enforces its rules: tokens
and scopes, Spaces, the 300-point budget, validation, and the announced resource
rules. Use it to try orgctl and to rehearse scripts without a production org.

Two ways to use it:
  orgctl --sandbox users list     run any command in-process against a persistent
                                  demo org kept in $XDG_STATE_HOME/orgctl/sandbox.json
  orgctl sandbox serve            serve it over HTTP on loopback for other tools`,
		Args: noArgsGroup,
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	var addr, state string
	var points int
	var window, block time.Duration
	serve := &cobra.Command{
		Use:   "serve",
		Short: "Serve the sandbox API over HTTP until interrupted",
		Long: `Serve the sandbox over HTTP. The first two lines on stdout are shell exports
for ORGCTL_BASE_URL and ORGCTL_TOKEN (an all-scope admin token of the demo org),
so that ` + "`eval \"$(orgctl sandbox serve | head -2)\"`" + ` style setups work.
With --state, the org is loaded from and saved to FILE.`,
		Example: `  orgctl sandbox serve --addr 127.0.0.1:8080
  orgctl sandbox serve --points 300 --window 6s   # a fast budget for rehearsals`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				return usageErrorf("invalid --addr %q: expected HOST:PORT (e.g. 127.0.0.1:8080)", addr)
			}
			if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
				f.IO.Warn("serving the sandbox on %s: it is reachable from other machines", addr)
			}
			srv := sandbox.New(sandbox.Options{Points: points, Window: window, Block: block})
			if state != "" {
				if b, err := os.ReadFile(state); err == nil {
					if err := srv.UnmarshalState(b); err != nil {
						return fmt.Errorf("--state %s: %w", state, err)
					}
				} else if !errors.Is(err, os.ErrNotExist) {
					return err
				}
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			fmt.Fprintf(f.IO.Out, "export ORGCTL_BASE_URL=http://%s\n", ln.Addr())
			fmt.Fprintf(f.IO.Out, "export ORGCTL_TOKEN=%s\n", srv.AdminToken())
			if fl, ok := f.IO.Out.(interface{ Sync() error }); ok {
				fl.Sync()
			}
			f.IO.Notice("sandbox serving on http://%s (Ctrl-C to stop)", ln.Addr())
			hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			go func() {
				<-ctx.Done()
				sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				hs.Shutdown(sctx)
			}()
			if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			if state != "" {
				b, err := srv.MarshalState()
				if err != nil {
					return err
				}
				if err := atomicfile.Write(state, b, 0o600); err != nil {
					return err
				}
			}
			return nil
		},
	}
	serve.Flags().StringVar(&addr, "addr", "127.0.0.1:0", "listen on `HOST:PORT` (port 0 picks a free one)")
	serve.Flags().StringVar(&state, "state", "", "load the org from and save it to `FILE`")
	serve.Flags().IntVar(&points, "points", 300, "budget points per window")
	serve.Flags().DurationVar(&window, "window", 60*time.Second, "budget window")
	serve.Flags().DurationVar(&block, "block", 60*time.Second, "how long exceeding the budget blocks every call")
	reset := &cobra.Command{
		Use:   "reset",
		Short: "Forget the --sandbox demo org's changes and start over",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := os.Remove(sandboxStatePath()); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			f.IO.Notice("sandbox reset: the next --sandbox command starts from the demo org")
			return nil
		},
	}
	c.AddCommand(serve, reset)
	return c
}
