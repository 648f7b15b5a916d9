package bulkjob

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/engine/send"
)

// nameCheck is what a dry run learned by looking the rows' names up as
// the real run would: the reads it sent, and the rows whose names find
// nothing (by error, so one missing group names its rows once).
type nameCheck struct {
	requests, points int
	failing          map[string][]int // error -> rows' lines
	rows             int              // rows that would fail
}

// pricedDoer sends reads through the job's client and counts them at the
// price list's points.
type pricedDoer struct {
	cl               *client.Client
	cost             func(path string) int
	mu               sync.Mutex
	requests, points int
}

func (d *pricedDoer) Do(ctx context.Context, r client.Request) (*client.Response, error) {
	d.mu.Lock()
	d.requests++
	d.points += d.cost(r.Path)
	d.mu.Unlock()
	return d.cl.Do(ctx, r)
}

// lookNamesUp resolves every valid row's names as the real run does (the
// same resolvers, so the same lists, cache and lower-case retry), sending
// only those reads, and builds each row so a name the API would be sent
// in vain is found now. nil when the rows name nothing or there is no
// connection to ask.
func (j *bulkJob) lookNamesUp(ctx context.Context) (*nameCheck, error) {
	if len(j.checked.names) == 0 {
		return nil, nil
	}
	cl, err := j.f.Client()
	if err != nil {
		return nil, nil // not logged in: the plan says so
	}
	d := &pricedDoer{cl: cl, cost: j.cfg.Budget.Cost}
	r, err := newRowRunner(j.in, j.checked, j.cfg, &jobStop{cancel: func(error) {}}, cl)
	if err != nil {
		return nil, err
	}
	r.lookup = resolve.New(d)
	r.lookup.Store = send.NameStore(j.cfg, nil)
	r.truth = resolve.New(d)
	rows, err := j.in.rowSource(j.checked.invalid)
	if err != nil {
		return nil, err
	}
	defer rows.close()
	nc := &nameCheck{failing: map[string][]int{}}
	for {
		row, err := rows.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if _, bad := j.checked.invalid[row.N]; bad {
			continue
		}
		in, probs, _ := j.in.rowInput(row)
		if len(probs) > 0 || len(send.Find(j.op, in).Refs) == 0 {
			continue
		}
		if _, _, err := r.build(ctx, in); err != nil {
			if fatalForJob(err) || ctx.Err() != nil {
				return nil, err
			}
			msg := bulk.OneLine(err.Error())
			nc.failing[msg] = append(nc.failing[msg], row.Line)
			nc.rows++
		}
	}
	nc.requests, nc.points = d.requests, d.points
	return nc, nil
}

// write says what the lookups cost and which rows would fail.
func (nc *nameCheck) write(w io.Writer, file string) {
	cost := fmt.Sprintf("%s, %s", CountOf(nc.requests, "request"), CountOf(nc.points, "point"))
	if nc.rows == 0 {
		fmt.Fprintf(w, "names looked up now (reads only: %s): every row's names were found\n", cost)
		return
	}
	fmt.Fprintf(w, "names looked up now (reads only: %s): %s would fail:\n", cost, CountOf(nc.rows, "row"))
	for _, msg := range nc.sortedErrors() {
		fmt.Fprintf(w, "  %s: %s\n", linesOf(file, nc.failing[msg]), msg)
	}
}

// sortedErrors are the errors in the order of the first row each fails.
func (nc *nameCheck) sortedErrors() []string {
	out := make([]string, 0, len(nc.failing))
	for msg := range nc.failing {
		out = append(out, msg)
	}
	sort.Slice(out, func(a, b int) bool { return nc.failing[out[a]][0] < nc.failing[out[b]][0] })
	return out
}

// linesOf names the lines of a file: "hr.csv:3", "hr.csv:3,7,9", and past
// five lines how many more.
func linesOf(file string, lines []int) string {
	var parts []string
	for i, l := range lines {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(lines)-5))
			break
		}
		parts = append(parts, fmt.Sprint(l))
	}
	return file + ":" + strings.Join(parts, ",")
}

// doc is the check as the structured dry run carries it.
func (nc *nameCheck) doc() map[string]any {
	fails := []any{}
	for _, msg := range nc.sortedErrors() {
		fails = append(fails, map[string]any{"error": msg, "lines": nc.failing[msg]})
	}
	return map[string]any{"requests": nc.requests, "points": nc.points, "failing_rows": nc.rows, "failures": fails}
}
