package cmd

// The helpers of package cmd's tests: those that run the whole root. A
// test of one command's package uses cmd/cli/clitest instead.

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
)

// testKeyring is an in-memory token store standing in for the OS keyring.
type testKeyring = clitest.Keyring

// isolate points every orgctl directory and variable at a fresh temp dir.
func isolate(t *testing.T) string {
	t.Helper()
	return clitest.Isolate(t)
}

type testIO struct{ out, err bytes.Buffer }

func testFactory(t *testing.T, kr cli.TokenStore, stdin string) (*cli.Factory, *testIO) {
	t.Helper()
	var tio testIO
	f := cli.NewFactory("test")
	f.Families = families.Called
	f.IO = &output.IO{In: strings.NewReader(stdin), Out: &tio.out, Err: &tio.err}
	f.Tokens.Keyring = kr
	f.Tokens.File = credentials.File{Dir: settings.TokenFileDir()}
	return f, &tio
}

func sandboxServer(t *testing.T) (*sandbox.Server, string) {
	t.Helper()
	return sandboxWith(t, sandbox.Options{})
}

// sandboxWith is sandboxServer with options.
func sandboxWith(t *testing.T, opts sandbox.Options) (*sandbox.Server, string) {
	t.Helper()
	return clitest.Sandbox(t, opts)
}

// sandboxEnv isolates the test and points orgctl at a fresh demo sandbox on
// loopback through ORGCTL_BASE_URL and ORGCTL_TOKEN.
func sandboxEnv(t *testing.T) (*sandbox.Server, string) {
	t.Helper()
	return sandboxEnvWith(t, sandbox.Options{})
}

// sandboxEnvWith is sandboxEnv with options.
func sandboxEnvWith(t *testing.T, opts sandbox.Options) (*sandbox.Server, string) {
	t.Helper()
	isolate(t)
	api, u := sandboxWith(t, opts)
	t.Setenv("ORGCTL_BASE_URL", u)
	t.Setenv("ORGCTL_TOKEN", api.AdminToken())
	return api, u
}

// run executes one command line with stdin and returns its output.
func run(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	f, tio := testFactory(t, &testKeyring{}, stdin)
	err = explain(f, execute(context.Background(), f, args, nil))
	// Whatever orgctl told the user must point at commands and flags that exist.
	checkHints(t, strings.Join(args, " ")+" (stderr)", tio.err.String(), args...)
	if err != nil {
		checkHints(t, strings.Join(args, " ")+" (error)", err.Error(), args...)
	}
	return tio.out.String(), tio.err.String(), err
}

// mustRun executes a command line that must succeed.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, err := run(t, "", args...)
	if err != nil {
		t.Fatalf("%v: %v\nstderr: %s", args, err, errOut)
	}
	return out
}

// mustMint is a primary-org token with exactly these scopes.
func mustMint(t *testing.T, api *sandbox.Server, scopes ...string) string {
	t.Helper()
	tok, err := sandboxtest.MintToken(api, scopes...)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
