package clitest

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/cli"
)

// ParseOptions makes a command with newCmd on f, its run only keeping the
// options it is handed, and parses args on it (Parse). With wantErr, the
// parse must fail as invalid usage saying wantErr, before the run: it
// returns nil. Without, the run must be reached: it returns the options.
// A failure is the test's: an unexpected error stops it.
func ParseOptions[O any](t testing.TB, f *cli.Factory, newCmd func(*cli.Factory, func(*O) error) *cobra.Command, wantErr string, args ...string) *O {
	t.Helper()
	var got *O
	err := Parse(newCmd(f, func(o *O) error { got = o; return nil }), args...)
	if wantErr != "" {
		if !IsUsage(err) || !strings.Contains(err.Error(), wantErr) || got != nil {
			t.Errorf("%v: err %v, ran %v; want a usage error with %q and no run", args, err, got != nil, wantErr)
		}
		return nil
	}
	if err != nil || got == nil {
		t.Fatalf("%v: %v", args, err)
	}
	return got
}
