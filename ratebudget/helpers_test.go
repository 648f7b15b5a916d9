package ratebudget

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orgctl/orgctl/ratebudget/redisstore"
	"github.com/orgctl/orgctl/ratebudget/redisstore/redistest"
)

// fakeClock moves only when someone sleeps on it; a sleep of d started at T
// ends at T+d (or later, if another sleeper already moved the clock past it).
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	sleeps  []time.Duration
	onSleep func(d time.Duration) // runs after the clock moved, outside the lock
}

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func newFakeClock() *fakeClock { return &fakeClock{now: t0} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	if target := c.now.Add(d); target.After(c.now) {
		c.now = target
	}
	hook := c.onSleep
	c.mu.Unlock()
	if hook != nil {
		hook(d)
	}
	return nil
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *fakeClock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// virtualClock runs a fixed set of goroutines in virtual time: it moves
// only when every one of them is asleep (or gone), and then exactly to the
// earliest wake-up, so nobody oversleeps and concurrent waits stay exact.
type virtualClock struct {
	mu       sync.Mutex
	now      time.Time
	running  int
	sleepers []virtualSleeper
}

type virtualSleeper struct {
	until time.Time
	wake  chan struct{}
}

func newVirtualClock(goroutines int) *virtualClock {
	return &virtualClock{now: t0, running: goroutines}
}

func (c *virtualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *virtualClock) Sleep(ctx context.Context, d time.Duration) error {
	s := virtualSleeper{wake: make(chan struct{})}
	c.mu.Lock()
	s.until = c.now.Add(max(d, 0))
	c.sleepers = append(c.sleepers, s)
	c.running--
	c.advance()
	c.mu.Unlock()
	<-s.wake
	return ctx.Err()
}

// Exit tells the clock a goroutine has finished.
func (c *virtualClock) Exit() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running--
	c.advance()
}

func (c *virtualClock) advance() {
	if c.running > 0 || len(c.sleepers) == 0 {
		return
	}
	next := c.sleepers[0].until
	for _, s := range c.sleepers {
		if s.until.Before(next) {
			next = s.until
		}
	}
	if next.After(c.now) {
		c.now = next
	}
	keep := c.sleepers[:0]
	for _, s := range c.sleepers {
		if s.until.After(c.now) {
			keep = append(keep, s)
			continue
		}
		c.running++
		close(s.wake)
	}
	c.sleepers = keep
}

// smallConfig is a 10-point budget, so five Apps requests (2 points) fill it.
func smallConfig() Config {
	cfg := DefaultConfig()
	cfg.Points = 10
	return cfg
}

func openTest(t testing.TB, dir string, cfg Config, clk Clock, opts ...Option) *Ledger {
	t.Helper()
	l, err := Open(dir, "test-key", cfg, append([]Option{withClock(clk)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// storeKind opens test ledgers on one kind of store. A place is where a
// ledger lives (a directory, or a key on the Redis server): ledgers opened
// on one place share their state, as processes sharing a budget do.
type storeKind struct {
	name   string
	server *redistest.Server // nil for files
	store  *redisstore.Store // nil for files
	places atomic.Int64
}

func (k *storeKind) place(t testing.TB) string {
	if k.store == nil {
		return t.TempDir()
	}
	return fmt.Sprintf("test-%d", k.places.Add(1))
}

func (k *storeKind) open(t testing.TB, place string, cfg Config, clk Clock, opts ...Option) *Ledger {
	t.Helper()
	l, err := k.openErr(place, cfg, append([]Option{withClock(clk)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func (k *storeKind) openErr(place string, cfg Config, opts ...Option) (*Ledger, error) {
	if k.store == nil {
		return Open(place, "test-key", cfg, opts...)
	}
	return OpenStore(k.store, place, cfg, opts...)
}

// eachStore runs test on the file ledger and on a Redis server of its own,
// so every behaviour the ledger promises is checked on both stores.
func eachStore(t *testing.T, test func(t *testing.T, k *storeKind)) {
	t.Run("file", func(t *testing.T) { test(t, &storeKind{name: "file"}) })
	t.Run("redis", func(t *testing.T) { test(t, redisKind(t, redistest.Options{})) })
}

func redisKind(t testing.TB, o redistest.Options) *storeKind {
	t.Helper()
	srv := redistest.Start(t, o)
	st, err := redisstore.Open(srv.URL, srv.TLSConfig)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &storeKind{name: "redis", server: srv, store: st}
}

func acquire(t testing.TB, l *Ledger, path string) *Ticket {
	t.Helper()
	tk, err := l.Acquire(context.Background(), path)
	if err != nil {
		t.Fatalf("Acquire(%s): %v", path, err)
	}
	return tk
}

func status(t testing.TB, l *Ledger) Status {
	t.Helper()
	st, err := l.Status()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// sharedDir locates the read-only reference material next to the repo.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("go.mod not found above the test directory")
		}
		dir = parent
	}
	shared := filepath.Join(dir, "..", "shared")
	if _, err := os.Stat(shared); err != nil {
		t.Skipf("reference material absent (%s): %v", shared, err)
	}
	return shared
}

// fileSlots is a file ledger's pair of slot files.
func fileSlots(l *Ledger) *slots { return &l.store.(*fileBackend).slots }

// withClock replaces the wall clock, and a shared store's clock too (for tests).
func withClock(c Clock) Option { return func(l *Ledger) { l.clock, l.clockSet = c, true } }
