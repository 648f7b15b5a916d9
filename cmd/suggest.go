package cmd

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/usage"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/internal/suggest"
)

// flagError rewrites pflag's errors in plain words and suggests the
// nearest flag for an unknown one.
func flagError(c *cobra.Command, err error) error {
	if listed, ok := engine.BareJSONFlag(c, err); ok {
		return listed
	}
	msg := err.Error()
	var bad *pflag.InvalidValueError
	var none *pflag.ValueRequiredError
	switch {
	case errors.As(err, &bad):
		msg = fmt.Sprintf("--%s takes %s, got %s", bad.GetFlag().Name, flagAccepts(bad.GetFlag()), usage.Shown(bad.GetValue()))
	case errors.As(err, &none):
		msg = fmt.Sprintf("--%s needs a value: %s", none.GetFlag().Name, flagAccepts(none.GetFlag()))
		if none.GetFlag().Value.Type() == "string" && none.GetFlag().Usage != "" {
			msg = fmt.Sprintf("--%s needs a value (%s)", none.GetFlag().Name, none.GetFlag().Usage)
		}
	}
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		if near := nearestFlag(c, name); near != "" {
			msg += fmt.Sprintf("\n\nDid you mean --%s?", near)
		}
	}
	return cli.UsageErrorf("%s\nRun '%s --help' for usage.", msg, c.CommandPath())
}

// nearestFlag is the flag of c closest to name by edit distance, when it is
// close enough to be a typo.
func nearestFlag(c *cobra.Command, name string) string {
	var names []string
	visit := func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	slices.Sort(names)
	return suggest.Nearest(name, names, max(1, len(name)*2/5))
}

// flagAccepts says in words what a flag of orgctl's own takes.
func flagAccepts(fl *pflag.Flag) string {
	switch fl.Value.Type() {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "count":
		return "a whole number"
	case "float32", "float64":
		return "a number"
	case "bool":
		return "true or false, written with = (--" + fl.Name + "=false)"
	case "duration":
		return "a duration such as 30s, 5m or 1h30m"
	}
	return "a value: " + fl.Usage
}

// boolArgHint is the hint for a switch followed by a separate true or
// false, which the shell passes as an extra argument: `--active false`.
func boolArgHint(c *cobra.Command, args []string) string {
	for i := 0; i+1 < len(args); i++ {
		v := strings.ToLower(args[i+1])
		if v != "true" && v != "false" || !strings.HasPrefix(args[i], "-") || strings.Contains(args[i], "=") {
			continue
		}
		var fl *pflag.Flag
		if name, ok := strings.CutPrefix(args[i], "--"); ok {
			fl = c.Flags().Lookup(name)
		} else if len(args[i]) == 2 {
			fl = c.Flags().ShorthandLookup(args[i][1:])
		}
		if fl != nil && fl.Value.Type() == "bool" {
			return fmt.Sprintf("--%s is a switch and takes no separate value: write --%s=%s", fl.Name, fl.Name, v)
		}
	}
	return ""
}
