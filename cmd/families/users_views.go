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

// keepUser is users list's --active and --admin: the users they ask for,
// or nil when neither is given (the list as the API sent it).
func keepUser(c *opdef.Call) func(item json.RawMessage) bool {
	if !c.Has("active") && !c.Has("admin") {
		return nil
	}
	return func(item json.RawMessage) bool {
		var u struct {
			Active  *bool `json:"active"`
			IsAdmin *bool `json:"is_admin"`
		}
		json.Unmarshal(item, &u)
		if c.Has("active") && (u.Active == nil || *u.Active != c.LocalBool("active")) {
			return false
		}
		return !c.Has("admin") || (u.IsAdmin != nil && *u.IsAdmin == c.LocalBool("admin"))
	}
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
	if !terminalView(p) || c.Run.Get == nil {
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
	raw, err := c.Run.Get("/groups", "Groups > Read")
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
			p.IO.Notice("group %s has no members", c.Req.Params["groupId"])
		}
		return nil
	}
	return p.Print(g.Members, c.Columns)
}
