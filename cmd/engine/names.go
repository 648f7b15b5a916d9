package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/engine/send"
)

// resolveNames looks every ref up (the resolve phase): the object found
// for each, by the ref's stand-in.
func (e *Engine) resolveNames(ctx context.Context, refs []send.Ref) (map[string]resolve.Object, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	r, err := e.resolver()
	if err != nil {
		return nil, err
	}
	found := make(map[string]resolve.Object, len(refs))
	for _, ref := range refs {
		o, err := r.One(ctx, ref.Kind, ref.Text)
		if err != nil {
			return nil, send.Suggest(err, r, ref)
		}
		found[ref.Stand] = o
	}
	return found, nil
}

// findGuards finds each guard's object by its id (one list of its kind,
// shared with the names' lookups): found with those objects added by the
// guards' keys, for Refuse. A list that cannot be read fails the call, as
// nothing then says the object is not one the org cannot do without.
func (e *Engine) findGuards(ctx context.Context, guards []send.Ref, found map[string]resolve.Object) (map[string]resolve.Object, error) {
	if len(guards) == 0 {
		return found, nil
	}
	r, err := e.resolver()
	if err != nil {
		return nil, err
	}
	out := make(map[string]resolve.Object, len(found)+len(guards))
	for k, o := range found {
		out[k] = o
	}
	for _, g := range guards {
		o, ok, err := r.ByID(ctx, g.Kind, g.Text)
		if err != nil {
			return nil, err
		}
		if ok {
			out[g.Stand] = o
		}
	}
	return out, nil
}

// foundIDs maps each stand-in to the id of the object found for it.
func foundIDs(found map[string]resolve.Object) map[string]string {
	ids := make(map[string]string, len(found))
	for stand, o := range found {
		ids[stand] = o.ID
	}
	return ids
}

// resolver is the engine's one Resolver, on the paced client.
func (e *Engine) resolver() (*resolve.Resolver, error) {
	if e.names != nil {
		return e.names, nil
	}
	cl, err := e.apiClient()
	if err != nil {
		return nil, err
	}
	e.names = resolve.New(cl)
	e.names.Store = send.NameStore(e.cfg, &e.cached)
	return e.names, nil
}

// fetched is the engine's resolver when it read kind's list from the API
// in this process (never from the cache, which may be older than a change
// made elsewhere); nil otherwise.
func (e *Engine) fetched(kind string) *resolve.Resolver {
	if e.names == nil {
		return nil
	}
	k, _ := kinds.Lookup(kind)
	known := e.names.Known(k) // may load the cache, which marks it
	if _, cached := e.cached.Load(kind); cached || len(known) == 0 {
		return nil
	}
	return e.names
}

// foundObject is the object a lookup answered when the call reads that
// very object, by the id the lookup found, with nothing else asked of the
// read (no query, no follow-up): printing it saves the second request.
func foundObject(c *Call, refs []send.Ref, found map[string]resolve.Object) json.RawMessage {
	op := c.Op
	if op.Method != http.MethodGet || op.List || len(refs) != 1 || len(c.Reads) > 0 || len(c.Then) > 0 || c.Pages.All ||
		len(c.Req.Query) > 0 || c.Req.Path != "" {
		return nil
	}
	ref := refs[0]
	if ref.Flag != "" || ref.Arg != len(op.Args.Params)-1 || ref.Kind.Get == "" || !send.SamePath(ref.Kind.Get, op.Path) {
		return nil
	}
	return found[ref.Stand].Raw
}

// dryRunNames lists the lookups first (names, and the lists that say
// whether an object given by id is one the org cannot do without), then
// the call with each name where its id will go.
func (e *Engine) dryRunNames(c *Call, found send.Found) error {
	refs := found.Refs
	r, err := e.resolver()
	if err != nil {
		r = resolve.New(nil) // not logged in: still list what would be looked up
	}
	names := map[string]string{}
	var plan []planned
	seen := map[string]bool{}
	for _, ref := range refs {
		names[ref.Stand] = "<" + ref.Text + ">"
		p := r.Plan(ref.Kind, ref.Text)
		if p == nil {
			continue
		}
		key := p.Request.Path + "?" + p.Request.Query.Encode()
		if seen[key] {
			continue
		}
		seen[key] = true
		plan = append(plan, planned{req: p.Request, note: "looks up " + lookupWhat(p, refs)})
	}
	for _, g := range found.Guards {
		req := r.ListRequest(g.Kind)
		if req == nil || seen[req.Path+"?"] {
			continue
		}
		seen[req.Path+"?"] = true
		plan = append(plan, planned{req: *req, note: fmt.Sprintf("looks up %s %s in the list of all %s: refused if the org cannot do without it",
			kinds.Singular(g.Kind.Name), g.Text, g.Kind.Name)})
	}
	return e.printPlan(callPlan(plan, c), names)
}

// lookupWhat names what one lookup request finds: one name, or a kind's list.
func lookupWhat(p *resolve.Planned, refs []send.Ref) string {
	if len(p.Request.Query) > 0 {
		return fmt.Sprintf("%s %q", kinds.Singular(p.Kind), p.Name)
	}
	var ns []string
	for _, r := range refs {
		if r.Kind.Name == p.Kind {
			ns = append(ns, fmt.Sprintf("%q", r.Text))
		}
	}
	return fmt.Sprintf("%s %s (one list of all %s)", kinds.Singular(p.Kind), strings.Join(ns, ", "), p.Kind)
}
