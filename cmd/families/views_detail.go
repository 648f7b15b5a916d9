package families

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/output"
)

// terminalView reports whether a view may print its terminal form: a
// person reads stdout and asked for no particular format (--columns asks
// for the table).
func terminalView(p *output.Printer) bool {
	return p.IO.OutTTY && !p.Opts.Structured() && len(p.Opts.Columns) == 0
}

// detailView shows one object as key/value lines on a terminal, every
// field the API returned; piped and in other formats the answer prints as
// any other.
func detailView(p *output.Printer, c *engine.Call, data json.RawMessage) error {
	if !terminalView(p) {
		return p.Print(data, c.Columns)
	}
	entries, err := output.Entries(data, time.Now())
	if err != nil || entries == nil {
		return p.Print(data, c.Columns)
	}
	return p.PrintEntries(entries)
}

// groupView is detailView with the members listed by email, group admins
// marked.
func groupView(p *output.Printer, c *engine.Call, data json.RawMessage) error {
	if !terminalView(p) {
		return p.Print(data, c.Columns)
	}
	entries, err := output.Entries(data, time.Now())
	if err != nil || entries == nil {
		return p.Print(data, c.Columns)
	}
	var g struct {
		Members []struct {
			ID    string `json:"id"`
			Email string `json:"email"`
			Admin bool   `json:"is_group_admin"`
		} `json:"members"`
	}
	json.Unmarshal(data, &g)
	for i, e := range entries {
		if e.Key != "members" || len(g.Members) == 0 {
			continue
		}
		e.Value, e.Sub = fmt.Sprint(len(g.Members)), nil
		for _, m := range g.Members {
			who := m.Email
			if who == "" {
				who = m.ID
			}
			if m.Admin {
				who += " (group admin)"
			}
			e.Sub = append(e.Sub, output.Entry{Key: "-", Value: who})
		}
		entries[i] = e
	}
	return p.PrintEntries(entries)
}

// accessEntry is one subject of an access list as the API describes it.
type accessEntry struct {
	Subject struct {
		ID   json.RawMessage `json:"id"`
		Type string          `json:"type"`
	} `json:"subject"`
	Sources struct {
		Direct    bool `json:"direct"`
		Universal bool `json:"universal"`
		Groups    []struct {
			ID json.RawMessage `json:"id"`
		} `json:"groups"`
		Inherited *struct {
			ID   json.RawMessage `json:"id"`
			Type string          `json:"type"`
		} `json:"inherited"`
	} `json:"sources"`
	AccessLevel string `json:"accessLevel"`
}

var accessListColumns = []output.Column{
	{Header: "SUBJECT", Field: "type"},
	{Header: "ID", Field: "id"},
	{Header: "NAME", Field: "name"},
	{Header: "ACCESS", Field: "access"},
	{Header: "WHY", Field: "why"},
}

// accessListView names every group and user with access and says why it
// has it, one row each. Names come from one list of groups and one of
// users at most (none for a kind not in the answer, or when the name cache
// has it); the raw answer is left alone for -o json, yaml, --jq and
// --template.
func accessListView(p *output.Printer, c *engine.Call, data json.RawMessage) error {
	if p.Opts.Structured() {
		return p.Print(data, nil)
	}
	var lists map[string][]accessEntry
	if err := json.Unmarshal(data, &lists); err != nil {
		return p.Print(data, nil)
	}
	kinds := []struct{ key, kind string }{{"group", "groups"}, {"user", "users"}, {"userInvite", ""}}
	need := map[string]bool{}
	for _, k := range kinds {
		for _, e := range lists[k.key] {
			if k.kind != "" {
				need[k.kind] = true
			}
			if len(e.Sources.Groups) > 0 {
				need["groups"] = true
			}
		}
	}
	names := map[string]map[string]string{}
	for _, kind := range []string{"groups", "users"} {
		if !need[kind] || c.Names == nil {
			continue
		}
		objs, err := c.Names(kind)
		if err != nil {
			p.IO.Warn("could not look up %s names, showing ids: %v", engine.SingularKind(kind), firstLine(err.Error()))
			continue
		}
		names[kind] = map[string]string{}
		for _, o := range objs {
			names[kind][o.ID] = o.Describe()
		}
	}
	var rows []map[string]any
	for _, k := range kinds {
		for _, e := range lists[k.key] {
			id := engine.IDText(e.Subject.ID)
			rows = append(rows, map[string]any{
				"type":   k.key,
				"id":     id,
				"name":   names[k.kind][id],
				"access": e.AccessLevel,
				"why":    accessReason(e, k.key, names["groups"]),
			})
		}
	}
	if len(rows) == 0 {
		if p.IO.ErrTTY {
			p.IO.Notice("no group or user has access to %s %s", c.Params["objectType"], c.Params["objectId"])
		}
		return nil
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	return p.Print(b, accessListColumns)
}

// accessReason says in words where one subject's access comes from.
func accessReason(e accessEntry, subject string, groups map[string]string) string {
	var why []string
	s := e.Sources
	if s.Direct {
		why = append(why, "granted directly")
	}
	if s.Universal {
		if subject == "group" {
			why = append(why, "the group's universal access level")
		} else {
			why = append(why, "a group's universal access level")
		}
	}
	if len(s.Groups) > 0 {
		var gs []string
		for _, g := range s.Groups {
			id := engine.IDText(g.ID)
			if n := groups[id]; n != "" {
				gs = append(gs, n)
			} else {
				gs = append(gs, "group "+id)
			}
		}
		why = append(why, "member of "+strings.Join(gs, ", "))
	}
	if s.Inherited != nil && len(s.Inherited.ID) > 0 {
		why = append(why, fmt.Sprintf("inherited from %s %s", s.Inherited.Type, engine.IDText(s.Inherited.ID)))
	}
	if len(why) == 0 {
		return "-"
	}
	return strings.Join(why, "; ")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
