package ratebudget

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// holdLock takes the ledger's lock through another open file, as another
// process would, until the test ends.
func holdLock(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "test-key.lock")
	other := flock.New(path)
	if err := other.Lock(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Unlock() })
	return path
}

// A lock nobody lets go of ends Acquire within the wait allowed, naming the
// lock file and (on Linux) the process holding it; a wait over a second is
// announced first.
func TestHeldLockIsWaitedForAtMostMaxWait(t *testing.T) {
	dir := t.TempDir()
	cfg := smallConfig()
	cfg.MaxWait = 1500 * time.Millisecond
	var mu sync.Mutex
	var told []Wait
	l := openTest(t, dir, cfg, newFakeClock(), WithNotify(func(w Wait) { mu.Lock(); told = append(told, w); mu.Unlock() }))
	path := holdLock(t, dir)

	start := time.Now()
	_, err := l.Acquire(context.Background(), "/apps")
	took := time.Since(start)
	var le *LockError
	if !errors.As(err, &le) || le.Path != path {
		t.Fatalf("err = %T %v, want a LockError on %s", err, err, path)
	}
	if took < cfg.MaxWait || took > cfg.MaxWait+5*time.Second {
		t.Errorf("gave up after %s with a max wait of %s", took, cfg.MaxWait)
	}
	if runtime.GOOS == "linux" && !strings.Contains(le.Holder, fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("holder %q, want this process's pid", le.Holder)
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("message %q does not name the lock file", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(told) != 1 || told[0].Reason != ReasonLocked || told[0].Lock != path {
		t.Errorf("notices %+v, want one ReasonLocked naming the lock", told)
	}
}

// Even with no wait allowed, the lock is waited for a moment: others hold
// it in turn.
func TestLockWaitHasAFloor(t *testing.T) {
	dir := t.TempDir()
	cfg := smallConfig()
	cfg.MaxWait = 0
	l := openTest(t, dir, cfg, newFakeClock())
	holdLock(t, dir)
	start := time.Now()
	_, err := l.Status()
	var le *LockError
	if !errors.As(err, &le) {
		t.Fatalf("Status: %v, want a LockError", err)
	}
	if took := time.Since(start); took < minLockWait {
		t.Errorf("gave up after %s, before the %s floor", took, minLockWait)
	}
}

// A lock let go of within the wait is taken, and the request goes ahead.
func TestLockFreedWithinTheWaitIsTaken(t *testing.T) {
	dir := t.TempDir()
	cfg := smallConfig()
	cfg.MaxWait = 10 * time.Second
	l := openTest(t, dir, cfg, newFakeClock())
	other := flock.New(filepath.Join(dir, "test-key.lock"))
	if err := other.Lock(); err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(200*time.Millisecond, func() { other.Unlock() })
	tk, err := l.Acquire(context.Background(), "/apps")
	if err != nil {
		t.Fatal(err)
	}
	tk.Done(true)
}

// Ctrl-C while waiting for the lock ends the wait at once.
func TestLockWaitEndsWithTheContext(t *testing.T) {
	dir := t.TempDir()
	cfg := smallConfig()
	cfg.MaxWait = time.Minute
	l := openTest(t, dir, cfg, newFakeClock())
	holdLock(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err := l.Acquire(ctx, "/apps")
	var we *WaitError
	if !errors.As(err, &we) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %T %v, want a cancelled WaitError", err, err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s to stop after the context ended", took)
	}
}

// Waits for the lock within one Acquire share its --max-wait: a lock
// taken late leaves only the rest of it for the next look.
func TestLockWaitsShareOneMaxWait(t *testing.T) {
	dir := t.TempDir()
	cfg := smallConfig()
	cfg.MaxWait = 3 * time.Second
	l := openTest(t, dir, cfg, newFakeClock())
	fb := l.store.(*fileBackend)
	other := flock.New(filepath.Join(dir, "test-key.lock"))
	if err := other.Lock(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Unlock() })
	ctx := withLockDeadline(context.Background(), time.Now().Add(1500*time.Millisecond))
	err := fb.take(ctx, true)
	var le *LockError
	if !errors.As(err, &le) {
		t.Fatalf("take: %v, want a LockError", err)
	}
	if le.Limit > 1500*time.Millisecond {
		t.Errorf("allowed %s for the lock with 1.5s of the max wait left", le.Limit)
	}
}
