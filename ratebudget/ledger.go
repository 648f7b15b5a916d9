package ratebudget

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofrs/flock"
	"github.com/orgctl/orgctl/output/fsguard"
)

const (
	// maxRetryAfter caps a server's Retry-After so one odd header cannot
	// park every orgctl process for hours.
	maxRetryAfter = 10 * time.Minute
	// staleExtra is how much longer than a window a reservation may stay
	// pending before it is assumed to have completed.
	staleExtra = 2 * time.Minute
	// queueGrace is how long past its planned wake-up a waiter keeps its
	// place: enough for a loaded machine, short enough that a vanished
	// process does not hold up the queue for long.
	queueGrace = 10 * time.Second
	// notifyAfter is the shortest wait worth telling the user about.
	notifyAfter = time.Second
	// maxPoll bounds a wait whose end is only a lower bound (in-flight
	// requests, waiters ahead): sleeping to a lower bound never oversleeps,
	// so polling only serves to notice refunds and departures sooner.
	maxPoll = 5 * time.Second
	// minPoll keeps polling waiters from spinning on tiny test windows.
	minPoll = 5 * time.Millisecond
)

// Ledger is the shared record of points spent with one host and token.
// It is safe for concurrent use, and several processes may open the same one.
type Ledger struct {
	key      string
	store    backend
	mu       sync.Mutex // the backend excludes other processes, not this one's goroutines
	cfg      Config
	clock    Clock
	clockSet bool // a test's clock, which replaces a shared store's too
	notify   func(Wait)
	tm       timing
	host     string
	pid      int
	shared   bool
	lease    time.Duration // shared stores only: how long a reservation outlives its last renewal
	// skew is the local wall clock minus the backend's, measured at the last
	// load; it converts times shown to people, never times compared.
	skew       atomic.Int64
	fallback   *Ledger
	onFallback func(error)
	fellBack   sync.Once
	// charged, if set, sees every charge Done records, in the backend's time
	// (tests audit windows with it).
	charged func(reservedAt, at time.Time, points int)
}

// Option adjusts a Ledger at Open.
type Option func(*Ledger)

// WithLease sets how long a reservation in a shared store survives its
// holder's last renewal (default 15s); holders renew every third of it.
// Files ignore it: there a dead holder is found by its pid.
func WithLease(d time.Duration) Option { return func(l *Ledger) { l.lease = d } }

// WithFallback makes a ledger on a shared store do each operation on local
// instead when the store fails (*StoreError), calling warn once with the
// first failure. Every operation tries the store first, so a store that
// comes back is used again.
func WithFallback(local *Ledger, warn func(error)) Option {
	return func(l *Ledger) { l.fallback, l.onFallback = local, warn }
}

// WithNotify sets a function called before each wait longer than a second.
func WithNotify(f func(w Wait)) Option { return func(l *Ledger) { l.notify = f } }

// Wait describes a wait Acquire is about to make. For ReasonLocked,
// Duration and Until are the longest the wait may last, and only Lock and
// Holder describe it further.
type Wait struct {
	Duration time.Duration
	Until    time.Time
	Reason   string // ReasonWindowFull, ReasonBlocked or ReasonLocked
	Points   int    // cost of the request waiting
	Used     int    // points in use now
	Limit    int    // usable points: Config.Points - Config.Reserve
	Lock     string // the lock file waited for
	Holder   string // who holds it, when the system tells ("" otherwise)
	// Note, for ReasonWindowFull, says when points are in use only because
	// the ledger could not be read or a shared store lost it ("" otherwise).
	Note string
	// Ended is closed once the wait is over, whether the request went
	// ahead or the wait was given up (interrupted, or past --max-wait), so
	// a countdown stops with it; nil when no end will be told.
	Ended <-chan struct{}
}

// Wait reasons.
const (
	ReasonWindowFull = "window full"
	ReasonBlocked    = "blocked by server"
)

// Status is a snapshot of a ledger.
type Status struct {
	Key             string
	Store           string // "file", or the shared store (password hidden)
	Points, Reserve int
	Used, Free      int
	Window          time.Duration
	NextFree        time.Time // when used points next free up; zero if none are used
	BlockedUntil    time.Time // zero if not blocked
	Costs           map[string]int
	// Releases are the points in use and when each comes back, earliest
	// first; a reservation still in flight counts as completing at At.
	Releases []Release
	// At is when the snapshot was taken (zero: take the time of reading).
	At time.Time
	// Note says why points are taken as used that no request of record
	// spent: the ledger was unreadable, or a shared store lost it ("" if
	// neither, within the window).
	Note string
}

// Open returns the ledger for key, stored in the slot files <dir>/<key>.0 and
// <dir>/<key>.1 and guarded by a lock on <dir>/<key>.lock; dir is created 0700
// if missing, and refused (*fsguard.InsecureError) unless it and the
// directories above it are safe from other users. The files are opened
// without following symlinks. Zero Points, Window or Block take the defaults; MaxWait 0
// means never wait.
func Open(dir, key string, cfg Config, opts ...Option) (*Ledger, error) {
	l, err := newLedger(key, cfg, opts)
	if err != nil {
		return nil, err
	}
	if err := fsguard.MkdirAll(dir); err != nil {
		return nil, fmt.Errorf("rate budget: %w", err)
	}
	lockPath := filepath.Join(dir, key+".lock")
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE|fsguard.NoFollow, 0o600)
	if err != nil {
		return nil, fmt.Errorf("rate budget: %w", err)
	}
	f.Close()
	l.store = &fileBackend{
		slots:    slots{paths: [2]string{filepath.Join(dir, key+".0"), filepath.Join(dir, key+".1")}},
		lock:     flock.New(lockPath, flock.SetFlag(os.O_CREATE|os.O_RDONLY|fsguard.NoFollow)),
		clock:    l.clock,
		capacity: l.capacity(),
		lockWait: l.cfg.MaxWait,
		notify:   l.notify,
	}
	return l, nil
}

// defaultLease outlives any pause of a healthy holder (its renewals come
// every 5s) while freeing a killed holder's points well within a window.
const defaultLease = 15 * time.Second

// OpenStore returns the ledger for key kept in a shared store, so that
// processes on every machine using the store draw from one budget. Its
// clock is the store's. A reservation whose holder stops renewing it (killed,
// or cut off from the store) is charged when its lease lapses.
func OpenStore(st Store, key string, cfg Config, opts ...Option) (*Ledger, error) {
	l, err := newLedger(key, cfg, append([]Option{WithLease(defaultLease)}, opts...))
	if err != nil {
		return nil, err
	}
	if l.lease <= 0 {
		return nil, fmt.Errorf("rate budget: lease %s must be positive", l.lease)
	}
	l.shared = true
	l.store = &sharedBackend{store: st, key: key, l: l}
	return l, nil
}

func newLedger(key string, cfg Config, opts []Option) (*Ledger, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	def := DefaultConfig()
	if cfg.Points == 0 {
		cfg.Points = def.Points
	}
	if cfg.Window == 0 {
		cfg.Window = def.Window
	}
	if cfg.Block == 0 {
		cfg.Block = def.Block
	}
	switch {
	case cfg.Points < 0 || cfg.Window < 0 || cfg.Block < 0 || cfg.MaxWait < 0:
		return nil, fmt.Errorf("rate budget: points, window, block and max wait must not be negative")
	case cfg.Reserve < 0 || cfg.Reserve >= cfg.Points:
		return nil, fmt.Errorf("rate budget: reserve %d must be at least 0 and below the budget of %d points", cfg.Reserve, cfg.Points)
	}
	costs := make(map[string]int, len(cfg.Costs))
	for k, v := range cfg.Costs {
		if v < 0 {
			return nil, fmt.Errorf("rate budget: cost of %q must not be negative", k)
		}
		costs[normalizeFamily(k)] = v
	}
	cfg.Costs = costs
	host, _ := os.Hostname()
	l := &Ledger{
		key:   key,
		cfg:   cfg,
		clock: realClock{},
		tm: timing{
			window: int64(cfg.Window),
			stale:  int64(cfg.Window + staleExtra),
			block:  int64(max(cfg.Block, maxRetryAfter)),
			grace:  int64(queueGrace),
		},
		host: host,
		pid:  os.Getpid(),
	}
	for _, o := range opts {
		o(l)
	}
	return l, nil
}

func checkKey(key string) error {
	if key == "" || key == "." || key == ".." {
		return fmt.Errorf("rate budget: invalid key %q", key)
	}
	for _, r := range key {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_'
		if !ok {
			return fmt.Errorf("rate budget: key %q is not file-name safe (use Key)", key)
		}
	}
	return nil
}

// Files are the paths of the ledger's two slot files (none for a shared store).
func (l *Ledger) Files() [2]string {
	if fb, ok := l.store.(*fileBackend); ok {
		return fb.slots.paths
	}
	return [2]string{}
}

// local converts a time of the backend's clock to this machine's, for
// people and for sleeping until it.
func (l *Ledger) local(ns int64) time.Time { return time.Unix(0, ns+l.skew.Load()) }

// fallbackFor returns the local ledger to use instead after err, if err is
// the shared store failing and a fallback is set; the first time, it warns.
func (l *Ledger) fallbackFor(err error) *Ledger {
	if err == nil || l.fallback == nil || !isStoreError(err) {
		return nil
	}
	l.fellBack.Do(func() {
		if l.onFallback != nil {
			l.onFallback(err)
		}
	})
	return l.fallback
}

func (l *Ledger) capacity() int { return l.cfg.Points - l.cfg.Reserve }

// outstanding holds this process's unfinished tickets, so a pending entry
// with this pid but an unknown id is known to be a dead predecessor's.
var outstanding sync.Map // uint64 -> struct{}

func (l *Ledger) dead(e entry) bool {
	if l.shared {
		return false // a host name proves no shared machine or pid namespace: leases tell instead
	}
	if e.Host != l.host {
		return false // another machine's pid says nothing here
	}
	if e.PID == l.pid {
		_, ok := outstanding.Load(e.ID)
		return !ok
	}
	return !processAlive(e.PID)
}

// update runs f on the current state, brought to now, and saves the result
// if f says so (or bringing it to now changed it).
func (l *Ledger) update(f func(s *state, now int64) (write bool)) error {
	return l.updateCtx(context.Background(), f)
}

func (l *Ledger) updateCtx(ctx context.Context, f func(s *state, now int64) (write bool)) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.store.update(ctx, func(s *state, now int64) bool {
		changed := s.normalize(now, l.tm, l.dead)
		return f(s, now) || changed
	})
}

// Ticket is one reservation made by Acquire; call Done exactly once.
type Ticket struct {
	l          *Ledger
	id         uint64
	points     int
	reserved   int64     // the backend's time
	reservedAt time.Time // the same, on this machine's clock
	done       atomic.Bool
	mu         sync.Mutex
	renewal    *time.Timer // renews a shared store's lease while in flight
}

// Points is what the request was priced at.
func (t *Ticket) Points() int {
	if t == nil {
		return 0
	}
	return t.points
}

// ReservedAt is when the points were reserved.
func (t *Ticket) ReservedAt() time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.reservedAt
}

// Acquire reserves the cost of a request to path before it is sent, waiting
// until enough points expire (or a recorded block ends). Waiting requests of
// all processes are served in the order they started waiting. A wait that
// would end past cfg.MaxWait fails at once, and a done ctx ends it; both
// return *WaitError. A request costing more than the usable budget wraps
// ErrTooCostly. A shared store that fails returns *StoreError, unless a
// fallback is set.
func (l *Ledger) Acquire(ctx context.Context, path string) (*Ticket, error) {
	t, err := l.acquire(ctx, path)
	if fb := l.fallbackFor(err); fb != nil {
		return fb.Acquire(ctx, path)
	}
	return t, err
}

// price is what a request to path costs; ErrTooCostly when that is more
// than the budget can ever hold.
func (l *Ledger) price(path string) (int, error) {
	cost := l.cfg.Cost(path)
	if capacity := l.capacity(); cost > capacity {
		return 0, fmt.Errorf("%w: %s costs %d points, %d usable", ErrTooCostly, path, cost, capacity)
	}
	return cost, nil
}

func (l *Ledger) acquire(ctx context.Context, path string) (*Ticket, error) {
	cost, err := l.price(path)
	if err != nil {
		return nil, err
	}
	capacity := l.capacity()
	id := rand.Uint64() | 1 // 0 marks the synthetic entry of a recovered file
	outstanding.Store(id, struct{}{})
	start := l.clock.Now()
	deadline := start.Add(l.cfg.MaxWait)
	ctx = withLockDeadline(ctx, time.Now().Add(l.cfg.MaxWait)) // the lock's clock is this machine's
	fail := func(we *WaitError) (*Ticket, error) {
		outstanding.Delete(id)
		// Give up our place in the queue, briefly: it also ages out, and a
		// stuck lock must not hold up a command that is ending.
		quick, cancel := context.WithTimeout(context.Background(), minLockWait)
		defer cancel()
		_ = l.updateCtx(quick, func(s *state, _ int64) bool {
			if i, _ := s.queued(id); i >= 0 {
				s.Queue = append(s.Queue[:i], s.Queue[i+1:]...)
				return true
			}
			return false
		})
		we.Needed, we.Limit, we.Window, we.MaxWait = cost, capacity, l.cfg.Window, l.cfg.MaxWait
		return nil, we
	}
	var told *Wait
	var ended chan struct{} // made for the first wait told, closed on return
	defer func() {
		if ended != nil {
			close(ended)
		}
	}()
	for {
		if err := ctx.Err(); err != nil {
			now := l.clock.Now()
			return fail(&WaitError{Waited: now.Sub(start), RetryAt: now, Err: err})
		}
		var (
			t     *Ticket
			w     Wait
			sleep time.Duration
		)
		err := l.updateCtx(ctx, func(s *state, now int64) bool {
			t, sleep = nil, 0
			if e, ok := s.own(id, l.pid, l.host); ok {
				// A save whose answer was lost went through: it is ours.
				t = &Ticket{l: l, id: id, points: e.Points, reserved: e.At, reservedAt: l.local(e.At)}
				return false
			}
			idx, ahead := s.queued(id)
			used := s.used(now)
			w = Wait{Points: cost, Used: used, Limit: capacity}
			var at int64
			exact := true
			switch {
			case s.BlockedUntil > now:
				w.Reason, at = ReasonBlocked, s.BlockedUntil
			case cost == 0:
				t = &Ticket{l: l, reserved: now, reservedAt: l.local(now)}
				t.done.Store(true)
				return false
			case used+ahead+cost <= capacity: // room for us and everyone waiting before us
				if idx >= 0 {
					s.Queue = append(s.Queue[:idx], s.Queue[idx+1:]...)
				}
				e := entry{ID: id, Points: cost, At: now, Pending: true,
					PID: l.pid, Host: l.host, Expires: now + l.tm.stale + l.tm.window}
				if l.shared {
					e.Lease = now + int64(l.lease)
				}
				s.Entries = append(s.Entries, e)
				t = &Ticket{l: l, id: id, points: cost, reserved: now, reservedAt: l.local(now)}
				return true
			default:
				aheadOf := s.Queue
				if idx >= 0 {
					aheadOf = s.Queue[:idx]
				}
				w.Reason = ReasonWindowFull
				w.Note = l.note(s)
				at, exact = s.turn(now, aheadOf, cost, capacity, l.tm)
			}
			w.Until = l.local(at)
			w.Duration = time.Duration(at - now)
			if w.Until.After(deadline) {
				return false // fail below; the queue place is dropped there
			}
			sleep = w.Duration
			if !exact {
				sleep = min(sleep, l.poll())
			}
			wake := now + int64(sleep)
			switch {
			case idx < 0:
				s.Queue = append(s.Queue, waiter{ID: id, Points: cost, Since: now, Wake: wake, PID: l.pid, Host: l.host})
			case wake > s.Queue[idx].Wake+l.tm.grace/2:
				s.Queue[idx].Wake = wake
			default:
				// Wake only proves we are alive, and the stored one does so for
				// a while yet: a poll that writes nothing costs a read alone.
				return false
			}
			return true
		})
		if err != nil {
			if cerr := ctx.Err(); cerr != nil { // the caller gave up while the store was asked
				now := l.clock.Now()
				return fail(&WaitError{Waited: now.Sub(start), RetryAt: now, Err: cerr})
			}
			outstanding.Delete(id)
			return nil, err
		}
		if t != nil {
			if t.id == 0 {
				outstanding.Delete(id)
			} else {
				t.startRenewal()
			}
			return t, nil
		}
		if w.Until.After(deadline) {
			return fail(&WaitError{Used: w.Used, Waited: w.Until.Add(-w.Duration).Sub(start),
				RetryAt: w.Until, Blocked: w.Reason == ReasonBlocked, Note: w.Note})
		}
		if l.notify != nil && w.Duration > notifyAfter && !sameWait(told, &w) {
			if ended == nil {
				ended = make(chan struct{})
			}
			w.Ended = ended
			l.notify(w)
			told = &w
		}
		if err := l.clock.Sleep(ctx, sleep); err != nil {
			now := l.clock.Now()
			return fail(&WaitError{Used: w.Used, Waited: now.Sub(start), RetryAt: w.Until,
				Blocked: w.Reason == ReasonBlocked, Note: w.Note, Err: err})
		}
	}
}

// poll is how long a wait on other processes' in-flight requests sleeps
// before looking again. Those requests finish within milliseconds, so a
// coarse poll loses whole fractions of a second at every window boundary
// (the 4-process benchmark measured ratio 1.12 with window/12); a check
// costs ~0.2 ms, so polling at window/300 (20 ms for a 6 s window, 200 ms
// for 60 s) is cheap.
func (l *Ledger) poll() time.Duration {
	return min(maxPoll, max(minPoll, l.cfg.Window/300))
}

// sameWait says whether w only restates an already announced wait, so a
// polling wait does not repeat its notice every second.
func sameWait(told, w *Wait) bool {
	if told == nil || told.Reason != w.Reason {
		return false
	}
	d := w.Until.Sub(told.Until)
	return d > -notifyAfter && d < notifyAfter
}

// Done ends a reservation. reached=true: the charge is dated now (the
// response completed; the server counted the arrival, which is no later, so
// dating at completion is never early). reached=false: the request provably
// never reached the server, so its points are refunded. Calls after the first
// do nothing. If the ledger cannot be written the reservation stays pending
// and ages out by the stale bound or its lease, which only errs toward waiting.
func (t *Ticket) Done(reached bool) {
	if t == nil || t.done.Swap(true) {
		return
	}
	t.stopRenewal()
	l := t.l
	defer outstanding.Delete(t.id)
	var chargedAt int64
	err := l.update(func(s *state, now int64) bool {
		chargedAt = 0
		for i := range s.Entries {
			e := &s.Entries[i]
			if e.ID != t.id || e.PID != l.pid || e.Host != l.host {
				continue
			}
			if !reached {
				s.Entries = append(s.Entries[:i], s.Entries[i+1:]...)
				return true
			}
			e.Pending, e.Lease = false, 0
			e.At = max(e.At, now)
			e.Expires = e.At + l.tm.window
			chargedAt = e.At
			return true
		}
		if !reached {
			return false
		}
		// The reservation is gone (file recovered, or pending past the stale
		// bound and expired): charge it afresh, dated now.
		s.Entries = append(s.Entries, entry{ID: t.id, Points: t.points, At: now,
			PID: l.pid, Host: l.host, Expires: now + l.tm.window})
		chargedAt = now
		return true
	})
	if err == nil && chargedAt != 0 && l.charged != nil {
		l.charged(time.Unix(0, t.reserved), time.Unix(0, chargedAt), t.points)
	}
}

// startRenewal keeps a shared store's reservation alive while this process
// holds it: renewing every third of the lease leaves two renewals' slack.
func (t *Ticket) startRenewal() {
	if !t.l.shared {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.renewal = time.AfterFunc(t.l.lease/3, t.renew)
}

func (t *Ticket) renew() {
	l := t.l
	gone := false
	err := l.update(func(s *state, now int64) bool {
		gone = true
		for i := range s.Entries {
			e := &s.Entries[i]
			if e.ID == t.id && e.Pending && e.PID == l.pid && e.Host == l.host {
				e.Lease = now + int64(l.lease)
				gone = false
				return true
			}
		}
		return false
	})
	t.mu.Lock()
	defer t.mu.Unlock()
	// Past the stale bound the reservation is a charge: nothing left to renew.
	if !t.done.Load() && (err != nil || !gone) {
		t.renewal.Reset(l.lease / 3)
	}
}

func (t *Ticket) stopRenewal() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.renewal != nil {
		t.renewal.Stop()
	}
}

// Blocked records a server-side block, seen as a 429, in the shared ledger
// so every process waits instead of probing: retryAfter>0 is used capped at
// 10 minutes, else cfg.Block.
func (l *Ledger) Blocked(retryAfter time.Duration) error {
	d := l.cfg.Block
	if retryAfter > 0 {
		d = min(retryAfter, maxRetryAfter)
	}
	err := l.update(func(s *state, now int64) bool {
		until := now + int64(d)
		if until <= s.BlockedUntil {
			return false
		}
		s.BlockedUntil = until
		return true
	})
	if fb := l.fallbackFor(err); fb != nil {
		return fb.Blocked(retryAfter)
	}
	return err
}

// Status reports the ledger as it stands, without changing it.
func (l *Ledger) Status() (Status, error) {
	s, now, err := l.snapshot()
	if fb := l.fallbackFor(err); fb != nil {
		return fb.Status()
	}
	if err != nil {
		return Status{}, err
	}
	used := s.used(now)
	st := Status{
		Key: l.key, Store: l.store.name(), Points: l.cfg.Points, Reserve: l.cfg.Reserve,
		Used: used, Free: max(0, l.capacity()-used),
		Window: l.cfg.Window, Costs: l.cfg.CostTable(), At: l.local(now),
	}
	for _, r := range s.releases(now, l.tm) {
		st.Releases = append(st.Releases, Release{At: l.local(r.at), Points: r.points})
	}
	if nf := s.nextFree(now, l.tm); nf != 0 {
		st.NextFree = l.local(nf)
	}
	if s.BlockedUntil > now {
		st.BlockedUntil = l.local(s.BlockedUntil)
	}
	st.Note = l.note(&s)
	return st, nil
}

// note explains points a normalized state holds only because its ledger
// was unreadable or lost ("" if none).
func (l *Ledger) note(s *state) string {
	where := "the ledger file"
	if l.shared {
		where = "the ledger in " + l.store.name()
	}
	switch {
	case s.Unreadable != 0:
		return fmt.Sprintf("%s could not be read at %s (damaged, or written by something else), so all %d points are taken as used until %s",
			where, l.local(s.Unreadable).Format("15:04:05"), l.capacity(), l.local(s.Unreadable+l.tm.window).Format("15:04:05"))
	case s.Lost != 0:
		return fmt.Sprintf("%s was lost at %s (the store restarted empty or from an older copy); charges other processes may have made are taken as used until %s",
			where, l.local(s.Lost).Format("15:04:05"), l.local(s.Lost+l.tm.window).Format("15:04:05"))
	}
	return ""
}

// snapshot reads and normalizes the state without writing it back.
func (l *Ledger) snapshot() (state, int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, now, err := l.store.view()
	if err != nil {
		return state{}, 0, err
	}
	s.normalize(now, l.tm, l.dead)
	return s, now, nil
}

// Estimate says how long sending these requests in order would take under
// the current ledger (for --dry-run), without reserving anything: the
// budget's least time for their points (Status.TimeFor). A request that
// costs more than the budget can ever hold is ErrTooCostly.
func (l *Ledger) Estimate(paths []string) (time.Duration, error) {
	points := 0
	for _, p := range paths {
		cost, err := l.price(p)
		if err != nil {
			return 0, err
		}
		points += cost
	}
	st, err := l.Status()
	if err != nil {
		return 0, err
	}
	return st.TimeFor(points), nil
}
