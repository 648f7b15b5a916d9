package familytest

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families"
)

// Root is clitest.Root holding the named families built in full.
func Root(f *cli.Factory, names ...string) *cobra.Command {
	root := clitest.Root(f)
	for _, fm := range families.List() {
		if slices.ContainsFunc(names, fm.IsNamed) {
			root.AddCommand(fm.Group().Command(f))
		}
	}
	if f.Families == nil {
		f.Families = families.Called
	}
	if f.OnChange == nil {
		f.OnChange = engine.ForgetCompletions
	}
	return root
}

// Run runs one command line of a family (its first word) on f, as Main
// runs it: the error explained with the configuration the run read. A
// completion request (__complete FAMILY ...) has cobra's own report of the
// directive discarded, as the root discards it.
func Run(f *cli.Factory, args ...string) error {
	word := args
	if len(word) > 0 && word[0] == cobra.ShellCompRequestCmd {
		word = word[1:]
	}
	if len(word) == 0 {
		return errors.New("familytest.Run: no family named")
	}
	if f.Context == nil {
		f.Context = context.Background()
	}
	root := Root(f, word[0])
	if len(word) < len(args) {
		root.SetErr(io.Discard)
	}
	root.SetArgs(args)
	_, err := root.ExecuteContextC(f.Context)
	return cli.Explain(f.LoadedConfig(), err)
}

// Exec runs one command line of a family on a fresh Factory with stdin,
// as Run does, and returns what it printed and its error.
func Exec(t testing.TB, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	f, tio := clitest.Factory(t, &clitest.Keyring{}, stdin)
	err = Run(f, args...)
	return tio.Out.String(), tio.Err.String(), err
}

// MustExec runs a command line that must succeed and returns its stdout.
func MustExec(t testing.TB, args ...string) string {
	t.Helper()
	out, errOut, err := Exec(t, "", args...)
	if err != nil {
		t.Fatalf("%v: %v\nstderr: %s", args, err, errOut)
	}
	return out
}
