package cmd

// The helpers of package cmd's tests: those that run the whole root. A
// test of one command's package uses cmd/cli/clitest instead.

import (
	"context"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/families"
)

// testKeyring is an in-memory token store standing in for the OS keyring.
type testKeyring = clitest.Keyring

// isolate points every orgctl directory and variable at a fresh temp dir.
func isolate(t *testing.T) string {
	t.Helper()
	return clitest.Isolate(t)
}

// testFactory is clitest's Factory with the families' budget names, as
// Main makes it.
func testFactory(t *testing.T, kr cli.TokenStore, stdin string) (*cli.Factory, *clitest.IO) {
	t.Helper()
	f, tio := clitest.Factory(t, kr, stdin)
	f.Families = families.Called
	return f, tio
}

// sandboxEnv isolates the test and points orgctl at a fresh demo sandbox on
// loopback through ORGCTL_BASE_URL and ORGCTL_TOKEN.
func sandboxEnv(t *testing.T) (*sandbox.Server, string) {
	t.Helper()
	return clitest.SandboxEnv(t, sandbox.Options{})
}

// run executes one command line with stdin, as Main does, and returns its
// output.
func run(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	f, tio := testFactory(t, &testKeyring{}, stdin)
	err = explain(f, execute(context.Background(), f, args, nil))
	// Whatever orgctl told the user must point at commands and flags that exist.
	checkHints(t, strings.Join(args, " ")+" (stderr)", tio.Err.String(), args...)
	if err != nil {
		checkHints(t, strings.Join(args, " ")+" (error)", err.Error(), args...)
	}
	return tio.Out.String(), tio.Err.String(), err
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
