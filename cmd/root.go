package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/orgctl/orgctl/cmd/api"
	"github.com/orgctl/orgctl/cmd/auth"
	"github.com/orgctl/orgctl/cmd/budget"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/config"
	"github.com/orgctl/orgctl/cmd/doctor"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/jobs"
	"github.com/orgctl/orgctl/cmd/orgfiles"
	"github.com/orgctl/orgctl/cmd/sandbox"
	"github.com/orgctl/orgctl/cmd/version"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/lazy"
)

// allFamilies asks newRoot for every family and tool in full: no command
// line's first word is "*".
const allFamilies = "*"

// newRoot builds the root command with the family (or tool) named by word
// in full, every one for allFamilies. The others are stubs with a name and
// a summary, which is all the root's help and cobra's lookup need:
// building every family's ~1,900 flags for a run that uses a few is most
// of a start-up's cost.
func newRoot(f *cli.Factory, word string) *cobra.Command {
	root := &cobra.Command{
		Use:   "orgctl <command> <subcommand> [flags]",
		Short: "Administer an organization through its management API",
		Long: `orgctl administers an organization on the platform through its management API:
users, groups, folders, apps, permissions, resources, spaces and more.

It paces itself under the API's 300-points-per-minute budget (shared by every
orgctl process on the machine), never prints your token, and gives scripts
stable output and exit codes.

Try it without an org:  orgctl --sandbox users list`,
		SilenceErrors: true,
		SilenceUsage:  true,
		// --version is the root's own flag rather than cobra's, whose
		// "orgctl X" output would need a text/template parsed on every
		// --version. Like cobra's, it ignores any words after it.
		Args: func(c *cobra.Command, args []string) error {
			if v, _ := c.Flags().GetBool("version"); v {
				return nil
			}
			return cli.NoArgsGroup(c, args)
		},
		RunE: func(c *cobra.Command, _ []string) error {
			if v, _ := c.Flags().GetBool("version"); v {
				_, err := io.WriteString(c.OutOrStdout(), version.Get().String())
				return err
			}
			return c.Help()
		},
	}
	root.Flags().BoolP("version", "v", false, "version for orgctl")
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.Err)
	root.SetIn(f.IO.In)
	root.SetFlagErrorFunc(flagError)

	pf := root.PersistentFlags()
	cli.AddGlobalFlags(pf)
	root.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return outputFormats(), cobra.ShellCompDirectiveNoFileComp
	})
	root.RegisterFlagCompletionFunc("columns", completeColumns)
	f.Sources.BindFlags(pf)

	root.SetUsageFunc(usageWithTopics)
	root.SetHelpFunc(helpFitting(f.IO.Width))
	if f.OnChange == nil {
		f.OnChange = engine.ForgetCompletions
	}
	root.AddGroup(&cobra.Group{ID: "org", Title: "Organization commands:"},
		&cobra.Group{ID: "tool", Title: "orgctl commands:"})
	for _, fm := range families.List() {
		var c *cobra.Command
		if word == allFamilies || fm.IsNamed(word) {
			c = fm.Group().Command(f)
		} else {
			c = fm.Stub()
		}
		c.GroupID = "org"
		root.AddCommand(c)
	}
	for _, t := range tools(root) {
		var c *cobra.Command
		if word == allFamilies || t.name() == word {
			c = t.build(f)
		} else {
			c = engine.Group{Name: t.use, Short: t.short}.Stub()
		}
		c.GroupID = t.group
		root.AddCommand(c)
	}
	help := newHelpCmd(root, f.IO.Width)
	help.GroupID = "tool"
	root.SetHelpCommand(help)
	root.SetCompletionCommandGroupID("tool")
	// orgctl's own completion command replaces cobra's: install help per shell.
	root.CompletionOptions.DisableDefaultCmd = true
	wireCompletions(f, root)
	return root
}

// helpFitting writes helpPage, fitted to a terminal width columns wide
// (0: not a terminal, left as it is) by output.WrapHelp.
func helpFitting(width int) func(*cobra.Command, []string) {
	return func(c *cobra.Command, _ []string) {
		text := helpPage(c) + seeTopics(c)
		if width > 0 {
			text = output.WrapHelp(text, width)
		}
		io.WriteString(c.OutOrStdout(), text)
	}
}

// usageWithTopics writes usageText where cobra writes usage.
func usageWithTopics(c *cobra.Command) error {
	_, err := io.WriteString(c.OutOrStderr(), usageText(c))
	return err
}

// A tool is one of orgctl's own commands. Like a family it is built in full
// only for a command line that names it; for the others the root needs only
// the name and summary, which TestToolHeaders keeps equal to the built
// command's.
type tool struct {
	use, short, group string
	build             func(f *cli.Factory) *cobra.Command
}

func (t tool) name() string { name, _, _ := strings.Cut(t.use, " "); return name }

// tools lists them; root is the command completion scripts describe.
func tools(root *cobra.Command) []tool {
	return []tool{
		{"auth", "Log in, check and remove API tokens per profile", "tool", auth.NewCmd},
		{"budget", "Show the client-side rate budget shared by every orgctl process", "tool", budget.NewCmd},
		{"config", "Read and change orgctl's settings, and see where each comes from", "tool", config.NewCmd},
		{"sandbox", "Run a built-in, in-memory management API with a demo organization", "tool", sandbox.NewCmd},
		{"api [METHOD] PATH", "Call any management API endpoint", "tool", api.NewCmd},
		{"jobs", "List, show and forget bulk jobs (commands run with --from)", "tool", jobs.NewCmd},
		{"version", "Show orgctl's version, commit, build date, Go version and platform", "tool", version.NewCmd},
		{"doctor", "Check the whole setup: config, URL, API version, token, keyring, budget, clock", "tool", doctor.NewCmd},
		{"export --dir DIR", "Write the org's configuration as YAML files, one per object", "org", orgCodeCmd(0)},
		{"plan --dir DIR", "Show what apply would change in the org, and what it costs in points and time", "org", orgCodeCmd(1)},
		{"apply (--dir DIR | PLANFILE)", "Change the org to match the files, paced and resumable", "org", orgCodeCmd(2)},
		{"completion <shell>", "Print the shell completion script for bash, zsh, fish or powershell", "tool",
			func(*cli.Factory) *cobra.Command { return newCompletionCmd(root) }},
	}
}

// orgCodeCmd builds one of export, plan and apply, which share their options.
func orgCodeCmd(i int) func(f *cli.Factory) *cobra.Command {
	return func(f *cli.Factory) *cobra.Command { return orgfiles.NewCmds(f)[i] }
}

// execute runs one command line and returns a typed error for Main,
// calling beforeRun, if not nil, once a command is about to run: not for
// help, --version or a usage error found while parsing.
func execute(ctx context.Context, f *cli.Factory, args []string, beforeRun func()) error {
	if f.Context == nil {
		f.Context = ctx
	}
	root := newRoot(f, familyWord(args))
	root.SetArgs(args)
	if beforeRun != nil {
		root.PersistentPreRun = func(c *cobra.Command, _ []string) {
			if c.HasParent() { // the root itself prints only help or its version
				beforeRun()
			}
		}
	}
	// --profiles runs the command once per profile: it takes over once the
	// command line is parsed (acrossProfiles).
	pre := root.PersistentPreRun
	root.PersistentPreRunE = func(c *cobra.Command, a []string) error {
		if pre != nil {
			pre(c, a)
		}
		return acrossProfiles(f, c, args)
	}
	if isCompletionRequest(args) {
		root.SetErr(io.Discard) // cobra reports the directive there; the shell shows stderr
		f.ConfigWarn = func(string) {}
	}
	c, err := root.ExecuteContextC(ctx)
	if err == nil {
		return nil
	}
	var ue *cli.UsageError
	if !errors.As(err, &ue) && isCobraUsageError(err) {
		ue = &cli.UsageError{Err: err}
		err = ue
	}
	if ue != nil && c != nil {
		if hint := boolArgHint(c, args); hint != "" && strings.Contains(err.Error(), "argument") {
			return &cli.UsageError{Err: fmt.Errorf("%w\n%s", ue.Err, hint)}
		}
	}
	return err
}

// familyWord names the family (or tool) a command line needs in full: its
// first word, or for help and completion requests ("help users list",
// "__complete users li") the first word after that; "" when there is none.
func familyWord(args []string) string {
	i := firstWordAt(args)
	if i < 0 {
		return ""
	}
	switch args[i] {
	case "help", cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
		return familyWord(args[i+1:])
	}
	return args[i]
}

// globalValueFlags are the global flags that take the next word as their
// value when written without "=": "--name" and, for a shorthand, "-x".
// Worked out on first use.
var globalValueFlags = lazy.Value[map[string]bool]{New: func() map[string]bool {
	fs := pflag.NewFlagSet("orgctl", pflag.ContinueOnError)
	cli.AddGlobalFlags(fs)
	m := map[string]bool{}
	fs.VisitAll(func(fl *pflag.Flag) {
		if fl.NoOptDefVal != "" { // a boolean: its value, if any, follows "="
			return
		}
		m["--"+fl.Name] = true
		if fl.Shorthand != "" {
			m["-"+fl.Shorthand] = true
		}
	})
	return m
}}

// firstWordAt is the index of the first argument that is not a global
// flag or its value, -1 when there is none.
func firstWordAt(args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				return i + 1
			}
			return -1
		}
		if strings.HasPrefix(a, "-") {
			if !slices.ContainsFunc(args[i+1:], isWord) {
				// Only flags from here on (--version, --help): no word to
				// find, and no need to define the global flags a second
				// time to step over their values.
				return -1
			}
			if takesNextWord(a, globalValueFlags.Get()) {
				i++
			}
			continue
		}
		return i
	}
	return -1
}

// isWord says whether a is a word rather than a flag: "--" counts as a
// word, since what follows it is one.
func isWord(a string) bool { return !strings.HasPrefix(a, "-") || a == "--" }

// takesNextWord reports whether the flag argument a leaves its value to
// the next word: "--output" and "-o" do, "--output=json" and "-ojson" do
// not, and in a cluster of shorthands ("-qo") the last one decides.
func takesNextWord(a string, values map[string]bool) bool {
	if strings.Contains(a, "=") {
		return false
	}
	if strings.HasPrefix(a, "--") {
		return values[a]
	}
	for i := 1; i < len(a); i++ {
		if values["-"+a[i:i+1]] {
			return i == len(a)-1 // "-ojson": the rest of the word is the value
		}
	}
	return false
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

// CommandTree is the whole command tree, every family and tool built in
// full, for generators of documentation such as man pages. Nothing in it
// has run, and building it reads no configuration.
func CommandTree() *cobra.Command {
	return newRoot(newFactory(), allFamilies)
}
