package bulkjob

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/engine/send"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/jsonscan"
	"github.com/orgctl/orgctl/ratebudget"
)

// rowRunner sends the rows: it is the job's bulk.Handler. Each row is
// resolved with the job's one Resolver, looked for where its family needs
// a look first, sent through the engine, and on a conflict --on-exists is
// followed; rows an earlier run sent without an answer are settled first.
type rowRunner struct {
	*fileInput
	checked *checkPass
	sender  send.Sender
	halt    *jobStop
	client  *client.Client
	lookup  *resolve.Resolver // names, as every command resolves them; made before the workers start
	// truth answers "does it exist?" from the API itself: never from the
	// completion cache's lists, which another process may have filled
	// before this job's changes (a killed job's, say).
	truth   *resolve.Resolver
	lk      *Lookups
	snaps   sync.Map // resolve kind -> *kindSnapshot
	changed sync.Map // resolve kinds this run created objects of
	replays sync.Map // row -> true: resent because an earlier run lost its answer
	warmed  sync.Map // resolve kinds listed whole for the names of many rows
	// follow-ups joined across rows (a group's new members)
	joinMu sync.Mutex
	joins  joinQueue
	// keys are the natural keys of the objects rows named, by kind and id
	// ("groups/6" -> "support"), to name a joined request's object.
	keys sync.Map
}

func newRowRunner(in *fileInput, checked *checkPass, cfg *settings.Config, halt *jobStop, cl *client.Client) (*rowRunner, error) {
	// Names are looked up as every command's are, the lists kept in the
	// same cache, but through the job's client.
	lookup := resolve.New(cl)
	lookup.Store = send.NameStore(cfg, nil)
	truth := resolve.New(cl)
	return &rowRunner{fileInput: in, checked: checked, sender: send.Sender{Client: cl}, halt: halt, client: cl, lookup: lookup, truth: truth,
		lk: NewLookups(cl, truth, checked.bySubject)}, nil
}

// stop ends the job for an error every other row would meet too.
func (j *rowRunner) stop(err error) {
	j.halt.fail(cli.ExplainStoreError(err))
}

// fatalForJob reports errors no row can succeed after: authentication, a
// missing scope, a budget wait past --max-wait, a bad setting, a budget
// store that fails.
func fatalForJob(err error) bool {
	var ae *client.APIError
	var we *ratebudget.WaitError
	var ce *client.ConfigError
	var se *ratebudget.StoreError
	switch {
	case errors.As(err, &se):
		return true
	case errors.As(err, &ae):
		return ae.StatusCode == http.StatusUnauthorized || ae.StatusCode == http.StatusForbidden
	case errors.As(err, &we):
		return we.Err == nil // past --max-wait, not stopped
	case errors.As(err, &ce):
		return true
	}
	return false
}

// RowKey is a row's natural key, for its journal's "sent" record.
func (j *rowRunner) RowKey(row bulk.Row) string {
	return j.rowKey(row)
}

// Apply runs one row: resolve its names, look for what exists where the
// family needs a look first, send, and on a conflict follow --on-exists.
func (j *rowRunner) Apply(ctx context.Context, row bulk.Row, sent func() error) bulk.Result {
	var left atomic.Bool
	leaving := func() error {
		if left.CompareAndSwap(false, true) {
			return sent()
		}
		return nil
	}
	// Requests in flight run to their answer; the pacer ends waits for budget.
	res := j.apply(bulk.Detach(ctx), row, leaving)
	if res.Outcome == bulk.Failed && !left.Load() && ctx.Err() != nil {
		return bulk.Result{NotSent: true}
	}
	return res
}

func (j *rowRunner) apply(ctx context.Context, row bulk.Row, leaving func() error) bulk.Result {
	if res, bad := j.invalidRow(row); bad {
		return res
	}
	in, probs, _ := j.rowInput(row)
	if len(probs) > 0 {
		return bulk.Result{Outcome: bulk.Failed, Message: strings.Join(probs, "; ")}
	}
	key := j.displayKey(in)
	in, c, err := j.build(ctx, in)
	if err != nil {
		return j.failed(key, err)
	}
	mainCtx := bulk.WithLeaving(ctx, leaving)
	joins := j.holdJoins(c)
	ex := j.op.Bulk.Exists
	if ex != nil && (ex.Check != nil || !ex.Conflict) && !j.upsert() {
		id, exists, err := j.exists(ctx, c, false)
		if err != nil {
			return j.failed(key, fmt.Errorf("looking for an existing one: %w", err))
		}
		if exists {
			return j.onExists(ctx, mainCtx, in, c, key, id, "")
		}
	}
	resp, err := j.sender.Send(ctx, mainCtx, c, nil)
	if err != nil {
		var ae *client.APIError
		if ex != nil && ex.Check == nil && errors.As(err, &ae) && ae.StatusCode == http.StatusConflict {
			if id, exists, lerr := j.exists(ctx, c, true); lerr == nil && exists {
				return j.onExists(ctx, mainCtx, in, c, key, id, ae.Message)
			}
		}
		if _, replay := j.replays.Load(row.N); replay && errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound &&
			bulkOutcome(j.op) == bulk.Deleted {
			return bulk.Result{Outcome: bulk.Deleted, Key: key, ID: j.argID(c),
				Message: "already gone: the earlier run's request, whose answer was lost, was applied"}
		}
		return j.failed(key, err)
	}
	if ex != nil && ex.Kind != "" {
		j.changed.Store(ex.Kind, true)
	}
	res := bulk.Result{Outcome: j.outcome(), Key: key, ID: j.resultID(c, resp)}
	if msg := j.queueJoins(joins, resp.Data); msg != "" {
		res.Message = msg
	}
	return res
}

// invalidRow is the result of a row the check found invalid, which
// --skip-invalid lets the job leave unsent.
func (j *rowRunner) invalidRow(row bulk.Row) (bulk.Result, bool) {
	msg, bad := j.checked.invalid[row.N]
	if !bad {
		return bulk.Result{}, false
	}
	in, _, _ := j.rowInput(row)
	return bulk.Result{Outcome: bulk.Failed, Key: j.displayKey(in), Message: "invalid, not sent: " + msg}, true
}

// BatchKey puts rows with the same arguments in one batch when the op's
// body is an array the API takes whole; the arguments as written (a name
// and an id of one group make two batches, which is merely one request more).
func (j *rowRunner) BatchKey(row bulk.Row) string {
	if j.op.Bulk.Batch == "" {
		return ""
	}
	if _, bad := j.checked.invalid[row.N]; bad {
		return "" // fails alone, unsent
	}
	in, probs, _ := j.rowInput(row)
	if len(probs) > 0 {
		return "" // fails alone, as Apply reports it
	}
	return "args\x00" + strings.Join(in.Args, "\x00")
}

// ApplyBatch runs rows that share their arguments as one request: each
// row's names are resolved and its existence looked at as Apply does, and
// the rows still to send have their arrays joined. The request's answer
// is every sent row's outcome: refused, each row fails with the API's
// reason; unanswered, each is unknown.
func (j *rowRunner) ApplyBatch(parent context.Context, rows []bulk.Row, sent func() error) []bulk.Result {
	ctx := bulk.Detach(parent)
	out := make([]bulk.Result, len(rows))
	var idx []int
	var calls []*opdef.Call
	for i, row := range rows {
		in, probs, _ := j.rowInput(row)
		if len(probs) > 0 {
			out[i] = bulk.Result{Outcome: bulk.Failed, Message: strings.Join(probs, "; ")}
			continue
		}
		key := j.displayKey(in)
		in, c, err := j.build(ctx, in)
		if err != nil {
			out[i] = j.failed(key, err)
			continue
		}
		if j.op.Bulk.Exists != nil && (j.op.Bulk.Exists.Check != nil || !j.op.Bulk.Exists.Conflict) && !j.upsert() {
			id, exists, err := j.exists(ctx, c, false)
			if err != nil {
				out[i] = j.failed(key, fmt.Errorf("looking for an existing one: %w", err))
				continue
			}
			if exists {
				out[i] = j.onExists(ctx, ctx, in, c, key, id, "")
				continue
			}
		}
		out[i].Key = key
		idx = append(idx, i)
		calls = append(calls, c)
	}
	if len(calls) == 0 {
		return out
	}
	arr := j.op.Bulk.Batch
	var items []any
	for _, c := range calls {
		v, _ := c.Req.Body[arr].([]any)
		items = append(items, v...)
	}
	joined := *calls[0]
	joined.Req.Body = make(map[string]any, len(calls[0].Req.Body))
	for k, v := range calls[0].Req.Body {
		joined.Req.Body[k] = v
	}
	joined.Req.Body[arr] = items
	var left atomic.Bool
	leaving := func() error {
		if left.CompareAndSwap(false, true) {
			return sent()
		}
		return nil
	}
	resp, err := j.sender.Send(ctx, bulk.WithLeaving(ctx, leaving), &joined, nil)
	for k, i := range idx {
		key := out[i].Key
		switch {
		case err != nil && !left.Load() && parent.Err() != nil:
			out[i] = bulk.Result{NotSent: true}
		case err != nil:
			out[i] = j.failed(key, err)
			if out[i].Outcome == bulk.Failed && len(idx) > 1 {
				out[i].Message = fmt.Sprintf("the request for the %d rows of this batch was refused: %s", len(idx), out[i].Message)
			}
		default:
			out[i] = bulk.Result{Outcome: j.outcome(), Key: key, ID: j.resultID(calls[k], resp)}
		}
	}
	return out
}

func (j *rowRunner) failed(key string, err error) bulk.Result {
	var ou *client.OutcomeUnknownError
	if errors.As(err, &ou) {
		return bulk.Result{Outcome: bulk.Unknown, Key: key, Message: fmt.Sprintf("%s %s was sent but no answer came (%v)", ou.Method, ou.Path, ou.Cause)}
	}
	var se *ratebudget.StoreError
	if errors.As(err, &se) {
		// The budget store fails before anything is sent, and will for
		// every row: stop with one message; the row stays to run on resume.
		j.stop(err)
		return bulk.Result{NotSent: true}
	}
	if fatalForJob(err) {
		j.stop(err)
	}
	return bulk.Result{Outcome: bulk.Failed, Key: key, Message: bulk.OneLine(err.Error())}
}

// build resolves a row's names (the job's one Resolver, so each list is
// fetched once) and builds its call.
func (j *rowRunner) build(ctx context.Context, in opdef.Input) (opdef.Input, *opdef.Call, error) {
	names := send.Find(j.op, in)
	if refs := names.Refs; len(refs) > 0 {
		j.warm(ctx, j.lookup)
		ids := make(map[string]string, len(refs))
		for _, ref := range refs {
			r := j.lookup
			if ex := j.op.Bulk.Exists; ex != nil && ex.ListKind == ref.Kind.Name && !j.upsert() {
				r = j.truth // the list existence is checked against serves the name too
			}
			o, err := r.One(ctx, ref.Kind, ref.Text)
			var nf *resolve.NotFoundError
			if errors.As(err, &nf) {
				if _, changed := j.changed.LoadAndDelete(ref.Kind.Name); changed {
					r.Forget(ref.Kind.Name) // this job made new ones since the list was read
					o, err = r.One(ctx, ref.Kind, ref.Text)
				}
			}
			if err != nil {
				return in, nil, send.Suggest(err, r, ref)
			}
			if err := names.Refuse(map[string]resolve.Object{ref.Stand: o}); err != nil {
				return in, nil, err
			}
			ids[ref.Stand] = o.ID
			j.keys.Store(ref.Kind.Name+"/"+o.ID, o.Key)
		}
		in = names.Fill(ids)
	}
	c, err := j.op.Build(in, nil)
	return in, c, err
}

// warm lists a kind with a filtered lookup once when the file names
// several of its objects: one list costs what one filtered request does.
func (j *rowRunner) warm(ctx context.Context, r *resolve.Resolver) {
	for kind, names := range j.checked.names {
		kd, _ := kinds.Lookup(kind)
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
func (j *rowRunner) exists(ctx context.Context, c *opdef.Call, fresh bool) (string, bool, error) {
	ex := j.op.Bulk.Exists
	if ex.Check != nil {
		return ex.Check(ctx, j.lk, c)
	}
	kd, _ := kinds.Lookup(ex.Kind)
	r := j.truth
	var all []resolve.Object
	var err error
	switch {
	case ex.Match == nil && fresh:
		key := jsonscan.AsText(output.Lookup(c.Req.Body, j.fieldKey(ex.Flags[0])))
		matches, err := r.Find(ctx, kd, key)
		if err == nil && len(matches) == 0 {
			r.Forget(kd.Name) // the miss may be an answer kept from before this run's changes
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
		want := jsonscan.AsText(output.Lookup(c.Req.Body, j.fieldKey(ex.Flags[0])))
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

// onExists follows --on-exists for a row whose object exists (id; several
// ids, comma-separated, when the API holds duplicates).
func (j *rowRunner) onExists(ctx, mainCtx context.Context, in opdef.Input, c *opdef.Call, key, id, apiMsg string) bulk.Result {
	what := "already exists"
	if j.op.Bulk.Exists.Check != nil {
		what = "already in place"
	}
	if apiMsg != "" {
		what += " (the API said: " + apiMsg + ")"
	}
	switch j.o.onExists {
	case "skip":
		return bulk.Result{Outcome: bulk.Skipped, Key: key, ID: id, Message: what}
	case "update":
		if j.op.Bulk.Exists.Check != nil { // the request updates what is there
			resp, err := j.sender.Send(ctx, mainCtx, c, nil)
			if err != nil {
				return j.failed(key, err)
			}
			return bulk.Result{Outcome: bulk.Updated, Key: key, ID: j.resultID(c, resp)}
		}
		if strings.Contains(id, ",") {
			return bulk.Result{Outcome: bulk.Failed, Key: key, ID: id, Message: what + " several times: orgctl does not guess which to update"}
		}
		uc, err := j.upd.Build(j.updateInput(in, id), nil)
		if err != nil {
			if nothingToChange(err) {
				return bulk.Result{Outcome: bulk.Skipped, Key: key, ID: id, Message: what + "; the row has nothing to update"}
			}
			return j.failed(key, err)
		}
		if _, err := j.sender.Send(ctx, mainCtx, uc, nil); err != nil {
			return j.failed(key, err)
		}
		return bulk.Result{Outcome: bulk.Updated, Key: key, ID: id}
	}
	return bulk.Result{Outcome: bulk.Failed, Key: key, ID: id, Message: what + ": --on-exists skip or update lets the job go on past it"}
}

// Settle decides a row an earlier run sent without an answer: found by
// its key it was applied; provably absent, or safe to send twice, it is
// sent again; otherwise it stays unknown and is never resent blindly.
func (j *rowRunner) Settle(parent context.Context, row bulk.Row) (bulk.Result, bool) {
	ctx := bulk.Detach(parent)
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
	if j.upsert() {
		return bulk.Result{}, false // sending it again leaves what sending it once did
	}
	if j.op.Bulk.Exists != nil {
		id, exists, err := j.exists(ctx, c, true)
		if err != nil && parent.Err() != nil {
			return bulk.Result{Untouched: true}, true // stopped before the lookup could say
		}
		if err != nil {
			if fatalForJob(err) {
				j.stop(err)
			}
			return bulk.Result{Outcome: bulk.Unknown, Key: key, Message: "an earlier run sent it without an answer, and looking it up failed: " + bulk.OneLine(err.Error())}, true
		}
		if exists {
			if joins := j.holdJoins(c); len(joins) > 0 && !strings.Contains(id, ",") {
				answer, _ := json.Marshal(map[string]string{"id": id})
				j.queueJoins(joins, answer)
			}
			return bulk.Result{Outcome: j.outcome(), Key: key, ID: id,
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
