package access

import (
	"bytes"
	"errors"
	"io"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/output"
	"github.com/spf13/cobra"
)

// testFactory is a Factory on stdin, with its output in buffers, every
// orgctl directory in a fresh temp dir and no ORGCTL_* settings: nothing
// it does can reach a network or the user's files.
func testFactory(t *testing.T, stdin string) (*cli.Factory, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	for _, k := range []string{"ORGCTL_TOKEN", "ORGCTL_BASE_URL", "ORGCTL_PROFILE", "ORGCTL_TOKEN_STORE", "ORGCTL_OUTPUT"} {
		t.Setenv(k, "")
	}
	var out, errOut bytes.Buffer
	f := cli.NewFactory("test")
	f.IO = &output.IO{In: io.NopCloser(strings.NewReader(stdin)), Out: &out, Err: &errOut}
	return f, &out, &errOut
}

// sandboxFactory is testFactory against a fresh demo org on loopback, with
// its admin's token, printing in format. Its budget is large, so that no
// test waits for a window to pass.
func sandboxFactory(t *testing.T, format string) (*cli.Factory, *bytes.Buffer, *bytes.Buffer, *sandbox.Server) {
	t.Helper()
	f, out, errOut := testFactory(t, "")
	api := sandbox.New(sandbox.Options{Points: 100000})
	hs := httptest.NewServer(api)
	t.Cleanup(hs.Close)
	t.Setenv("ORGCTL_BASE_URL", hs.URL)
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
