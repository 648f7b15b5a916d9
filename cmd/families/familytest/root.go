package familytest

import (
	"context"
	"errors"
	"io"
	"slices"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families"
)

// GlobalFlags defines the root's persistent flags as orgctl's root does, so
// that a family's commands can run without the root package (which tests
// of the packages below it cannot import). cmd's tests keep the two equal.
func GlobalFlags(pf *pflag.FlagSet) {
	pf.String("profile", "", "use the named profile from the config file (env ORGCTL_PROFILE)")
	pf.StringP("output", "o", "table", "output format: table, json, yaml or csv")
	pf.String("jq", "", "filter JSON output with a jq `EXPRESSION`")
	pf.String("template", "", "format output with a Go text/template `TEMPLATE`")
	pf.String("columns", "", "show only these table `COLUMNS`, in this order (a,b,c; also tab-separated output)")
	pf.BoolP("quiet", "q", false, "print no notices on stderr (errors and warnings still show)")
	pf.Bool("debug", false, "log each HTTP request (method, URL, status, timing) to stderr; the token is never shown")
	pf.Bool("sandbox", false, "run against the built-in local demo org instead of a real one")
	pf.Duration("max-wait", 10*time.Minute, "give up (exit 5) when the rate budget would make a request wait longer than this")
	pf.Duration("timeout", 30*time.Second, "time limit for each HTTP attempt")
	pf.Bool("insecure-http", false, "allow plain http:// to a non-loopback host (the token is sent unencrypted)")
}

// Root is a root command with the global flags, bound to f's settings as
// the real root binds them, holding the named families built in full.
func Root(f *cli.Factory, names ...string) *cobra.Command {
	root := &cobra.Command{Use: "orgctl", SilenceErrors: true, SilenceUsage: true}
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.Err)
	root.SetIn(f.IO.In)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &cli.UsageError{Err: err} })
	GlobalFlags(root.PersistentFlags())
	f.Sources.BindFlags(root.PersistentFlags())
	for _, fm := range families.List() {
		if slices.Contains(names, fm.Name) || slices.ContainsFunc(fm.Aliases, func(a string) bool { return slices.Contains(names, a) }) {
			root.AddCommand(fm.Group().Command(f, nil))
		}
	}
	if f.Families == nil {
		f.Families = families.Called
	}
	if f.OnChange == nil {
		f.OnChange = engine.ForgetCompletions
	}
	return root
}

// Run runs one command line of a family (its first word) on f, as Main
// runs it: the error explained with the configuration the run read. A
// completion request (__complete FAMILY ...) has cobra's own report of the
// directive discarded, as the root discards it.
func Run(f *cli.Factory, args ...string) error {
	word := args
	if len(word) > 0 && word[0] == cobra.ShellCompRequestCmd {
		word = word[1:]
	}
	if len(word) == 0 {
		return errors.New("familytest.Run: no family named")
	}
	if f.Context == nil {
		f.Context = context.Background()
	}
	root := Root(f, word[0])
	if len(word) < len(args) {
		root.SetErr(io.Discard)
	}
	root.SetArgs(args)
	_, err := root.ExecuteContextC(f.Context)
	return cli.Explain(f.LoadedConfig(), err)
}
