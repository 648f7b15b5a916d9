package cmd

// The helpers of package cmd's tests: those that run the whole root. A
// test of one command's package uses cmd/cli/clitest instead.

import (
	"bytes"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox"
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
