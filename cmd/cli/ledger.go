package cli

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// LedgerPacer adapts the ledger to the client's Pacer; with a meter, it
// counts what the requests it lets go cost.
type LedgerPacer struct {
	Ledger *ratebudget.Ledger
	meter  *spentMeter
}

func (p LedgerPacer) Acquire(ctx context.Context, path string) (client.Ticket, error) {
	t, err := p.Ledger.Acquire(ctx, path)
	if err != nil {
		return nil, ExplainStoreError(err)
	}
	if p.meter != nil {
		return &meteredTicket{Ticket: t, meter: p.meter}, nil
	}
	return t, nil
}

// spentMeter counts the requests a connection sent and their points.
type spentMeter struct{ requests, points atomic.Int64 }

// meteredTicket counts its request as spent when it is settled as one that
// may have reached the server.
type meteredTicket struct {
	*ratebudget.Ticket
	meter   *spentMeter
	settled atomic.Bool // as the ticket's, only the first Done counts
}

func (t *meteredTicket) Done(reached bool) {
	if !t.settled.Swap(true) && reached {
		t.meter.requests.Add(1)
		t.meter.points.Add(int64(t.Points()))
	}
	t.Ticket.Done(reached)
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
// on a terminal, one line when piped. A countdown ends when its wait does
// (Wait.Ended), or when a newer wait is announced, which has its own.
func WaitAnnouncer(io *output.IO) func(ratebudget.Wait) {
	var current atomic.Int64 // the countdown that may draw
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
		me := current.Add(1)
		go countdown(io, w, why, func() bool { return current.Load() == me })
	}
}

// countdown redraws one wait's line each second until the wait ends or
// another countdown takes over, then clears the line it drew.
func countdown(io *output.IO, w ratebudget.Wait, why string, mine func() bool) {
	tick := time.NewTimer(0)
	defer tick.Stop()
	for {
		select {
		case <-w.Ended:
			if mine() {
				fmt.Fprint(io.Err, "\r\x1b[K")
			}
			return
		case <-tick.C:
		}
		left := time.Until(w.Until)
		if !mine() {
			return
		}
		if left <= 0 {
			fmt.Fprint(io.Err, "\r\x1b[K")
			return
		}
		fmt.Fprintf(io.Err, "\r\x1b[Korgctl: rate budget: %s (%s), waiting %ds...", why, w.Reason, int(left.Round(time.Second)/time.Second))
		tick.Reset(min(time.Second, left))
	}
}
