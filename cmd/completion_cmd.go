package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/completions"
	"github.com/orgctl/orgctl/output"
)

// wireCompletions adds what op declarations cannot: profile names and the
// flags of hand-written commands.
func wireCompletions(f *cli.Factory, root *cobra.Command) {
	root.RegisterFlagCompletionFunc("profile", func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, n := range settings.ProfileNames() {
			if strings.HasPrefix(n, toComplete) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	})
	for _, fk := range engine.CommandFlagKinds {
		c, _, err := root.Find(strings.Fields(fk.Path))
		if err != nil || c == root || c.Flags().Lookup(fk.Flag) == nil {
			continue
		}
		k := fk.Kind
		c.RegisterFlagCompletionFunc(fk.Flag, func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return engine.CompleteKind(f, k, toComplete)
		})
	}
}

// isCompletionRequest says whether args ask cobra for completions, whose
// stderr chatter must not reach the user's command line.
func isCompletionRequest(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// loadNow is the one-line way to load the script in the current shell.
func loadNow(shell string) string {
	switch shell {
	case "bash":
		return "source <(orgctl completion bash)"
	case "zsh":
		return "source <(orgctl completion zsh)"
	case "fish":
		return "orgctl completion fish | source"
	case "powershell":
		return "orgctl completion powershell | Out-String | Invoke-Expression"
	}
	return ""
}

func newCompletionCmd(root *cobra.Command) *cobra.Command {
	c := &cobra.Command{
		Use:   "completion <shell>",
		Short: "Print the shell completion script for bash, zsh, fish or powershell",
		Long: `Print the script that makes your shell complete orgctl's commands, flags and
arguments, including names from your organization with the id beside each
(user emails, group names, folder paths such as app:/Finance, app names, ...;
ids when you start typing one), profile names, --columns names and --output
formats.

Names come from the API at most once a minute per profile (completion.cache_ttl,
ORGCTL_COMPLETION_CACHE_TTL) and are cached under $XDG_CACHE_HOME/orgctl/completions
(ids, names and labels only). A completion never waits for the rate budget and gives up
after a second (completion.timeout, ORGCTL_COMPLETION_TIMEOUT); it then offers
the last list it saw, or nothing.

Run 'orgctl completion <shell> --help' for how to install it in that shell.`,
		Example: "  source <(orgctl completion bash)\n  orgctl completion zsh > ~/.zsh/completions/_orgctl\n  orgctl completion fish | source",
		Args:    cli.NoArgsGroup,
		RunE:    func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	for _, sh := range completions.Shells {
		sh := sh
		c.AddCommand(&cobra.Command{
			Use:                   sh,
			Short:                 fmt.Sprintf("Print the %s completion script", sh),
			Long:                  fmt.Sprintf("Print the %s completion script (with descriptions).\n\n%s", sh, completions.Install(root.Name(), sh)),
			Example:               "  " + loadNow(sh),
			Args:                  cobra.NoArgs,
			DisableFlagsInUseLine: true,
			ValidArgsFunction:     cobra.NoFileCompletions,
			RunE: func(c *cobra.Command, _ []string) error {
				return completions.Script(c.OutOrStdout(), root, sh)
			},
		})
	}
	return c
}

// outputFormats are the values -o completes: the printer's formats.
func outputFormats() []string { return output.Formats }

// completeColumns completes --columns with the command's column names
// (engine.ColumnsAnnotation), one more after each comma already typed.
func completeColumns(c *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	names := strings.Split(c.Annotations[engine.ColumnsAnnotation], ",")
	if len(names) == 0 || names[0] == "" {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	done, last := "", toComplete
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		done, last = toComplete[:i+1], toComplete[i+1:]
	}
	taken := map[string]bool{}
	for _, n := range strings.Split(done, ",") {
		taken[strings.TrimSpace(n)] = true
	}
	var out []string
	for _, n := range names {
		if !taken[n] && strings.HasPrefix(n, last) {
			out = append(out, done+n)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
