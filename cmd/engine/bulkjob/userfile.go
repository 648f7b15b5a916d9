package bulkjob

import (
	"errors"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
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
	in      *fileInput
	checked *checkPass
}

// UserRow is one row: the user as the file names them (an email or an id).
type UserRow struct {
	N, Line int
	User    string
}

// userFileOp is what a row of a user file is, to the checks a declared
// command's file goes through: one user, by email or id.
var userFileOp = opdef.Op{Use: "offboard USER", Method: http.MethodDelete, Path: "/users/{userId}", Args: opdef.Args{Params: []string{"userId"}}}

// userFileFlags are the file options a user file takes, as a declared
// command's --from does (they mean nothing without --from).
var userFileFlags = []string{"from-format", "encoding", "delimiter", "map", "ignore-unknown", "skip-invalid", "failed"}

// AddUserFileFlags gives a hand-written command --from FILE and the file
// options of declared commands; what says what a row does ("offboard").
func AddUserFileFlags(c *cobra.Command, what string) {
	addFileFlags(c, fileFlagUsage{
		from:   what + " every user of `FILE`: CSV with a header row and a user column (an email or id), or JSON Lines (- for stdin)",
		mapTo:  "read the file's `COLUMN=user` as the user column",
		ignore: "leave out columns other than the user's (they are named on stderr)",
		valid:  what + " the users of the valid rows",
	})
}

// ReadUserFile reads and checks --from whole: every problem is listed by
// line and nothing is acted on unless there is none (or --skip-invalid
// leaves the invalid rows out). ok is false without --from. config gives
// the settings the rows' users are looked up with, once the file options
// are read.
func ReadUserFile(f *cli.Factory, c *cobra.Command, config func() (*settings.Config, error)) (uf *UserFile, ok bool, err error) {
	if !FromFile(c) {
		return nil, false, fileOnly(c, userFileFlags)
	}
	op := userFileOp
	o, err := fileOptions(c)
	if err != nil {
		return nil, true, err
	}
	cfg, err := config()
	if err != nil {
		return nil, true, err
	}
	j, err := newBulkJob(f, nil, cfg, opdef.Alone(&op), c, opdef.Input{Command: c.CommandPath(), Values: map[string][]string{}}, false, o)
	if err != nil {
		return nil, true, err
	}
	uf = &UserFile{in: j.in, checked: j.checked, Invalid: map[int]string{}}
	if err := j.checked.check(f.IO.Err); err != nil {
		uf.Close()
		return nil, true, err
	}
	j.in.noteIgnored(f.IO, j.quiet)
	for n, why := range j.checked.invalid {
		uf.Invalid[n] = why
	}
	rows, err := j.in.rowSource(j.checked.invalid)
	if err != nil {
		uf.Close()
		return nil, true, err
	}
	defer rows.close()
	for {
		row, err := rows.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			uf.Close()
			return nil, true, err
		}
		if _, bad := j.checked.invalid[row.N]; bad {
			continue
		}
		in, _, _ := j.in.rowInput(row)
		uf.Rows = append(uf.Rows, UserRow{N: row.N, Line: row.Line, User: strings.TrimSpace(in.Args[0])})
	}
	return uf, true, nil
}

// SkipInvalid: --skip-invalid was given; a row naming no user is left out too.
func (u *UserFile) SkipInvalid() bool { return u.in.o.skipInvalid }

// Name is the file as messages name it ("stdin" for -).
func (u *UserFile) Name() string { return u.in.src.name }

// Key is the file's identity for a job: a hash of its bytes.
func (u *UserFile) Key() []byte { return u.checked.sum }

// WriteFailed writes --failed, when asked: the rows of reasons (the
// invalid ones and those that failed), in the input's columns plus a reason.
func (u *UserFile) WriteFailed(reasons map[int]string) error {
	if u.in.o.failed == "" {
		return nil
	}
	failedRows := map[int]string{}
	for n, why := range u.Invalid {
		failedRows[n] = "invalid, not sent: " + why
	}
	for n, why := range reasons {
		failedRows[n] = why
	}
	if len(failedRows) == 0 {
		// nothing failed: an empty file says so, rather than an old one staying
		return os.WriteFile(u.in.o.failed, nil, 0o600)
	}
	if err := u.in.writeFailed(failedRows); err != nil {
		return errors.New("--failed " + u.in.o.failed + ": " + err.Error())
	}
	return nil
}

// Close removes stdin's spool.
func (u *UserFile) Close() { u.in.close() }
