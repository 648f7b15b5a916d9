package engine

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/bulkjob"
	"github.com/orgctl/orgctl/cmd/settings"
)

// A command line with --from runs as a job of package bulkjob, which
// finds names and sends each row through package send, as the engine does.

// MaxParallel bounds --parallel.
const MaxParallel = bulkjob.MaxParallel

// UserFile is a --from file whose rows each name a user.
type UserFile = bulkjob.UserFile

var (
	// ResumeLine is this process's command line, quoted for a shell.
	ResumeLine = bulkjob.ResumeLine
	// AddUserFileFlags gives a hand-written command --from FILE and the
	// file options of declared commands.
	AddUserFileFlags = bulkjob.AddUserFileFlags
)

// runBulk is a command's run with --from: check every row, then run them.
// The job sends through package send, as the engine does; it never calls
// back into the engine.
func runBulk(ctx context.Context, f *cli.Factory, op *Placed, c *cobra.Command, args []string, o bulkjob.Options) error {
	base, ro := parseFlags(op, c, args)
	cfg, p, err := cli.PrinterFor(f)
	if err != nil {
		return err
	}
	return bulkjob.Run(ctx, f, p, cfg, bulkjob.Command{Op: op, Cmd: c, Base: base, Yes: ro.Yes, DryRun: ro.DryRun, Options: o})
}

// ReadUserFile reads and checks --from whole, its users looked up as a
// command line's are; ok is false without --from.
func ReadUserFile(f *cli.Factory, c *cobra.Command) (uf *UserFile, ok bool, err error) {
	return bulkjob.ReadUserFile(f, c, func() (*settings.Config, error) {
		cfg, _, err := cli.PrinterFor(f)
		return cfg, err
	})
}
