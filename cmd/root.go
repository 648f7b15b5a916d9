package cmd

import (
	"errors"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/orgctl/orgctl/output"
)

// NewRootCmd builds the whole command tree.
func NewRootCmd(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "orgctl <command> <subcommand> [flags]",
		Short: "Administer an organization through its management API",
		Long: `orgctl administers an organization on the platform through its management API:
users, groups, folders, apps, permissions, resources, spaces and more.

It paces itself under the API's 300-points-per-minute budget (shared by every
orgctl process on the machine), never prints your token, and gives scripts
stable output and exit codes.

Try it without an org:  orgctl --sandbox users list`,
		Version:       f.Version,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          noArgsGroup,
		RunE:          func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	root.SetVersionTemplate("orgctl {{.Version}}\n")
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.Err)
	root.SetIn(f.IO.In)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErrorf("%v\nRun '%s --help' for usage.", err, c.CommandPath())
	})

	pf := root.PersistentFlags()
	pf.String("profile", "", "use the named profile from the config file (env ORGCTL_PROFILE)")
	pf.StringP("output", "o", "table", "output format: table, json or yaml")
	pf.String("jq", "", "filter JSON output with a jq `EXPRESSION`")
	pf.String("template", "", "format output with a Go text/template `TEMPLATE`")
	pf.Bool("debug", false, "log each HTTP request (method, URL, status, timing) to stderr; the token is never shown")
	pf.Bool("sandbox", false, "run against the built-in local demo org instead of a real one")
	pf.Duration("max-wait", 10*time.Minute, "give up (exit 5) when the rate budget would make a request wait longer than this")
	pf.Duration("timeout", 30*time.Second, "time limit for each HTTP attempt")
	pf.Bool("insecure-http", false, "allow plain http:// to a non-loopback host (the token is sent unencrypted)")
	root.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return output.Formats, cobra.ShellCompDirectiveNoFileComp
	})
	// Viper binds every global flag to its config key and ORGCTL_<KEY>.
	pf.VisitAll(func(fl *pflag.Flag) {
		key := strings.ReplaceAll(fl.Name, "-", "_")
		f.v.BindPFlag(key, fl)
	})

	root.AddGroup(&cobra.Group{ID: "org", Title: "Organization commands:"},
		&cobra.Group{ID: "tool", Title: "orgctl commands:"})
	for _, g := range families() {
		c := g.command(f)
		c.GroupID = "org"
		root.AddCommand(c)
	}
	for _, c := range []*cobra.Command{newAuthCmd(f), newBudgetCmd(f), newSandboxCmd(f), newAPICmd(f)} {
		c.GroupID = "tool"
		root.AddCommand(c)
	}
	root.SetHelpCommandGroupID("tool")
	root.SetCompletionCommandGroupID("tool")
	// orgctl's own completion command replaces cobra's: install help per shell.
	root.CompletionOptions.DisableDefaultCmd = true
	completion := newCompletionCmd(root)
	completion.GroupID = "tool"
	root.AddCommand(completion)
	wireCompletions(f, root)
	if f.OnChange == nil {
		f.OnChange = forgetCompletions
	}
	return root
}

// registry holds every API family's declaration; each family file adds
// itself in init, so adding a family touches no shared file.
var registry []func() Group

func register(g func() Group) { registry = append(registry, g) }

// families returns the declarations sorted by name, for a stable help page.
func families() []Group {
	gs := make([]Group, 0, len(registry))
	for _, g := range registry {
		gs = append(gs, g())
	}
	sort.Slice(gs, func(i, j int) bool { return gs[i].Name < gs[j].Name })
	return gs
}

// Execute runs the command line and returns a typed error for main.
func Execute(f *Factory, args []string) error {
	root := NewRootCmd(f)
	root.SetArgs(args)
	if isCompletionRequest(args) {
		root.SetErr(io.Discard) // cobra reports the directive there; the shell shows stderr
	}
	_, err := root.ExecuteC()
	if err == nil {
		return nil
	}
	var ue *UsageError
	if !errors.As(err, &ue) && isCobraUsageError(err) {
		return &UsageError{err}
	}
	return err
}

// isCobraUsageError recognises the argument errors cobra returns untyped.
func isCobraUsageError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "required flag", "accepts ", "requires at least", "invalid argument", "flag needs an argument"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
