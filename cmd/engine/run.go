package engine

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/bulkjob"
	"github.com/orgctl/orgctl/cmd/engine/send"
)

// This file is one call of an operation, phase by phase, top to bottom:
// run takes the command line to a built call (parse, build), and
// Engine.call takes a built call to its printed answer (check, dry run,
// confirm, resolve, bind, send, print). With --from the same phases run
// once per row of a file, as one job (runBulk).

// run is one command line of the op: parse and build, then the built
// call's phases (Engine.call).
func run(op *Placed, f *cli.Factory, c *cobra.Command, args []string) error {
	// parse: the command line into an Input of raw text, or a --from job.
	args, err := mergeArgFlags(op, c, args)
	if err != nil {
		return err
	}
	if op.Writes() {
		if bo, ok, err := bulkjob.ReadFlags(op, c); ok || err != nil {
			if err != nil {
				return err
			}
			return runBulk(c.Context(), f, op, c, args, bo)
		}
	}
	in, o := parseFlags(op, c, args)
	if o.JSON, err = JSONSelection(c); err != nil {
		return err
	}
	if err := in.LoadBody(f.IO.In); err != nil {
		return err
	}
	// build: once, with a stand-in id for each name, so that bad input
	// exits 2 before any lookup is sent; resolve binds the ids in later.
	names := send.Find(op, in)
	call, err := op.Build(names.Fill(nil), f.IO.In)
	if err != nil {
		return err
	}
	call.Given.Typed = in.Values
	e, err := New(f)
	if err != nil {
		return err
	}
	return e.call(c.Context(), call, names, o)
}

// Run is the phases of a built call that names nothing by name.
func (e *Engine) Run(ctx context.Context, c *Call, o RunOptions) error {
	return e.call(ctx, c, send.Found{}, o)
}

// call is a built call's phases, in order; names are the names its
// stand-ins stand for. Whatever can refuse the call does so before anything
// is sent, and whatever can refuse it without lookups does so before them.
func (e *Engine) call(ctx context.Context, c *Call, names send.Found, o RunOptions) error {
	refs := names.Refs
	// check: --columns, and deleting what the org cannot do without, as far
	// as the names alone tell.
	if err := e.checkColumns(c); err != nil {
		return err
	}
	if err := names.Refuse(nil); err != nil {
		return err
	}
	for _, w := range c.Warnings {
		e.f.IO.Warn("%s", w)
	}
	for _, n := range c.Notices {
		e.f.IO.Notice("notice: %s", n)
	}
	// version: what the instance's own API description lacks is refused
	// before any lookup; the description is read only for what is newer
	// than every instance orgctl supports has.
	note, err := e.gate(ctx, c)
	if err != nil {
		return err
	}
	// dry run: the lookups and requests it would send, with their cost.
	if c.Op.Mutating() && o.DryRun {
		if note != "" {
			e.f.IO.Notice("%s", note)
		}
		if len(refs) > 0 || len(names.Guards) > 0 {
			return e.dryRunNames(c, names)
		}
		return e.DryRun(c)
	}
	// confirm, part one: refuse an unattended run before any lookup.
	if c.Op.Destructive() && !o.Yes {
		if err := e.refuseUnattended(c, refs); err != nil {
			return err
		}
	}
	// resolve and bind: names to ids, put where the stand-ins are.
	found, err := e.resolveNames(ctx, refs)
	if err != nil {
		return err
	}
	guarded, err := e.findGuards(ctx, names.Guards, found)
	if err != nil {
		return err
	}
	if err := names.Refuse(guarded); err != nil {
		return err
	}
	c.Bind(foundIDs(found))
	if raw := foundObject(c, refs, found); raw != nil {
		// The lookup's answer holds the object the get would read again.
		return e.print(ctx, c, &client.Response{Data: raw}, o)
	}
	labelArgs(c, refs, found)
	// check, part two: no write takes the last admin (or the token's own
	// user) out of office.
	if err := e.refuseLockout(ctx, c, found); err != nil {
		return err
	}
	// confirm, part two: ask, naming the objects found.
	if c.Op.Destructive() && !o.Yes {
		if err := e.confirm(ctx, c); err != nil {
			return err
		}
	}
	if e.inPlace(ctx, c) {
		return nil // the change is there already: nothing sent
	}
	// send, then print.
	resp, err := e.sender().Send(ctx, nil, c, e.renderer(c, o))
	if err != nil {
		return err
	}
	if e.namesShown(c) {
		e.seedNames(c, resp)
		e.Printer.NameOf = e.nameOf(ctx)
	}
	if err := e.print(ctx, c, resp, o); err != nil {
		return err
	}
	if c.Op.Writes() && !e.quiet() {
		e.f.IO.Success("%s", doneLine(c, resp.Data))
	}
	return nil
}

// labelArgs names the arguments that were looked up by the objects found,
// for the prompt and the line that confirms the write.
func labelArgs(c *Call, refs []send.Ref, found map[string]resolve.Object) {
	for _, ref := range refs {
		if ref.Flag == "" {
			if c.Labels.Args == nil {
				c.Labels.Args = map[int]string{}
			}
			c.Labels.Args[ref.Arg] = found[ref.Stand].Describe()
			c.SetArgKey(ref.Arg, found[ref.Stand].Key)
		}
	}
}
