package budget

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/output"
)

func NewCmd(f *cli.Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "budget",
		Short: "Show the client-side rate budget shared by every orgctl process",
		Long: `The API allows 300 points per 60-second window; requests cost 2, 5 or 10 points
by family, and going over blocks every call for 60 seconds. orgctl keeps a ledger
per API host and token under $XDG_STATE_HOME/orgctl/budget, shared by every orgctl
process on this machine, and waits for room instead of being blocked.

The budget belongs to the token, not to the machine: when several machines (CI
runners, laptops) use one token, point budget.store at a Redis server they all
reach, and they share one ledger there. If the store is unreachable, commands
fail (exit 1) unless budget.store_fallback is file; a --from job stops at once
and resumes when run again. A store restarted empty keeps the window's charges:
each process puts back those it saw, and what no one can account for counts as
used for one window ("note:" below says so, as does a wait it causes). So does
a ledger that cannot be read.

Configuration (environment, or per profile in the config file):
  ORGCTL_BUDGET_POINTS   budget.points    points per window (300)
  ORGCTL_BUDGET_WINDOW   budget.window    window length (60s)
  ORGCTL_BUDGET_BLOCK    budget.block     block assumed after a 429 without Retry-After (60s)
  ORGCTL_BUDGET_RESERVE  budget.reserve   points left for other tools (0)
  budget.costs.FAMILY                     override a family's cost
  ORGCTL_BUDGET_STORE    budget.store     file (default), or redis://[user:password@]host:port/db,
                                          rediss:// for TLS (SSL_CERT_FILE for a private CA)
  ORGCTL_BUDGET_STORE_FALLBACK  budget.store_fallback
                                          none (default: fail), or file: warn once and use
                                          this machine's ledger while the store is down
  ORGCTL_MAX_WAIT        --max-wait       give up (exit 5) after waiting this long (10m)`,
		Args: cli.NoArgsGroup,
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	status := &cobra.Command{
		Use:     "status",
		Short:   "Show points used and free in the current window, blocks and the cost table",
		Example: "  orgctl budget status\n  orgctl budget status -o json",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			_, p, err := cli.PrinterFor(f)
			if err != nil {
				return err
			}
			conn, err := f.Connection()
			if err != nil {
				return err
			}
			st, err := conn.Ledger.Status()
			if err != nil {
				return cli.ExplainStoreError(err)
			}
			doc := map[string]any{
				"key":            st.Key,
				"store":          st.Store,
				"points":         st.Points,
				"reserve":        st.Reserve,
				"used":           st.Used,
				"free":           st.Free,
				"window_seconds": st.Window.Seconds(),
				"next_free":      timeOrNil(st.NextFree),
				"blocked_until":  timeOrNil(st.BlockedUntil),
				"costs":          st.Costs,
				"note":           st.Note,
			}
			if p.Opts.Structured() {
				b, _ := json.Marshal(doc)
				return p.Print(b, nil)
			}
			out := f.IO.Out
			window := st.Window.String()
			if f.IO.OutTTY {
				window = output.Span(st.Window)
			}
			pairs := []cli.Pair{
				{Key: "key", Value: st.Key},
				{Key: "store", Value: st.Store},
				{Key: "used", Value: fmt.Sprintf("%d of %d points in the last %s (reserve %d)", st.Used, st.Points, window, st.Reserve)},
				{Key: "free", Value: fmt.Sprintf("%d points", st.Free)},
			}
			if !st.NextFree.IsZero() {
				pairs = append(pairs, cli.Pair{Key: "next free", Value: when(f.IO, st.NextFree)})
			}
			if !st.BlockedUntil.IsZero() {
				pairs = append(pairs, cli.Pair{Key: "blocked until", Value: when(f.IO, st.BlockedUntil)})
			}
			if st.Note != "" {
				pairs = append(pairs, cli.Pair{Key: "note", Value: st.Note})
			}
			if err := cli.PrintPairs(f.IO, pairs); err != nil {
				return err
			}
			rows, _ := json.Marshal(costRows(st.Costs))
			fmt.Fprintln(out, "costs:")
			return (&output.Printer{IO: f.IO, Opts: output.Options{Format: "table"}}).Print(rows,
				[]output.Column{{Header: "FAMILY", Field: "family"}, {Header: "POINTS", Field: "points"}})
		},
	}
	c.AddCommand(status, newCmdPrice(f))
	return c
}

func costRows(costs map[string]int) []map[string]any {
	var rows []map[string]any
	for _, k := range slices.Sorted(maps.Keys(costs)) {
		rows = append(rows, map[string]any{"family": k, "points": costs[k]})
	}
	return rows
}

// when is a moment as a person reads it on a terminal ("in 23s") and as
// a script parses it when piped (RFC 3339).
func when(io *output.IO, t time.Time) string {
	if io.OutTTY {
		return output.Relative(t, time.Now())
	}
	return t.Format(time.RFC3339)
}

func timeOrNil(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339Nano)
}
