package ratebudget

import (
	"context"
	"errors"
	"fmt"
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
type sharedBackend struct {
	store Store
	key   string
	l     *Ledger // clock override, skew, capacity and timing
	buf   []byte  // guarded by l.mu
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
	for range maxConflicts {
		data, version, at, err := b.store.Load(ctx, b.key)
		if err != nil {
			return b.fail(err)
		}
		s, now, recovered := b.decode(data, at)
		if !f(&s, now) && !recovered {
			return nil
		}
		b.buf = appendState(b.buf[:0], &s)
		saved, err := b.store.Save(ctx, b.key, version, b.buf, b.idle())
		if err != nil {
			return b.fail(err)
		}
		if saved {
			return nil
		}
	}
	return b.fail(fmt.Errorf("gave up after %d writes by other processes came first", maxConflicts))
}

func (b *sharedBackend) view() (state, int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	data, _, at, err := b.store.Load(ctx, b.key)
	if err != nil {
		return state{}, 0, b.fail(err)
	}
	s, now, _ := b.decode(data, at)
	return s, now, nil
}

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
	return state{Version: fileVersion, Entries: []entry{{Points: b.l.capacity(), At: now}}}, now, true
}

func isStoreError(err error) bool {
	var se *StoreError
	return errors.As(err, &se)
}
