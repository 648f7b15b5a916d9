package access

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/output/fsguard"
)

// readJob runs many reads as one bulk job: journaled, resumable, with
// progress. What each read answered is kept beside the journal (the journal
// holds outcomes, not data), so a run stopped by Ctrl-C or a kill goes on
// from what it already read; a finished job is forgotten, so the next run
// reads afresh.
type readJob struct {
	command string
	reqs    []access.Read
	points  int
	conn    *cli.Connection
	f       *cli.Factory

	mu      sync.Mutex
	answers map[int]json.RawMessage
	out     *os.File
	// refused is the first 401 or 403: every read needs the same token and
	// scope, so the job stops there (stop) rather than spend its budget on
	// refusals.
	refused error
	stop    context.CancelFunc
}

type readLine struct {
	N    int             `json:"n"`
	Data json.RawMessage `json:"data"`
}

func (j *readJob) Apply(ctx context.Context, row bulk.Row, _ func() error) bulk.Result {
	r := j.reqs[row.N-1]
	// A read changes nothing: it never reports itself sent, so a stopped or
	// killed read is simply read again.
	resp, err := j.conn.Client.Do(bulk.Detach(ctx), r.Req)
	if err != nil {
		if ctx.Err() != nil {
			return bulk.Result{NotSent: true}
		}
		var ae *client.APIError
		if errors.As(err, &ae) && (ae.StatusCode == http.StatusForbidden || ae.StatusCode == http.StatusUnauthorized) {
			j.mu.Lock()
			if j.refused == nil {
				j.refused = err
			}
			j.mu.Unlock()
			j.stop()
			return bulk.Result{NotSent: true} // read again once the token may
		}
		return bulk.Result{Outcome: bulk.Failed, Key: r.Key, Message: bulk.OneLine(err.Error())}
	}
	b, _ := json.Marshal(readLine{N: row.N, Data: resp.Data})
	j.mu.Lock()
	defer j.mu.Unlock()
	j.answers[row.N] = resp.Data
	_, err = j.out.Write(append(b, '\n'))
	if err == nil {
		err = j.out.Sync() // before the journal says the row is done
	}
	if err != nil {
		return bulk.Result{Outcome: bulk.Failed, Key: r.Key, Message: "could not keep the answer: " + err.Error()}
	}
	return bulk.Result{Outcome: bulk.Skipped, Key: r.Key}
}

func (j *readJob) Settle(context.Context, bulk.Row) (bulk.Result, bool) { return bulk.Result{}, false }

// loadAnswers reads what earlier runs kept; a torn last line is ignored.
func loadAnswers(path string) (map[int]json.RawMessage, error) {
	out := map[int]json.RawMessage{}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	for sc.Scan() {
		var l readLine
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.N > 0 {
			out[l.N] = l.Data
		}
	}
	return out, sc.Err()
}

// ready opens the file of answers before the reads start, and says what
// an earlier run left (prior); the answers themselves are kept by Apply.
func (j *readJob) ready(id, keep string, prior *bulk.State) error {
	var err error
	if j.answers, err = loadAnswers(keep); err != nil {
		return err
	}
	if j.out, err = os.OpenFile(keep, os.O_CREATE|os.O_WRONLY|os.O_APPEND|fsguard.NoFollow, 0o600); err != nil {
		return err
	}
	if prior != nil && !prior.Ended && !j.f.Quiet() {
		j.f.IO.Notice("orgctl: resuming %s (job %s): %d of %d reads were done by an earlier run", j.command, id, prior.Counts()[string(bulk.Skipped)], len(j.reqs))
	}
	return nil
}

// run reads every request (or what earlier runs left) and returns the
// answers by position.
func (j *readJob) run(ctx context.Context, id string, flags []string) ([]json.RawMessage, error) {
	store := cli.JobStore()
	keep := filepath.Join(store.Dir, id, "reads.jsonl")
	rows := make([]bulk.Row, len(j.reqs))
	for i, r := range j.reqs {
		rows[i] = bulk.Row{N: i + 1, Line: i + 1, Values: map[string][]string{"key": {r.Key}}}
	}
	session, err := bulk.Open(bulk.Job{
		Store: store,
		Header: bulk.Header{ID: id, Command: j.command, Flags: flags, Input: "-", Format: "reads",
			Rows: len(j.reqs), Target: j.conn.Target.BaseURL, Account: j.conn.Target.Account(), Created: time.Now().UTC()},
		Resume:  true,
		Handler: j,
		Phases:  []bulk.Source{bulk.Rows(rows...)},
	})
	var busy *bulk.BusyError
	if errors.As(err, &busy) {
		return nil, fmt.Errorf("%s is running in another process (job %s); wait for it", j.command, id)
	}
	if err != nil {
		return nil, err
	}
	defer session.Close()
	if err := j.ready(id, keep, session.Prior()); err != nil {
		return nil, err
	}
	ctx, j.stop = context.WithCancel(ctx)
	defer j.stop()
	stop := j.f.ShowProgress(j.conn, "reads", len(j.reqs), j.points, len(j.reqs), session.Progress)
	for range session.Results(ctx) { // each answer is kept by Apply
	}
	stop()
	res, err := session.End()
	j.out.Close()
	if j.refused != nil {
		return nil, j.refused
	}
	if err != nil {
		return nil, err
	}
	if res.Stopped {
		fmt.Fprintf(j.f.IO.Err, "orgctl: stopped after %d of %d reads, kept in job %s; run the same command again to go on from there\n", res.Done, len(j.reqs), id)
		return nil, cli.JobExit(res)
	}
	if n := res.Counts[bulk.Failed]; n > 0 {
		return nil, fmt.Errorf("%d of %d reads failed (job %s); run the same command again to retry them", n, len(j.reqs), id)
	}
	out := make([]json.RawMessage, len(j.reqs))
	for i := range out {
		a, ok := j.answers[i+1]
		if !ok {
			return nil, fmt.Errorf("the answer of read %d (%s) was not kept; run the same command again", i+1, j.reqs[i].Key)
		}
		out[i] = a
	}
	// Done: the next run is a new review and reads afresh.
	if err := store.Remove(id); err != nil {
		j.f.IO.Warn("could not remove finished job %s: %v", id, err)
	}
	return out, nil
}

// jobSum names a job by what it reads, in order.
func jobSum(reqs []access.Read) []byte {
	h := bulk.InputHash()
	for _, r := range reqs {
		b, _ := json.Marshal(r.Req.Body)
		fmt.Fprintf(h, "%s %s %s\n", r.Req.Method, r.Req.Path, b)
	}
	return h.Sum(nil)
}
