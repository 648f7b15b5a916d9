package access

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// ListColumns: SUBJECT identifies the row and stays whole; VIA is
// shortened by its structure; ACTIVE marks disabled users as the report
// does (last, so that the tab-separated columns before it stay where
// scripts read them).
var ListColumns = []output.Column{
	{Header: "SUBJECT", Field: "subject", Key: true},
	{Header: "KIND", Field: "kind"},
	{Header: "LEVEL", Field: "level"},
	{Header: "VIA", Field: "via", Shorten: access.ShortVia},
	{Header: "ACTIVE", Field: "active"},
}

// namer turns the ids of an access answer into names, listing each kind at
// most once; an id whose kind cannot be listed stays an id, with a warning.
type namer struct {
	p      *output.Printer
	c      *opdef.Call
	names  map[string]map[string]string
	active map[string]string // user id -> "true" or "false", as listed
	listed bool              // the users list was read for their states
}

func (n *namer) Name(kind, id string) string {
	if n.names == nil {
		n.names = map[string]map[string]string{}
	}
	m, ok := n.names[kind]
	if !ok {
		m = map[string]string{}
		n.names[kind] = m
		if n.c.Run.Names != nil {
			objs, err := n.c.Run.Names(kind)
			if err != nil {
				n.p.IO.Warn("could not look up %s names, showing ids: %v", kinds.Singular(kind), cli.FirstLine(err))
			}
			for _, o := range objs {
				m[o.ID] = o.Key
				if kind == "users" && o.Fields != nil {
					n.setActive(o.ID, o.Fields["active"])
				}
			}
		}
	}
	if s := m[id]; s != "" {
		return s
	}
	return id
}

func (n *namer) setActive(id string, v any) {
	if n.active == nil {
		n.active = map[string]string{}
	}
	if b, ok := v.(bool); ok {
		n.active[id] = fmt.Sprint(b)
	}
}

// Active is whether a user can sign in, as the users list says: "true",
// "false", or "" when it cannot be read. Names from the completion cache
// carry no state: then the list is read once more.
func (n *namer) Active(id string) string {
	n.Name("users", id)
	if _, ok := n.active[id]; !ok && !n.listed && n.c.Run.Get != nil {
		n.listed = true
		n.readActive()
	}
	return n.active[id]
}

// readActive reads the users list once for each user's state.
func (n *namer) readActive() {
	k := kinds.Of("users")
	data, err := n.c.Run.Get(k.List, k.Scope)
	if err != nil {
		return
	}
	var users []struct {
		ID     json.RawMessage `json:"id"`
		Active any             `json:"active"`
	}
	if json.Unmarshal(data, &users) == nil {
		for _, u := range users {
			n.setActive(jsonscan.AsText(u.ID), u.Active)
		}
	}
}

// ListView prints one row per subject that reaches the object: every
// group, and the users with grants of their own (--expand: every user and
// invite, through whichever group). The raw answer is left alone for -o
// json, yaml, --jq and --template.
func ListView(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
	if p.Opts.Structured() {
		return p.Print(data, nil)
	}
	lists, err := access.DecodeAccessList(data)
	if err != nil {
		return p.Print(data, nil)
	}
	expand := c.LocalBool("expand")
	n := &namer{p: p, c: c}
	groupEntries := map[string]access.Entry{}
	for _, e := range lists["group"] {
		groupEntries[e.SubjectID()] = e
	}
	var rows []map[string]any
	add := func(subject, kind string, e access.Entry) {
		rows = append(rows, map[string]any{"subject": subject, "kind": kind, "level": e.AccessLevel,
			"via": access.Via(e, groupEntries, n)})
	}
	for _, e := range lists["group"] {
		add(n.Name("groups", e.SubjectID()), "group", e)
	}
	var users []map[string]any
	for _, e := range lists["user"] {
		if expand || access.OwnGrant(e) {
			id := e.SubjectID()
			add(n.Name("users", id), "user", e)
			rows[len(rows)-1]["active"] = n.Active(id)
			users = append(users, rows[len(rows)-1])
		}
	}
	sort.SliceStable(users, func(i, j int) bool { return users[i]["subject"].(string) < users[j]["subject"].(string) })
	copy(rows[len(rows)-len(users):], users)
	if expand {
		for _, e := range lists["userInvite"] {
			// an invite by its email, as people know it; its id when unlisted
			id := e.SubjectID()
			subject := n.Name("invites", id)
			if subject == id {
				subject = "invite " + id
			}
			add(subject, "invite", e)
		}
	}
	if len(rows) == 0 {
		if p.IO.ErrTTY {
			p.IO.Notice("no group or user has access to %s %s", c.Req.Params["objectType"], c.Req.Params["objectId"])
		}
		return nil
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	return p.Print(b, ListColumns)
}
