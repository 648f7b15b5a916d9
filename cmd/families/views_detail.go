package families

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// terminalView reports whether a view may print its terminal form: a
// person reads stdout and asked for no particular format (--columns asks
// for the table).
func terminalView(p *output.Printer) bool {
	return p.IO.OutTTY && !p.Opts.Structured() && len(p.Opts.Columns) == 0
}

// groupView shows a group as key/value lines on a terminal, every field
// the API returned, with the members listed by email, group admins marked;
// piped and in other formats the answer prints as any other.
func groupView(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
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
