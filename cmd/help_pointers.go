package cmd

import (
	"strings"

	"github.com/spf13/cobra"
)

// topicsOf are the manual's topics about the job c belongs to, for the
// line its help ends with: a command learns where its job is explained
// from what it is (its path) and what it takes (--from, --profiles), so a
// new command that takes --from points at the bulk topic without a word.
func topicsOf(c *cobra.Command) []string {
	var out []string
	add := func(t string) {
		for _, have := range out {
			if have == t {
				return
			}
		}
		out = append(out, t)
	}
	path := strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
	switch path {
	case "export", "plan", "apply":
		add("org-as-code")
	case "permissions report", "permissions access-list", "permissions list-objects", "users offboard":
		add("access-reviews")
	case "resources audit", "resources odbc-check":
		add("resource-changes")
	}
	switch first, _, _ := strings.Cut(path, " "); first {
	case "budget":
		add("budget")
	case "auth", "doctor":
		add("login")
	case "jobs":
		add("bulk")
	}
	if c.Flags().Lookup("from") != nil {
		add("bulk")
	}
	// every list and get takes --profiles too: those need no pointer
	if c.Flags().Lookup("profiles") != nil && c.Name() != "list" && c.Name() != "get" {
		add("spaces")
	}
	return out
}

// seeTopics is the line that ends c's help, naming its topics; "" when it
// has none.
func seeTopics(c *cobra.Command) string {
	ts := topicsOf(c)
	if len(ts) == 0 {
		return ""
	}
	for i, t := range ts {
		ts[i] = "`" + c.Root().Name() + " help " + t + "`"
	}
	return "\nSee " + strings.Join(ts, " and ") + ".\n"
}

// TopicsOf are the topics c's help names, for its man page.
func TopicsOf(c *cobra.Command) []string { return topicsOf(c) }
