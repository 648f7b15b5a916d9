package orgfiles

import (
	"fmt"
	"sort"
	"strings"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/orgcode"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/send"
)

// hrGroup is one row's group as the HR file names it.
type hrGroup struct {
	email, value string
	line         int
}

// refuseBuiltinGroups refuses, before any request, a group column naming
// a group every org has: who is an admin is no department's business, and
// every user is in All Users.
func refuseBuiltinGroups(rows []hrGroup, from, col string) error {
	var lines []string
	for _, r := range rows {
		for _, b := range kinds.BuiltinGroups {
			if r.value != "" && strings.EqualFold(r.value, b) {
				lines = append(lines, fmt.Sprintf("%s:%d: %s: %q is a built-in group, which users sync never governs (admins are made with `orgctl users update USER --admin`)", from, r.line, col, r.value))
			}
		}
	}
	if len(lines) > 0 {
		return cli.UsageErrorf("%s\n(nothing was sent)", strings.Join(lines, "\n"))
	}
	return nil
}

// placeholderGroups are one document per group the rows name, so that
// the read of the org lists the groups; governGroups replaces them.
func placeholderGroups(rows []hrGroup) []*orgcode.Doc {
	seen := map[string]bool{}
	var docs []*orgcode.Doc
	for _, r := range rows {
		if r.value == "" || seen[r.value] {
			continue
		}
		seen[r.value] = true
		docs = append(docs, &orgcode.Doc{Kind: orgcode.KindNamed("groups"), Key: r.value, Fields: map[string]any{}})
	}
	return docs
}

// governGroups makes the group documents of a sync by a group column: each
// group some row names (matched as names match everywhere: exactly, else
// the one group differing only in case) gets its live members, less the
// file's users whose row names another group or none, plus those whose row
// names it (a new member joins as a member, an existing one keeps their
// role). Every other live group gets a document that changes nothing, so
// it is neither listed as unmanaged nor pruned.
func governGroups(files *orgcode.Files, live *orgcode.Live, rows []hrGroup, from, col string) error {
	byName := map[string]*orgcode.Doc{}
	var names []string
	for _, d := range live.Docs["groups"] {
		byName[d.Key] = d
		names = append(names, d.Key)
	}
	of := map[string]*orgcode.Doc{} // a row's value -> the live group it names
	var probs []string
	reported := map[string]bool{}
	for _, r := range rows {
		if r.value == "" {
			continue
		}
		if _, done := of[r.value]; done || reported[r.value] {
			continue
		}
		g, why := groupNamed(byName, names, r.value)
		if why != "" {
			reported[r.value] = true
			probs = append(probs, fmt.Sprintf("%s:%d: %s: %s", from, r.line, col, why))
			continue
		}
		of[r.value] = g
	}
	if len(probs) > 0 {
		return cli.UsageErrorf("%s\n(the groups were read; nothing was written)", strings.Join(probs, "\n"))
	}
	governed := map[string]map[string]any{} // live group -> its members as the file wants them
	firstLine := map[string]int{}
	for _, g := range of {
		members := map[string]any{}
		if m, ok := g.Fields["members"].(map[string]any); ok {
			for email, role := range m {
				members[strings.ToLower(email)] = role
			}
		}
		governed[g.Key] = members
	}
	for _, r := range rows {
		email := strings.ToLower(r.email)
		var want *orgcode.Doc
		if r.value != "" {
			want = of[r.value]
		}
		for key, members := range governed {
			if want != nil && want.Key == key {
				if _, in := members[email]; !in {
					members[email] = "member"
				}
				if firstLine[key] == 0 {
					firstLine[key] = r.line
				}
				continue
			}
			delete(members, email)
		}
	}
	k := orgcode.KindNamed("groups")
	docs := make([]*orgcode.Doc, 0, len(live.Docs["groups"]))
	for _, d := range live.Docs["groups"] {
		if members, ok := governed[d.Key]; ok {
			docs = append(docs, &orgcode.Doc{Kind: k, Key: d.Key, Fields: map[string]any{"members": members}, File: from, Line: firstLine[d.Key]})
			continue
		}
		docs = append(docs, &orgcode.Doc{Kind: k, Key: d.Key, Fields: map[string]any{}, File: from})
	}
	sort.SliceStable(docs, func(i, j int) bool { return docs[i].Key < docs[j].Key })
	files.Docs["groups"] = docs
	return nil
}

// groupNamed is the live group a value names, or why it names none.
func groupNamed(byName map[string]*orgcode.Doc, names []string, value string) (*orgcode.Doc, string) {
	g := byName[value]
	if g == nil {
		var folded []*orgcode.Doc
		for _, n := range names {
			if strings.EqualFold(n, value) {
				folded = append(folded, byName[n])
			}
		}
		switch len(folded) {
		case 0:
			msg := fmt.Sprintf("no group named %q", value)
			if near := send.NearNames(kinds.Of("groups"), value, names); len(near) > 0 {
				msg += "; did you mean " + strings.Join(near, " or ") + "?"
			}
			return nil, msg + " (create it first: `orgctl groups create --name NAME`)"
		case 1:
			g = folded[0]
		default:
			var ns []string
			for _, d := range folded {
				ns = append(ns, fmt.Sprintf("%q", d.Key))
			}
			return nil, fmt.Sprintf("%q names %d groups but for case (%s): name one exactly", value, len(folded), strings.Join(ns, ", "))
		}
	}
	if g.Builtin != "" {
		return nil, fmt.Sprintf("%s, which users sync never governs", g.Builtin)
	}
	return g, ""
}
