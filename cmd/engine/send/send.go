package send

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output/jsonscan"
	"github.com/orgctl/orgctl/ratebudget"
)

// Sender sends calls through one client.
type Sender struct {
	Client *client.Client
	// OnChange, when set, is told the budget family of every successful
	// mutation (the completion and name caches forget it).
	OnChange func(family string)
	// Notice, when set, says on stderr that a list has more pages than
	// one request fetched; nil keeps quiet.
	Notice func(format string, a ...any)
}

// Send is the send phase of one built call: its reads and Merge, the main
// request (all pages with --all), then its follow-ups. mainCtx, when set,
// is the main request's own context, so a bulk job can tell the moment
// that request gets its budget. render, when set, starts the print phase's
// work on a single answer while it arrives.
func (s Sender) Send(ctx, mainCtx context.Context, c *opdef.Call, render func(*jsonscan.Reader) any) (*client.Response, error) {
	if mainCtx == nil {
		mainCtx = ctx
	}
	cl := s.Client
	if len(c.Reads) > 0 {
		current := make([]json.RawMessage, 0, len(c.Reads))
		for _, r := range c.Reads {
			resp, err := cl.Do(ctx, r)
			if err != nil {
				return nil, err
			}
			current = append(current, resp.Data)
		}
		if c.Op.Hooks.Merge != nil {
			if err := c.Op.Hooks.Merge(c, current); err != nil {
				return nil, err
			}
		}
	}
	req := c.Request()
	req.Render = render
	var resp *client.Response
	var err error
	if c.Pages.All {
		var parts []json.RawMessage
		err = cl.Pages(mainCtx, req, func(r *client.Response) error {
			parts = append(parts, r.Data)
			resp = r
			return nil
		})
		if err == nil && len(parts) > 1 {
			resp.Data, err = client.JoinArrays(parts)
		}
	} else {
		resp, err = cl.Do(mainCtx, req)
		if err == nil && c.Op.List && resp.HasMore && s.Notice != nil {
			flag := c.Pages.Flag
			if flag == "" {
				flag = "--all"
			}
			s.Notice("more results available: add %s to fetch every page", flag)
		}
	}
	if err == nil && c.Op.List && isEmptyList(resp.Data) {
		if lower, ok := foldedQuery(c, req); ok {
			resp, err = cl.Do(mainCtx, lower) // one user at most: one page
		}
	}
	if err != nil {
		return nil, err
	}
	for _, next := range c.Then {
		r2, err := next.Build(resp.Data)
		var r2resp *client.Response
		if err == nil {
			r2resp, err = cl.Do(ctx, r2)
		}
		if err == nil && !next.PrintMain {
			resp = r2resp
		}
		if err != nil {
			s.changed(c)
			return nil, fmt.Errorf("%s %s succeeded, but the follow-up request (%s) failed: %w", req.Method, req.Path, next.What, err)
		}
	}
	s.changed(c)
	return resp, nil
}

// changed tells the caches about a successful mutation.
func (s Sender) changed(c *opdef.Call) {
	if c.Op.Mutating() && s.OnChange != nil {
		s.OnChange(ratebudget.Family(c.Op.Path))
	}
}

// foldedQuery is req with its Fold fields' values in lower case, when any
// has a capital letter.
func foldedQuery(c *opdef.Call, req client.Request) (client.Request, bool) {
	changed := false
	q := url.Values{}
	for k, v := range req.Query {
		q[k] = append([]string(nil), v...)
	}
	for _, fd := range c.Op.Fields {
		if !fd.Fold || fd.In != opdef.InQuery {
			continue
		}
		for i, v := range q[fd.Key] {
			if l := strings.ToLower(v); l != v {
				q[fd.Key][i], changed = l, true
			}
		}
	}
	req.Query = q
	return req, changed
}

func isEmptyList(data json.RawMessage) bool {
	return strings.TrimSpace(string(data)) == "[]"
}
