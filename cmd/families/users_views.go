package families

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// userListView keeps the users that --active and --admin ask for; without
// them it prints the list as received.
func userListView(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
	if !c.Has("active") && !c.Has("admin") {
		return p.Print(data, c.Columns)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return p.Print(data, c.Columns)
	}
	kept := make([]json.RawMessage, 0, len(items))
	for _, it := range items {
		var u struct {
			Active  *bool `json:"active"`
			IsAdmin *bool `json:"is_admin"`
		}
		json.Unmarshal(it, &u)
		if c.Has("active") && (u.Active == nil || *u.Active != c.LocalBool("active")) {
			continue
		}
		if c.Has("admin") && (u.IsAdmin == nil || *u.IsAdmin != c.LocalBool("admin")) {
			continue
		}
		kept = append(kept, it)
	}
	if len(kept) == 0 && p.IO.OutTTY && !p.Opts.Structured() {
		p.IO.Notice("no users match")
		return nil
	}
	b, err := json.Marshal(kept)
	if err != nil {
		return err
	}
	return p.Print(b, c.Columns)
}

// groupsOf names the groups whose members include the user.
func groupsOf(groups []access.Group, userID string) []string {
	var out []string
	for _, g := range groups {
		for _, m := range g.Members {
			if m.ID == userID {
				name := g.Name
				if m.Admin {
					name += " (group admin)"
				}
				out = append(out, name)
				break
			}
		}
	}
	return out
}

// userView is the detail view with the user's groups, from one GET /groups.
func userView(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
	if !terminalView(p) || c.Get == nil {
		return p.Print(data, c.Columns)
	}
	entries, err := output.Entries(data, time.Now())
	if err != nil || entries == nil {
		return p.Print(data, c.Columns)
	}
	var u struct {
		ID string `json:"id"`
	}
	json.Unmarshal(data, &u)
	var groups []access.Group
	raw, err := c.Get("/groups", "Groups > Read")
	if err == nil {
		err = json.Unmarshal(raw, &groups)
	}
	e := output.Entry{Key: "groups"}
	if err != nil {
		p.IO.Warn("could not list the user's groups: %v", cli.FirstLine(err))
		e.Value = "?"
	} else {
		names := groupsOf(groups, u.ID)
		e.Value = "-"
		if len(names) > 0 {
			e.Value = ""
		}
		for _, n := range names {
			e.Sub = append(e.Sub, output.Entry{Key: "-", Value: n})
		}
	}
	out := entries[:0:0]
	for _, en := range entries {
		if en.Key != "groups" { // the API's own, with --include-groups: the list below replaces it
			out = append(out, en)
		}
	}
	return p.PrintEntries(append(out, e))
}

// membersView prints a group's members, one row each.
func membersView(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
	if p.Opts.Structured() {
		return p.Print(data, nil)
	}
	var g struct {
		Members json.RawMessage `json:"members"`
	}
	if err := json.Unmarshal(data, &g); err != nil || len(g.Members) == 0 {
		return p.Print(data, c.Columns)
	}
	if strings.TrimSpace(string(g.Members)) == "[]" {
		if p.IO.ErrTTY {
			p.IO.Notice("group %s has no members", c.Params["groupId"])
		}
		return nil
	}
	return p.Print(g.Members, c.Columns)
}
