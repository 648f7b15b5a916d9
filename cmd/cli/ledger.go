package cli

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// LedgerPacer adapts the ledger to the client's Pacer.
type LedgerPacer struct{ Ledger *ratebudget.Ledger }

func (p LedgerPacer) Acquire(ctx context.Context, path string) (client.Ticket, error) {
	t, err := p.Ledger.Acquire(ctx, path)
	if err != nil {
		return nil, ExplainStoreError(err)
	}
	return t, nil
}

func (p LedgerPacer) Blocked(d time.Duration) error { return ExplainStoreError(p.Ledger.Blocked(d)) }

// OnceAnnouncer passes announce each wait once: the workers of a job that
// all wait for the same window are told it together.
func OnceAnnouncer(announce func(ratebudget.Wait)) func(ratebudget.Wait) {
	var mu sync.Mutex
	var last ratebudget.Wait
	return func(w ratebudget.Wait) {
		mu.Lock()
		same := w.Reason == last.Reason && w.Until.Sub(last.Until).Abs() < time.Second
		if !same {
			last = w
		}
		mu.Unlock()
		if !same {
			announce(w)
		}
	}
}

// WaitAnnouncer tells the user about a wait over a second: a live countdown
// on a terminal, one line when piped.
func WaitAnnouncer(io *output.IO) func(ratebudget.Wait) {
	return func(w ratebudget.Wait) {
		if w.Reason == ratebudget.ReasonLocked {
			announceLockWait(io.Err, w) // its end is unknown: no countdown
			return
		}
		why := fmt.Sprintf("%d of %d points used", w.Used, w.Limit)
		if w.Reason == ratebudget.ReasonBlocked {
			why = "the server blocked this token"
		}
		if w.Note != "" {
			why = w.Note
		}
		if !io.ErrTTY {
			fmt.Fprintf(io.Err, "orgctl: rate budget: waiting %s (%s); resuming at %s\n",
				w.Duration.Round(100*time.Millisecond), why, w.Until.Format("15:04:05"))
			return
		}
		if io.ProgressShown() {
			return // the bar says until when
		}
		go func() {
			for {
				left := time.Until(w.Until)
				if left <= 0 {
					fmt.Fprint(io.Err, "\r\x1b[K")
					return
				}
				fmt.Fprintf(io.Err, "\r\x1b[Korgctl: rate budget: %s (%s), waiting %ds...", why, w.Reason, int(left.Round(time.Second)/time.Second))
				time.Sleep(min(time.Second, left))
			}
		}()
	}
}
