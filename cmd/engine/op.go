package engine

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/bulkjob"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
)

// ProfilesAnnotation says whether and how a command runs across profiles
// (--profiles): ProfilesRead or ProfilesWrite.
const (
	ProfilesAnnotation = "profiles"
	ProfilesRead       = "read"
	ProfilesWrite      = "write"
)

// ProfilesSinceAnnotation and ProfilesWriteAnnotation name the flags of a
// command that compares with an earlier report and keeps this run's
// (permissions report: since, write). Under --profiles the earlier report
// holds every Space's rows, a PROFILE column first, and each Space is
// compared with its own; the report kept is one such file.
const (
	ProfilesSinceAnnotation = "profiles-since"
	ProfilesWriteAnnotation = "profiles-write"
)

// DryRunAnnotation says what a command's --dry-run prints on stdout: the
// requests it would send (DryRunPlan), text rather than records.
const (
	DryRunAnnotation = "dry-run"
	DryRunPlan       = "plan"
)

// AcrossProfiles gives c the --profiles flag: the root runs it once per
// profile (a read prints each Space's answer, a write changes each Space).
func AcrossProfiles(c *cobra.Command, how string) {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[ProfilesAnnotation] = how
	c.Flags().String("profiles", "", "run in each profile's Space at once (`NAME,NAME` or all); the profile leads each record (-o json: an array, \"profile\" set)")
	c.RegisterFlagCompletionFunc("profiles", completeProfiles)
}

// completeProfiles completes --profiles NAME,NAME: the profiles not yet
// named, after what was typed.
func completeProfiles(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	done, last := "", toComplete
	if i := strings.LastIndex(toComplete, ","); i >= 0 {
		done, last = toComplete[:i+1], toComplete[i+1:]
	}
	given := map[string]bool{}
	for _, n := range strings.Split(done, ",") {
		given[n] = true
	}
	var out []string
	if done == "" && strings.HasPrefix("all", last) {
		out = append(out, "all")
	}
	for _, n := range settings.ProfileNames() {
		if !given[n] && strings.HasPrefix(n, last) {
			out = append(out, done+n)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// Group is a command family (or a sub-group such as "groups members").
type Group struct {
	Name    string
	Aliases []string
	Short   string
	Long    string
	Example string
	// Columns are the default table columns for the group's operations.
	Columns []output.Column
	Ops     []Op
	Groups  []Group
	// Extra are commands that are not one API operation (local checks,
	// reports that send several requests); each has its own run function.
	Extra []Workflow
}

// Command builds the group's cobra command with every subcommand.
func (g Group) Command(f *cli.Factory) *cobra.Command {
	c := g.Stub()
	for _, op := range g.Placed() {
		c.AddCommand(Command(op, f))
	}
	for _, sub := range g.Groups {
		c.AddCommand(sub.Command(f))
	}
	for _, mk := range g.Extra {
		c.AddCommand(mk(f))
	}
	return c
}

// Placed are the group's operations as its commands run them: each with
// the group's noun and columns, and the others beside it.
func (g Group) Placed() []*Placed {
	return opdef.Place(g.Ops, singular(g.Name), plural(g.Name), g.Columns)
}

// Stub is the group's command without subcommands: enough for the root's
// help page and for finding the family a command line names.
func (g Group) Stub() *cobra.Command {
	c := &cobra.Command{
		Use:     g.Name,
		Aliases: g.Aliases,
		Short:   g.Short,
		Example: g.Example,
		Args:    cli.NoArgsGroup,
		RunE:    func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	if g.Long != "" { // without it, help shows Short
		c.Long = strings.TrimSpace(g.Short + "\n\n" + g.Long)
	}
	return c
}

// facts are what the op's help states.
func facts(op *Placed) Facts { return Facts{Method: op.Method, Path: op.Path, Scope: op.Scope} }

func help(op *Placed) string {
	var b strings.Builder
	b.WriteString(op.Help.Short)
	if op.Help.Long != "" {
		b.WriteString("\n\n")
		b.WriteString(strings.TrimSpace(op.Help.Long))
	}
	b.WriteString("\n\n")
	b.WriteString(facts(op).text())
	if op.List {
		b.WriteString("\n\nWithout --limit, one request returns every item (the cheapest in points).\n" +
			"--limit N fetches one page; add --all to follow next_token through every page.")
	}
	if op.Writes() {
		b.WriteString("\n\n--from FILE runs this once per row of a CSV file (a header row naming the flags\n" +
			"and arguments, e.g. " + bulkjob.ColumnsExample(op) + ") or a JSON Lines file, checked whole\n" +
			"before anything is sent and resumable: see 'orgctl jobs --help'.\n" +
			"A CSV's separator (comma, semicolon or tab) is read from its header row;\n--delimiter sets it.")
		if bulkjob.HasUserColumn(op) {
			b.WriteString(" A user column is named user: an email or an id (email and\nuser-id are read as it too).")
		}
	}
	return b.String()
}

// ColumnsAnnotation holds a command's table column names (a,b,c), which
// --columns completes.
const ColumnsAnnotation = "columns"

func columnNames(cols []output.Column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = output.ColumnName(c)
	}
	return strings.Join(names, ",")
}

// Command is the op's command: its help, its fields wired as flags, its
// completion, and its run as the phases.
func Command(op *Placed, f *cli.Factory) *cobra.Command {
	c := &cobra.Command{Use: op.Use, Short: op.Help.Short, Hidden: op.Help.Hidden, Long: help(op), Example: op.Help.Example}
	facts(op).annotate(c)
	if names := columnNames(op.Table); names != "" {
		c.Annotations[ColumnsAnnotation] = names
	}
	c.Args = func(c *cobra.Command, args []string) error {
		if flagged := argFlagsGiven(op, c); flagged > 0 {
			_, err := mergeArgFlags(op, c, args)
			return err
		}
		if bulkjob.FromFile(c) && len(args) <= len(op.Args.Params) {
			return nil // the file's columns give the rest
		}
		if listsJSONFields(c) {
			return nil // --json= only lists the fields
		}
		if len(args) != len(op.Args.Params) {
			want := "no arguments"
			if len(op.Args.Params) > 0 {
				want = fmt.Sprintf("%d argument(s): %s", len(op.Args.Params), strings.Join(opdef.ArgNames(c.Use), " "))
			}
			return cli.UsageErrorf("%s takes %s, got %d\nUsage: %s", c.CommandPath(), want, len(args), c.UseLine())
		}
		return nil
	}
	fl := c.Flags()
	for _, fd := range op.Fields {
		usage := fd.Usage
		if len(fd.Enum) > 0 {
			usage += " {" + strings.Join(fd.Enum, "|") + "}"
		}
		if fd.Required {
			usage += " (required)"
		}
		switch fd.Type {
		case opdef.TBool:
			fl.BoolP(fd.Flag, fd.Short, false, usage)
		case opdef.TStrings, opdef.TKV, opdef.TTexts:
			fl.StringArrayP(fd.Flag, fd.Short, nil, usage)
		default:
			fl.StringP(fd.Flag, fd.Short, fd.Default, usage)
		}
		if len(fd.Enum) > 0 {
			enum := fd.Enum
			c.RegisterFlagCompletionFunc(fd.Flag, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
				return enum, cobra.ShellCompDirectiveNoFileComp
			})
		}
	}
	addArgFlags(op, f, c)
	if op.Body {
		fl.String("body", "", "JSON request body from `FILE` (- for stdin); flags override its fields")
	}
	if op.List {
		fl.String("limit", "", "fetch one page of at most `N` items (1-100)")
		fl.Bool("all", false, "with --limit, follow next_token through every page")
	}
	if op.Mutating() {
		fl.Bool("dry-run", false, "print the request, its point cost and the expected wait; send nothing")
	}
	switch {
	case op.Destructive():
		fl.BoolP("yes", "y", false, "do not ask for confirmation (required when stdin is not a terminal)")
	case op.Writes():
		// A script passes --yes to every write it runs (disable, then
		// enable): a write that asks nothing takes it and ignores it.
		fl.BoolP("yes", "y", false, "do not ask for confirmation (this command asks none)")
	}
	if op.Writes() {
		bulkjob.AddFlags(op, c)
	}
	if op.Reads() {
		addJSONFlag(op, c)
	}
	switch {
	case op.Method == http.MethodGet:
		AcrossProfiles(c, ProfilesRead)
	case op.AcrossProfiles:
		AcrossProfiles(c, ProfilesWrite)
		c.Annotations[DryRunAnnotation] = DryRunPlan
	}
	wireCompletion(op, f, c)
	c.RunE = func(c *cobra.Command, args []string) error { return run(op, f, c, args) }
	return c
}

// addArgFlags wires Args.Flags: a string flag per argument that has one.
func addArgFlags(op *Placed, f *cli.Factory, c *cobra.Command) {
	uses := opdef.ArgNames(op.Use)
	for i, name := range op.Args.Flags {
		if name == "" || i >= len(uses) {
			continue
		}
		what := "`" + strings.ToUpper(name) + "`"
		if k := op.ArgKind(i); k == "users" {
			what += " (id or email)"
		} else if k != "" {
			what += " (id or name)"
		}
		c.Flags().String(name, "", fmt.Sprintf("the %s argument as a flag: %s", strings.Trim(uses[i], "[]"), what))
		if k := op.ArgKind(i); k != "" && k != noCompletion {
			c.RegisterFlagCompletionFunc(name, func(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
				return CompleteKind(f, k, typed)
			})
		}
	}
}

// argFlagsGiven counts the Args.Flags on the command line.
func argFlagsGiven(op *Placed, c *cobra.Command) int {
	n := 0
	for _, name := range op.Args.Flags {
		if fl := c.Flags().Lookup(name); name != "" && fl != nil && fl.Changed {
			n++
		}
	}
	return n
}

// mergeArgFlags puts the arguments given as flags in their places among
// the positional ones.
func mergeArgFlags(op *Placed, c *cobra.Command, args []string) ([]string, error) {
	if argFlagsGiven(op, c) == 0 {
		return args, nil
	}
	uses := opdef.ArgNames(op.Use)
	out := make([]string, 0, len(op.Args.Params))
	rest := args
	for i := range op.Args.Params {
		name := ""
		if i < len(op.Args.Flags) {
			name = op.Args.Flags[i]
		}
		if fl := c.Flags().Lookup(name); name != "" && fl != nil && fl.Changed {
			if len(out) < i {
				return nil, cli.UsageErrorf("%s: --%s gives %s, but %s is missing before it\nUsage: %s", c.CommandPath(), name, uses[i], uses[len(out)], c.UseLine())
			}
			out = append(out, fl.Value.String())
			continue
		}
		if len(rest) == 0 {
			if bulkjob.FromFile(c) {
				continue // the file's columns give it
			}
			return nil, cli.UsageErrorf("%s: missing %s\nUsage: %s", c.CommandPath(), uses[i], c.UseLine())
		}
		if len(out) < i {
			break
		}
		out, rest = append(out, rest[0]), rest[1:]
	}
	if len(rest) > 0 {
		return nil, cli.UsageErrorf("%s: %s given twice, as an argument and as a flag; pass it once\nUsage: %s",
			c.CommandPath(), strings.Join(flaggedUses(op, uses, c), " and "), c.UseLine())
	}
	return out, nil
}

func flaggedUses(op *Placed, uses []string, c *cobra.Command) []string {
	var out []string
	for i, name := range op.Args.Flags {
		if fl := c.Flags().Lookup(name); name != "" && fl != nil && fl.Changed && i < len(uses) {
			out = append(out, uses[i]+" (--"+name+")")
		}
	}
	return out
}

// RunOptions are the engine's own flags of one command line: how to send
// and confirm, not what.
type RunOptions struct {
	DryRun bool
	Yes    bool
	// JSON are the fields --json selects (nil: print the whole answer).
	JSON []string
}

// parseFlags is the parse phase: it reads the command line into an Input
// (raw text per field, as a bulk file row would give it) and the engine's
// options. It validates nothing; build does.
func parseFlags(op *Placed, c *cobra.Command, args []string) (Input, RunOptions) {
	fl := c.Flags()
	in := Input{Command: c.CommandPath(), Args: args, Values: map[string][]string{}}
	for _, fd := range op.Fields {
		if !fl.Changed(fd.Flag) {
			continue
		}
		switch fd.Type {
		case opdef.TBool:
			b, _ := fl.GetBool(fd.Flag)
			in.Values[fd.Flag] = []string{strconv.FormatBool(b)}
		case opdef.TStrings, opdef.TKV, opdef.TTexts:
			in.Values[fd.Flag], _ = fl.GetStringArray(fd.Flag)
		default:
			s, _ := fl.GetString(fd.Flag)
			in.Values[fd.Flag] = []string{s}
		}
	}
	if op.Body {
		in.Body, _ = fl.GetString("body")
	}
	if op.List && fl.Changed("limit") {
		s, _ := fl.GetString("limit")
		in.Limit = &s
	}
	in.All, _ = fl.GetBool("all")
	var o RunOptions
	o.DryRun, _ = fl.GetBool("dry-run")
	o.Yes, _ = fl.GetBool("yes")
	return in, o
}
