package cli

import (
	"context"
	"errors"
	"os"
)

// Interrupted is the cause of a run's context cancelled by a signal, so
// that a run which starts processes of its own (one per profile) passes
// them the same signal, once.
type Interrupted struct{ Signal os.Signal }

func (i *Interrupted) Error() string { return "interrupted (" + i.Signal.String() + ")" }

// SignalOf is the signal that cancelled ctx, or nil.
func SignalOf(ctx context.Context) os.Signal {
	var in *Interrupted
	if errors.As(context.Cause(ctx), &in) {
		return in.Signal
	}
	return nil
}
