package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// noArgsGroup is the Args check of commands that only group others: a word
// after them is a mistyped subcommand, answered with the nearest names.
func noArgsGroup(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2
	}
	if s := c.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
	}
	return usageErrorf("%s\nRun '%s --help' for the list of commands.", msg, c.CommandPath())
}

// flagError rewrites pflag's errors in plain words and suggests the
// nearest flag for an unknown one.
func flagError(c *cobra.Command, err error) error {
	if listed, ok := bareJSONFlag(c, err); ok {
		return listed
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		if near := nearestFlag(c, name); near != "" {
			msg += fmt.Sprintf("\n\nDid you mean --%s?", near)
		}
	}
	return usageErrorf("%s\nRun '%s --help' for usage.", msg, c.CommandPath())
}

// nearestFlag is the flag of c closest to name by edit distance, when it is
// close enough to be a typo.
func nearestFlag(c *cobra.Command, name string) string {
	best, bestD := "", 0
	visit := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := editDistance(name, f.Name)
		if best == "" || d < bestD || (d == bestD && f.Name < best) {
			best, bestD = f.Name, d
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	if best == "" || bestD > max(1, len(name)*2/5) {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
