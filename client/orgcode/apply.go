package orgcode

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/ratebudget"
)

// Apply is a plan's steps as a bulk job: one row per step, a phase per
// step phase (users and groups before memberships, folders before
// grants), each sent through d. job brings the rest (store, header,
// parallelism); Apply fills in the rows and the handler.
// Each run's journal is its own: the plan is read afresh every run, so
// what an earlier run applied is simply no longer in it.
func (p *Plan) Apply(live *Live, d Doer, job bulk.Job) (bulk.Job, *Applier) {
	a := &Applier{live: live, steps: p.Steps, do: d, changed: map[string]bool{}}
	job.Handler = a
	job.Resume = false
	job.Header.Rows = len(p.Steps)
	job.Phases = nil
	for _, phase := range phases(p.Steps) {
		rows := make([]bulk.Row, len(phase))
		for i, n := range phase {
			rows[i] = bulk.Row{N: n + 1, Line: n + 1}
		}
		job.Phases = append(job.Phases, bulk.Rows(rows...))
	}
	return job, a
}

// Applied counts the plan's changes whose every step ok reports done,
// by action: what an apply made of the plan, in the plan's own terms
// (the changes it counted to create, change and delete), however many
// steps each change took.
func (p *Plan) Applied(ok func(*Step) bool) map[Action]int {
	done := map[string]bool{}
	action := map[string]Action{}
	var order []string
	for _, s := range p.Steps {
		if _, seen := done[s.change]; !seen {
			done[s.change] = true
			action[s.change] = s.Action()
			order = append(order, s.change)
		}
		done[s.change] = done[s.change] && ok(s)
	}
	out := map[Action]int{}
	for _, c := range order {
		if done[c] {
			out[action[c]]++
		}
	}
	return out
}

// phases groups step indexes by phase, in order.
func phases(steps []*Step) [][]int {
	var out [][]int
	for i, s := range steps {
		if i == 0 || s.Phase != steps[i-1].Phase {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], i)
	}
	return out
}

// Applier runs one step per row.
type Applier struct {
	live  *Live
	steps []*Step
	do    Doer

	mu      sync.Mutex
	changed map[string]bool // budget families of the steps that succeeded
}

// RowKey names row's step before it is sent, so that the journal of a
// run killed mid-request still says which step it sent.
func (a *Applier) RowKey(row bulk.Row) string { return a.steps[row.N-1].Describe() }

// Apply sends row's step. A request in flight runs to its answer; the
// pacer ends waits for budget when the job is stopped.
func (a *Applier) Apply(ctx context.Context, row bulk.Row, sent func() error) bulk.Result {
	s := a.steps[row.N-1]
	key := s.Describe()
	req, err := s.Request(a.live)
	if err != nil {
		return bulk.Result{Outcome: bulk.Failed, Key: key, Message: bulk.OneLine(err.Error())}
	}
	var left bool
	leaving := func() error { left = true; return sent() }
	resp, err := a.do.Do(bulk.WithLeaving(bulk.Detach(ctx), leaving), req)
	if err != nil {
		var ou *client.OutcomeUnknownError
		if errors.As(err, &ou) {
			return bulk.Result{Outcome: bulk.Unknown, Key: key, Message: fmt.Sprintf("%s %s was sent but no answer came (%v)", ou.Method, ou.Path, ou.Cause)}
		}
		if !left && ctx.Err() != nil {
			return bulk.Result{NotSent: true}
		}
		return bulk.Result{Outcome: bulk.Failed, Key: key, Message: bulk.OneLine(err.Error())}
	}
	s.Done(a.live, resp)
	a.mu.Lock()
	a.changed[ratebudget.Family(s.Path)] = true
	a.mu.Unlock()
	oc := bulk.Updated
	switch s.Action() {
	case Create:
		oc = bulk.Created
	case Delete:
		oc = bulk.Deleted
	}
	return bulk.Result{Outcome: oc, Key: key}
}

// Settle is never asked: each run's journal is new, and the run's own
// read of the org is what settles an earlier run's unanswered requests.
func (a *Applier) Settle(context.Context, bulk.Row) (bulk.Result, bool) {
	return bulk.Result{}, false
}

// Changed lists the budget families of the steps that succeeded, sorted:
// the caches of names and completions to forget.
func (a *Applier) Changed() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]string, 0, len(a.changed))
	for f := range a.changed {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}
