package engine

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/bulkjob"
	"github.com/orgctl/orgctl/cmd/settings"
)

// A command line with --from runs as a job of package bulkjob, which
// sends each row through this engine (bulkjob.Engine).

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
func runBulk(ctx context.Context, f *cli.Factory, op *Placed, c *cobra.Command, args []string, o bulkjob.Options) error {
	base, ro := parseFlags(op, c, args)
	e, err := New(f)
	if err != nil {
		return err
	}
	return bulkjob.Run(ctx, f, e, e.Printer, e.cfg, bulkjob.Command{Op: op, Cmd: c, Base: base, Yes: ro.Yes, DryRun: ro.DryRun, Options: o})
}

// ReadUserFile reads and checks --from whole, its users looked up as a
// command line's are; ok is false without --from.
func ReadUserFile(f *cli.Factory, c *cobra.Command) (uf *UserFile, ok bool, err error) {
	return bulkjob.ReadUserFile(f, c, func() (bulkjob.Engine, *settings.Config, error) {
		e, err := New(f)
		if err != nil {
			return nil, nil, err
		}
		return e, e.cfg, nil
	})
}

// Through sends every later request through cl and hands the caches'
// onChange to the caller.
func (e *Engine) Through(cl *client.Client) (onChange func(family string)) {
	e.client = cl
	onChange, e.onChange = e.onChange, nil
	return onChange
}

// Resolver is the engine's name resolver.
func (e *Engine) Resolver() (*resolve.Resolver, error) { return e.resolver() }

// Send is the send phase of one built call.
func (e *Engine) Send(ctx, mainCtx context.Context, c *Call) (*client.Response, error) {
	return e.sendWith(ctx, mainCtx, c, nil)
}

// Names are the names in in, as the resolve phase finds them.
func (e *Engine) Names(op *Placed, in Input) bulkjob.RowNames {
	return inputNames{op: op, in: in, refs: nameRefs(op, in)}
}

// inputNames are one Input's names, found once.
type inputNames struct {
	op   *Placed
	in   Input
	refs []nameRef
}

func (n inputNames) List() []bulkjob.Name {
	out := make([]bulkjob.Name, len(n.refs))
	for i, r := range n.refs {
		out[i] = bulkjob.Name{Kind: r.Kind, Text: r.Text, Stand: r.stand}
	}
	return out
}

// Fill is the input with its names replaced by ids, or by their stand-ins.
func (n inputNames) Fill(ids map[string]string) Input {
	return substitute(n.in, n.refs, ids)
}

// Refuse is the refusal to delete a built-in object, as a command line gets it.
func (n inputNames) Refuse(found map[string]resolve.Object) error {
	return refuseBuiltin(n.op, n.refs, found)
}

// StandIn is the first stand-in id of kind.
func (e *Engine) StandIn(kind string) string {
	k, _ := kinds.Lookup(kind)
	return standIn(k, 1)
}
