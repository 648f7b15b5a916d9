package engine

import (
	"context"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/resolve"
)

// The Engine is a --from job's Sender: the job runs each row's call
// through the same phases a single command line goes through.

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
