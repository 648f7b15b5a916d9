package ratebudget

import (
	"context"
	"fmt"
	"time"
)

// minLockWait is the least a process waits for the ledger lock, even when
// MaxWait is 0: other processes hold it in turn for a fraction of a
// millisecond each, and a loaded machine may pause a holder for longer.
const minLockWait = time.Second

// maxLockPoll bounds the pause between two tries of a busy lock.
const maxLockPoll = 50 * time.Millisecond

// ReasonLocked is the Wait reason of a wait for the ledger's file lock.
const ReasonLocked = "ledger lock held"

// LockError is a ledger lock that was not free within the wait allowed:
// some process holds it and does not let go (stopped with ^Z, hung on a
// dead network file system). It names the lock file and, where the system
// tells (Linux), the process holding it.
type LockError struct {
	Path   string
	Waited time.Duration
	// Limit is the wait allowed: MaxWait, or minLockWait if that is longer.
	Limit time.Duration
	// Holder describes the process holding the lock ("process 1234 (orgctl,
	// stopped)"); empty when the system does not tell.
	Holder string
}

func (e *LockError) Error() string {
	who := "another process (this system does not say which)"
	if e.Holder != "" {
		who = e.Holder
	}
	return fmt.Sprintf("rate budget: gave up after waiting %s for the ledger lock %s, held by %s; if that process is stuck, end it",
		e.Waited.Round(time.Millisecond), e.Path, who)
}

// lockDeadlineKey marks a context whose lock waits must end by a given
// time: what is left of an Acquire's --max-wait, not a new --max-wait for
// every look at the ledger.
type lockDeadlineKey struct{}

// withLockDeadline bounds the lock waits of ctx's updates by end (never
// below minLockWait each).
func withLockDeadline(ctx context.Context, end time.Time) context.Context {
	return context.WithValue(ctx, lockDeadlineKey{}, end)
}

// take locks the ledger file, exclusive or shared, trying again with a
// growing pause while another process holds it, for at most wait (the
// caller's MaxWait, and never less than minLockWait). A wait over a second
// is told to notify once; a done ctx ends the wait with its error.
func (b *fileBackend) take(ctx context.Context, exclusive bool) error {
	try := b.lock.TryRLock
	if exclusive {
		try = b.lock.TryLock
	}
	limit := max(b.lockWait, minLockWait)
	start := time.Now()
	if end, ok := ctx.Value(lockDeadlineKey{}).(time.Time); ok {
		limit = max(min(limit, end.Sub(start)), minLockWait)
	}
	pause := 100 * time.Microsecond
	told := false
	for {
		ok, err := try()
		if err != nil {
			return fmt.Errorf("rate budget: lock %s: %w", b.lock.Path(), err)
		}
		if ok {
			return nil
		}
		waited := time.Since(start)
		if waited >= limit {
			return &LockError{Path: b.lock.Path(), Waited: waited, Limit: limit, Holder: lockHolder(b.lock.Path())}
		}
		if !told && b.notify != nil && waited+pause > notifyAfter {
			b.notify(Wait{Reason: ReasonLocked, Duration: limit - waited, Until: start.Add(limit),
				Lock: b.lock.Path(), Holder: lockHolder(b.lock.Path())})
			told = true
		}
		t := time.NewTimer(min(pause, limit-waited))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		pause = min(2*pause, maxLockPoll)
	}
}
