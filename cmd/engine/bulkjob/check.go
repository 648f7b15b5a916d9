package bulkjob

import (
	"errors"
	"fmt"
	"github.com/mattn/go-runewidth"
	"hash/maphash"
	"io"
	"slices"
	"strings"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/engine/send"
	"github.com/orgctl/orgctl/ratebudget"
)

// checkPass is the first pass over the file, before any request: every
// row read, mapped and built with stand-ins for names, every problem
// listed by line; and what it learned of the whole file, which the dry
// run prints and the run starts from.
type checkPass struct {
	*fileInput
	// find finds an input's names (send.Find; a test counts its calls).
	find func(op *opdef.Placed, in opdef.Input) send.Found
	bc   ratebudget.Config // read once: viper is slow enough to matter per row

	invalid  map[int]string // row -> what is wrong with it (--skip-invalid)
	rows     int
	sum      []byte // the input's hash: the job's identity
	points   int    // the rows' own requests (main, reads, follow-ups)
	requests map[string]*requestTally
	names    map[string]map[uint64]bool // resolve kind -> distinct names
	shared   map[uint64]bool            // distinct reads Existence.Check shares
	subjects map[uint64]bool            // distinct reads Existence.BySubject names
	// bySubject: every row has a BySubject read, and they are fewer
	bySubject, notBySubject bool
	batched                 map[string]int  // rows per batch (arguments), for ops whose rows share a request
	joinKeys                map[string]bool // follow-ups joined across rows, by path and object
	joinable                bool            // rows have follow-ups joined across rows (a group's new members)
	// targets are the objects rows delete (or change) of kinds with objects
	// the org cannot do without: kind -> targetHash -> first line
	targets map[string]map[uint64]target
	// keyWidth and lastLine size the results table's columns by the file:
	// its widest key, its last line.
	keyWidth, lastLine int
}

// requestTally counts one kind of request for the dry run.
type requestTally struct {
	method, path, note string
	n, cost            int
}

// rowRequests counts the requests the rows send (as tallied for the dry run).
func (j *checkPass) rowRequests() int {
	n := 0
	for _, t := range j.requests {
		n += t.n
	}
	return n
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
		fmt.Fprintf(w, "%s: ... and %s more\n", pl.name, CountOf(pl.n-len(pl.lines), "problem"))
	}
	return cli.UsageErrorf("%s: %s; nothing was sent", pl.name, CountOf(pl.n, "problem"))
}

// noticeList are the rows' notices (values sent that the description does
// not list): each said once, at its first line, with how many more lines
// have it, so a file of many such rows says it in a few lines.
type noticeList struct {
	name  string
	order []string
	first map[string]int
	seen  map[string]int
}

func (nl *noticeList) add(line int, msgs []string) {
	for _, m := range msgs {
		if nl.seen[m]++; nl.seen[m] == 1 {
			nl.first[m] = line
			nl.order = append(nl.order, m)
		}
	}
}

func (nl *noticeList) report(w io.Writer) {
	for _, m := range nl.order {
		more := ""
		if n := nl.seen[m] - 1; n > 0 {
			more = fmt.Sprintf(" (and on %s)", CountOf(n, "more line"))
		}
		fmt.Fprintf(w, "%s:%d: notice: %s%s\n", nl.name, nl.first[m], m, more)
	}
}

// checkHeader checks a CSV's header row. When its columns do not fit the
// command, it says so in a few lines and ends the check: every row would
// only repeat what the header says.
func (j *checkPass) checkHeader(rd *bulk.Reader, pl *problemList, w io.Writer) error {
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
func (j *checkPass) rowProblems(row bulk.Row, keys map[uint64]int, unknownCol map[string]int) (opdef.Input, *opdef.Call, []send.Ref, []string) {
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
		return in, nil, nil, probs
	}
	c, names, bp := j.checkRow(in)
	probs = append(probs, bp...)
	for _, k := range j.rowKeys(in) {
		if strings.TrimSpace(k) == "" {
			continue // no key: the row's own problem says what is missing
		}
		hk := maphash.String(keySeed.Get(), k)
		if first, dup := keys[hk]; dup {
			probs = append(probs, fmt.Sprintf("duplicate key %q: line %d has it too (each object once per file)", k, first))
			continue
		}
		keys[hk] = row.Line
	}
	return in, c, names, probs
}

// checkRow builds one row with stand-ins for names, as the command line
// is checked, so bad values are found before any request; and the row's
// names, for the tally.
func (j *checkPass) checkRow(in opdef.Input) (*opdef.Call, []send.Ref, []string) {
	names := j.findNames(j.op, in)
	if err := names.Refuse(nil); err != nil {
		return nil, nil, []string{err.Error()}
	}
	c, err := j.op.Build(names.Fill(nil), nil)
	if err != nil {
		return nil, nil, j.problemText(err)
	}
	if j.upd != nil {
		var probs []string
		uin := j.updateInput(in, send.StandIn(j.op.Bulk.Exists.Kind))
		for flag := range in.Values {
			if !j.upd.HasField(flag) && !slices.Contains(j.op.Bulk.Exists.Flags, flag) {
				probs = append(probs, fmt.Sprintf("--on-exists update cannot apply %s: `%s` has no such field", flag, j.updateCommand()))
			}
		}
		if len(probs) > 0 {
			return nil, nil, probs
		}
		if _, err := j.upd.Build(j.findNames(j.upd, uin).Fill(nil), nil); err != nil && !nothingToChange(err) {
			return nil, nil, j.problemText(err)
		}
	}
	return c, append(names.Refs, names.Guards...), nil
}

// findNames are the names in an input, as every command finds them.
func (j *checkPass) findNames(op *opdef.Placed, in opdef.Input) send.Found {
	if j.find != nil {
		return j.find(op, in)
	}
	return send.Find(op, in)
}

// check is the first pass: every row is read, mapped and built with
// stand-ins for names; every problem is listed by line, and nothing is sent
// unless there is none. It also hashes the input (the job's identity) and
// counts the requests the rows will send.
func (j *checkPass) check(errOut io.Writer) error {
	rc, err := j.src.open()
	if err != nil {
		return err
	}
	defer rc.Close()
	h := bulk.InputHash()
	rd := j.reader(io.TeeReader(rc, h))
	pl := &problemList{name: j.src.name}
	notes := &noticeList{name: j.src.name, first: map[string]int{}, seen: map[string]int{}}
	if j.o.format == bulk.CSV {
		if err := j.checkHeader(rd, pl, errOut); err != nil {
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
				j.lastLine = max(j.lastLine, p.Line)
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
		in, c, names, rowProbs := j.rowProblems(row, keys, unknownCol)
		j.lastLine = max(j.lastLine, row.Line)
		j.keyWidth = max(j.keyWidth, runewidth.StringWidth(j.displayKey(in)))
		if len(rowProbs) > 0 && j.o.skipInvalid {
			j.invalid[row.N] = strings.Join(rowProbs, "; ")
			continue
		}
		for _, m := range rowProbs {
			pl.add(row.Line, m)
		}
		if c != nil && len(rowProbs) == 0 {
			j.tally(in, c, names)
			j.noteTargets(row.Line, names)
			notes.add(row.Line, j.problemLines(c.Notices))
		}
	}
	notes.report(errOut)
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
	if err := pl.report(errOut); err != nil {
		return err
	}
	if j.rows == 0 {
		return cli.UsageErrorf("%s has no rows: nothing to do", j.src.name)
	}
	return nil
}
