package bulkjob

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// bulkSource is the input file, or stdin spooled to one.
type bulkSource struct {
	name    string // as shown in messages: the path given, or "stdin"
	path    string
	spooled bool
	sum     []byte // known before reading for stdin
	enc     encoding.Encoding
	pipe    bool // not a regular file: its path names no file for a later run
}

func (s *bulkSource) open() (io.ReadCloser, error) {
	f, err := os.Open(s.path)
	if err != nil {
		return nil, cli.UsageErrorf("--from: %v", err)
	}
	if s.enc == nil {
		return f, nil
	}
	return struct {
		io.Reader
		io.Closer
	}{transform.NewReader(f, s.enc.NewDecoder()), f}, nil
}

// fileInput is the job's input: the file (stdin spooled to one), how its
// columns map to the op's flags and arguments, and each row as an Input.
type fileInput struct {
	*jobSpec
	src     bulkSource
	cols    *bulkColumns
	ignored sync.Map // column -> true: unknown, left out (--ignore-unknown)
}

func (j *fileInput) openSource(io *output.IO, store bulk.Store) error {
	if j.o.from != "-" {
		j.src = bulkSource{name: j.o.from, path: j.o.from}
		fi, err := os.Stat(j.o.from)
		if err != nil {
			return cli.UsageErrorf("--from: %v", err)
		}
		if fi.IsDir() {
			return cli.UsageErrorf("--from %s is a directory", j.o.from)
		}
		if !fi.Mode().IsRegular() {
			// A pipe (<(...), a FIFO) can be read once: it is kept like stdin.
			f, err := os.Open(j.o.from)
			if err != nil {
				return cli.UsageErrorf("--from: %v", err)
			}
			defer f.Close()
			path, sum, err := store.Spool(f)
			if err != nil {
				return fmt.Errorf("reading %s: %w", j.o.from, err)
			}
			j.src = bulkSource{name: j.o.from, path: path, spooled: true, sum: sum, pipe: true}
		}
		j.src.enc = j.o.encoding
		return nil
	}
	if io.InTTY {
		return cli.UsageErrorf("--from -: stdin is a terminal; pipe the rows in (orgctl ... --from - < people.csv)")
	}
	path, sum, err := store.Spool(io.In)
	if err != nil {
		return fmt.Errorf("reading stdin: %w", err)
	}
	j.src = bulkSource{name: "stdin", path: path, spooled: true, sum: sum, enc: j.o.encoding}
	return nil
}

// close removes stdin's spool.
func (j *fileInput) close() {
	if j.src.spooled {
		os.Remove(j.src.path)
	}
}

// reader reads the job's input, with the separator --delimiter gives.
func (j *fileInput) reader(r io.Reader) *bulk.Reader {
	rd := bulk.NewReader(r, j.o.format)
	if j.o.delimiter != 0 {
		rd.SetDelimiter(j.o.delimiter)
	}
	return rd
}

// inputPath is the input file's absolute path, by which a job on an
// edited file finds the earlier job on it ("" for stdin and pipes: the
// /dev/fd/63 of one <(...) says nothing of the next).
func (j *fileInput) inputPath() string {
	if j.o.from == "-" || j.src.pipe {
		return ""
	}
	abs, err := filepath.Abs(j.o.from)
	if err != nil {
		return ""
	}
	return abs
}

// rowReader is the second pass over the input.
type rowReader struct {
	rc      io.ReadCloser
	rd      *bulk.Reader
	invalid map[int]string // rows the check found unfit (--skip-invalid)
}

func (j *fileInput) rowSource(invalid map[int]string) (*rowReader, error) {
	rc, err := j.src.open()
	if err != nil {
		return nil, err
	}
	rd := j.reader(rc)
	if j.o.format == bulk.CSV {
		if _, _, err := rd.Header(); err != nil {
			rc.Close()
			return nil, err
		}
	}
	return &rowReader{rc: rc, rd: rd, invalid: invalid}, nil
}

func (r *rowReader) Next() (bulk.Row, error) {
	row, err := r.rd.Next()
	var p *bulk.Problem
	if errors.As(err, &p) {
		if _, skipped := r.invalid[p.Row]; p.Row > 0 && skipped {
			// The check found the row unfit and --skip-invalid let it
			// through: it is the job's, reported failed and never sent.
			return bulk.Row{N: p.Row, Line: p.Line}, nil
		}
		return row, fmt.Errorf("the input changed after it was checked (line %d: %s); nothing more was sent", p.Line, p.Msg)
	}
	return row, err
}

func (r *rowReader) close() { r.rc.Close() }

// bulkColumns maps a file's column names to the op's fields and arguments.
type bulkColumns struct {
	op    *opdef.Placed
	given int // positional arguments given on the command line
	names map[string]colTarget
	args  []string // how each argument is named as a column ("user-id")
	mu    sync.Mutex
	seen  map[string]colTarget // columns as spelled
	// mapped are the columns --map names, by lower-case name: they win
	// over the names the op gives its columns.
	mapped map[string]colTarget
}

// mapColumns reads --map COLUMN=FLAG (FLAG.KEY for a KEY=VALUE field).
func (b *bulkColumns) mapColumns(maps []string) error {
	b.mapped = map[string]colTarget{}
	for _, m := range splitMaps(maps) {
		i := strings.LastIndex(m, "=")
		if i <= 0 || i == len(m)-1 {
			return cli.UsageErrorf("invalid --map %q: give COLUMN=FLAG (the file's column, then the flag or argument it gives; metadata.KEY for a metadata field)", m)
		}
		col, to := strings.TrimSpace(m[:i]), strings.TrimPrefix(strings.TrimSpace(m[i+1:]), "--")
		if _, known := b.names[strings.ToLower(mapTarget(to))]; !known {
			if _, known := b.names[strings.ToLower(mapTarget(col))]; known {
				col, to = to, strings.TrimPrefix(col, "--") // FLAG=COLUMN: the side that names a flag is the flag
			}
		}
		flag, key, isKV := strings.Cut(to, ".")
		t, ok := b.names[strings.ToLower(flag)]
		switch {
		case !ok:
			return cli.UsageErrorf("invalid --map %q: %s has no flag or argument %q; its columns are %s", m, b.op.Use, flag, b.known())
		case isKV && (t.field == nil || t.field.Type != opdef.TKV || key == ""):
			return cli.UsageErrorf("invalid --map %q: %s.KEY needs a KEY=VALUE flag (%s)", m, flag, b.kvFlags())
		}
		if isKV {
			t.kv = key
		}
		if _, dup := b.mapped[strings.ToLower(col)]; dup {
			return cli.UsageErrorf("--map names column %q twice", col)
		}
		b.mapped[strings.ToLower(col)] = t
	}
	return nil
}

// splitMaps reads one --map that lists several pairs, comma-separated
// ("Work Email=email,First Name=first-name"), as that many --map flags, as
// pflag reads its other list flags. A value is split only when every part
// is a pair, so a column whose name holds a comma still maps on its own.
func splitMaps(maps []string) []string {
	var out []string
	for _, m := range maps {
		parts := strings.Split(m, ",")
		pairs := len(parts) > 1
		for _, p := range parts {
			if i := strings.Index(p, "="); i <= 0 || i == len(p)-1 {
				pairs = false
			}
		}
		if !pairs {
			out = append(out, m)
			continue
		}
		out = append(out, parts...)
	}
	return out
}

// mapTarget is the flag part of a --map side ("metadata" of metadata.team).
func mapTarget(s string) string {
	flag, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(s), "--"), ".")
	return flag
}

// kvFlags names the op's KEY=VALUE flags, for --map's errors.
func (b *bulkColumns) kvFlags() string {
	var out []string
	for _, fd := range b.op.Fields {
		if fd.Type == opdef.TKV {
			out = append(out, fd.Flag+".KEY")
		}
	}
	if len(out) == 0 {
		return "this command has none"
	}
	return strings.Join(out, ", ")
}

type colTarget struct {
	field *opdef.Field
	arg   int // the argument's index, when field is nil
	// kv is the key a column gives of a KEY=VALUE field (--map
	// Department=metadata.department): the cell is the value.
	kv string
}

// userColumn is what a file calls the column of a user, in every command:
// an email or an id. userAliases are read as it too: the names commands
// gave it before ("email" in users offboard, "user-id" in users delete).
const userColumn = "user"

var userAliases = []string{"email", "user-id", "user_id", "userid"}

// newBulkColumns accepts, case-insensitively, a field's flag name (with - or
// _), its API key, and an argument's name from Use ("user-id" for USER_ID)
// or its path parameter ("userId").
func newBulkColumns(op *opdef.Placed, given int) *bulkColumns {
	b := &bulkColumns{op: op, given: given, names: map[string]colTarget{}, seen: map[string]colTarget{}}
	add := func(name string, t colTarget) {
		name = strings.ToLower(name)
		if _, taken := b.names[name]; !taken && name != "" {
			b.names[name] = t
		}
	}
	for i := range op.Fields {
		fd := &op.Fields[i]
		t := colTarget{field: fd, arg: -1}
		add(fd.Flag, t)
		add(strings.ReplaceAll(fd.Flag, "-", "_"), t)
		if fd.In != opdef.InLocal && fd.Key != "" {
			add(fd.Key, t)
		}
	}
	uses := opdef.ArgNames(op.Use)
	var userArgs []int
	for i, p := range op.Args.Params {
		name := p
		if i < len(uses) {
			name = strings.ReplaceAll(strings.ToLower(strings.Trim(uses[i], "[]")), "_", "-")
		}
		if op.ArgKind(i) == "users" {
			// every file names a user the same way, whatever the command calls it
			add(userColumn, colTarget{arg: i})
			userArgs = append(userArgs, i)
			b.args = append(b.args, userColumn)
		} else {
			b.args = append(b.args, name)
		}
		add(name, colTarget{arg: i})
		add(strings.ReplaceAll(name, "-", "_"), colTarget{arg: i})
		add(p, colTarget{arg: i})
		if k := op.ArgKind(i); k != "" && k != opdef.NoCompletion {
			add(kinds.Singular(k), colTarget{arg: i}) // "group" for GROUP_ID: a name or an id
		}
	}
	// the older names of a user column, read as it
	for i := range op.Fields {
		if fd := &op.Fields[i]; fd.Flag == userColumn {
			for _, alias := range userAliases {
				add(alias, colTarget{field: fd, arg: -1})
			}
		}
	}
	for _, i := range userArgs {
		for _, alias := range userAliases {
			add(alias, colTarget{arg: i})
		}
	}
	return b
}

func (b *bulkColumns) target(col string) (colTarget, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if t, ok := b.seen[col]; ok {
		return t, true
	}
	t, ok := b.mapped[strings.ToLower(strings.TrimSpace(col))]
	if !ok {
		t, ok = b.names[strings.ToLower(strings.TrimSpace(col))]
	}
	if ok {
		b.seen[col] = t
	}
	return t, ok
}

// known lists the column names, for "unknown column" messages.
func (b *bulkColumns) known() string {
	var names []string
	for _, fd := range b.op.Fields {
		names = append(names, fd.Flag)
	}
	for i := b.given; i < len(b.args); i++ {
		names = append(names, b.args[i])
	}
	return strings.Join(names, ", ")
}

func (b *bulkColumns) targetName(t colTarget) string {
	if t.field != nil {
		return t.field.Flag
	}
	return b.args[t.arg]
}

// rowInput is the Input of one row: the command line's flags and
// arguments, with the row's columns added (a column overrides a flag).
// Its problems are the row's own (a CSV's unknown columns are the
// header's); complete is false when an argument is missing.
func (j *fileInput) rowInput(row bulk.Row) (in opdef.Input, probs []string, complete bool) {
	op := j.op
	in = opdef.Input{Command: j.base.Command, Args: make([]string, len(op.Args.Params)), Values: make(map[string][]string, len(j.base.Values)+len(row.Values))}
	copy(in.Args, j.base.Args)
	for k, v := range j.base.Values {
		in.Values[k] = v
	}
	complete = true
	cols := make([]string, 0, len(row.Values))
	for col := range row.Values {
		cols = append(cols, col)
	}
	sort.Strings(cols)          // problems in a stable order
	var gives map[string]string // target -> the field that gave it (JSON Lines)
	for _, col := range cols {
		vals := row.Values[col]
		t, ok := j.cols.target(col)
		if ok && j.o.format == bulk.JSONL {
			name := j.cols.targetName(t) + "." + t.kv
			if gives == nil {
				gives = map[string]string{}
			}
			if prev, dup := gives[name]; dup {
				probs = append(probs, fmt.Sprintf("fields %q and %q both give %s: give it once", prev, col, strings.TrimSuffix(name, ".")))
				continue
			}
			gives[name] = col
		}
		if !ok {
			if j.o.format == bulk.CSV {
				continue
			}
			if j.o.ignoreUnknown {
				j.ignore(col)
				continue
			}
			probs = append(probs, fmt.Sprintf("unknown field %q: fields are named like the command's flags or arguments (%s) or the API's keys; "+
				"--map %q=FLAG reads it as one of them, --ignore-unknown leaves it out", col, j.cols.known(), col))
			continue
		}
		if t.kv != "" {
			// a column of one metadata key: its cell is the value
			cur := slices.Clip(in.Values[t.field.Flag])
			for _, v := range vals {
				cur = append(cur, t.kv+"="+v)
			}
			in.Values[t.field.Flag] = cur
			continue
		}
		if t.field == nil {
			if t.arg < j.cols.given {
				probs = append(probs, fmt.Sprintf("field %q gives %s, which the command line gives already", col, j.cols.args[t.arg]))
				continue
			}
			if len(vals) != 1 {
				probs = append(probs, fmt.Sprintf("%s takes one value, got %d", j.cols.args[t.arg], len(vals)))
				complete = false
				continue
			}
			in.Args[t.arg] = vals[0]
			continue
		}
		in.Values[t.field.Flag] = expandKV(t.field, vals)
	}
	for i := j.cols.given; i < len(op.Args.Params); i++ {
		if strings.TrimSpace(in.Args[i]) == "" && complete {
			probs = append(probs, fmt.Sprintf("%s is missing or empty: every row needs one", j.cols.args[i]))
			complete = false
		}
	}
	return in, probs, complete
}

// rowKey is a row's natural key as its results name it.
func (j *fileInput) rowKey(row bulk.Row) string {
	in, _, _ := j.rowInput(row)
	return j.displayKey(in)
}

// expandKV lets a KEY=VALUE field take a JSON object ({"team":"ops"}) in one cell.
func expandKV(fd *opdef.Field, vals []string) []string {
	if fd.Type != opdef.TKV || len(vals) != 1 || !strings.HasPrefix(strings.TrimSpace(vals[0]), "{") {
		return vals
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(vals[0]), &m) != nil {
		return vals
	}
	out := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := string(m[k])
		var s string
		if json.Unmarshal(m[k], &s) == nil {
			v = s
		}
		out = append(out, k+"="+v)
	}
	return out
}

// ignore notes an unknown column left out by --ignore-unknown.
func (j *fileInput) ignore(col string) { j.ignored.Store(col, true) }

// noteIgnored names the columns --ignore-unknown left out.
func (j *fileInput) noteIgnored(io *output.IO, quiet bool) {
	var ignored []string
	j.ignored.Range(func(k, _ any) bool { ignored = append(ignored, k.(string)); return true })
	if len(ignored) == 0 || quiet {
		return
	}
	sort.Strings(ignored)
	q := make([]string, len(ignored))
	for i, c := range ignored {
		q[i] = strconv.Quote(c)
	}
	io.Notice("orgctl: %s: ignoring %s %s (--ignore-unknown)", j.src.name, map[bool]string{true: "column", false: "columns"}[len(q) == 1], strings.Join(q, ", "))
}
