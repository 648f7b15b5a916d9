package engine

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/internal/suggest"
	"github.com/orgctl/orgctl/output"
)

// Annotations that say where a command's --json fields come from; they are
// worked out only when --json is used, so building commands stays cheap.
const (
	jsonEndpointAnnotation = "json-endpoint"
	jsonExtraAnnotation    = "json-fields"
)

// addJSONFlag gives a reading command --json FIELDS.
func addJSONFlag(op *Placed, c *cobra.Command) {
	AddJSONFields(c, op.Method+" "+op.Path, opdef.ColumnFields(op.Table))
}

// AddJSONFields gives a command --json FIELDS: the spec's fields of
// endpoint ("METHOD PATH", or "" for local records) and the extra names.
func AddJSONFields(c *cobra.Command, endpoint, extra string) {
	c.Flags().String("json", "", "print only these comma-separated `FIELDS` as JSON (--json alone lists them)")
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[jsonEndpointAnnotation] = endpoint
	c.Annotations[jsonExtraAnnotation] = extra
	c.RegisterFlagCompletionFunc("json", func(c *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
		// Complete the field after the last comma, keeping those before it.
		done, _ := cutLast(typed, ",")
		chosen := strings.Split(done, ",")
		var out []string
		for _, f := range commandJSONFields(c) {
			if slices.Contains(chosen, f) {
				continue
			}
			if done == "" {
				out = append(out, f)
			} else {
				out = append(out, done+","+f)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	})
}

// commandJSONFields are the fields a command's --json offers (nil: no --json).
func commandJSONFields(c *cobra.Command) []string {
	endpoint, ok := c.Annotations[jsonEndpointAnnotation]
	if !ok {
		return nil
	}
	return opdef.JSONFieldNames(endpoint, c.Annotations[jsonExtraAnnotation])
}

func cutLast(s, sep string) (before, after string) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):]
	}
	return "", s
}

// errListedFields ends a run that only listed the --json fields: exit 0,
// nothing more to print.
var errListedFields = &cli.ExitError{Code: cli.ExitOK}

// JSONSelection reads --json: nil when not given, the checked names when
// given; given empty (--json=) it lists the fields and ends the run.
func JSONSelection(c *cobra.Command) ([]string, error) {
	fl := c.Flags().Lookup("json")
	if fl == nil || !fl.Changed {
		return nil, nil
	}
	avail := commandJSONFields(c)
	var names []string
	for _, n := range strings.Split(fl.Value.String(), ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		listJSONFields(c.OutOrStdout(), avail)
		return nil, errListedFields
	}
	var unknown []string
	for _, n := range names {
		if !slices.Contains(avail, n) {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		what := fmt.Sprintf("unknown field %q", unknown[0])
		if len(unknown) > 1 {
			what = fmt.Sprintf("unknown fields %q", unknown)
		}
		if near := nearestName(unknown[0], avail); near != "" {
			what += fmt.Sprintf(" (did you mean %s?)", near)
		}
		return nil, cli.UsageErrorf("%s: --json: %s\nAvailable fields:\n  %s", c.CommandPath(), what, strings.Join(avail, "\n  "))
	}
	return names, nil
}

// nearestName is the name closest to a typo of it, or "".
func nearestName(typed string, names []string) string {
	return suggest.Nearest(typed, names, max(1, len(typed)*2/5))
}

// listsJSONFields reports a --json given empty (--json=), which only lists the fields.
func listsJSONFields(c *cobra.Command) bool {
	fl := c.Flags().Lookup("json")
	return fl != nil && fl.Changed && strings.Trim(fl.Value.String(), ", ") == ""
}

// listJSONFields answers a bare --json: the names, one a line, on stdout.
func listJSONFields(w io.Writer, fields []string) {
	fmt.Fprintln(w, strings.Join(fields, "\n"))
}

// BareJSONFlag answers `--json` given without fields (which the flag parser
// reports as a missing argument) by listing the command's fields.
func BareJSONFlag(c *cobra.Command, err error) (error, bool) {
	if err == nil || err.Error() != "flag needs an argument: --json" {
		return nil, false
	}
	fields := commandJSONFields(c)
	if fields == nil {
		return nil, false
	}
	listJSONFields(c.OutOrStdout(), fields)
	return errListedFields, true
}

// PrintSelected prints the --json fields of data: JSON, unless -o yaml,
// --jq or --template asked for something else.
func PrintSelected(p *output.Printer, data []byte, fields []string) error {
	sel, err := output.SelectFields(data, fields)
	if err != nil {
		return err
	}
	q := *p
	if q.Opts.Format == "" || q.Opts.Format == "table" {
		q.Opts.Format = "json"
	}
	return q.Print(sel, nil)
}
