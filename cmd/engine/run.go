package engine

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
)

// This file is one call of an operation, phase by phase, top to bottom:
// Op.run parses and builds, Engine.runInput resolves names, and
// Engine.runCall confirms, sends and prints.

// run is one command line of the op, phase by phase: parse, build (with
// stand-ins for names, so bad input exits 2 before any lookup is sent),
// then the engine's resolve, send and print (runInput). With --from the
// same phases run once per row of a file, as one job (runBulk).
func run(op *Op, f *cli.Factory, c *cobra.Command, args []string) error {
	args, err := mergeArgFlags(op, c, args)
	if err != nil {
		return err
	}
	if op.Writes() {
		if bo, ok, err := bulkFlags(op, c); ok || err != nil {
			if err != nil {
				return err
			}
			return runBulk(c.Context(), f, op, c, args, bo)
		}
	}
	in, opts := parseFlags(op, c, args)
	if opts.JSON, err = JSONSelection(c); err != nil {
		return err
	}
	if err := in.LoadBody(f.IO.In); err != nil {
		return err
	}
	refs := nameRefs(op, in)
	checked, err := op.Build(substitute(in, refs, func(r nameRef) string { return r.stand }), f.IO.In)
	if err != nil {
		return err
	}
	e, err := New(f)
	if err != nil {
		return err
	}
	return e.runInput(c.Context(), op, in, refs, checked, opts)
}

// runInput resolves the names of an Input that build has already checked
// with stand-ins, builds the call again with the ids, and runs it. A dry
// run resolves nothing: it lists the lookups it would send.
func (e *Engine) runInput(ctx context.Context, op *Op, in Input, refs []nameRef, checked *Call, o RunOptions) error {
	if len(refs) == 0 {
		return e.Run(ctx, checked, o)
	}
	if err := e.checkColumns(checked); err != nil {
		return err // before any lookup is spent
	}
	if err := refuseBuiltin(op, refs, nil); err != nil {
		return err
	}
	if op.Mutating() && o.DryRun {
		return e.dryRunNames(checked, refs)
	}
	if op.Destructive && !o.Yes {
		// Refuse an unattended run before any lookup is spent on it.
		for _, ref := range refs {
			if ref.Flag == "" {
				if checked.ArgLabels == nil {
					checked.ArgLabels = map[int]string{}
				}
				checked.ArgLabels[ref.Arg] = ref.Text
			}
		}
		if err := e.refuseUnattended(checked); err != nil {
			return err
		}
	}
	typed := in.Values
	in, found, err := e.resolveNames(ctx, in, refs)
	if err != nil {
		return err
	}
	if err := refuseBuiltin(op, refs, found); err != nil {
		return err
	}
	call, err := op.Build(in, nil)
	if err != nil {
		return err
	}
	call.Typed = typed
	if raw := foundObject(call, refs, found); raw != nil {
		// The lookup's answer holds the object the get would read again.
		call.Names = e.namesOf(ctx)
		call.Get = e.getter(ctx)
		return e.print(call, &client.Response{Data: raw}, o)
	}
	for _, ref := range refs {
		if ref.Flag == "" {
			if call.ArgLabels == nil {
				call.ArgLabels = map[int]string{}
			}
			call.ArgLabels[ref.Arg] = found[ref.stand].Describe()
			call.SetArgKey(ref.Arg, found[ref.stand].Key)
		}
	}
	return e.runCall(ctx, call, o, true)
}

// Run confirms, then dry-runs or sends the call, then prints the answer.
func (e *Engine) Run(ctx context.Context, c *Call, o RunOptions) error {
	return e.runCall(ctx, c, o, false)
}

// runCall is the rest of a built call's phases: the warnings, --columns
// (unless the build with stand-ins had them checked before any lookup),
// the dry run or the confirmation, the send and the print.
func (e *Engine) runCall(ctx context.Context, c *Call, o RunOptions, columnsChecked bool) error {
	for _, w := range c.Warnings {
		e.f.IO.Warn("%s", w)
	}
	if !columnsChecked {
		if err := e.checkColumns(c); err != nil {
			return err
		}
	}
	if c.Op.Mutating() && o.DryRun {
		return e.DryRun(c)
	}
	if c.Op.Destructive && !o.Yes {
		if err := e.confirm(ctx, c); err != nil {
			return err
		}
	}
	if e.inPlace(ctx, c) {
		return nil
	}
	resp, err := e.sendWith(ctx, nil, c, e.renderer(c, o))
	if err != nil {
		return err
	}
	c.Names = e.namesOf(ctx)
	if e.namesShown(c) {
		e.seedNames(c, resp)
		e.Printer.NameOf = e.nameOf(ctx)
	}
	c.Get = e.getter(ctx)
	if err := e.print(c, resp, o); err != nil {
		return err
	}
	if c.Op.Writes() && !e.quiet() {
		e.f.IO.Success("%s", doneLine(c, resp.Data))
	}
	return nil
}
