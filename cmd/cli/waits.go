package cli

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/ratebudget"
)

// announceServerWait tells the user, on stderr, about a wait between two
// attempts of a request that the client announces (those over a second).
func announceServerWait(stderr io.Writer) func(client.Wait) {
	return func(w client.Wait) {
		why := "no answer"
		if w.StatusCode != 0 {
			why = fmt.Sprintf("HTTP %d %s", w.StatusCode, http.StatusText(w.StatusCode))
		}
		if w.RetryAfter > 0 {
			why += fmt.Sprintf(", Retry-After %s", w.RetryAfter)
		}
		fmt.Fprintf(stderr, "orgctl: %s %s: %s; waiting %s before attempt %d of %d (until %s)\n",
			w.Method, w.Path, why, w.Duration.Round(100*time.Millisecond), w.Attempt, w.Attempts,
			time.Now().Add(w.Duration).Format("15:04:05"))
	}
}

// explainWait says which setting bounds a wait the client gave up on.
func explainWait(cfg *settings.Config, err error) error {
	var (
		we     *client.WaitError
		budget *ratebudget.WaitError
		lock   *ratebudget.LockError
		limit  string
	)
	var h *hinted
	switch {
	case errors.As(err, &h):
		return err
	case errors.As(err, &we):
		limit = we.MaxWait.String()
	case errors.As(err, &budget) && budget.Err == nil:
		limit = budget.MaxWait.String()
	case errors.As(err, &lock):
		limit = lock.Limit.String()
	default:
		return err
	}
	return &hinted{err, fmt.Sprintf("Waits are bounded by --max-wait (%s here; ORGCTL_MAX_WAIT, max_wait); raise it to wait longer", limit)}
}

// announceLockWait says that another process holds the budget ledger's
// lock, and for how long orgctl will wait for it.
func announceLockWait(stderr io.Writer, w ratebudget.Wait) {
	who := "another process"
	if w.Holder != "" {
		who = w.Holder
	}
	fmt.Fprintf(stderr, "orgctl: rate budget: the ledger lock %s is held by %s; waiting up to %s more (until %s)\n",
		w.Lock, who, w.Duration.Round(100*time.Millisecond), w.Until.Format("15:04:05"))
}
