package bulkjob

import (
	"slices"
	"strings"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/spf13/cobra"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// Options are the flags of a run over a file, beside the op's own.
type Options struct {
	from          string
	format        bulk.Format
	parallel      int
	onExists      string
	restart       bool
	report        string
	maps          []string
	ignoreUnknown bool
	skipInvalid   bool
	failed        string
	encoding      encoding.Encoding // nil: UTF-8
	delimiter     rune              // 0: read from the header row
}

// encodingNamed is what --encoding reads besides UTF-8 (nil for another
// name): the encodings spreadsheets export in (Excel's "CSV" is
// Windows-1252 on Western Windows, its "Unicode text" UTF-16 with a
// byte-order mark). A switch rather than a map, so nothing is built before
// main.
func encodingNamed(name string) encoding.Encoding {
	switch name {
	case "windows-1252", "cp1252":
		return charmap.Windows1252
	case "latin1", "iso-8859-1":
		return charmap.ISO8859_1
	case "utf-16":
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	}
	return nil
}

const (
	defaultParallel = 8
	MaxParallel     = 64
	// maxProblems bounds the problems listed; the rest are counted.
	maxProblems = 100
)

var onExistsModes = []string{"fail", "skip", "update"}

// bulkOnly are the flags that mean something only with --from.
var bulkOnly = []string{"encoding", "delimiter", "from-format", "parallel", "restart", "report", "on-exists", "map", "ignore-unknown", "skip-invalid", "failed"}

// fileFlagUsage words the file options for one kind of command: what
// --from does, what --map reads, what --skip-invalid does with valid rows.
type fileFlagUsage struct{ from, mapTo, ignore, valid string }

var declaredFileFlags = fileFlagUsage{
	from:   "run the command once per row of `FILE`: CSV with a header row naming flags or arguments, or JSON Lines (- for stdin)",
	mapTo:  "read the file's `COLUMN=FLAG` as that flag or argument (metadata.KEY: one metadata key; repeatable, or several pairs comma-separated)",
	ignore: "leave out columns that name no flag (they are named on stderr)",
	valid:  "send the valid rows",
}

// addFileFlags gives a command --from and the options that say how to
// read its file, the same for every command that reads one.
func addFileFlags(c *cobra.Command, u fileFlagUsage) {
	fl := c.Flags()
	fl.String("from", "", u.from)
	fl.String("from-format", "", "format of --from: csv or jsonl (default: by the file's extension, else csv)")
	fl.String("encoding", "utf-8", "with --from, the file's `ENCODING`: utf-8, windows-1252, latin1 or utf-16")
	fl.String("delimiter", "", "with --from, the CSV's `SEPARATOR`: comma, semicolon or tab (default: read from the header row)")
	fl.StringArray("map", nil, "with --from, "+u.mapTo)
	fl.Bool("ignore-unknown", false, "with --from, "+u.ignore)
	fl.Bool("skip-invalid", false, "with --from, "+u.valid+" and report the invalid ones as failed (exit 1), instead of refusing the file")
	fl.String("failed", "", "with --from, write the failed and invalid rows to `FILE`, in the input's columns plus a reason, to fix and rerun")
	for name, values := range map[string][]string{"encoding": {"utf-8", "windows-1252", "latin1", "utf-16"},
		"delimiter": {"comma", "semicolon", "tab"}, "from-format": bulk.Formats} {
		c.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return values, cobra.ShellCompDirectiveNoFileComp
		})
	}
}

// fileOptions reads what addFileFlags added, once --from is given.
func fileOptions(c *cobra.Command) (o Options, err error) {
	fl := c.Flags()
	o.from, _ = fl.GetString("from")
	o.maps, _ = fl.GetStringArray("map")
	o.ignoreUnknown, _ = fl.GetBool("ignore-unknown")
	o.skipInvalid, _ = fl.GetBool("skip-invalid")
	o.failed, _ = fl.GetString("failed")
	if strings.TrimSpace(o.from) == "" {
		return o, cli.UsageErrorf("--from needs a file name, or - for stdin")
	}
	if enc, _ := fl.GetString("encoding"); !strings.EqualFold(enc, "utf-8") && !strings.EqualFold(enc, "utf8") {
		if o.encoding = encodingNamed(strings.ToLower(enc)); o.encoding == nil {
			return o, cli.UsageErrorf("invalid --encoding %q: use utf-8, windows-1252, latin1 or utf-16", enc)
		}
	}
	if d, _ := fl.GetString("delimiter"); fl.Changed("delimiter") {
		if o.delimiter, err = ParseDelimiter(d); err != nil {
			return o, err
		}
	}
	o.format = bulk.FormatOf(o.from)
	if format, _ := fl.GetString("from-format"); format != "" {
		if o.format, err = bulk.ParseFormat(format); err != nil {
			return o, &cli.UsageError{Err: err}
		}
	}
	return o, nil
}

// fileOnly refuses a file option given without --from.
func fileOnly(c *cobra.Command, names []string) error {
	for _, n := range names {
		if f := c.Flags().Lookup(n); f != nil && f.Changed {
			return cli.UsageErrorf("--%s goes with --from FILE", n)
		}
	}
	return nil
}

// AddFlags gives a write command its --from flags.
func AddFlags(op *opdef.Placed, c *cobra.Command) {
	addFileFlags(c, declaredFileFlags)
	fl := c.Flags()
	fl.Int("parallel", defaultParallel, "with --from, rows in flight at once (the rate budget still paces every request)")
	fl.Bool("restart", false, "with --from, forget what earlier runs of the same job recorded and start over")
	fl.String("report", "", "with --from, also write each row's result to `FILE` as CSV")
	if op.Bulk.Exists != nil {
		fl.String("on-exists", "fail", "with --from, a row whose object already exists: fail (report it), skip, or update it")
		c.RegisterFlagCompletionFunc("on-exists", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return onExistsModes, cobra.ShellCompDirectiveNoFileComp
		})
	}
}

// FromFile reports whether the command line gave --from.
func FromFile(c *cobra.Command) bool {
	f := c.Flags().Lookup("from")
	return f != nil && f.Changed
}

// ReadFlags reads the --from flags; ok is false when there is no --from.
func ReadFlags(op *opdef.Placed, c *cobra.Command) (o Options, ok bool, err error) {
	fl := c.Flags()
	if !FromFile(c) {
		return o, false, fileOnly(c, bulkOnly)
	}
	if o, err = fileOptions(c); err != nil {
		return o, true, err
	}
	o.parallel, _ = fl.GetInt("parallel")
	o.restart, _ = fl.GetBool("restart")
	o.report, _ = fl.GetString("report")
	o.onExists = "fail"
	if op.Bulk.Exists != nil {
		o.onExists, _ = fl.GetString("on-exists")
	}
	switch {
	case o.parallel < 1 || o.parallel > MaxParallel:
		return o, true, cli.UsageErrorf("invalid --parallel %d: give 1 to %d", o.parallel, MaxParallel)
	case !slices.Contains(onExistsModes, o.onExists):
		return o, true, cli.UsageErrorf("invalid --on-exists %q: use fail, skip or update", o.onExists)
	case fl.Changed("body"):
		return o, true, cli.UsageErrorf("--body and --from cannot be used together: put the fields in the file's columns")
	}
	if op.Bulk.Exists != nil && op.Bulk.Exists.Check == nil && o.onExists == "update" && op.Sibling(op.Bulk.Exists.Update) == nil {
		return o, true, cli.UsageErrorf("%s cannot update an existing object (the API has no such change): use --on-exists skip or fail", c.CommandPath())
	}
	return o, true, nil
}

// ParseDelimiter reads --delimiter: one of bulk.Delimiters, by its name or
// the character itself (a tab also as \t).
func ParseDelimiter(s string) (rune, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if name == `\t` {
		return '\t', nil
	}
	for _, c := range bulk.Delimiters {
		if s == string(c) || name == string(c) || name == bulk.DelimiterName(c) {
			return c, nil
		}
	}
	return 0, cli.UsageErrorf("invalid --delimiter %q: use comma, semicolon or tab", s)
}

// ColumnsExample names a few of an op's columns for its help.
func ColumnsExample(op *opdef.Placed) string {
	var names []string
	for i, a := range opdef.ArgNames(op.Use) {
		if op.ArgKind(i) == "users" {
			a = userColumn
		}
		names = append(names, strings.ReplaceAll(strings.ToLower(a), "_", "-"))
	}
	for _, fd := range op.Fields {
		if len(names) < 3 && (fd.Required || len(names) == 0) {
			names = append(names, fd.Flag)
		}
	}
	if len(names) == 0 && len(op.Fields) > 0 {
		names = append(names, op.Fields[0].Flag)
	}
	return strings.Join(names, ",")
}

// HasUserColumn: a file for op names a user (an argument or a --user).
func HasUserColumn(op *opdef.Placed) bool {
	for i := range op.Args.Params {
		if op.ArgKind(i) == "users" {
			return true
		}
	}
	return op.HasField(userColumn)
}
