package ratebudget

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/orgctl/orgctl/ratebudget/redisstore/redistest"
)

const (
	holderLease  = 600 * time.Millisecond
	holderWindow = time.Second
)

// runHolder reserves 5 points on the shared ledger, says so, and holds the
// reservation (renewing its lease) until it is killed.
func runHolder() int {
	cfg := DefaultConfig()
	cfg.Points, cfg.Window = 10, holderWindow
	l, err := openChildLedger(cfg, WithLease(holderLease))
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	if _, err := l.Acquire(context.Background(), "/groups"); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	os.Stdout.WriteString("held\n")
	select {}
}

// soleEntry is the one entry of a shared ledger's state, brought to now.
func soleEntry(t *testing.T, l *Ledger) (entry, bool) {
	t.Helper()
	s, _, err := l.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) == 0 {
		return entry{}, false
	}
	if len(s.Entries) != 1 {
		t.Fatalf("entries = %+v, want one", s.Entries)
	}
	return s.Entries[0], true
}

// A holder on another machine cannot be probed by pid: its reservation
// carries a lease it renews while alive. Alive, the reservation stays
// pending for as long as it is held; killed, it is charged when the lease
// lapses and then expires a window later, so its points come back.
func TestKilledHolderReservationLapses(t *testing.T) {
	k := redisKind(t, redistest.Options{})
	place := k.place(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(childEnviron(k), childEnv+"=hold", "RATEBUDGET_TEST_PLACE="+place)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "held\n" {
		t.Fatalf("holder said %q, %v", line, err)
	}
	cfg := DefaultConfig()
	cfg.Points, cfg.Window = 10, holderWindow
	l, err := OpenStore(k.store, place, cfg)
	if err != nil {
		t.Fatal(err)
	}

	time.Sleep(3 * holderLease) // three leases: only renewals keep it pending
	e, ok := soleEntry(t, l)
	if !ok || !e.Pending || e.Points != 5 {
		t.Fatalf("after %v held: entry %+v (present %v), want a pending 5-point reservation", 3*holderLease, e, ok)
	}
	if st := status(t, l); st.Used != 5 {
		t.Fatalf("used = %d while held, want 5", st.Used)
	}

	killed := time.Now()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for {
		e, ok = soleEntry(t, l)
		if !ok || !e.Pending {
			break
		}
		if time.Since(killed) > holderLease+2*time.Second {
			t.Fatalf("reservation still pending %v after its holder was killed: %+v", time.Since(killed), e)
		}
		time.Sleep(20 * time.Millisecond)
	}
	const slack = 100 * time.Millisecond
	lapsed := time.Unix(0, e.At)
	if !ok || lapsed.Before(killed.Add(-holderLease/3-slack)) || lapsed.After(killed.Add(holderLease+slack)) {
		t.Fatalf("killed at %v: entry %+v (present %v), want a charge dated at the lease's end, within a lease of the kill",
			killed.Format("15:04:05.000"), e, ok)
	}
	for status(t, l).Used != 0 {
		if time.Since(lapsed) > holderWindow+2*time.Second {
			t.Fatalf("points of the killed holder not back %v after its lease lapsed: %+v", time.Since(lapsed), status(t, l))
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("killed at +0; charged at %+v (lease end); points back at %+v",
		lapsed.Sub(killed).Round(time.Millisecond), time.Since(killed).Round(time.Millisecond))
}

// A store that goes away fails every operation with a StoreError naming it,
// fast, instead of quietly spending an unshared budget.
func TestStoreGoneFailsLoudly(t *testing.T) {
	k := redisKind(t, redistest.Options{})
	cfg := smallConfig()
	cfg.MaxWait = time.Minute
	l, err := OpenStore(k.store, k.place(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	acquire(t, l, "/apps").Done(true)
	held := acquire(t, l, "/apps")

	k.server.Stop()
	start := time.Now()
	_, err = l.Acquire(context.Background(), "/apps")
	var se *StoreError
	if !errors.As(err, &se) || se.Store != k.server.URL || !strings.Contains(err.Error(), k.server.URL) || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("Acquire with the store gone: %v, want a StoreError naming %s and the refusal", err, k.server.URL)
	}
	// It answered the operation before, so it had reconnectFor to come
	// back (a restart); not a moment more.
	if d := time.Since(start); d < reconnectFor || d > reconnectFor+time.Second {
		t.Fatalf("failing took %v, want about %v", d, reconnectFor)
	}
	// Now that it failed, the next operation fails at once.
	start = time.Now()
	if _, err := l.Acquire(context.Background(), "/apps"); !errors.As(err, &se) || time.Since(start) > time.Second {
		t.Fatalf("Acquire again: %v after %v, want a StoreError at once", err, time.Since(start))
	}
	if _, err := l.Status(); !errors.As(err, &se) {
		t.Fatalf("Status: %v, want a StoreError", err)
	}
	if err := l.Blocked(0); !errors.As(err, &se) {
		t.Fatalf("Blocked: %v, want a StoreError", err)
	}
	if _, err := l.Estimate([]string{"/apps"}); !errors.As(err, &se) {
		t.Fatalf("Estimate: %v, want a StoreError", err)
	}
	held.Done(true) // cannot be recorded; must not hang or panic
}

// With a fallback, a store that goes away is replaced by the local ledger
// with one warning, and used again once it is back.
func TestStoreFallbackAndReturn(t *testing.T) {
	k := redisKind(t, redistest.Options{})
	local, err := Open(t.TempDir(), "test-key", smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	var warnings atomic.Int32
	var warned error
	l, err := OpenStore(k.store, k.place(t), smallConfig(), WithFallback(local, func(err error) {
		warnings.Add(1)
		warned = err
	}))
	if err != nil {
		t.Fatal(err)
	}
	acquire(t, l, "/apps").Done(true)
	if st := status(t, l); st.Store != k.server.URL || st.Used != 2 {
		t.Fatalf("before: %+v", st)
	}

	k.server.Stop()
	for range 3 {
		acquire(t, l, "/apps").Done(true)
	}
	if err := l.Blocked(time.Nanosecond); err != nil {
		t.Fatal(err)
	}
	st := status(t, l)
	if st.Store != "file" || st.Used != 6 {
		t.Fatalf("with the store gone: %+v, want the local ledger with 6 points", st)
	}
	var se *StoreError
	if warnings.Load() != 1 || !errors.As(warned, &se) {
		t.Fatalf("%d warnings (%v), want exactly one StoreError", warnings.Load(), warned)
	}

	k.server.Restart() // empty, as after a crash
	deadline := time.Now().Add(5 * time.Second)
	for st.Store != k.server.URL {
		if time.Now().After(deadline) {
			t.Fatalf("store back for 5s but not used: %+v", st)
		}
		time.Sleep(50 * time.Millisecond)
		st = status(t, l)
	}
	// It came back empty: the 2 points charged there before it went are put
	// back, and the rest of the budget, which other processes may have
	// spent meanwhile, is taken as used for a window.
	if st.Used != 10 || !strings.Contains(st.Note, "was lost") || warnings.Load() != 1 {
		t.Fatalf("after the store came back: %+v, %d warnings; want the store used again, its loss noted, without another warning", st, warnings.Load())
	}
}

// TLS and an ACL user holding only the commands the store documents: the
// whole ledger works through them.
func TestLedgerOverTLSWithACLUser(t *testing.T) {
	k := redisKind(t, redistest.Options{TLS: true, User: "orgctl", Password: "s3cret-pw"})
	clk := newFakeClock()
	place := k.place(t)
	a := k.open(t, place, smallConfig(), clk)
	b := k.open(t, place, smallConfig(), clk)
	for range 5 {
		acquire(t, a, "/apps").Done(true)
	}
	if err := a.Blocked(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	st := status(t, b)
	if st.Used != 10 || !st.BlockedUntil.Equal(t0.Add(10*time.Second)) || strings.Contains(st.Store, "s3cret") || !strings.HasPrefix(st.Store, "rediss://orgctl:") {
		t.Fatalf("status through TLS: %+v", st)
	}
	tk := acquire(t, b, "/apps")
	if !tk.ReservedAt().Equal(t0.Add(60 * time.Second)) {
		t.Fatalf("reserved at t0+%v, want t0+60s", tk.ReservedAt().Sub(t0))
	}
}

// A state in the store that is not this format (another tool, a hand edit)
// counts, like a garbled file, as the whole budget spent now: requests wait
// one window, never overdraw; the next write replaces it.
func TestGarbledSharedStateCountsAsAFullWindow(t *testing.T) {
	k := redisKind(t, redistest.Options{})
	clk := newFakeClock()
	place := k.place(t)
	l := k.open(t, place, smallConfig(), clk)
	acquire(t, l, "/apps").Done(true)
	key := "orgctl:budget:{" + place + "}"
	if _, err := k.server.Client(t).Do("HSET", key, "s", `{"v":99,"entries":"lots"}`); err != nil {
		t.Fatal(err)
	}
	if st := status(t, l); st.Used != 10 || !st.NextFree.Equal(t0.Add(time.Minute)) {
		t.Fatalf("status of a garbled state: %+v", st)
	}
	tk := acquire(t, l, "/apps")
	if got := clk.Sleeps(); len(got) != 1 || got[0] != time.Minute {
		t.Fatalf("sleeps = %v, want [1m0s]", got)
	}
	tk.Done(true)
	if e, ok := soleEntry(t, l); !ok || e.ID != tk.id || e.Pending {
		t.Fatalf("after the rewrite: %+v", e)
	}
}

// A store restarted empty mid-window must not read as an empty window: each
// process puts back the charges it saw, so nobody sends into points that
// were spent. A process that saw every charge waits exactly until they
// expire; one that may have missed some also counts the budget it cannot
// account for, and says why it waits.
func TestStoreRestartedEmptyKeepsTheWindowsCharges(t *testing.T) {
	k := redisKind(t, redistest.Options{})
	clk := newFakeClock()
	place := k.place(t)
	a := k.open(t, place, smallConfig(), clk)
	b := k.open(t, place, smallConfig(), clk)
	for range 3 {
		acquire(t, a, "/apps").Done(true)
	}
	clk.Advance(10 * time.Second)
	for range 2 {
		acquire(t, b, "/apps").Done(true) // b saw all 10 points
	}
	k.server.Restart() // empty, as a failover to a replica without persistence

	// b knows every charge: it waits until the first ones expire, 50 s on.
	st := status(t, b)
	if st.Used != 10 || !strings.Contains(st.Note, "was lost at") {
		t.Fatalf("b's status after the restart: %+v, want 10 points used and the loss noted", st)
	}
	tk := acquire(t, b, "/apps")
	if got := clk.Sleeps(); len(got) != 1 || got[0] != 50*time.Second {
		t.Fatalf("b slept %v, want [50s]: until a's charges of t0 expire", got)
	}
	tk.Done(true)

	// a saw only its own 6 points; b put all 10 back, so a finds them all
	// in the new generation and adds its own (already there) only.
	if st := status(t, a); st.Used != 6 {
		t.Fatalf("a's status: %+v, want b's 4 and its own 2 points of the new window", st)
	}
}

func TestStoreRestartedEmptyWithChargesNobodyKnowsWaitsAWindow(t *testing.T) {
	k := redisKind(t, redistest.Options{})
	clk := newFakeClock()
	place := k.place(t)
	a := k.open(t, place, smallConfig(), clk)
	acquire(t, a, "/apps").Done(true) // a saw 2 points, then looks away
	gone := k.open(t, place, smallConfig(), clk)
	for range 4 {
		acquire(t, gone, "/apps").Done(true) // a process that then ends
	}
	clk.Advance(5 * time.Second)
	k.server.Restart() // empty, as a failover to a replica without persistence

	// a cannot know of the 8 points; it counts the 8 it cannot account for
	// as spent now. So it waits until its 2 known points expire, and a
	// notice says why.
	var told []Wait
	a.notify = func(w Wait) { told = append(told, w) }
	if st := status(t, a); st.Used != 10 || !strings.Contains(st.Note, "was lost at") {
		t.Fatalf("status after the restart: %+v, want the 8 unknown points counted", st)
	}
	acquire(t, a, "/apps").Done(true)
	if got := clk.Sleeps(); len(got) != 1 || got[0] != 55*time.Second {
		t.Fatalf("slept %v, want [55s]: until the 2 known points of t0 expire", got)
	}
	if len(told) != 1 || !strings.Contains(told[0].Note, "was lost at") {
		t.Fatalf("notices %+v, want one naming the loss", told)
	}
	// The 8 points it could not account for count until t0+65s.
	if st := status(t, a); st.Used != 10 {
		t.Fatalf("status at t0+60s: %+v", st)
	}
	clk.Advance(5 * time.Second)
	if st := status(t, a); st.Used != 2 || st.Note != "" {
		t.Fatalf("status at t0+65s: %+v, want only the new 2 points", st)
	}
}

// A store rolled back to an older copy (a snapshot restored) holds the
// generation this process saw with an older sequence: the charges made
// since are put back the same way.
func TestStoreRolledBackPutsBackLaterCharges(t *testing.T) {
	k := redisKind(t, redistest.Options{})
	clk := newFakeClock()
	place := k.place(t)
	l := k.open(t, place, smallConfig(), clk)
	acquire(t, l, "/apps").Done(true)
	key := "orgctl:budget:{" + place + "}"
	c := k.server.Client(t)
	old, err := redis.Values(c.Do("HMGET", key, "v", "s"))
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		acquire(t, l, "/apps").Done(true)
	}
	if _, err := c.Do("HSET", key, "v", old[0], "s", old[1]); err != nil {
		t.Fatal(err)
	}
	if st := status(t, l); st.Used != 10 || !strings.Contains(st.Note, "was lost") {
		t.Fatalf("status after the rollback: %+v, want all 10 points", st)
	}
}

// A ledger that cannot be read says so: a wait it causes names the damage,
// not "10 of 10 points used".
func TestUnreadableLedgerSaysSo(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		place := k.place(t)
		cfg := smallConfig()
		cfg.MaxWait = time.Second
		l := k.open(t, place, cfg, clk)
		if k.store == nil {
			writeLedgerFile(t, l, "garbage", t0)
		} else if _, err := k.server.Client(t).Do("HSET", "orgctl:budget:{"+place+"}", "s", "garbage"); err != nil {
			t.Fatal(err)
		}
		_, err := l.Acquire(context.Background(), "/apps")
		if err == nil || !strings.Contains(err.Error(), "could not be read at") || strings.Contains(err.Error(), "10 of 10 points used") {
			t.Fatalf("Acquire: %v; want the unreadable ledger named", err)
		}
		if st := status(t, l); !strings.Contains(st.Note, "could not be read") {
			t.Fatalf("status: %+v", st)
		}
		clk.Advance(time.Minute)
		acquire(t, l, "/apps").Done(true)
		if st := status(t, l); st.Note != "" || st.Used != 2 {
			t.Fatalf("a window later: %+v, want the note gone", st)
		}
	})
}
