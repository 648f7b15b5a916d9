// Package clitest runs commands the way a test of one package needs to:
// on a Factory with in-memory streams and token store, in private XDG
// directories, against the sandbox on loopback, under a root that carries
// the same global flags as the real one (cli.AddGlobalFlags). It is
// imported by tests only.
package clitest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
)

// Isolate points every orgctl directory at a fresh temp dir, which it
// returns, and clears every variable a setting reads, so that nothing in
// the shell that runs the tests (ORGCTL_DEBUG, ORGCTL_TIMEOUT...) changes
// what a command does.
func Isolate(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	for _, s := range settings.All() {
		t.Setenv(s.Env(), "")
	}
	return dir
}

// Keyring is an in-memory token store standing in for the OS keyring.
type Keyring struct {
	mu    sync.Mutex
	Items map[string]string
	Err   error // returned by every call when set
	Calls int
}

func (k *Keyring) Get(p string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.Calls++
	if k.Err != nil {
		return "", k.Err
	}
	t, ok := k.Items[p]
	if !ok {
		return "", credentials.ErrNotFound
	}
	return t, nil
}

func (k *Keyring) Set(p, t string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.Calls++
	if k.Err != nil {
		return k.Err
	}
	if k.Items == nil {
		k.Items = map[string]string{}
	}
	k.Items[p] = t
	return nil
}

func (k *Keyring) Delete(p string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.Calls++
	if k.Err != nil {
		return k.Err
	}
	delete(k.Items, p)
	return nil
}

// IO is what a command wrote.
type IO struct{ Out, Err bytes.Buffer }

// Factory is a Factory on in-memory streams, stdin reading stdin, with kr
// as the keyring and the token files in the isolated state directory.
func Factory(t testing.TB, kr cli.TokenStore, stdin string) (*cli.Factory, *IO) {
	t.Helper()
	var tio IO
	f := cli.NewFactory("test")
	f.IO = &output.IO{In: strings.NewReader(stdin), Out: &tio.Out, Err: &tio.Err}
	f.Tokens.Keyring = kr
	f.Tokens.File = credentials.File{Dir: settings.TokenFileDir()}
	return f, &tio
}

// Sandbox serves a sandbox on loopback for the test.
func Sandbox(t testing.TB, opts sandbox.Options) (*sandbox.Server, string) {
	t.Helper()
	api := sandbox.New(opts)
	hs := httptest.NewServer(api)
	t.Cleanup(hs.Close)
	return api, hs.URL
}

// SandboxEnv isolates the test and points ORGCTL_BASE_URL and
// ORGCTL_TOKEN at a sandbox and its admin token.
func SandboxEnv(t testing.TB, opts sandbox.Options) (*sandbox.Server, string) {
	t.Helper()
	Isolate(t)
	api, u := Sandbox(t, opts)
	t.Setenv("ORGCTL_BASE_URL", u)
	t.Setenv("ORGCTL_TOKEN", api.AdminToken())
	return api, u
}

// Execute runs c, made on f, with args as its command line on f's
// streams, as the root runs it: errors returned rather than printed.
func Execute(f *cli.Factory, c *cobra.Command, args ...string) error {
	c.SetArgs(args)
	c.SetOut(f.IO.Out)
	c.SetErr(f.IO.Err)
	c.SetIn(f.IO.In)
	c.SilenceUsage, c.SilenceErrors = true, true
	return c.ExecuteContext(context.Background())
}

// Sent lists the sandbox's requests as "METHOD /path?query".
func Sent(api *sandbox.Server) []string {
	var out []string
	for _, r := range api.Requests() {
		s := r.Method + " " + r.Path
		if r.Query != "" {
			s += "?" + r.Query
		}
		out = append(out, s)
	}
	return out
}

// Buffered isolates the test and returns a Factory reading stdin, with an
// in-memory keyring and its output in the two buffers returned.
func Buffered(t testing.TB, stdin string) (*cli.Factory, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	Isolate(t)
	f, tio := Factory(t, &Keyring{}, stdin)
	return f, &tio.Out, &tio.Err
}

// SandboxFactory is Buffered against a fresh demo org on loopback, with its
// admin's token, printing in format. Its budget is large, so that no test
// waits for a window to pass.
func SandboxFactory(t testing.TB, format string) (*cli.Factory, *bytes.Buffer, *bytes.Buffer, *sandbox.Server) {
	t.Helper()
	f, out, errOut := Buffered(t, "")
	api, u := Sandbox(t, sandbox.Options{Points: 100000})
	t.Setenv("ORGCTL_BASE_URL", u)
	t.Setenv("ORGCTL_TOKEN", api.AdminToken())
	t.Setenv("ORGCTL_OUTPUT", format)
	t.Setenv("ORGCTL_BUDGET_POINTS", "100000")
	return f, out, errOut, api
}

// Parse runs c on args as the root would, its own output discarded:
// flag parsing, checks, then its run.
func Parse(c *cobra.Command, args ...string) error {
	c.SetArgs(args)
	c.SetOut(io.Discard)
	c.SetErr(io.Discard)
	c.SilenceUsage, c.SilenceErrors = true, true
	return c.Execute()
}

// IsUsage reports whether err is invalid usage or input (exit 2).
func IsUsage(err error) bool {
	var ue *cli.UsageError
	return errors.As(err, &ue)
}

// Root is a root command with the global flags, bound to f's settings as
// the real root binds them, on f's streams, holding cmds.
func Root(f *cli.Factory, cmds ...*cobra.Command) *cobra.Command {
	root := &cobra.Command{Use: "orgctl", SilenceErrors: true, SilenceUsage: true}
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.Err)
	root.SetIn(f.IO.In)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &cli.UsageError{Err: err} })
	cli.AddGlobalFlags(root.PersistentFlags())
	f.Sources.BindFlags(root.PersistentFlags())
	root.AddCommand(cmds...)
	return root
}
