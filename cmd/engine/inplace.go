package engine

import (
	"context"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/engine/bulkjob"
)

// inPlace is a single command line's look before a change the API would
// accept twice without a word (Existence.Already): when it is in place,
// it says so, prints the object as it stands, and sends nothing. A look
// that fails leaves the decision to the write.
func (e *Engine) inPlace(ctx context.Context, c *Call) bool {
	ex := c.Op.Bulk.Exists
	if ex == nil || ex.Already == nil || ex.Check == nil || ex.ListKind == "" || c.Req.RawBody != nil {
		return false
	}
	cl, err := e.apiClient()
	if err != nil {
		return false
	}
	truth := resolve.New(cl)
	if r := e.fetched(ex.ListKind); r != nil {
		truth = r // the group's name was looked up in this very list
	}
	lk := bulkjob.NewLookups(cl, truth, false)
	if _, exists, err := ex.Check(ctx, lk, c); err != nil || !exists {
		return false
	}
	name := c.ArgKey(0)
	listKind, _ := kinds.Lookup(ex.ListKind)
	if objs, err := truth.All(ctx, listKind); err == nil {
		for _, o := range objs {
			if o.ID == c.Req.Params[c.Op.Args.Params[0]] {
				name = o.Key
				if o.Raw != nil {
					e.Printer.Print(o.Raw, c.Columns) // the object as it stands, as the write would answer
				}
				break
			}
		}
	}
	if !e.quiet() {
		e.f.IO.Success("%s", ex.Already(c, name))
	}
	return true
}
