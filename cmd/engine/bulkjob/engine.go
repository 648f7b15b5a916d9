package bulkjob

import (
	"context"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
)

// Engine is all a --from job asks of the engine that runs one command: it
// sends each row's call and finds its names as a single command line's
// are sent and found. cmd/engine implements it.
type Engine interface {
	Sender
	Namer
}

// Sender sends for the job.
type Sender interface {
	// Through sends every later request, name lookups included, through
	// cl (the job's connection, whose pacer stops waiting when the job is
	// interrupted), and hands over the callback that tells the caches of a
	// change: the job calls it itself, not once per row.
	Through(cl *client.Client) (onChange func(family string))
	// Resolver looks names up as every command does.
	Resolver() (*resolve.Resolver, error)
	// Send sends one built call: its reads, the request, its follow-ups.
	// mainCtx is the main request's own context, so the job hears when
	// that request gets its budget (bulk.WithLeaving).
	Send(ctx, mainCtx context.Context, c *opdef.Call) (*client.Response, error)
}

// Namer finds the values of an Input that name an object instead of
// giving its id, and puts ids in their place.
type Namer interface {
	// Names finds the names in in, once per row and pass: the row's ids
	// are filled in and its refusal found from what it returns.
	Names(op *opdef.Placed, in opdef.Input) RowNames
	// StandIn is a syntactically valid id of kind, never a real object's.
	StandIn(kind string) string
}

// RowNames are the names of one Input, as the engine found them.
type RowNames interface {
	// List is each name, with a stand-in id unique in the input.
	List() []Name
	// Fill is the input with each name replaced by ids[its stand-in], or
	// by the stand-in itself when ids has none (to check the rest of the
	// input before any lookup).
	Fill(ids map[string]string) opdef.Input
	// Refuse is the error for a call that deletes an object the org
	// cannot do without, known from its name or, in found (by stand-in),
	// from the object a lookup listed; nil when there is none.
	Refuse(found map[string]resolve.Object) error
}

// Name is one value of an Input that names an object.
type Name struct {
	Kind  resolve.Kind
	Text  string
	Stand string // the stand-in id Fill puts in its place
}
