package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// NoArgsGroup is the Args check of commands that only group others: a word
// after them is a mistyped subcommand, answered with the nearest names.
func NoArgsGroup(c *cobra.Command, args []string) error {
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
	return UsageErrorf("%s\nRun '%s --help' for the list of commands.", msg, c.CommandPath())
}

// ExactArgs checks the number of positional arguments with a usage error.
func ExactArgs(n int, names string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) != n {
			return UsageErrorf("%s takes %s, got %d argument(s)\nUsage: %s", c.CommandPath(), names, len(args), c.UseLine())
		}
		return nil
	}
}

// MaximumArgs allows at most n positional arguments, with a usage error.
func MaximumArgs(n int, names string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) > n {
			return UsageErrorf("%s takes at most %s, got %d arguments\nUsage: %s", c.CommandPath(), names, len(args), c.UseLine())
		}
		return nil
	}
}
