package ratebudget

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gofrs/flock"
)

// backend keeps a ledger's state: the slot files of one machine
// (fileBackend) or a Store that processes on many machines share
// (sharedBackend). The ledger's arithmetic is written once, above it.
type backend interface {
	// update loads the state and the backend's time (Unix ns), runs f, and
	// saves the state if f returns true, atomically with respect to every
	// other update of the same ledger. f may run more than once (a shared
	// store retries when another process saved in between), so it must set
	// its results afresh on every run. ctx bounds a shared store's round trips.
	update(ctx context.Context, f func(s *state, now int64) (write bool)) error
	// view loads the state and the time without saving anything.
	view() (state, int64, error)
	// name says where the state lives, for Status and messages.
	name() string
}

// fileBackend is the two slot files under a file lock (see slots.go).
type fileBackend struct {
	slots    slots
	lock     *flock.Flock
	clock    Clock
	capacity int
	// lockWait bounds each wait for the lock (see take); notify hears of
	// one over a second.
	lockWait time.Duration
	notify   func(Wait)
}

func (b *fileBackend) name() string { return "file" }

func (b *fileBackend) update(ctx context.Context, f func(s *state, now int64) bool) error {
	if err := b.take(ctx, true); err != nil {
		return err
	}
	defer b.lock.Unlock()
	now := b.clock.Now()
	s, ld, recovered, err := b.slots.read(b.capacity, now)
	if err != nil {
		return fmt.Errorf("rate budget: %w", err)
	}
	if f(&s, now.UnixNano()) || recovered {
		if err := b.slots.write(ld, &s); err != nil {
			return fmt.Errorf("rate budget: %w", err)
		}
	}
	return nil
}

// view takes the lock shared: writes go in place, so an unlocked read could
// catch one slot mid-write while the next write tears the other.
func (b *fileBackend) view() (state, int64, error) {
	if err := b.take(context.Background(), false); err != nil {
		return state{}, 0, err
	}
	defer b.lock.Unlock()
	now := b.clock.Now()
	s, _, _, err := b.slots.read(b.capacity, now)
	if err != nil {
		return state{}, 0, fmt.Errorf("rate budget: %w", err)
	}
	return s, now.UnixNano(), nil
}

// Store keeps ledgers' states where processes on several machines reach
// them, and tells the time (see ratebudget/redisstore). The ledger does the
// arithmetic and encodes the state; a Store keeps the bytes per key and
// saves them only if nobody saved since they were loaded, so every update
// is atomic without a lock that a dead holder could keep.
type Store interface {
	// Load returns key's state as saved last (nil if none), an opaque
	// version of it ("" if none), and the store's clock at the same instant.
	Load(ctx context.Context, key string) (data []byte, version string, now time.Time, err error)
	// Save replaces key's state with data if it is still at version, and
	// keeps it at least idle after this write; if another process saved
	// since, it saves nothing and returns false.
	Save(ctx context.Context, key, version string, data []byte, idle time.Duration) (saved bool, err error)
	// String names the store in messages and Status, with any password hidden.
	String() string
}

// StoreError is a shared store that could not be reached or answered an
// error; the ledger did not record what was asked.
type StoreError struct {
	Store string // the store, password hidden
	Err   error
}

func (e *StoreError) Error() string {
	return fmt.Sprintf("rate budget store %s: %v", e.Store, e.Err)
}

func (e *StoreError) Unwrap() error { return e.Err }

const (
	// storeTimeout bounds one update of a shared store, conflicts included.
	storeTimeout = 5 * time.Second
	// maxConflicts bounds the retries of one update that keeps losing to
	// other writers; each loss means someone else's update went through.
	maxConflicts = 1000
)

// sharedBackend runs the ledger's updates on a Store as load, compute, and
// save-if-unchanged, retrying on conflict.
//
// A store can lose the state: a Redis without persistence restarted (a
// failover, a managed upgrade) comes back empty, one restored from a
// snapshot comes back older. Read as it stands, that is an empty window,
// though the points spent in it were spent: a fleet would overdraw into a
// block. So each process keeps the last state it saw (seen), whose
// charges include all of its own, and checks every load against it (see
// restore).
type sharedBackend struct {
	store Store
	key   string
	l     *Ledger // clock override, skew, capacity and timing
	buf   []byte  // guarded by l.mu
	seen  state   // the state as last loaded or saved; Gen 0 until then
	// seenAt is when seen was loaded (the store's time). A process that
	// last looked a window or more ago knows no more than a new one.
	seenAt int64
	up     bool // the store answered the last operation
}

func (b *sharedBackend) name() string { return b.store.String() }

// idle is how long a state outlives its last write: past every entry's
// stale bound and window and the longest block, it holds nothing that counts.
func (b *sharedBackend) idle() time.Duration {
	return time.Duration(b.l.tm.stale + b.l.tm.window + b.l.tm.block)
}

func (b *sharedBackend) fail(err error) error {
	return &StoreError{Store: b.store.String(), Err: err}
}

func (b *sharedBackend) update(ctx context.Context, f func(s *state, now int64) bool) error {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	var retry retrier
	for range maxConflicts {
		saved, err := b.try(ctx, f)
		if err != nil {
			if b.again(ctx, &retry) {
				continue
			}
			return b.fail(err)
		}
		b.up = true
		if saved {
			return nil
		}
	}
	return b.fail(fmt.Errorf("gave up after %d writes by other processes came first", maxConflicts))
}

// try is one load, compute and save; saved is false if another process
// saved first. A save whose answer was lost is not resent: the next try
// loads again, and each ledger operation finds its own earlier save there
// (by the request's id) rather than add to it.
func (b *sharedBackend) try(ctx context.Context, f func(s *state, now int64) bool) (saved bool, err error) {
	data, version, at, err := b.store.Load(ctx, b.key)
	if err != nil {
		return false, err
	}
	s, now, recovered := b.decode(data, at)
	if !recovered && b.restore(&s, data == nil, now) {
		recovered = true
	}
	if !f(&s, now) && !recovered {
		b.remember(&s, now)
		return true, nil
	}
	s.Seq++
	b.buf = appendState(b.buf[:0], &s)
	saved, err = b.store.Save(ctx, b.key, version, b.buf, b.idle())
	if err != nil {
		return false, err
	}
	if saved {
		b.remember(&s, now)
	}
	return saved, nil
}

// reconnectFor is how long an operation keeps trying a store that answered
// the one before: a restart or a failover takes a moment, and failing each
// request for it (stopping a bulk job) would cost more than the wait. A
// store that did not answer the last operation fails at once, so a store
// that is down costs each command no wait (nor each operation of a ledger
// falling back to its file).
const reconnectFor = 2 * time.Second

// retrier paces the attempts of one operation.
type retrier struct{ until time.Time }

// again says whether to try the store once more after a failure, after a
// short pause; when not, the store counts as down.
func (b *sharedBackend) again(ctx context.Context, r *retrier) bool {
	if !b.up || ctx.Err() != nil {
		b.up = false
		return false
	}
	if r.until.IsZero() {
		r.until = time.Now().Add(reconnectFor)
	}
	if time.Now().After(r.until) {
		b.up = false
		return false
	}
	select {
	case <-ctx.Done():
		b.up = false
		return false
	case <-time.After(50 * time.Millisecond):
		return true
	}
}

func (b *sharedBackend) view() (state, int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	var retry retrier
	data, _, at, err := b.store.Load(ctx, b.key)
	for err != nil && b.again(ctx, &retry) {
		data, _, at, err = b.store.Load(ctx, b.key)
	}
	if err != nil {
		return state{}, 0, b.fail(err)
	}
	b.up = true
	s, now, recovered := b.decode(data, at)
	if !recovered { // a state taken as the whole budget spent needs nothing put back
		b.restore(&s, data == nil, now)
	}
	return s, now, nil
}

// remember keeps s as the state last seen, reusing the memory of the last.
func (b *sharedBackend) remember(s *state, now int64) {
	entries := append(b.seen.Entries[:0], s.Entries...)
	b.seen = *s
	b.seen.Entries, b.seen.Queue = entries, nil
	b.seenAt = now
}

// restore checks a loaded state s against the one seen last and, if the
// store lost some of it, puts back what was lost; it reports whether it
// changed s. The first process to notice the loss (it finds the state gone,
// or at the generation it saw but an older sequence) also starts a new
// generation, so that the others know the loss was noticed, and charges
// what nobody can know any more: points other processes may have spent
// between this process's last look and the loss, and did not put back
// (they ended). All of them were spent less than a window ago and, with
// what this process saw, fit in the budget, so the budget less what is
// known, charged now, covers them; it delays only as long as the known
// charges fall short of a full window. Other processes that notice the new
// generation put back what they saw, the charge for the unknown aside.
// Nothing this process saw can have been dropped legitimately: entries
// expire by time, and refunds are only for the entry's own process.
func (b *sharedBackend) restore(s *state, gone bool, now int64) bool {
	seen := &b.seen
	if seen.Gen == 0 || now-b.seenAt >= b.l.tm.window {
		if s.Gen == 0 {
			s.Gen = newGen()
			return true
		}
		return false // first look: nothing seen to lose
	}
	first := gone || s.Gen == seen.Gen && s.Seq < seen.Seq
	if !first && s.Gen == seen.Gen {
		return false
	}
	for _, e := range seen.Entries {
		if (e.Pending || e.Expires > now) && !hasEntry(s.Entries, e) {
			s.Entries = append(s.Entries, e)
		}
	}
	s.BlockedUntil = max(s.BlockedUntil, seen.BlockedUntil)
	if s.Unreadable == 0 {
		s.Unreadable = seen.Unreadable
	}
	if first {
		s.Gen, s.Seq = newGen(), max(s.Seq, seen.Seq)
		s.normalize(now, b.l.tm, b.l.dead)
		if unknown := b.l.capacity() - s.used(now); unknown > 0 {
			s.Entries = append(s.Entries, entry{Points: unknown, At: now, Expires: now + b.l.tm.window})
		}
		s.Lost = now
	} else if s.Lost == 0 {
		s.Lost = seen.Lost
	}
	return true
}

// hasEntry reports whether es holds e: the same request of the same
// process, or for a synthetic entry (id 0) the same charge.
func hasEntry(es []entry, e entry) bool {
	for _, x := range es {
		if x.ID == e.ID && x.PID == e.PID && x.Host == e.Host && (e.ID != 0 || x.At == e.At && x.Points == e.Points) {
			return true
		}
	}
	return false
}

// newGen is a generation no other process will pick.
func newGen() uint64 { return rand.Uint64() | 1 }

// decode reads a loaded state and time. Time is the store's, one clock for
// every machine, unless a test replaced the clock. A state that does not
// decode (written by something else) is taken, like a garbled file, as the
// whole capacity spent now: that can only delay requests by one window.
func (b *sharedBackend) decode(data []byte, at time.Time) (s state, now int64, recovered bool) {
	if b.l.clockSet {
		now = b.l.clock.Now().UnixNano()
		b.l.skew.Store(0)
	} else {
		now = at.UnixNano()
		b.l.skew.Store(time.Now().UnixNano() - now)
	}
	if data == nil {
		return state{Version: fileVersion}, now, false
	}
	s, err := decodeState(data)
	if err == nil && s.Version == fileVersion {
		return s, now, false
	}
	return state{Version: fileVersion, Unreadable: now, Entries: []entry{{Points: b.l.capacity(), At: now}}}, now, true
}

func isStoreError(err error) bool {
	var se *StoreError
	return errors.As(err, &se)
}
