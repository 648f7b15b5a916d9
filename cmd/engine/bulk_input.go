package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
)

// bulkColumns maps a file's column names to the op's fields and arguments.
type bulkColumns struct {
	op    *Op
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
	for _, m := range maps {
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
		case isKV && (t.field == nil || t.field.Kind != KKV || key == ""):
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

// mapTarget is the flag part of a --map side ("metadata" of metadata.team).
func mapTarget(s string) string {
	flag, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(s), "--"), ".")
	return flag
}

// kvFlags names the op's KEY=VALUE flags, for --map's errors.
func (b *bulkColumns) kvFlags() string {
	var out []string
	for _, fd := range b.op.Fields {
		if fd.Kind == KKV {
			out = append(out, fd.Flag+".KEY")
		}
	}
	if len(out) == 0 {
		return "this command has none"
	}
	return strings.Join(out, ", ")
}

type colTarget struct {
	field *Field
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
func newBulkColumns(op *Op, given int) *bulkColumns {
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
		if fd.In != InLocal && fd.Key != "" {
			add(fd.Key, t)
		}
	}
	uses := argNames(op.Use)
	var userArgs []int
	for i, p := range op.Args {
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
		if k := op.ArgKind(i); k != "" && k != noCompletion {
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
func (j *bulkJob) rowInput(row bulk.Row) (in Input, probs []string, complete bool) {
	op := j.op
	in = Input{Command: j.base.Command, Args: make([]string, len(op.Args)), Values: make(map[string][]string, len(j.base.Values)+len(row.Values))}
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
	for i := j.cols.given; i < len(op.Args); i++ {
		if strings.TrimSpace(in.Args[i]) == "" && complete {
			probs = append(probs, fmt.Sprintf("%s is missing or empty: every row needs one", j.cols.args[i]))
			complete = false
		}
	}
	return in, probs, complete
}

// expandKV lets a KEY=VALUE field take a JSON object ({"team":"ops"}) in one cell.
func expandKV(fd *Field, vals []string) []string {
	if fd.Kind != KKV || len(vals) != 1 || !strings.HasPrefix(strings.TrimSpace(vals[0]), "{") {
		return vals
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(vals[0]), &m) != nil {
		return vals
	}
	out := make([]string, 0, len(m))
	for _, k := range SortedKeys(m) {
		v := string(m[k])
		var s string
		if json.Unmarshal(m[k], &s) == nil {
			v = s
		}
		out = append(out, k+"="+v)
	}
	return out
}

// problemText is a build error as lines of a file's problems: the
// command's name dropped, flags named as the columns they are here.
func (j *bulkJob) problemText(err error) []string {
	var ie *opdef.InputError
	var msgs []string
	if errors.As(err, &ie) {
		msgs = ie.Problems()
	} else {
		msgs = []string{err.Error()}
	}
	out := make([]string, 0, len(msgs))
	for _, m := range msgs {
		m = strings.TrimPrefix(m, j.base.Command+": ")
		if rest, ok := strings.CutPrefix(m, "required flag "); ok {
			m = strings.TrimPrefix(strings.TrimSuffix(rest, " not set"), "--") + " is missing or empty: it is required"
		} else if rest, ok := strings.CutPrefix(m, "required flags "); ok {
			m = strings.ReplaceAll(strings.TrimSuffix(rest, " not set"), "--", "") + " are missing or empty: they are required"
		}
		m = flagRE().ReplaceAllStringFunc(m, func(s string) string {
			if j.op.HasField(s[2:]) {
				return s[2:] // in a file, the flag is a column
			}
			return s
		})
		out = append(out, m)
	}
	return out
}

// checkRow builds one row with stand-ins for names, as the command line
// is checked, so bad values are found before any request.
func (j *bulkJob) checkRow(in Input) (*Call, []string) {
	refs := nameRefs(j.op, in)
	if err := refuseBuiltin(j.op, refs, nil); err != nil {
		return nil, []string{err.Error()}
	}
	c, err := j.op.Build(substitute(in, refs, func(r nameRef) string { return r.stand }), nil)
	if err != nil {
		return nil, j.problemText(err)
	}
	if j.upd != nil {
		var probs []string
		uin := j.updateInput(in, standIn(kinds.ByName[j.op.Exists.Kind], 1))
		for flag := range in.Values {
			if !j.upd.HasField(flag) && !slices.Contains(j.op.Exists.Flags, flag) {
				probs = append(probs, fmt.Sprintf("--on-exists update cannot apply %s: `%s` has no such field", flag, j.updateCommand()))
			}
		}
		if len(probs) > 0 {
			return nil, probs
		}
		urefs := nameRefs(j.upd, uin)
		if _, err := j.upd.Build(substitute(uin, urefs, func(r nameRef) string { return r.stand }), nil); err != nil && !nothingToChange(err) {
			return nil, j.problemText(err)
		}
	}
	return c, nil
}

func nothingToChange(err error) bool { return strings.Contains(err.Error(), "nothing to change") }

func (j *bulkJob) updateCommand() string {
	return strings.TrimSuffix(j.base.Command, strings.Fields(j.op.Use)[0]) + strings.Fields(j.upd.Use)[0]
}

// updateInput is the Input that updates the existing object id with a
// row's values (those the update op has).
func (j *bulkJob) updateInput(in Input, id string) Input {
	out := Input{Command: j.updateCommand(), Args: []string{id}, Values: map[string][]string{}}
	for flag, v := range in.Values {
		if j.upd.HasField(flag) {
			out.Values[flag] = v
		}
	}
	return out
}

var keySeed = maphash.MakeSeed()

var flagRE = LazyRegexp(`--[a-z][a-z0-9-]*`)

// rowKeys are what no two rows may share: the natural keys of what a row
// creates; for a change to one object (PATCH, PUT, DELETE) that object;
// for other changes the whole row (the same line twice).
func (j *bulkJob) rowKeys(in Input) []string {
	op := j.op
	switch {
	case op.Exists != nil && op.Exists.Check != nil:
		var keys []string
		prefix := strings.Join(in.Args, " ")
		for _, fl := range op.Exists.Flags {
			for _, v := range in.Values[fl] {
				for _, part := range strings.Split(v, ",") {
					if p := strings.TrimSpace(part); p != "" {
						keys = append(keys, strings.TrimSpace(prefix+" "+fl+"="+strings.ToLower(p)))
					}
				}
			}
		}
		if len(keys) > 1 && op.Exists.Flags[0] != "user" {
			return []string{strings.Join(keys, " ")} // a grant: subject and object together
		}
		return keys
	case op.Exists != nil:
		return []string{j.naturalKey(in, true)}
	case len(op.Args) > 0 && (op.Method == http.MethodPatch || op.Method == http.MethodPut || op.Method == http.MethodDelete):
		return []string{strings.ToLower(strings.Join(in.Args, " "))}
	}
	parts := append([]string(nil), in.Args...)
	for _, k := range SortedKeys(in.Values) {
		parts = append(parts, k+"="+strings.Join(in.Values[k], ","))
	}
	return []string{strings.Join(parts, " ")}
}

// naturalKey is the text of the key fields ("ada@example.com";
// "app Reports app_1" for a folder), lower-cased when fold is set and the
// kind compares without case.
func (j *bulkJob) naturalKey(in Input, fold bool) string {
	ex := j.op.Exists
	var parts []string
	for _, fl := range ex.Flags {
		if v := in.Values[fl]; len(v) > 0 {
			parts = append(parts, v[len(v)-1])
		}
	}
	k := strings.Join(parts, " ")
	if fold && kinds.ByName[ex.Kind].Fold {
		k = strings.ToLower(k)
	}
	return k
}

// displayKey names a row's object in its result.
func (j *bulkJob) displayKey(in Input) string {
	op := j.op
	switch {
	case op.Exists != nil && op.Exists.Display != nil:
		return op.Exists.Display(in)
	case op.Exists != nil && op.Exists.Check == nil:
		return j.naturalKey(in, false)
	case op.Exists != nil:
		parts := append([]string(nil), in.Args...)
		for _, fl := range op.Exists.Flags {
			parts = append(parts, in.Values[fl]...)
		}
		return strings.Join(parts, " ")
	case len(in.Args) > 0:
		return strings.Join(in.Args, " ")
	}
	for _, fd := range op.Fields {
		if v := in.Values[fd.Flag]; fd.Required && len(v) > 0 {
			return v[len(v)-1]
		}
	}
	return ""
}

// problemList gathers a file's problems by line, listing at most
// maxProblems and counting the rest.
type problemList struct {
	name  string
	lines []string
	n     int
}

func (pl *problemList) add(line int, msg string) {
	pl.n++
	if len(pl.lines) < maxProblems {
		pl.lines = append(pl.lines, fmt.Sprintf("%s:%d: %s", pl.name, line, msg))
	}
}

// report writes the problems and is the error that ends the check, or nil.
func (pl *problemList) report(w io.Writer) error {
	if pl.n == 0 {
		return nil
	}
	for _, p := range pl.lines {
		fmt.Fprintln(w, strings.Replace(p, ":0: (", ": (", 1))
	}
	if pl.n > len(pl.lines) {
		fmt.Fprintf(w, "%s: ... and %s more\n", pl.name, countOf(pl.n-len(pl.lines), "problem"))
	}
	return cli.UsageErrorf("%s: %s; nothing was sent", pl.name, countOf(pl.n, "problem"))
}

// checkHeader checks a CSV's header row. When its columns do not fit the
// command, it says so in a few lines and ends the check: every row would
// only repeat what the header says.
func (j *bulkJob) checkHeader(rd *bulk.Reader, pl *problemList) error {
	cols, hp, err := rd.Header()
	if err != nil {
		return cli.UsageErrorf("%s: %v", j.src.name, err)
	}
	for _, p := range hp {
		pl.add(p.Line, p.Msg)
	}
	h := j.header(cols)
	for _, p := range h.probs {
		pl.add(1, p)
	}
	if h.fits() {
		return nil
	}
	w := j.f.IO.Err
	for _, p := range pl.lines {
		fmt.Fprintln(w, p)
	}
	for _, l := range j.headerLines(h) {
		fmt.Fprintln(w, l)
	}
	how := ""
	if len(cols) == 1 && strings.ContainsAny(cols[0], ",;\t|") {
		how = fmt.Sprintf(" (read as %s-separated; --delimiter sets the separator)", bulk.DelimiterName(rd.Delimiter()))
	}
	return cli.UsageErrorf("%s: the header row does not fit the command%s; nothing was sent", j.src.name, how)
}

// rowProblems are what is wrong with one row: its values, its build with
// stand-ins, a key an earlier row has (keys: key -> its first line).
func (j *bulkJob) rowProblems(row bulk.Row, keys map[uint64]int, unknownCol map[string]int) (Input, *Call, []string) {
	var probs []string
	in, rp, complete := j.rowInput(row)
	for _, m := range rp {
		if strings.HasPrefix(m, "unknown field ") {
			if unknownCol[m]++; unknownCol[m] > 1 {
				continue
			}
		}
		probs = append(probs, m)
	}
	if !complete {
		return in, nil, probs
	}
	c, bp := j.checkRow(in)
	probs = append(probs, bp...)
	for _, k := range j.rowKeys(in) {
		if strings.TrimSpace(k) == "" {
			continue // no key: the row's own problem says what is missing
		}
		hk := maphash.String(keySeed, k)
		if first, dup := keys[hk]; dup {
			probs = append(probs, fmt.Sprintf("duplicate key %q: line %d has it too (each object once per file)", k, first))
			continue
		}
		keys[hk] = row.Line
	}
	return in, c, probs
}

// check is the first pass: every row is read, mapped and built with
// stand-ins for names; every problem is listed by line, and nothing is sent
// unless there is none. It also hashes the input (the job's identity) and
// counts the requests the rows will send.
func (j *bulkJob) check() error {
	rc, err := j.src.open()
	if err != nil {
		return err
	}
	defer rc.Close()
	h := bulk.InputHash()
	rd := j.reader(io.TeeReader(rc, h))
	pl := &problemList{name: j.src.name}
	if j.o.format == bulk.CSV {
		if err := j.checkHeader(rd, pl); err != nil {
			return err
		}
	}
	j.requests = map[string]*requestTally{}
	j.names = map[string]map[uint64]bool{}
	j.shared = map[uint64]bool{}
	j.subjects = map[uint64]bool{}
	j.batched = map[string]int{}
	j.joinKeys = map[string]bool{}
	j.invalid = map[int]string{}
	keys := map[uint64]int{}
	unknownCol := map[string]int{} // JSON Lines: an unknown field is reported once, with how often
	for {
		row, err := rd.Next()
		if err == io.EOF {
			break
		}
		var p *bulk.Problem
		if errors.As(err, &p) {
			if p.Row > 0 && j.o.skipInvalid { // a row, unfit to send: left unsent
				j.rows++
				j.invalid[p.Row] = p.Msg
				continue
			}
			pl.add(p.Line, p.Msg)
			continue
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", j.src.name, err)
		}
		j.rows++
		in, c, rowProbs := j.rowProblems(row, keys, unknownCol)
		if len(rowProbs) > 0 && j.o.skipInvalid {
			j.invalid[row.N] = strings.Join(rowProbs, "; ")
			continue
		}
		for _, m := range rowProbs {
			pl.add(row.Line, m)
		}
		if c != nil && len(rowProbs) == 0 {
			j.tally(in, c)
		}
	}
	for m, n := range unknownCol {
		if n > 1 {
			pl.add(0, fmt.Sprintf("(%s on %d lines in all)", m, n))
		}
	}
	j.bySubject = !j.notBySubject && len(j.subjects) > 0 && len(j.subjects) < len(j.shared)
	if j.src.sum != nil {
		j.sum = j.src.sum
	} else {
		j.sum = h.Sum(nil)
	}
	if err := pl.report(j.f.IO.Err); err != nil {
		return err
	}
	if j.rows == 0 {
		return cli.UsageErrorf("%s has no rows: nothing to do", j.src.name)
	}
	j.noteIgnored()
	return nil
}

// noteIgnored names the columns --ignore-unknown left out.
func (j *bulkJob) noteIgnored() {
	var ignored []string
	j.ignored.Range(func(k, _ any) bool { ignored = append(ignored, k.(string)); return true })
	if len(ignored) == 0 || j.e.quiet() {
		return
	}
	sort.Strings(ignored)
	q := make([]string, len(ignored))
	for i, c := range ignored {
		q[i] = strconv.Quote(c)
	}
	j.f.IO.Notice("orgctl: %s: ignoring %s %s (--ignore-unknown)", j.src.name, map[bool]string{true: "column", false: "columns"}[len(q) == 1], strings.Join(q, ", "))
}
