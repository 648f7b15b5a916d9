package bulkjob

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
)

// carry finds the earlier job of this command, flags and org on this
// file before it was edited (the file's bytes name a job, so an edited
// file is a new job) and matches its rows to this file's by natural key:
// rows it applied are not sent again, rows it sent without an answer are
// settled first, so an invite is never sent twice. Rows it cannot match
// for certain make the run refuse, saying how to choose. The earlier job
// is forgotten once its knowledge is in the new journal.
func (j *bulkJob) carry(id string, target *cli.Target) (bulk.Carry, error) {
	path := j.in.inputPath()
	if j.o.restart || path == "" {
		return bulk.Carry{}, nil
	}
	if _, err := os.Stat(j.store.JournalPath(id)); err == nil {
		return bulk.Carry{}, nil // this very job: a resume
	}
	jobs, err := j.store.List()
	if err != nil {
		return bulk.Carry{}, nil
	}
	flags := j.idFlags()
	for _, e := range jobs {
		h := e.Header
		if e.ID == id || h.Path != path || h.Command != j.cmd.CommandPath() || h.Target != target.BaseURL || !slices.Equal(h.Flags, flags) {
			continue
		}
		if h.Account != target.Account() {
			if !j.quiet {
				j.f.IO.Notice("orgctl: job %s ran this command on %s at %s with another token, which may be another org: its journal is not used here, so every row is sent (--on-exists skip passes the rows that exist)",
					e.ID, j.in.src.name, target.BaseURL)
			}
			continue
		}
		if e.Running {
			return bulk.Carry{}, fmt.Errorf("job %s, this command on %s before it was edited, is running in another process; wait for it to end", e.ID, j.in.src.name)
		}
		known := map[string]bulk.RowState{}
		var unmatched []string
		e.EachRow(func(n int, r bulk.RowState) {
			if r.Status != bulk.Done && r.Status != bulk.Sent {
				return // failed or pending: run again anyway
			}
			k := strings.ToLower(r.Key)
			if _, dup := known[k]; dup || k == "" {
				unmatched = append(unmatched, fmt.Sprintf("row %d", n))
				return
			}
			known[k] = r
		})
		if len(unmatched) > 0 {
			return bulk.Carry{}, cli.UsageErrorf("job %s ran this command on %s before it was edited, and %s of it cannot be matched to this file's rows by key: "+
				"`--restart` runs every row of the file as a new job (what job %s applied may be sent again; `orgctl jobs show %s` lists it), "+
				"or run the file as it was to finish that job", e.ID, j.in.src.name, strings.Join(unmatched, ", "), e.ID, e.ID)
		}
		out, err := j.in.matchRows(known)
		if err != nil {
			return bulk.Carry{}, err
		}
		applied, unsettled := 0, 0
		for _, r := range out {
			if r.Status == bulk.Done {
				applied++
			} else {
				unsettled++
			}
		}
		if !j.quiet {
			j.f.IO.Notice("orgctl: %s changed since job %s ran this command on it; by their keys, %d of this file's rows were applied then and are not sent again, %d were sent without an answer and are looked up first (--restart ignores that job)",
				j.in.src.name, e.ID, applied, unsettled)
			// A job is named by its input's bytes: the edited file's is a
			// new id, and the old one goes once the new journal has what
			// it knew. Said, so that nobody looks for the old id later.
			j.f.IO.Notice("orgctl: this run is job %s, which takes over job %s: `orgctl jobs` lists it in that one's place", id, e.ID)
		}
		for k, r := range known {
			if r.Status == bulk.Sent {
				j.f.IO.Warn("job %s sent %q without an answer, and the file no longer has it: check it by hand", e.ID, k)
			}
		}
		return bulk.Carry{From: e.ID, Rows: out}, nil
	}
	return bulk.Carry{}, nil
}

// matchRows reads the input again and gives each row the state that
// known holds for its key (taking each out of known).
func (j *fileInput) matchRows(known map[string]bulk.RowState) (map[int]bulk.RowState, error) {
	rc, err := j.src.open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	rd := j.reader(rc)
	out := map[int]bulk.RowState{}
	for {
		row, err := rd.Next()
		if err == io.EOF {
			return out, nil
		}
		var p *bulk.Problem
		if errors.As(err, &p) {
			continue
		}
		if err != nil {
			return nil, err
		}
		k := strings.ToLower(j.rowKey(row))
		if r, ok := known[k]; ok {
			out[row.N] = r
			delete(known, k)
		}
	}
}
