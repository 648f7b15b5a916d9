package access

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
)

// testFactory is a Factory on stdin, with its output in buffers, every
// orgctl directory in a fresh temp dir, an in-memory keyring and no
// ORGCTL_* settings: nothing it does can reach a network or the user's files.
func testFactory(t *testing.T, stdin string) (*cli.Factory, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	clitest.Isolate(t)
	f, tio := clitest.Factory(t, &clitest.Keyring{}, stdin)
	return f, &tio.Out, &tio.Err
}

// sandboxFactory is testFactory against a fresh demo org on loopback, with
// its admin's token, printing in format. Its budget is large, so that no
// test waits for a window to pass.
func sandboxFactory(t *testing.T, format string) (*cli.Factory, *bytes.Buffer, *bytes.Buffer, *sandbox.Server) {
	t.Helper()
	f, out, errOut := testFactory(t, "")
	api, u := clitest.Sandbox(t, sandbox.Options{Points: 100000})
	t.Setenv("ORGCTL_BASE_URL", u)
	t.Setenv("ORGCTL_TOKEN", api.AdminToken())
	t.Setenv("ORGCTL_OUTPUT", format)
	t.Setenv("ORGCTL_BUDGET_POINTS", "100000")
	return f, out, errOut, api
}

// parse runs a command's flag parsing on args, as the root would.
func parse(t *testing.T, c *cobra.Command, args ...string) error {
	t.Helper()
	c.SetArgs(args)
	c.SetOut(io.Discard)
	c.SetErr(io.Discard)
	c.SilenceUsage, c.SilenceErrors = true, true
	return c.Execute()
}

func isUsage(err error) bool {
	var ue *cli.UsageError
	return errors.As(err, &ue)
}
