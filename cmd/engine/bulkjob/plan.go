package bulkjob

import (
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/engine/send"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// tally counts a checked row's requests and lookups (names, as checkRow
// found them) for the dry run and the ETA.
func (j *checkPass) tally(in opdef.Input, c *opdef.Call, names []send.Ref) {
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
	if c.Req.Path != "" {
		path = c.Req.Path
	}
	if j.op.Bulk.Batch != "" {
		// rows with the same arguments share a request, bulk.MaxBatch at most
		k := strings.Join(in.Args, "\x00")
		if j.batched[k]++; j.batched[k]%bulk.MaxBatch == 1 || bulk.MaxBatch == 1 {
			pts += count(j.op.Method, j.op.Path, "one request per "+argNoun(j.op)+" for all of its rows")
		}
	} else {
		pts += count(j.op.Method, path, "")
	}
	for _, t := range c.Then {
		if t.Join != "" {
			// rows share one request per object: counted once per object named
			j.joinable = true
			obj := t.JoinKey
			for _, r := range names {
				if r.Stand == obj { // checked with stand-ins: the name as written
					obj = strings.ToLower(r.Text)
				}
			}
			k := t.Path + "\x00" + obj
			if j.joinKeys[k] {
				continue
			}
			j.joinKeys[k] = true
			what := t.Joined
			if what == "" {
				what = t.What + ", one request for all the rows that name the same " + pathNoun(t.Path)
			}
			pts += count("", t.Path, what)
			continue
		}
		pts += count("", t.Path, t.What)
	}
	j.points += pts
	for _, r := range names {
		set := j.names[r.Kind.Name]
		if set == nil {
			set = map[uint64]bool{}
			j.names[r.Kind.Name] = set
		}
		set[maphash.String(keySeed.Get(), strings.ToLower(r.Text))] = true
	}
	if ex := j.op.Bulk.Exists; ex != nil && ex.Shared != nil {
		if s := ex.Shared(in); s != "" {
			j.shared[maphash.String(keySeed.Get(), s)] = true
		}
	}
	if ex := j.op.Bulk.Exists; ex != nil && ex.BySubject != nil {
		if s := ex.BySubject(in); s != "" {
			j.subjects[maphash.String(keySeed.Get(), s)] = true
		} else {
			j.notBySubject = true
		}
	}
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// pathNoun names the object a path's first segment is of ("group" for
// /groups/{groupId}/members).
func pathNoun(path string) string {
	seg, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	return strings.TrimSuffix(strings.ReplaceAll(seg, "_", " "), "s")
}

// argNoun names what an op's arguments name, for the dry run ("group").
func argNoun(op *opdef.Placed) string {
	if len(op.Args.Params) == 0 {
		return "job"
	}
	a := strings.TrimSuffix(op.Args.Params[0], "Id")
	return strings.ToLower(a)
}

// lookups are the reads the job sends besides the rows' own requests:
// names (one filtered request per user, one list per other kind), the
// lists a family without conflicts is checked against, and shared reads.
func (j *checkPass) lookups() []requestTally {
	bc := j.bc
	var out []requestTally
	for _, k := range slices.Sorted(maps.Keys(j.names)) {
		kd, _ := kinds.Lookup(k)
		n := 1
		note := "looks up the names: one list"
		if kd.Filter != "" && len(j.names[k]) == 1 {
			note = "looks up a name"
		}
		out = append(out, requestTally{method: http.MethodGet, path: kd.List, note: note, n: n, cost: bc.Cost(kd.List)})
	}
	if ex := j.op.Bulk.Exists; ex != nil && !j.upsert() {
		switch {
		case ex.ListKind != "":
			if _, listed := j.names[ex.ListKind]; !listed {
				kd, _ := kinds.Lookup(ex.ListKind)
				out = append(out, requestTally{method: http.MethodGet, path: kd.List, note: "looks for what is already there: one list", n: 1, cost: bc.Cost(kd.List)})
			}
		case ex.Check != nil && j.bySubject:
			out = append(out, requestTally{method: http.MethodPost, path: ex.SubjectPath, n: len(j.subjects), cost: bc.Cost(ex.SubjectPath),
				note: fmt.Sprintf("looks for grants in place: one per subject and type, fewer than the %d access lists of one per object", len(j.shared))})
		case ex.Check != nil && len(j.shared) > 0:
			note := "looks for what is already there"
			if ex.BySubject != nil && len(j.subjects) > 0 && !j.notBySubject {
				note = fmt.Sprintf("looks for grants in place: one per object, no more than the %d lists of one per subject and type", len(j.subjects))
			}
			out = append(out, requestTally{method: http.MethodGet, path: ex.CheckPath, note: note,
				n: len(j.shared), cost: bc.Cost(ex.CheckPath)})
		case ex.Check == nil && !ex.Conflict:
			kd, _ := kinds.Lookup(ex.Kind)
			if _, listed := j.names[ex.Kind]; !listed {
				out = append(out, requestTally{method: http.MethodGet, path: kd.List, note: "looks for existing ones: one list", n: 1, cost: bc.Cost(kd.List)})
			}
		}
	}
	return out
}

// dryRun prints how many requests the rows would send, their points and
// how long the budget would take, and sends nothing.
func (j *bulkJob) dryRun(ctx context.Context) error {
	var earlier int
	prior := j.priorState()
	if prior != nil {
		earlier = prior.Counts()[string(bulk.Created)] + prior.Counts()[string(bulk.Updated)] +
			prior.Counts()[string(bulk.Deleted)] + prior.Counts()[string(bulk.Skipped)]
	}
	ck := j.checked
	reqs := make([]requestTally, 0, len(ck.requests))
	for _, k := range slices.Sorted(maps.Keys(ck.requests)) {
		reqs = append(reqs, *ck.requests[k])
	}
	// In the order they are sent: the rows' own requests, then what
	// follows them ("then ...").
	slices.SortStableFunc(reqs, func(a, b requestTally) int {
		return cmpBool(a.method == "", b.method == "")
	})
	scale := func(n int) int { // rows an earlier run applied are skipped
		if earlier == 0 || ck.rows == 0 {
			return n
		}
		return n * (ck.rows - earlier) / ck.rows
	}
	look := ck.lookups()
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
	var now *ratebudget.Status
	if conn, err := j.f.Connection(); err == nil {
		if st, err := conn.Ledger.Status(); err == nil {
			now = &st
		}
	}
	names, err := j.lookNamesUp(ctx)
	if err != nil {
		return err
	}
	p := bulkPlan{reqs: append(look, reqs...), total: total, points: points, earlier: earlier, now: now, names: names}
	if j.printer.Opts.Structured() {
		err = ck.printPlanDoc(j.printer, p)
	} else {
		err = ck.printPlanText(j.f.IO.Out, p)
	}
	if err == nil && names != nil && names.rows > 0 {
		// the real run would fail these rows, and exit so
		return &cli.ExitError{Code: cli.ExitFailure}
	}
	return err
}

// bulkPlan is what a bulk dry run found: the requests by kind, their
// count and points, the rows an earlier run applied, the budget now.
type bulkPlan struct {
	reqs          []requestTally
	total, points int
	earlier       int
	now           *ratebudget.Status
	// names, when the rows name objects and orgctl is logged in, is what
	// looking them up found
	names *nameCheck
}

// printPlanDoc prints a bulk dry run as one structured document.
func (j *checkPass) printPlanDoc(printer *output.Printer, p bulkPlan) error {
	total, points, earlier, now := p.total, p.points, p.earlier, p.now
	doc := map[string]any{"rows": j.rows, "requests": total, "points": points, "input": j.src.name}
	if earlier > 0 {
		doc["applied_earlier"] = earlier
	}
	var list []map[string]any
	for _, r := range p.reqs {
		e := map[string]any{"method": r.method, "path": "/api/v2" + r.path, "count": r.n, "points": r.n * r.cost}
		if r.note != "" {
			e["note"] = r.note
		}
		list = append(list, e)
	}
	doc["by_request"] = list
	if p.names != nil {
		doc["names"] = p.names.doc()
	}
	if now != nil {
		doc["eta_seconds"] = now.TimeFor(points).Seconds()
	}
	b, err := output.MarshalText(doc)
	if err != nil {
		return err
	}
	return printer.Print(b, nil)
}

// printPlanText prints a bulk dry run for a person.
func (j *checkPass) printPlanText(w io.Writer, p bulkPlan) error {
	bc := j.bc
	total, points, earlier, now := p.total, p.points, p.earlier, p.now
	if n := len(j.invalid); n > 0 {
		fmt.Fprintf(w, "%s: %s, %d invalid (not sent: --skip-invalid)\n", j.src.name, CountOf(j.rows, "row"), n)
	} else if j.rows == 1 {
		fmt.Fprintf(w, "%s: 1 row, valid\n", j.src.name)
	} else {
		fmt.Fprintf(w, "%s: %d rows, all valid\n", j.src.name, j.rows)
	}
	if earlier > 0 {
		fmt.Fprintf(w, "%s applied by an earlier run of this job and would be skipped\n", nounFor(earlier, "1 row was", fmt.Sprintf("%d rows were", earlier)))
	}
	fmt.Fprintln(w, "would send:")
	type line struct {
		n          int
		what, cost string
	}
	var lines []line
	width := 0
	for _, r := range p.reqs {
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
		lines = append(lines, line{r.n, what, eachCost(r.cost, r.n)})
	}
	for _, l := range lines {
		fmt.Fprintf(w, "  %6d x %-*s  %s\n", l.n, width, l.what, l.cost)
	}
	if earlier == 0 && j.op.Bulk.Exists != nil && j.op.Bulk.Exists.Conflict && j.o.onExists != "fail" {
		kd, _ := kinds.Lookup(j.op.Bulk.Exists.Kind)
		fmt.Fprintf(w, "  and for each row that already exists one lookup (GET /api/v2%s, %d points)\n", kd.List, bc.Cost(kd.List))
	}
	if now != nil {
		fmt.Fprintf(w, "total: %s\n", bc.CostSentence(total, points, now))
	} else {
		fmt.Fprintf(w, "total: %s (not logged in, so the points already spent are unknown)\n", bc.CostSentence(total, points, nil))
	}
	if p.names != nil {
		p.names.write(w, j.src.name)
		fmt.Fprintln(w, "no change sent (--dry-run)")
		return nil
	}
	fmt.Fprintln(w, "nothing sent (--dry-run)")
	return nil
}

// eachCost is a dry run's price of n requests of cost points each.
func eachCost(cost, n int) string {
	unit := "points"
	if cost == 1 {
		unit = "point"
	}
	return fmt.Sprintf("%2d %s each = %d", cost, unit, n*cost)
}

// priorState is the journal of this job, if an earlier run left one and
// the target is known (for the dry run).
func (j *bulkJob) priorState() *bulk.State {
	conn, err := j.f.Connection()
	if err != nil {
		return nil
	}
	st, err := bulk.Load(j.store.JournalPath(j.jobID(conn.Target.JobTarget())))
	if err != nil || j.o.restart {
		return nil
	}
	return st
}

func (j *bulkJob) jobID(target string) string {
	return bulk.JobID(j.cmd.CommandPath(), j.idFlags(), target, j.checked.sum)
}
