package bulkjob

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
)

// joinQueue holds the follow-ups a bulk job joins across rows: per path
// (a group's members), the array items of every row that asked.
type joinQueue struct {
	req   map[string]client.Request
	key   map[string]string // the body's array
	items map[string][]any
	name  map[string]string // the path's object, as messages name it ("group support")
	sent  atomic.Int64      // requests sent, for the job's progress
}

// holdJoins takes the follow-ups rows share a request for out of the
// row's call: the job sends them joined, after the rows.
func (j *rowRunner) holdJoins(c *opdef.Call) []opdef.FollowUp {
	var keep, joins []opdef.FollowUp
	for _, t := range c.Then {
		if t.Join != "" {
			joins = append(joins, t)
		} else {
			keep = append(keep, t)
		}
	}
	c.Then = keep
	return joins
}

// queueJoins builds a row's held follow-ups from its answer and queues
// their items; the message says what could not be queued.
func (j *rowRunner) queueJoins(joins []opdef.FollowUp, answer json.RawMessage) string {
	var probs []string
	j.joinMu.Lock()
	defer j.joinMu.Unlock()
	if j.joins.req == nil {
		j.joins.req, j.joins.key, j.joins.items, j.joins.name = map[string]client.Request{}, map[string]string{}, map[string][]any{}, map[string]string{}
	}
	for _, t := range joins {
		r, err := t.Build(answer)
		if err != nil {
			probs = append(probs, err.Error())
			continue
		}
		body, _ := r.Body.(map[string]any)
		items, _ := body[t.Join].([]any)
		if _, ok := j.joins.req[r.Path]; !ok {
			j.joins.req[r.Path], j.joins.key[r.Path], j.joins.name[r.Path] = r, t.Join, j.joinObject(t)
		}
		j.joins.items[r.Path] = append(j.joins.items[r.Path], items...)
	}
	return strings.Join(probs, "; ")
}

// joinObject names a joined follow-up's object as the rows named it ("group
// support"), or by its id when the rows gave the id.
func (j *rowRunner) joinObject(t opdef.FollowUp) string {
	kind, _, _ := strings.Cut(strings.TrimPrefix(t.Path, "/"), "/")
	name := t.JoinKey
	if k, ok := j.keys.Load(kind + "/" + t.JoinKey); ok && k.(string) != "" {
		name = k.(string)
	}
	return kinds.Singular(kind) + " " + name
}

// requeueEarlier queues the held follow-ups of rows earlier runs created,
// from the ids their journal kept: adding a member again changes nothing,
// and a run killed before its joined requests left must still send them.
func (j *rowRunner) requeueEarlier(ctx context.Context, earlierIDs map[int]string) {
	if len(earlierIDs) == 0 {
		return
	}
	rows, err := j.rowSource(j.checked.invalid)
	if err != nil {
		return
	}
	defer rows.close()
	for {
		row, err := rows.Next()
		if err != nil {
			return
		}
		id, ok := earlierIDs[row.N]
		if !ok {
			continue
		}
		in, probs, _ := j.rowInput(row)
		if len(probs) > 0 {
			continue
		}
		_, c, err := j.build(ctx, in)
		if err != nil {
			continue
		}
		if joins := j.holdJoins(c); len(joins) > 0 {
			answer, _ := json.Marshal(map[string]string{"id": id})
			j.queueJoins(joins, answer)
		}
	}
}

// sendJoins sends the joined follow-ups, one request per path and
// bulk.MaxBatch items, as the job's last steps (its progress counts them);
// each is named by its object, a failure with the rows it leaves out.
func (j *bulkJob) sendJoins(ctx context.Context) error {
	q := &j.runner.joins
	paths := make([]string, 0, len(q.req))
	for p := range q.req {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var failed []string
	for _, p := range paths {
		items := q.items[p]
		for len(items) > 0 {
			n := min(len(items), bulk.MaxBatch)
			r := q.req[p]
			body := map[string]any{}
			for k, v := range r.Body.(map[string]any) {
				body[k] = v
			}
			body[q.key[p]] = items[:n]
			r.Body = body
			_, err := j.conn.Client.Do(ctx, r)
			q.sent.Add(1)
			if err != nil {
				failed = append(failed, fmt.Sprintf("%s (%s %s) for %s: %v", q.name[p], r.Method, r.Path, rowsText(n), bulk.OneLine(err.Error())))
			} else if !j.quiet {
				j.f.IO.Notice("orgctl: %s: the new %s of %s added in one request (%s %s)", q.name[p], q.key[p], rowsText(n), r.Method, r.Path)
			}
			items = items[n:]
		}
	}
	if len(failed) > 0 {
		return &cli.ExitError{Code: 1, Err: fmt.Errorf("the rows were applied, but %s; rerun the command to send it again", strings.Join(failed, "; "))}
	}
	return nil
}
