package engine

import (
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/settings"
)

// UserFile is a --from file whose rows each name a user, for a
// hand-written workflow (users offboard): read and checked as a declared
// command's file is, with the same column names and file options, so a
// file that one command takes the others take too.
type UserFile struct {
	// Rows are the rows to act on, in file order.
	Rows []UserRow
	// Invalid are the rows --skip-invalid left out, by row number, with
	// what is wrong with each.
	Invalid map[int]string
	j       *bulkJob
}

// UserRow is one row: the user as the file names them (an email or an id).
type UserRow struct {
	N, Line int
	User    string
}

// userFileOp is what a row of a user file is, to the checks a declared
// command's file goes through: one user, by email or id.
var userFileOp = Op{Use: "offboard USER", Method: http.MethodDelete, Path: "/users/{userId}", Args: []string{"userId"}}

// userFileFlags are the file options a user file takes, as a declared
// command's --from does (they mean nothing without --from).
var userFileFlags = []string{"from-format", "encoding", "delimiter", "map", "ignore-unknown", "skip-invalid", "failed"}

// AddUserFileFlags gives a hand-written command --from FILE and the file
// options of declared commands; what says what a row does ("offboard").
func AddUserFileFlags(c *cobra.Command, what string) {
	fl := c.Flags()
	fl.String("from", "", what+" every user of `FILE`: CSV with a header row and a user column (an email or id), or JSON Lines (- for stdin)")
	fl.String("from-format", "", "format of --from: csv or jsonl (default: by the file's extension, else csv)")
	fl.String("encoding", "utf-8", "with --from, the file's `ENCODING`: utf-8, windows-1252, latin1 or utf-16")
	fl.String("delimiter", "", "with --from, the CSV's separator: comma, semicolon or tab (default: read from the header row)")
	fl.StringArray("map", nil, "with --from, read the file's `COLUMN=user` as the user column")
	fl.Bool("ignore-unknown", false, "with --from, leave out columns other than the user's (they are named on stderr)")
	fl.Bool("skip-invalid", false, "with --from, act on the valid rows and report the invalid ones as failed (exit 1), instead of refusing the file")
	fl.String("failed", "", "with --from, write the failed and invalid rows to `FILE`, in the input's columns plus a reason, to fix and rerun")
	for name, values := range map[string][]string{"encoding": {"utf-8", "windows-1252", "latin1", "utf-16"},
		"delimiter": {"comma", "semicolon", "tab"}, "from-format": bulk.Formats} {
		c.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return values, cobra.ShellCompDirectiveNoFileComp
		})
	}
}

// ReadUserFile reads and checks --from whole: every problem is listed by
// line and nothing is acted on unless there is none (or --skip-invalid
// leaves the invalid rows out). ok is false without --from.
func ReadUserFile(f *cli.Factory, c *cobra.Command) (uf *UserFile, ok bool, err error) {
	fl := c.Flags()
	if !fromFile(c) {
		for _, n := range userFileFlags {
			if fl.Changed(n) {
				return nil, false, cli.UsageErrorf("--%s goes with --from FILE", n)
			}
		}
		return nil, false, nil
	}
	op := userFileOp
	var o bulkOptions
	o.from, _ = fl.GetString("from")
	o.maps, _ = fl.GetStringArray("map")
	o.ignoreUnknown, _ = fl.GetBool("ignore-unknown")
	o.skipInvalid, _ = fl.GetBool("skip-invalid")
	o.failed, _ = fl.GetString("failed")
	if strings.TrimSpace(o.from) == "" {
		return nil, true, cli.UsageErrorf("--from needs a file name, or - for stdin")
	}
	if enc, _ := fl.GetString("encoding"); !strings.EqualFold(enc, "utf-8") && !strings.EqualFold(enc, "utf8") {
		if o.encoding = encodings[strings.ToLower(enc)]; o.encoding == nil {
			return nil, true, cli.UsageErrorf("invalid --encoding %q: use utf-8, windows-1252, latin1 or utf-16", enc)
		}
	}
	if fl.Changed("delimiter") {
		d, _ := fl.GetString("delimiter")
		if o.delimiter, err = ParseDelimiter(d); err != nil {
			return nil, true, err
		}
	}
	o.format = bulk.FormatOf(o.from)
	if format, _ := fl.GetString("from-format"); format != "" {
		if o.format, err = bulk.ParseFormat(format); err != nil {
			return nil, true, &cli.UsageError{Err: err}
		}
	}
	e, err := New(f)
	if err != nil {
		return nil, true, err
	}
	j := &bulkJob{f: f, e: e, op: &op, cmd: c, o: o, base: Input{Command: c.CommandPath(), Values: map[string][]string{}},
		store: bulk.Store{Dir: filepath.Join(settings.StateDir(), "jobs")}, bc: e.cfg.Budget}
	j.cols = newBulkColumns(&op, 0)
	if err := j.cols.mapColumns(o.maps); err != nil {
		return nil, true, err
	}
	if err := j.openSource(); err != nil {
		return nil, true, err
	}
	uf = &UserFile{j: j, Invalid: map[int]string{}}
	if err := j.check(); err != nil {
		uf.Close()
		return nil, true, err
	}
	for n, why := range j.invalid {
		uf.Invalid[n] = why
	}
	rows, err := j.rowSource()
	if err != nil {
		uf.Close()
		return nil, true, err
	}
	defer rows.close()
	for {
		row, err := rows.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			uf.Close()
			return nil, true, err
		}
		if _, bad := j.invalid[row.N]; bad {
			continue
		}
		in, _, _ := j.rowInput(row)
		uf.Rows = append(uf.Rows, UserRow{N: row.N, Line: row.Line, User: strings.TrimSpace(in.Args[0])})
	}
	return uf, true, nil
}

// SkipInvalid: --skip-invalid was given; a row naming no user is left out too.
func (u *UserFile) SkipInvalid() bool { return u.j.o.skipInvalid }

// Name is the file as messages name it ("stdin" for -).
func (u *UserFile) Name() string { return u.j.src.name }

// Key is the file's identity for a job: a hash of its bytes.
func (u *UserFile) Key() []byte { return u.j.sum }

// WriteFailed writes --failed, when asked: the rows of reasons (the
// invalid ones and those that failed), in the input's columns plus a reason.
func (u *UserFile) WriteFailed(reasons map[int]string) error {
	if u.j.o.failed == "" {
		return nil
	}
	u.j.failedRows = map[int]string{}
	for n, why := range u.Invalid {
		u.j.failedRows[n] = "invalid, not sent: " + why
	}
	for n, why := range reasons {
		u.j.failedRows[n] = why
	}
	if len(u.j.failedRows) == 0 {
		// nothing failed: an empty file says so, rather than an old one staying
		return os.WriteFile(u.j.o.failed, nil, 0o600)
	}
	if err := u.j.writeFailed(); err != nil {
		return errors.New("--failed " + u.j.o.failed + ": " + err.Error())
	}
	return nil
}

// Close removes stdin's spool.
func (u *UserFile) Close() {
	if u.j.src.spooled {
		os.Remove(u.j.src.path)
	}
}
