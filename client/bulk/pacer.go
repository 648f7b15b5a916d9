package bulk

import (
	"context"
	"time"

	"github.com/orgctl/orgctl/client"
)

// Pacer paces a job's requests through Next like any other, with two
// differences: once Stop, or the context a request was detached from
// (Detach), is done, the request stops waiting for budget (one that has
// its budget is sent and answered), and the moment a request gets
// its budget the function WithLeaving put in its context is called, so the
// journal hears that the row's change is leaving.
type Pacer struct {
	Next client.Pacer
	Stop context.Context
}

type leavingKey struct{}

type stopKey struct{}

// Detach is ctx for a row's requests: a request that has left runs to its
// answer though ctx ends, since the journal must learn what it did, but a
// wait for budget ends with ctx (Pacer), so that a row of a stopped job,
// or of one whose journal cannot be written, sends nothing more.
func Detach(ctx context.Context) context.Context {
	return context.WithValue(context.WithoutCancel(ctx), stopKey{}, ctx)
}

// WithLeaving returns ctx carrying fn, which Pacer calls when a request sent
// with that context gets its budget.
// An error from fn keeps the request from leaving.
func WithLeaving(ctx context.Context, fn func() error) context.Context {
	return context.WithValue(ctx, leavingKey{}, fn)
}

// Acquire waits for the request's budget unless Stop ends the wait first.
func (p *Pacer) Acquire(ctx context.Context, path string) (client.Ticket, error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(p.Stop, cancel)()
	if stop, ok := ctx.Value(stopKey{}).(context.Context); ok {
		defer context.AfterFunc(stop, cancel)()
	}
	t, err := p.Next.Acquire(wctx, path)
	if err == nil {
		if leaving, ok := ctx.Value(leavingKey{}).(func() error); ok {
			if lerr := leaving(); lerr != nil {
				t.Done(false) // never sent: its points are refunded
				return nil, lerr
			}
		}
	}
	return t, err
}

// Blocked passes a 429's block on.
func (p *Pacer) Blocked(d time.Duration) error { return p.Next.Blocked(d) }
