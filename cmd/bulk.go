package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// bulkOptions are the flags of a run over a file, beside the op's own.
type bulkOptions struct {
	from     string
	format   bulk.Format
	parallel int
	onExists string
	restart  bool
	report   string
}

const (
	defaultParallel = 8
	maxParallel     = 64
	// maxProblems bounds the problems listed; the rest are counted.
	maxProblems = 100
)

var onExistsModes = []string{"fail", "skip", "update"}

// bulkOnly are the flags that mean something only with --from.
var bulkOnly = []string{"from-format", "parallel", "restart", "report", "on-exists"}

// addBulkFlags gives a write command its --from flags.
func addBulkFlags(op *Op, c *cobra.Command) {
	fl := c.Flags()
	fl.String("from", "", "run the command once per row of `FILE`: CSV with a header row naming flags or arguments, or JSON Lines (- for stdin)")
	fl.String("from-format", "", "format of --from: csv or jsonl (default: by the file's extension, else csv)")
	fl.Int("parallel", defaultParallel, "with --from, rows in flight at once (the rate budget still paces every request)")
	fl.Bool("restart", false, "with --from, forget what earlier runs of the same job recorded and start over")
	fl.String("report", "", "with --from, also write each row's result to `FILE` as CSV")
	c.RegisterFlagCompletionFunc("from-format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return bulk.Formats, cobra.ShellCompDirectiveNoFileComp
	})
	if op.Exists != nil {
		fl.String("on-exists", "fail", "with --from, a row whose object already exists: fail (report it), skip, or update it")
		c.RegisterFlagCompletionFunc("on-exists", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return onExistsModes, cobra.ShellCompDirectiveNoFileComp
		})
	}
}

func fromFile(c *cobra.Command) bool {
	f := c.Flags().Lookup("from")
	return f != nil && f.Changed
}

// bulkFlags reads the --from flags; ok is false when there is no --from.
func bulkFlags(op *Op, c *cobra.Command) (o bulkOptions, ok bool, err error) {
	fl := c.Flags()
	if !fromFile(c) {
		for _, n := range bulkOnly {
			if f := fl.Lookup(n); f != nil && f.Changed {
				return o, false, usageErrorf("--%s goes with --from FILE", n)
			}
		}
		return o, false, nil
	}
	o.from, _ = fl.GetString("from")
	o.parallel, _ = fl.GetInt("parallel")
	o.restart, _ = fl.GetBool("restart")
	o.report, _ = fl.GetString("report")
	o.onExists = "fail"
	if op.Exists != nil {
		o.onExists, _ = fl.GetString("on-exists")
	}
	format, _ := fl.GetString("from-format")
	switch {
	case strings.TrimSpace(o.from) == "":
		return o, true, usageErrorf("--from needs a file name, or - for stdin")
	case o.parallel < 1 || o.parallel > maxParallel:
		return o, true, usageErrorf("invalid --parallel %d: give 1 to %d", o.parallel, maxParallel)
	case !contains(onExistsModes, o.onExists):
		return o, true, usageErrorf("invalid --on-exists %q: use fail, skip or update", o.onExists)
	case fl.Changed("body"):
		return o, true, usageErrorf("--body and --from cannot be used together: put the fields in the file's columns")
	}
	if op.Exists != nil && op.Exists.Check == nil && o.onExists == "update" && op.sibling(op.Exists.Update) == nil {
		return o, true, usageErrorf("%s cannot update an existing object (the API has no such change): use --on-exists skip or fail", c.CommandPath())
	}
	if format != "" {
		if o.format, err = bulk.ParseFormat(format); err != nil {
			return o, true, &UsageError{err}
		}
	} else {
		o.format = bulk.FormatOf(o.from)
	}
	return o, true, nil
}

// bulkColumnsExample names a few of an op's columns for its help.
func bulkColumnsExample(op *Op) string {
	var names []string
	for _, a := range argNames(op.Use) {
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

// sibling is the op of the same group whose Use starts with word.
func (op *Op) sibling(word string) *Op {
	if word == "" {
		return nil
	}
	for i := range op.siblings {
		if w := strings.Fields(op.siblings[i].Use); len(w) > 0 && w[0] == word {
			return &op.siblings[i]
		}
	}
	return nil
}

// bulkJob is one run of an op over the rows of a file.
type bulkJob struct {
	f     *Factory
	e     *Engine
	op    *Op
	cmd   *cobra.Command
	o     bulkOptions
	ro    RunOptions
	base  Input // the command line: its flags apply to every row
	src   bulkSource
	cols  *bulkColumns
	upd   *Op // what --on-exists update runs
	store bulk.Store
	bc    ratebudget.Config // read once: viper is slow enough to matter per row

	// learned by the check pass
	rows     int
	sum      []byte
	points   int // the rows' own requests (main, reads, follow-ups)
	requests map[string]*requestTally
	names    map[string]map[uint64]bool // resolve kind -> distinct names
	shared   map[uint64]bool            // distinct reads Existence.Check shares

	// while running
	conn    *connection
	lookup  *resolve.Resolver // the job's one resolver, made before the workers start
	runner  *bulk.Runner
	lk      *bulkLookups
	snaps   sync.Map // resolve kind -> *kindSnapshot
	changed sync.Map // resolve kinds this run created objects of
	replays sync.Map // row -> true: resent because an earlier run lost its answer
	warmed  sync.Map // resolve kinds listed whole for the names of many rows
	fatal   atomic.Pointer[error]
	cancel  context.CancelCauseFunc
	out     *output.Records
	report  *output.CSVRecords
	outMu   sync.Mutex
}

// requestTally counts one kind of request for the dry run.
type requestTally struct {
	method, path, note string
	n, cost            int
}

// bulkSource is the input file, or stdin spooled to one.
type bulkSource struct {
	name    string // as shown in messages: the path given, or "stdin"
	path    string
	spooled bool
	sum     []byte // known before reading for stdin
}

func (s *bulkSource) open() (io.ReadCloser, error) {
	f, err := os.Open(s.path)
	if err != nil {
		return nil, usageErrorf("--from: %v", err)
	}
	return f, nil
}

// runBulk is a command's run with --from: check every row, then run them.
func runBulk(ctx context.Context, f *Factory, op *Op, c *cobra.Command, args []string, o bulkOptions) error {
	base, ro := parseFlags(op, c, args)
	e, err := newEngine(f)
	if err != nil {
		return err
	}
	j := &bulkJob{f: f, e: e, op: op, cmd: c, o: o, ro: ro, base: base,
		store: bulk.Store{Dir: filepath.Join(stateDir(), "jobs")}, bc: budgetConfig(e.cfg)}
	if op.Exists != nil && op.Exists.Check == nil && o.onExists == "update" {
		j.upd = op.sibling(op.Exists.Update)
	}
	j.cols = newBulkColumns(op, len(args))
	if err := j.openSource(); err != nil {
		return err
	}
	defer func() {
		if j.src.spooled {
			os.Remove(j.src.path)
		}
	}()
	if err := j.check(); err != nil {
		return err
	}
	if ro.DryRun {
		return j.dryRun()
	}
	return j.run(ctx)
}

func (j *bulkJob) openSource() error {
	if j.o.from != "-" {
		j.src = bulkSource{name: j.o.from, path: j.o.from}
		fi, err := os.Stat(j.o.from)
		if err != nil {
			return usageErrorf("--from: %v", err)
		}
		if fi.IsDir() {
			return usageErrorf("--from %s is a directory", j.o.from)
		}
		return nil
	}
	if j.f.IO.InTTY {
		return usageErrorf("--from -: stdin is a terminal; pipe the rows in (orgctl ... --from - < people.csv)")
	}
	path, sum, err := j.store.Spool(j.f.IO.In)
	if err != nil {
		return fmt.Errorf("reading stdin: %w", err)
	}
	j.src = bulkSource{name: "stdin", path: path, spooled: true, sum: sum}
	return nil
}

// bulkColumns maps a file's column names to the op's fields and arguments.
type bulkColumns struct {
	op    *Op
	given int // positional arguments given on the command line
	names map[string]colTarget
	args  []string // how each argument is named as a column ("user-id")
	mu    sync.Mutex
	seen  map[string]colTarget // columns as spelled
}

type colTarget struct {
	field *Field
	arg   int // the argument's index, when field is nil
}

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
	for i, p := range op.Args {
		name := p
		if i < len(uses) {
			name = strings.ReplaceAll(strings.ToLower(strings.Trim(uses[i], "[]")), "_", "-")
		}
		b.args = append(b.args, name)
		add(name, colTarget{arg: i})
		add(strings.ReplaceAll(name, "-", "_"), colTarget{arg: i})
		add(p, colTarget{arg: i})
	}
	return b
}

func (b *bulkColumns) target(col string) (colTarget, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if t, ok := b.seen[col]; ok {
		return t, true
	}
	t, ok := b.names[strings.ToLower(strings.TrimSpace(col))]
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

// header checks a CSV header: every column names something, nothing is
// named twice, required fields and arguments are there.
func (j *bulkJob) header(cols []string) []string {
	var probs []string
	have := map[string]string{} // target -> column
	for _, col := range cols {
		if col == "" {
			continue
		}
		t, ok := j.cols.target(col)
		if !ok {
			probs = append(probs, fmt.Sprintf("unknown column %q: columns are named like the command's flags or arguments (%s) or the API's keys", col, j.cols.known()))
			continue
		}
		name := j.cols.targetName(t)
		if t.field == nil && t.arg < j.cols.given {
			probs = append(probs, fmt.Sprintf("column %q gives %s, which the command line gives already: drop one", col, name))
			continue
		}
		if prev, dup := have[name]; dup {
			probs = append(probs, fmt.Sprintf("columns %q and %q both give %s: drop one", prev, col, name))
			continue
		}
		have[name] = col
	}
	for _, fd := range j.op.Fields {
		if fd.Required && have[fd.Flag] == "" && len(j.base.Values[fd.Flag]) == 0 {
			probs = append(probs, fmt.Sprintf("missing column %q: it is required (or give --%s on the command line for every row)", fd.Flag, fd.Flag))
		}
	}
	for i := j.cols.given; i < len(j.op.Args); i++ {
		if have[j.cols.args[i]] == "" {
			probs = append(probs, fmt.Sprintf("missing column %q: the %s argument (or give it on the command line for every row)",
				j.cols.args[i], strings.ToUpper(strings.ReplaceAll(j.cols.args[i], "-", "_"))))
		}
	}
	return probs
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
	sort.Strings(cols) // problems in a stable order
	for _, col := range cols {
		vals := row.Values[col]
		t, ok := j.cols.target(col)
		if !ok {
			if j.o.format == bulk.CSV {
				continue
			}
			probs = append(probs, fmt.Sprintf("unknown field %q: fields are named like the command's flags or arguments (%s) or the API's keys", col, j.cols.known()))
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
	for _, k := range sortedKeys(m) {
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
	var ie *inputError
	var msgs []string
	if errors.As(err, &ie) {
		msgs = ie.problems
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
		m = flagRE.ReplaceAllStringFunc(m, func(s string) string {
			if j.op.hasField(s[2:]) {
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
	refs := j.op.nameRefs(in)
	c, err := j.op.build(substitute(in, refs, func(r nameRef) string { return r.stand }), nil)
	if err != nil {
		return nil, j.problemText(err)
	}
	if j.upd != nil {
		var probs []string
		uin := j.updateInput(in, standIn(resolve.Kinds[j.op.Exists.Kind], 1))
		for flag := range in.Values {
			if !j.upd.hasField(flag) && !contains(j.op.Exists.Flags, flag) {
				probs = append(probs, fmt.Sprintf("--on-exists update cannot apply %s: `%s` has no such field", flag, j.updateCommand()))
			}
		}
		if len(probs) > 0 {
			return nil, probs
		}
		urefs := j.upd.nameRefs(uin)
		if _, err := j.upd.build(substitute(uin, urefs, func(r nameRef) string { return r.stand }), nil); err != nil && !nothingToChange(err) {
			return nil, j.problemText(err)
		}
	}
	return c, nil
}

func (op *Op) hasField(flag string) bool {
	for _, fd := range op.Fields {
		if fd.Flag == flag {
			return true
		}
	}
	return false
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
		if j.upd.hasField(flag) {
			out.Values[flag] = v
		}
	}
	return out
}

var keySeed = maphash.MakeSeed()

var flagRE = regexp.MustCompile(`--[a-z][a-z0-9-]*`)

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
	for _, k := range sortedKeys(in.Values) {
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
	if fold && resolve.Kinds[ex.Kind].Fold {
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
	rd := bulk.NewReader(io.TeeReader(rc, h), j.o.format)
	var probs []string
	nprobs := 0
	add := func(line int, msg string) {
		nprobs++
		if len(probs) < maxProblems {
			probs = append(probs, fmt.Sprintf("%s:%d: %s", j.src.name, line, msg))
		}
	}
	if j.o.format == bulk.CSV {
		cols, hp, err := rd.Header()
		if err != nil {
			return usageErrorf("%s: %v", j.src.name, err)
		}
		for _, p := range hp {
			add(p.Line, p.Msg)
		}
		for _, p := range j.header(cols) {
			add(1, p)
		}
	}
	j.requests = map[string]*requestTally{}
	j.names = map[string]map[uint64]bool{}
	j.shared = map[uint64]bool{}
	keys := map[uint64]int{}
	unknownCol := map[string]int{} // JSON Lines: an unknown field is reported once, with how often
	for {
		row, err := rd.Next()
		if err == io.EOF {
			break
		}
		var p *bulk.Problem
		if errors.As(err, &p) {
			add(p.Line, p.Msg)
			continue
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", j.src.name, err)
		}
		j.rows++
		in, rp, complete := j.rowInput(row)
		for _, m := range rp {
			if strings.HasPrefix(m, "unknown field ") {
				if unknownCol[m]++; unknownCol[m] > 1 {
					continue
				}
			}
			add(row.Line, m)
		}
		if !complete {
			continue
		}
		c, bp := j.checkRow(in)
		for _, m := range bp {
			add(row.Line, m)
		}
		for _, k := range j.rowKeys(in) {
			hk := maphash.String(keySeed, k)
			if first, dup := keys[hk]; dup {
				add(row.Line, fmt.Sprintf("duplicate key %q: line %d has it too (each object once per file)", k, first))
				continue
			}
			keys[hk] = row.Line
		}
		if c != nil {
			j.tally(in, c)
		}
	}
	for m, n := range unknownCol {
		if n > 1 {
			add(0, fmt.Sprintf("(%s on %d lines in all)", m, n))
		}
	}
	if j.src.sum != nil {
		j.sum = j.src.sum
	} else {
		j.sum = h.Sum(nil)
	}
	if nprobs > 0 {
		w := j.f.IO.Err
		for _, p := range probs {
			fmt.Fprintln(w, strings.Replace(p, ":0: (", ": (", 1))
		}
		if nprobs > len(probs) {
			fmt.Fprintf(w, "%s: ... and %d more problems\n", j.src.name, nprobs-len(probs))
		}
		noun := "problems"
		if nprobs == 1 {
			noun = "problem"
		}
		return usageErrorf("%s: %d %s; nothing was sent", j.src.name, nprobs, noun)
	}
	if j.rows == 0 {
		return usageErrorf("%s has no rows: nothing to do", j.src.name)
	}
	return nil
}

// tally counts a checked row's requests and lookups for the dry run and
// the ETA.
func (j *bulkJob) tally(in Input, c *Call) {
	bc := j.bc
	count := func(method, path, note string) int {
		k := method + " " + path + " " + note
		t := j.requests[k]
		if t == nil {
			t = &requestTally{method: method, path: path, note: note, cost: bc.Cost(path)}
			j.requests[k] = t
		}
		t.n++
		return t.cost
	}
	pts := 0
	for _, r := range c.Reads {
		pts += count(r.Method, j.op.Path, "reads the current state first")
	}
	path := j.op.Path
	if c.Path != "" {
		path = c.Path
	}
	pts += count(j.op.Method, path, "")
	for _, t := range c.Then {
		pts += count("", t.Path, t.What)
	}
	j.points += pts
	for _, r := range j.op.nameRefs(in) {
		set := j.names[r.Kind.Name]
		if set == nil {
			set = map[uint64]bool{}
			j.names[r.Kind.Name] = set
		}
		set[maphash.String(keySeed, strings.ToLower(r.Text))] = true
	}
	if ex := j.op.Exists; ex != nil && ex.Shared != nil {
		if s := ex.Shared(in); s != "" {
			j.shared[maphash.String(keySeed, s)] = true
		}
	}
}

// lookups are the reads the job sends besides the rows' own requests:
// names (one filtered request per user, one list per other kind), the
// lists a family without conflicts is checked against, and shared reads.
func (j *bulkJob) lookups() []requestTally {
	bc := j.bc
	var out []requestTally
	kinds := sortedKeys(j.names)
	for _, k := range kinds {
		kd := resolve.Kinds[k]
		n := 1
		note := "looks up names (one list)"
		if kd.Filter != "" && len(j.names[k]) == 1 {
			note = "looks up a name"
		}
		out = append(out, requestTally{method: http.MethodGet, path: kd.List, note: note, n: n, cost: bc.Cost(kd.List)})
	}
	if ex := j.op.Exists; ex != nil {
		switch {
		case ex.Check != nil && len(j.shared) > 0:
			out = append(out, requestTally{method: http.MethodGet, path: ex.CheckPath, note: "looks for what is already there",
				n: len(j.shared), cost: bc.Cost(ex.CheckPath)})
		case ex.Check == nil && !ex.Conflict:
			kd := resolve.Kinds[ex.Kind]
			if _, listed := j.names[ex.Kind]; !listed {
				out = append(out, requestTally{method: http.MethodGet, path: kd.List, note: "looks for existing ones (one list)", n: 1, cost: bc.Cost(kd.List)})
			}
		}
	}
	return out
}

// dryRun prints how many requests the rows would send, their points and
// how long the budget would take, and sends nothing.
func (j *bulkJob) dryRun() error {
	var earlier int
	prior := j.priorState()
	if prior != nil {
		earlier = prior.Counts()[string(bulk.Created)] + prior.Counts()[string(bulk.Updated)] +
			prior.Counts()[string(bulk.Deleted)] + prior.Counts()[string(bulk.Skipped)]
	}
	reqs := make([]requestTally, 0, len(j.requests))
	for _, k := range sortedKeys(j.requests) {
		reqs = append(reqs, *j.requests[k])
	}
	scale := func(n int) int { // rows an earlier run applied are skipped
		if earlier == 0 || j.rows == 0 {
			return n
		}
		return n * (j.rows - earlier) / j.rows
	}
	look := j.lookups()
	total, points := 0, 0
	for i := range reqs {
		reqs[i].n = scale(reqs[i].n)
		total += reqs[i].n
		points += reqs[i].n * reqs[i].cost
	}
	for _, r := range look {
		total += r.n
		points += r.n * r.cost
	}
	bc := j.bc
	eta, etaKnown, free := time.Duration(0), false, -1
	if conn, err := j.f.connection(); err == nil {
		if st, err := conn.ledger.Status(); err == nil {
			eta, etaKnown, free = budgetETA(st, points), true, st.Free
		}
	}
	if structured(j.e.printer) {
		doc := map[string]any{"rows": j.rows, "requests": total, "points": points, "input": j.src.name}
		if earlier > 0 {
			doc["applied_earlier"] = earlier
		}
		var list []map[string]any
		for _, r := range append(reqs, look...) {
			e := map[string]any{"method": r.method, "path": "/api/v2" + r.path, "count": r.n, "points": r.n * r.cost}
			if r.note != "" {
				e["note"] = r.note
			}
			list = append(list, e)
		}
		doc["by_request"] = list
		if etaKnown {
			doc["eta_seconds"] = eta.Seconds()
		}
		b, err := marshalText(doc)
		if err != nil {
			return err
		}
		return j.e.printer.Print(b, nil)
	}
	w := j.f.IO.Out
	fmt.Fprintf(w, "%s: %d rows, all valid\n", j.src.name, j.rows)
	if earlier > 0 {
		fmt.Fprintf(w, "%d rows were applied by an earlier run of this job and would be skipped\n", earlier)
	}
	fmt.Fprintln(w, "would send:")
	var lines [][2]string
	width := 0
	for _, r := range append(reqs, look...) {
		if r.n == 0 {
			continue
		}
		what := r.method + " /api/v2" + r.path
		if r.method == "" {
			what = "then " + r.note
		} else if r.note != "" {
			what += " (" + r.note + ")"
		}
		width = max(width, len(what))
		lines = append(lines, [2]string{fmt.Sprintf("%6d x ", r.n), what + "\x00" + fmt.Sprintf("%2d points each = %d", r.cost, r.n*r.cost)})
	}
	for _, l := range lines {
		what, cost, _ := strings.Cut(l[1], "\x00")
		fmt.Fprintf(w, "  %s%-*s  %s\n", l[0], width, what, cost)
	}
	if earlier == 0 && j.op.Exists != nil && j.op.Exists.Conflict && j.o.onExists != "fail" {
		kd := resolve.Kinds[j.op.Exists.Kind]
		fmt.Fprintf(w, "  and for each row that already exists one lookup (GET /api/v2%s, %d points)\n", kd.List, bc.Cost(kd.List))
	}
	fmt.Fprintf(w, "total: %d requests, %d points\n", total, points)
	if etaKnown {
		fmt.Fprintf(w, "budget: %d points per %s, %d free now: about %s\n", bc.Points-bc.Reserve, bc.Window, free, output.Duration(eta))
	} else {
		fmt.Fprintf(w, "budget: %d points per %s: at least %s (not logged in, so the points already spent are unknown)\n",
			bc.Points-bc.Reserve, bc.Window, output.Duration(budgetETA(ratebudget.Status{Points: bc.Points, Reserve: bc.Reserve,
				Free: bc.Points - bc.Reserve, Window: bc.Window}, points)))
	}
	fmt.Fprintln(w, "nothing sent (--dry-run)")
	return nil
}

// budgetETA is how long spending points takes under the budget as it
// stands: what is free goes now, then a window's worth each time the
// points in use expire; a block adds its remaining time.
func budgetETA(st ratebudget.Status, points int) time.Duration {
	capacity := st.Points - st.Reserve
	if capacity <= 0 || st.Window <= 0 {
		return 0
	}
	now := time.Now()
	var wait time.Duration
	free := st.Free
	if st.BlockedUntil.After(now) {
		wait, free = st.BlockedUntil.Sub(now), capacity
	}
	need := points - free
	if need <= 0 {
		return wait
	}
	// The first points to come back are those in use now (or, if none are,
	// those just spent, a window from now).
	first := st.Window
	if !st.NextFree.IsZero() && st.NextFree.After(now) {
		first = st.NextFree.Sub(now)
	}
	windows := float64(need)/float64(capacity) - 1
	return wait + first + time.Duration(max(0, windows)*float64(st.Window))
}

// priorState is the journal of this job, if an earlier run left one and
// the target is known (for the dry run).
func (j *bulkJob) priorState() *bulk.State {
	conn, err := j.f.connection()
	if err != nil {
		return nil
	}
	st, err := bulk.Load(j.store.JournalPath(j.jobID(conn.target.BaseURL)))
	if err != nil || j.o.restart {
		return nil
	}
	return st
}

// idFlags are the flags that decide a job's requests, as its identity
// takes them: not how it runs or prints.
func (j *bulkJob) idFlags() []string {
	skip := map[string]bool{"from": true, "parallel": true, "report": true, "restart": true, "dry-run": true, "yes": true}
	var out []string
	j.cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Changed && !skip[f.Name] {
			out = append(out, "--"+f.Name+"="+f.Value.String())
		}
	})
	for i, a := range j.base.Args {
		out = append(out, "arg"+strconv.Itoa(i)+"="+a)
	}
	sort.Strings(out)
	return out
}

func (j *bulkJob) jobID(target string) string {
	return bulk.JobID(j.cmd.CommandPath(), j.idFlags(), target, j.sum)
}

// bulkPacer paces a job's requests through the ledger like any other, with
// two differences: a stopped job stops waiting for budget (a request that
// has its budget is sent and answered), and the moment a row's change gets
// its budget the journal hears it is leaving.
type bulkPacer struct {
	next client.Pacer
	stop context.Context
}

type leavingKey struct{}

func (p *bulkPacer) Acquire(ctx context.Context, path string) (client.Ticket, error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(p.stop, cancel)()
	t, err := p.next.Acquire(wctx, path)
	if err == nil {
		if leaving, ok := ctx.Value(leavingKey{}).(func()); ok {
			leaving()
		}
	}
	return t, err
}

func (p *bulkPacer) Blocked(d time.Duration) error { return p.next.Blocked(d) }

// resultFields are the columns of a job's results, on stdout and in --report.
var resultFields = []output.Field{
	{Name: "row", Header: "ROW", Width: 5},
	{Name: "line", Header: "LINE", Width: 6},
	{Name: "key", Header: "KEY", Width: 28},
	{Name: "outcome", Header: "OUTCOME", Width: 8},
	{Name: "id", Header: "ID", Width: 37}, // user ids are 37 characters
	{Name: "message", Header: "MESSAGE"},
}

// run is the second pass: the rows run through the runner, the journal
// records them, results go to stdout as they come.
func (j *bulkJob) run(parent context.Context) error {
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	j.cancel = cancel
	conn, err := j.f.connectWith(connectOptions{
		notify:    func(ratebudget.Wait) {}, // the progress shows waits
		pacer:     func(p client.Pacer) client.Pacer { return &bulkPacer{next: p, stop: ctx} },
		idleConns: j.o.parallel + 2,
	})
	if err != nil {
		return err
	}
	j.f.useConnection(conn)
	j.conn = conn
	id := j.jobID(conn.target.BaseURL)
	unlock, err := j.store.Lock(id)
	if errors.Is(err, bulk.ErrBusy) {
		return fmt.Errorf("job %s (this command on this input) is running in another process; wait for it, or see `orgctl jobs show %s`", id, id)
	}
	if err != nil {
		return fmt.Errorf("jobs: %w", err)
	}
	defer unlock()
	if j.src.spooled {
		kept, err := j.store.Keep(j.src.path, id)
		if err != nil {
			return fmt.Errorf("keeping stdin for job %s: %w", id, err)
		}
		j.src.path, j.src.spooled = kept, false
	}
	if j.o.restart {
		if err := j.store.Restart(id); err != nil {
			return fmt.Errorf("jobs: %w", err)
		}
	}
	path := j.store.JournalPath(id)
	prior, err := bulk.Load(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("job %s: %w; `orgctl jobs rm %s` forgets it", id, err, id)
	}
	if j.op.Destructive && !j.ro.Yes {
		if err := j.confirm(); err != nil {
			return err
		}
	}
	var jr *bulk.Journal
	if prior != nil {
		jr, err = bulk.Reopen(path, prior)
		if !j.e.quiet() {
			c := prior.Counts()
			applied := c["created"] + c["updated"] + c["deleted"] + c["skipped"]
			j.f.IO.Notice("orgctl: resuming job %s: %d of %d rows applied by earlier runs, %d to settle by a lookup",
				id, applied, j.rows, c["unknown"])
		}
	} else {
		jr, err = bulk.Create(path, bulk.Header{ID: id, Command: j.cmd.CommandPath(), Args: j.base.Args, Flags: j.idFlags(),
			Input: j.src.name, Format: j.o.format, Rows: j.rows, Target: conn.target.BaseURL, Created: time.Now().UTC()})
	}
	if err != nil {
		return fmt.Errorf("job %s: %w", id, err)
	}
	jr.Run()
	if j.o.report != "" {
		rf, err := os.Create(j.o.report)
		if err != nil {
			jr.Close()
			return usageErrorf("--report: %v", err)
		}
		defer rf.Close()
		j.report = output.NewCSVRecords(rf, resultFields)
	}
	j.lk = &bulkLookups{f: j.f}
	if j.lookup, err = j.e.resolver(); err != nil {
		jr.Close()
		return err
	}
	j.out = output.NewRecords(j.e.printer, resultFields)
	runner := &bulk.Runner{Parallel: j.o.parallel, Journal: jr, Prior: prior, Handler: j, Emit: j.emit}
	j.runner = runner
	var prog *output.Progress
	if !j.e.quiet() {
		prog = &output.Progress{W: j.f.IO.Err, TTY: j.f.IO.ErrTTY, Stats: j.stats}
		if j.f.IO.ErrTTY && j.f.IO.OutTTY {
			j.out.Around = prog.Pause
		}
		prog.Start()
	}
	onChange := j.f.onChange
	j.f.onChange = nil // told once at the end, not per row
	start := time.Now()
	rows, err := j.rowSource()
	if err != nil {
		jr.Close()
		return err
	}
	counts, stopped, runErr := runner.Run(ctx, rows.next)
	rows.close()
	if prog != nil {
		prog.Stop()
	}
	if !stopped && runErr == nil {
		jr.End(countsText(counts))
	}
	jerr := jr.Close()
	if onChange != nil && (counts[bulk.Created]+counts[bulk.Updated]+counts[bulk.Deleted]) > 0 {
		onChange(ratebudget.Family(j.op.Path))
	}
	if runErr != nil {
		return runErr
	}
	if jerr != nil {
		j.f.IO.Warn("the job's journal could not be written (%v): a rerun may not know which rows were applied", jerr)
	}
	if fp := j.fatal.Load(); fp != nil {
		j.summary(id, counts, time.Since(start), true)
		return *fp
	}
	j.summary(id, counts, time.Since(start), stopped)
	switch {
	case counts[bulk.Unknown] > 0:
		return &ExitError{Code: ExitOutcomeUnknown}
	case stopped:
		return &ExitError{Code: ExitFailure} // main reports the signal and exits 130/143
	case counts[bulk.Failed] > 0:
		return &ExitError{Code: ExitFailure}
	}
	return nil
}

func countsText(c bulk.Counts) map[string]int {
	out := map[string]int{}
	for k, v := range c {
		out[string(k)] = v
	}
	return out
}

// rowReader is the second pass over the input.
type rowReader struct {
	rc io.ReadCloser
	rd *bulk.Reader
}

func (j *bulkJob) rowSource() (*rowReader, error) {
	rc, err := j.src.open()
	if err != nil {
		return nil, err
	}
	rd := bulk.NewReader(rc, j.o.format)
	if j.o.format == bulk.CSV {
		if _, _, err := rd.Header(); err != nil {
			rc.Close()
			return nil, err
		}
	}
	return &rowReader{rc: rc, rd: rd}, nil
}

func (r *rowReader) next() (bulk.Row, error) {
	for {
		row, err := r.rd.Next()
		var p *bulk.Problem
		if errors.As(err, &p) {
			return row, fmt.Errorf("the input changed after it was checked (line %d: %s); nothing more was sent", p.Line, p.Msg)
		}
		return row, err
	}
}

func (r *rowReader) close() { r.rc.Close() }

// confirm asks once for the whole file.
func (j *bulkJob) confirm() error {
	io := j.f.IO
	what := fmt.Sprintf("%s on the %d rows of %s", j.cmd.CommandPath(), j.rows, j.src.name)
	if !io.InTTY || !io.ErrTTY || j.src.name == "stdin" {
		return usageErrorf("refusing to run `%s` without confirmation: pass --yes", what)
	}
	fmt.Fprintf(io.Err, "Run `%s`? This cannot be undone. [y/N] ", what)
	var line string
	fmt.Fscanln(io.In, &line)
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	return ErrCancelled
}

// stats feed the progress display; the ETA comes from the budget, not
// from the rate so far.
func (j *bulkJob) stats() output.ProgressStats {
	done, failed, unknown, earlier := j.runner.Progress()
	s := output.ProgressStats{Done: done, Total: j.rows, Failed: failed, Unknown: unknown, Earlier: earlier}
	if st, err := j.conn.ledger.Status(); err == nil && j.rows > 0 {
		left := j.points * (j.rows - done) / j.rows
		s.ETA, s.ETAKnown = budgetETA(st, left), true
	}
	return s
}

func (j *bulkJob) emit(r bulk.Result) {
	j.outMu.Lock()
	defer j.outMu.Unlock()
	vals := []any{r.Row, r.Line, r.Key, string(r.Outcome), r.ID, r.Message}
	if err := j.out.Write(vals...); err != nil && j.fatal.Load() == nil {
		err = fmt.Errorf("writing results: %w", err)
		j.fatal.Store(&err)
		j.cancel(err)
	}
	if j.report != nil {
		j.report.Write(vals...)
	}
}

// summary is the last word on stderr.
func (j *bulkJob) summary(id string, c bulk.Counts, took time.Duration, stopped bool) {
	if j.e.quiet() && !stopped && c[bulk.Failed] == 0 && c[bulk.Unknown] == 0 {
		return
	}
	io := j.f.IO
	var parts []string
	for _, o := range []bulk.Outcome{bulk.Created, bulk.Updated, bulk.Deleted, bulk.Skipped, bulk.Failed, bulk.Unknown} {
		if c[o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[o], o))
		}
	}
	if len(parts) == 0 {
		parts = []string{"none finished"}
	}
	done, _, _, earlier := j.runner.Progress()
	tail := ""
	if earlier > 0 {
		tail = fmt.Sprintf(" (%d of them by earlier runs)", earlier)
	}
	fmt.Fprintf(io.Err, "orgctl: %d of %d rows of %s: %s%s in %.1fs; job %s\n", done, j.rows, j.src.name, strings.Join(parts, ", "),
		tail, took.Seconds(), id)
	again := "run the same command again"
	if j.src.name == "stdin" {
		again = "run the same command again with the same input on stdin"
	}
	if stopped {
		fmt.Fprintf(io.Err, "orgctl: stopped: the rows in flight finished and were recorded; to resume, %s:\n  %s\n", again, resumeLine())
	}
	if n := c[bulk.Failed]; n > 0 {
		fmt.Fprintf(io.Err, "orgctl: %s failed (see the results, or `orgctl jobs show %s`); %s to retry them\n", rowsText(n), id, again)
	}
	if n := c[bulk.Unknown]; n > 0 {
		fmt.Fprintf(io.Err, "orgctl: %s sent without an answer may have been applied; %s to look them up (rows orgctl cannot look up are listed by `orgctl jobs show %s`: check those by hand)\n",
			rowsText(n), again, id)
	}
}

func rowsText(n int) string {
	if n == 1 {
		return "1 row"
	}
	return strconv.Itoa(n) + " rows"
}

// resumeLine is this process's command line, quoted for a shell.
func resumeLine() string {
	parts := []string{"orgctl"}
	for _, a := range os.Args[1:] {
		if a == "" || strings.ContainsAny(a, " \t\n'\"$`\\|&;<>()*?[]#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// stop ends the job for an error every other row would meet too.
func (j *bulkJob) stop(err error) {
	if j.fatal.CompareAndSwap(nil, &err) {
		j.cancel(err)
	}
}

// fatalForJob reports errors no row can succeed after: authentication, a
// missing scope, a budget wait past --max-wait, a bad setting.
func fatalForJob(err error) bool {
	var ae *client.APIError
	var we *ratebudget.WaitError
	var ce *client.ConfigError
	switch {
	case errors.As(err, &ae):
		return ae.StatusCode == http.StatusUnauthorized || ae.StatusCode == http.StatusForbidden
	case errors.As(err, &we):
		return we.Err == nil // past --max-wait, not stopped
	case errors.As(err, &ce):
		return true
	}
	return false
}

// Apply runs one row: resolve its names, look for what exists where the
// family needs a look first, send, and on a conflict follow --on-exists.
func (j *bulkJob) Apply(ctx context.Context, row bulk.Row, sent func()) bulk.Result {
	var left atomic.Bool
	leaving := func() {
		if left.CompareAndSwap(false, true) {
			sent()
		}
	}
	// Requests in flight run to their answer; the pacer ends waits for budget.
	res := j.apply(context.WithoutCancel(ctx), row, leaving)
	if res.Outcome == bulk.Failed && !left.Load() && ctx.Err() != nil {
		return bulk.Result{NotSent: true}
	}
	return res
}

func (j *bulkJob) apply(ctx context.Context, row bulk.Row, leaving func()) bulk.Result {
	in, probs, _ := j.rowInput(row)
	if len(probs) > 0 {
		return bulk.Result{Outcome: bulk.Failed, Message: strings.Join(probs, "; ")}
	}
	key := j.displayKey(in)
	in, c, err := j.build(ctx, in)
	if err != nil {
		return j.failed(key, err)
	}
	mainCtx := context.WithValue(ctx, leavingKey{}, leaving)
	ex := j.op.Exists
	if ex != nil && (ex.Check != nil || !ex.Conflict) {
		id, exists, err := j.exists(ctx, c, false)
		if err != nil {
			return j.failed(key, fmt.Errorf("looking for an existing one: %w", err))
		}
		if exists {
			return j.onExists(ctx, mainCtx, in, c, key, id, "")
		}
	}
	resp, err := j.e.sendWith(ctx, mainCtx, c)
	if err != nil {
		var ae *client.APIError
		if ex != nil && ex.Check == nil && errors.As(err, &ae) && ae.StatusCode == http.StatusConflict {
			if id, exists, lerr := j.exists(ctx, c, true); lerr == nil && exists {
				return j.onExists(ctx, mainCtx, in, c, key, id, ae.Message)
			}
		}
		if _, replay := j.replays.Load(row.N); replay && errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound &&
			j.op.bulkOutcome() == bulk.Deleted {
			return bulk.Result{Outcome: bulk.Deleted, Key: key, ID: j.argID(c),
				Message: "already gone: the earlier run's request, whose answer was lost, was applied"}
		}
		return j.failed(key, err)
	}
	if ex != nil && ex.Kind != "" {
		j.changed.Store(ex.Kind, true)
	}
	return bulk.Result{Outcome: j.op.bulkOutcome(), Key: key, ID: j.resultID(c, resp)}
}

func (j *bulkJob) failed(key string, err error) bulk.Result {
	var ou *client.OutcomeUnknownError
	if errors.As(err, &ou) {
		return bulk.Result{Outcome: bulk.Unknown, Key: key, Message: fmt.Sprintf("%s %s was sent but no answer came (%v)", ou.Method, ou.Path, ou.Cause)}
	}
	if fatalForJob(err) {
		j.stop(err)
	}
	return bulk.Result{Outcome: bulk.Failed, Key: key, Message: oneLine(err.Error())}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// build resolves a row's names (the job's one Resolver, so each list is
// fetched once) and builds its call.
func (j *bulkJob) build(ctx context.Context, in Input) (Input, *Call, error) {
	refs := j.op.nameRefs(in)
	if len(refs) > 0 {
		r := j.lookup
		j.warm(ctx, r)
		ids := make(map[string]string, len(refs))
		for _, ref := range refs {
			o, err := r.One(ctx, ref.Kind, ref.Text)
			var nf *resolve.NotFoundError
			if errors.As(err, &nf) {
				if _, changed := j.changed.LoadAndDelete(ref.Kind.Name); changed {
					r.Forget(ref.Kind.Name) // this job made new ones since the list was read
					o, err = r.One(ctx, ref.Kind, ref.Text)
				}
			}
			if err != nil {
				return in, nil, err
			}
			ids[ref.stand] = o.ID
		}
		in = substitute(in, refs, func(ref nameRef) string { return ids[ref.stand] })
	}
	c, err := j.op.build(in, nil)
	return in, c, err
}

// warm lists a kind with a filtered lookup once when the file names
// several of its objects: one list costs what one filtered request does.
func (j *bulkJob) warm(ctx context.Context, r *resolve.Resolver) {
	for kind, names := range j.names {
		kd := resolve.Kinds[kind]
		if kd.Filter == "" || len(names) < 2 {
			continue
		}
		if _, done := j.warmed.LoadOrStore(kind, true); done {
			continue
		}
		r.All(ctx, kd)
	}
}

// kindSnapshot is one list of a kind, read once per job, that rows of a
// family without conflicts are checked against.
type kindSnapshot struct {
	once sync.Once
	objs []resolve.Object
	err  error
}

// exists looks for what a call would create. fresh asks the API again
// (after a 409, or to settle a lost answer) instead of the job's snapshot.
func (j *bulkJob) exists(ctx context.Context, c *Call, fresh bool) (string, bool, error) {
	ex := j.op.Exists
	if ex.Check != nil {
		return ex.Check(ctx, j.lk, c)
	}
	kd := resolve.Kinds[ex.Kind]
	r := j.lookup
	var all []resolve.Object
	var err error
	switch {
	case ex.Match == nil && fresh:
		key := text(lookupPath(c.Body, j.fieldKey(ex.Flags[0])))
		matches, err := r.Find(ctx, kd, key)
		if err == nil && len(matches) == 0 && kd.Filter == "" {
			r.Forget(kd.Name)
			matches, err = r.Find(ctx, kd, key)
		}
		if err != nil || len(matches) == 0 {
			return "", false, err
		}
		return ids(matches), true, nil
	case fresh:
		r.Forget(kd.Name)
		all, err = r.All(ctx, kd)
	default:
		v, _ := j.snaps.LoadOrStore(ex.Kind, &kindSnapshot{})
		s := v.(*kindSnapshot)
		s.once.Do(func() { s.objs, s.err = r.All(ctx, kd) })
		all, err = s.objs, s.err
		if err != nil {
			j.snaps.CompareAndDelete(ex.Kind, s)
		}
	}
	if err != nil {
		return "", false, err
	}
	var found []resolve.Object
	if ex.Match != nil {
		for _, o := range all {
			if ex.Match(c, o, all) {
				found = append(found, o)
			}
		}
	} else {
		want := text(lookupPath(c.Body, j.fieldKey(ex.Flags[0])))
		for _, o := range all {
			if o.Key == want || (kd.Fold && strings.EqualFold(o.Key, want)) {
				found = append(found, o)
			}
		}
	}
	if len(found) == 0 {
		return "", false, nil
	}
	return ids(found), true, nil
}

func ids(objs []resolve.Object) string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.ID
	}
	return strings.Join(out, ",")
}

// fieldKey is where a field's value sits in the body.
func (j *bulkJob) fieldKey(flag string) string {
	for _, fd := range j.op.Fields {
		if fd.Flag == flag {
			return fd.Key
		}
	}
	return flag
}

// onExists follows --on-exists for a row whose object exists (id; several
// ids, comma-separated, when the API holds duplicates).
func (j *bulkJob) onExists(ctx, mainCtx context.Context, in Input, c *Call, key, id, apiMsg string) bulk.Result {
	what := "already exists"
	if j.op.Exists.Check != nil {
		what = "already in place"
	}
	if apiMsg != "" {
		what += " (the API said: " + apiMsg + ")"
	}
	switch j.o.onExists {
	case "skip":
		return bulk.Result{Outcome: bulk.Skipped, Key: key, ID: id, Message: what}
	case "update":
		if j.op.Exists.Check != nil { // the request updates what is there
			resp, err := j.e.sendWith(ctx, mainCtx, c)
			if err != nil {
				return j.failed(key, err)
			}
			return bulk.Result{Outcome: bulk.Updated, Key: key, ID: j.resultID(c, resp)}
		}
		if strings.Contains(id, ",") {
			return bulk.Result{Outcome: bulk.Failed, Key: key, ID: id, Message: what + " several times: orgctl does not guess which to update"}
		}
		uc, err := j.upd.build(j.updateInput(in, id), nil)
		if err != nil {
			if nothingToChange(err) {
				return bulk.Result{Outcome: bulk.Skipped, Key: key, ID: id, Message: what + "; the row has nothing to update"}
			}
			return j.failed(key, err)
		}
		if _, err := j.e.sendWith(ctx, mainCtx, uc); err != nil {
			return j.failed(key, err)
		}
		return bulk.Result{Outcome: bulk.Updated, Key: key, ID: id}
	}
	return bulk.Result{Outcome: bulk.Failed, Key: key, ID: id, Message: what + ": --on-exists skip or update lets the job go on past it"}
}

// Settle decides a row an earlier run sent without an answer: found by
// its key it was applied; provably absent, or safe to send twice, it is
// sent again; otherwise it stays unknown and is never resent blindly.
func (j *bulkJob) Settle(parent context.Context, row bulk.Row) (bulk.Result, bool) {
	ctx := context.WithoutCancel(parent)
	in, probs, _ := j.rowInput(row)
	if len(probs) > 0 {
		return bulk.Result{Outcome: bulk.Unknown, Message: strings.Join(probs, "; ")}, true
	}
	key := j.displayKey(in)
	_, c, err := j.build(ctx, in)
	if err != nil && parent.Err() != nil {
		return bulk.Result{Untouched: true}, true // stopped while looking names up
	}
	if err != nil {
		res := j.failed(key, err)
		res.Outcome = bulk.Unknown
		res.Message = "an earlier run sent it without an answer, and it cannot be looked up now: " + res.Message
		return res, true
	}
	if j.op.Exists != nil {
		id, exists, err := j.exists(ctx, c, true)
		if err != nil && parent.Err() != nil {
			return bulk.Result{Untouched: true}, true // stopped before the lookup could say
		}
		if err != nil {
			if fatalForJob(err) {
				j.stop(err)
			}
			return bulk.Result{Outcome: bulk.Unknown, Key: key, Message: "an earlier run sent it without an answer, and looking it up failed: " + oneLine(err.Error())}, true
		}
		if exists {
			return bulk.Result{Outcome: j.op.bulkOutcome(), Key: key, ID: id,
				Message: "an earlier run sent it without an answer; it is there, found by its key"}, true
		}
		return bulk.Result{}, false
	}
	if j.replayable(c) {
		j.replays.Store(row.N, true)
		return bulk.Result{}, false
	}
	return bulk.Result{Outcome: bulk.Unknown, Key: key,
		Message: "an earlier run sent it without an answer, and orgctl has no way to look it up, so it is not sent again: check it by hand"}, true
}

// replayable: sending the call again leaves what sending it once did.
func (j *bulkJob) replayable(c *Call) bool {
	switch {
	case j.op.Idempotent, j.op.Method == http.MethodPut, j.op.Method == http.MethodDelete:
		return true
	case j.op.Method == http.MethodPatch && j.op.Patch && !c.FromBody:
		return true // replace and add-key operations built from flags
	}
	return false
}

// bulkOutcome is what a successful row of the op did.
func (op *Op) bulkOutcome() bulk.Outcome {
	if op.Method == http.MethodDelete || op.Destructive {
		return bulk.Deleted
	}
	if op.Exists != nil {
		return bulk.Created
	}
	switch strings.Fields(op.Use)[0] {
	case "create", "create-app", "clone", "add", "grant":
		return bulk.Created
	}
	return bulk.Updated
}

// resultID is the id of what a row made or changed: the answer's "id",
// else the object its arguments named.
func (j *bulkJob) resultID(c *Call, resp *client.Response) string {
	if ex := j.op.Exists; ex != nil && ex.Check != nil && ex.Flags[0] == "user" {
		return strings.Join(c.LocalStrings("user"), ",") // the answer is the group
	}
	if resp != nil && len(resp.Data) > 0 && resp.Data[0] == '{' && (len(j.op.Args) == 0 || j.op.bulkOutcome() == bulk.Created) {
		var obj struct {
			ID any `json:"id"`
		}
		if json.Unmarshal(resp.Data, &obj) == nil && obj.ID != nil {
			return text(obj.ID)
		}
	}
	return j.argID(c)
}

func (j *bulkJob) argID(c *Call) string {
	if len(j.op.Args) == 0 {
		return ""
	}
	return c.Params[j.op.Args[len(j.op.Args)-1]]
}
