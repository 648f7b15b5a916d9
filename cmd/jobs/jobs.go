package jobs

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/mattn/go-runewidth"
	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/output"
)

// NewCmd is `orgctl jobs`: the bulk jobs kept under
// $XDG_STATE_HOME/orgctl/jobs, one per command and input.
func NewCmd(f *cli.Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "jobs",
		Short: "List, show and forget bulk jobs (commands run with --from)",
		Long: `A command run with --from FILE is a job: orgctl journals each row's outcome
under $XDG_STATE_HOME/orgctl/jobs, and running the same command on the same
input again resumes it (rows already applied are skipped without a request).
A job is named by a hash of the command, its flags, the org and the input; a
run on the same file after an edit continues the earlier job on it, matching
rows by natural key (--restart starts over).`,
		Example: `  orgctl jobs
  orgctl jobs show 3f2a9c1b7d40
  orgctl jobs rm 3f2a`,
		Args: cli.NoArgsGroup,
		// as gh's and doctl's groups do not, but what a user typing it wants
		RunE: func(c *cobra.Command, _ []string) error { return listRun(f, c) },
	}
	engine.AddJSONFields(c, "", strings.Join(jobFields, ","))
	list := &cobra.Command{
		Use: "list", Short: "List jobs, newest first, with their counts (also plain 'orgctl jobs')", Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return listRun(f, c) },
	}
	engine.AddJSONFields(list, "", strings.Join(jobFields, ","))
	c.AddCommand(list)
	show := &cobra.Command{
		Use: "show ID", Short: "Show a job's counts and the rows that failed or are unknown", Args: cli.ExactArgs(1, "ID"),
		RunE: func(c *cobra.Command, args []string) error {
			p, store, sel, err := jobsSetup(f, c)
			if err != nil {
				return err
			}
			id, err := findJob(store, args[0])
			if err != nil {
				return err
			}
			st, err := bulk.Load(store.JournalPath(id))
			if err != nil {
				return fmt.Errorf("job %s: %w", id, err)
			}
			doc := jobDoc(bulk.Entry{State: st, ID: id, Running: store.Busy(id)})
			var rows []map[string]any
			st.EachRow(func(n int, r bulk.RowState) {
				if r.Status == bulk.Done {
					return
				}
				out := string(r.Outcome)
				if r.Status == bulk.Sent {
					out = string(bulk.Unknown)
				}
				rows = append(rows, map[string]any{"row": n, "outcome": out, "key": r.Key, "id": r.ID, "message": r.Msg})
			})
			if rows == nil {
				rows = []map[string]any{}
			}
			doc["problem_rows"] = rows
			if sel != nil {
				b, _ := json.Marshal(doc)
				return engine.PrintSelected(p, b, sel)
			}
			if p.Opts.Structured() {
				b, _ := json.Marshal(doc)
				return p.Print(b, nil)
			}
			w := f.IO.Out
			for _, k := range []string{"id", "command", "input", "target", "state", "rows", "created", "updated"} {
				v := doc[k]
				if s, ok := v.(string); ok && (k == "created" || k == "updated") && f.IO.OutTTY {
					if t, ok := output.ParseTime(s); ok {
						v = output.Relative(t, time.Now())
					}
				}
				fmt.Fprintf(w, "%-9s %v\n", k+":", v)
			}
			fmt.Fprintf(w, "%-9s %s\n", "counts:", countsLine(st.Counts()))
			if note := st.DamageNote(); note != "" {
				fmt.Fprintf(w, "%-9s %s\n", "damaged:", note)
			}
			if len(rows) == 0 {
				return nil
			}
			fmt.Fprintln(w)
			b, _ := json.Marshal(rows)
			return p.Print(b, []output.Column{{Header: "ROW", Field: "row"}, {Header: "OUTCOME", Field: "outcome"},
				{Header: "KEY", Field: "key", Key: true}, {Header: "MESSAGE", Field: "message"}})
		},
	}
	engine.AddJSONFields(show, "", strings.Join(jobFields, ",")+",problem_rows")
	c.AddCommand(show)
	c.AddCommand(&cobra.Command{
		Use: "rm ID", Short: "Forget a job (the next run of its command starts over)", Args: cli.ExactArgs(1, "ID"),
		RunE: func(c *cobra.Command, args []string) error {
			_, store, _, err := jobsSetup(f, c)
			if err != nil {
				return err
			}
			id, err := findJob(store, args[0])
			if err != nil {
				return err
			}
			if err := store.Remove(id); err != nil {
				if errors.Is(err, bulk.ErrBusy) {
					return fmt.Errorf("job %s is running in another process; stop it first", id)
				}
				return err
			}
			if !f.Quiet() {
				f.IO.Notice("orgctl: forgot job %s", id)
			}
			return nil
		},
	})
	return c
}

// listRun lists the jobs, newest first.
func listRun(f *cli.Factory, c *cobra.Command) error {
	p, store, sel, err := jobsSetup(f, c)
	if err != nil {
		return err
	}
	jobs, err := store.List()
	if err != nil {
		return err
	}
	docs := make([]map[string]any, 0, len(jobs))
	for _, j := range jobs {
		docs = append(docs, jobDoc(j))
	}
	b, _ := json.Marshal(docs)
	if sel != nil {
		return engine.PrintSelected(p, b, sel)
	}
	cols := jobColumns
	if f.IO.OutTTY && f.IO.Width > 0 && len(p.Opts.Columns) == 0 && (p.Opts.Format == "" || p.Opts.Format == "table") {
		cols = fitJobColumns(docs, f.IO.Width)
	}
	return p.Print(b, cols)
}

// jobDrops are the columns a narrow terminal leaves out, in order, before
// the table would cut COMMAND, which says what the job is: first counts
// that are 0 in every job, then the input, the other counts, and last
// where and when it ran, which tell jobs of one command apart.
var jobDrops = []struct {
	header string
	ifZero bool
}{{"UNKNOWN", true}, {"FAILED", true}, {"INPUT", false}, {"UNKNOWN", false}, {"DONE", false}, {"FAILED", false}, {"ROWS", false}, {"TARGET", false}, {"UPDATED", false}}

// fitJobColumns are the job columns that fit width whole, the ID and
// COMMAND always among them (the table cuts COMMAND only when those two
// alone are too wide).
func fitJobColumns(docs []map[string]any, width int) []output.Column {
	widths := make([]int, len(jobColumns))
	zero := make([]bool, len(jobColumns))
	for i, c := range jobColumns {
		widths[i], zero[i] = len(c.Header), true
		if c.Field == "updated" {
			for _, d := range docs { // shown relative on a terminal
				if t, ok := output.ParseTime(fmt.Sprint(d["updated"])); ok {
					widths[i] = max(widths[i], runewidth.StringWidth(output.Relative(t, time.Now()))+2)
				}
			}
			zero[i] = false
			continue
		}
		for _, d := range docs {
			v := output.Lookup(d, c.Field)
			if c.Value != nil {
				v = c.Value(d)
			}
			widths[i] = max(widths[i], runewidth.StringWidth(fmt.Sprint(v)))
			if n, ok := v.(int); !ok || n != 0 {
				zero[i] = false
			}
		}
	}
	keep := make([]bool, len(jobColumns))
	for i := range keep {
		keep[i] = true
	}
	total := func() int {
		t, n := 0, 0
		for i, k := range keep {
			if k {
				t, n = t+widths[i], n+1
			}
		}
		return t + 2*(n-1)
	}
	for _, d := range jobDrops {
		if total() <= width {
			break
		}
		for i, c := range jobColumns {
			if c.Header == d.header && keep[i] && (!d.ifZero || zero[i]) {
				keep[i] = false
			}
		}
	}
	var out []output.Column
	for i, c := range jobColumns {
		if keep[i] {
			out = append(out, c)
		}
	}
	return out
}

// jobsSetup is what every jobs command starts from: c's --json fields (nil
// without --json), the printer and the job store.
func jobsSetup(f *cli.Factory, c *cobra.Command) (*output.Printer, bulk.Store, []string, error) {
	sel, err := engine.JSONSelection(c)
	if err != nil {
		return nil, bulk.Store{}, nil, err
	}
	_, p, err := cli.PrinterFor(f)
	if err != nil {
		return nil, bulk.Store{}, nil, err
	}
	return p, cli.JobStore(), sel, nil
}

func findJob(store bulk.Store, id string) (string, error) {
	got, err := store.Find(id)
	var nj *bulk.NoJobError
	if errors.As(err, &nj) {
		return "", &cli.NotFoundError{Err: err}
	}
	if err != nil {
		return "", &cli.UsageError{Err: err}
	}
	return got, nil
}

var jobColumns = []output.Column{
	{Header: "ID", Field: "id", Key: true}, // typed into jobs show/resume: never cut
	{Header: "COMMAND", Field: "command"},
	{Header: "INPUT", Field: "input"},
	{Header: "ROWS", Field: "rows"},
	{Header: "DONE", Field: "counts.done"},
	{Header: "FAILED", Field: "counts.failed"},
	{Header: "UNKNOWN", Field: "counts.unknown"},
	{Header: "STATE", Field: "state"},
	{Header: "UPDATED", Field: "updated"},
	// Last, so that piped rows keep the fields scripts cut by number.
	{Header: "TARGET", Field: "target", Value: targetHost},
}

// targetHost is the org a job ran against, as its base URL's host (and
// port): which of several orgs or Spaces a job was for.
func targetHost(rec map[string]any) string {
	t, _ := rec["target"].(string)
	if u, err := url.Parse(t); err == nil && u.Host != "" {
		return u.Host
	}
	return t
}

// jobFields are the fields of jobDoc, for --json.
var jobFields = []string{"id", "command", "input", "target", "rows", "counts", "state", "runs", "created", "updated"}

// jobDoc is a job as list and show print it.
func jobDoc(j bulk.Entry) map[string]any {
	c := j.Counts()
	counts := map[string]any{"done": c["created"] + c["updated"] + c["deleted"] + c["skipped"]}
	for _, k := range []string{"created", "updated", "deleted", "skipped", "failed", "unknown", "pending"} {
		counts[k] = c[k]
	}
	state := "incomplete"
	switch {
	case j.Running:
		state = "running"
	case c["pending"] == 0 && c["failed"] == 0 && c["unknown"] == 0:
		state = "complete"
	}
	cmd := strings.TrimSpace(j.Header.Command + " " + strings.Join(j.Header.Args, " "))
	return map[string]any{
		"id": j.ID, "command": cmd, "input": j.Header.Input, "target": j.Header.Target, "rows": j.Header.Rows,
		"counts": counts, "state": state, "runs": j.Runs,
		"created": j.Header.Created.UTC().Format(time.RFC3339), "updated": j.Last.UTC().Format(time.RFC3339),
	}
}

func countsLine(c map[string]int) string {
	var parts []string
	for _, k := range []string{"created", "updated", "deleted", "skipped", "failed", "unknown", "pending"} {
		if c[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[k], k))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
