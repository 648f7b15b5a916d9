package ratebudget

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestWaitsExactlyUntilOldestChargeExpires(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		l := k.open(t, k.place(t), smallConfig(), clk)
		for i := range 5 { // 10 points, charged at t0, t0+1s, ... t0+4s
			acquire(t, l, "/apps").Done(true)
			if i < 4 {
				clk.Advance(time.Second)
			}
		}
		if st := status(t, l); st.Used != 10 || st.Free != 0 || !st.NextFree.Equal(t0.Add(60*time.Second)) {
			t.Fatalf("status after filling: %+v", st)
		}
		tk := acquire(t, l, "/users/u_1")
		if got := clk.Sleeps(); len(got) != 1 || got[0] != 56*time.Second {
			t.Fatalf("sleeps = %v, want exactly [56s] (t0+4s -> t0+60s)", got)
		}
		if !tk.ReservedAt().Equal(t0.Add(60 * time.Second)) {
			t.Fatalf("reserved at %v, want t0+60s", tk.ReservedAt())
		}
		if tk.Points() != 2 {
			t.Fatalf("ticket points = %d", tk.Points())
		}
	})
}

func TestEntriesExpireAtTheWindowEdge(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		l := k.open(t, k.place(t), smallConfig(), clk)
		acquire(t, l, "/groups").Done(true) // 5 points at t0
		clk.Advance(10 * time.Second)
		acquire(t, l, "/apps").Done(true) // 2 points at t0+10s
		clk.Advance(50*time.Second - time.Nanosecond)
		if st := status(t, l); st.Used != 7 {
			t.Fatalf("1ns before t0+60s used = %d, want 7", st.Used)
		}
		clk.Advance(time.Nanosecond)
		if st := status(t, l); st.Used != 2 || !st.NextFree.Equal(t0.Add(70*time.Second)) {
			t.Fatalf("at t0+60s: %+v, want used 2, next free t0+70s", st)
		}
		clk.Advance(10 * time.Second)
		if st := status(t, l); st.Used != 0 || !st.NextFree.IsZero() {
			t.Fatalf("at t0+70s: %+v, want nothing used", st)
		}
	})
}

func TestReserveIsLeftUnused(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		cfg := smallConfig()
		cfg.Reserve = 4
		l := k.open(t, k.place(t), cfg, clk)
		for range 3 {
			acquire(t, l, "/apps").Done(true)
		}
		st := status(t, l)
		if st.Used != 6 || st.Free != 0 || st.Reserve != 4 || st.Points != 10 {
			t.Fatalf("status = %+v, want 6 used of 10 with 4 reserved", st)
		}
		acquire(t, l, "/apps")
		if got := clk.Sleeps(); len(got) != 1 || got[0] != 60*time.Second {
			t.Fatalf("sleeps = %v, want [60s]: the reserve must not be spent", got)
		}
	})
}

func TestChargeIsDatedAtCompletion(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		l := k.open(t, k.place(t), smallConfig(), clk)
		slow := acquire(t, l, "/apps") // reserved at t0
		for range 4 {
			acquire(t, l, "/apps").Done(true) // t0
		}
		clk.Advance(30 * time.Second)
		slow.Done(true) // completes at t0+30s: counts until t0+90s
		clk.Advance(30 * time.Second)
		if st := status(t, l); st.Used != 2 {
			t.Fatalf("at t0+60s used = %d, want 2 (the slow request's charge)", st.Used)
		}
		for range 4 {
			acquire(t, l, "/apps").Done(true) // fill at t0+60s
		}
		tk := acquire(t, l, "/apps")
		if !tk.ReservedAt().Equal(t0.Add(90 * time.Second)) {
			t.Fatalf("reserved at %v, want t0+90s (window after completion, not reservation)", tk.ReservedAt().Sub(t0))
		}
	})
}

func TestPendingReservationsCount(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		cfg := smallConfig()
		cfg.MaxWait = 0
		l := k.open(t, k.place(t), cfg, clk)
		for range 5 {
			acquire(t, l, "/apps") // in flight, never completed here
		}
		_, err := l.Acquire(context.Background(), "/apps")
		var we *WaitError
		if !errors.As(err, &we) {
			t.Fatalf("err = %v, want *WaitError", err)
		}
		// In-flight requests free points no sooner than a window after they complete.
		if we.Used != 10 || we.Limit != 10 || we.Needed != 2 || !we.RetryAt.Equal(t0.Add(60*time.Second)) {
			t.Fatalf("WaitError = %+v", we)
		}
	})
}

func TestRefundFreesPointsAtOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		l := k.open(t, k.place(t), smallConfig(), clk)
		var last *Ticket
		for range 5 {
			last = acquire(t, l, "/apps")
		}
		last.Done(false)
		if st := status(t, l); st.Used != 8 {
			t.Fatalf("used after refund = %d, want 8", st.Used)
		}
		last.Done(true) // a second Done must not charge again
		if st := status(t, l); st.Used != 8 {
			t.Fatalf("used after second Done = %d, want 8", st.Used)
		}
		acquire(t, l, "/apps")
		if got := clk.Sleeps(); len(got) != 0 {
			t.Fatalf("slept %v after a refund made room", got)
		}
	})
}

func TestRefundWakesPollingWaiter(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		dir := k.place(t)
		l := k.open(t, dir, smallConfig(), clk)
		other := k.open(t, dir, smallConfig(), clk)
		var inflight []*Ticket
		for range 5 {
			inflight = append(inflight, acquire(t, other, "/apps"))
		}
		clk.onSleep = func(time.Duration) {
			if len(inflight) > 0 && clk.Now().Sub(t0) >= 12*time.Second {
				inflight[0].Done(false) // connection refused elsewhere
				inflight = inflight[1:]
			}
		}
		tk := acquire(t, l, "/apps")
		poll := l.poll()
		if at := tk.ReservedAt().Sub(t0); at < 12*time.Second || at > 12*time.Second+poll {
			t.Fatalf("reserved at t0+%v, want within one poll (%v) after the refund at t0+12s", at, poll)
		}
		for _, d := range clk.Sleeps() {
			if d != poll {
				t.Fatalf("sleeps = %v, want %v polls while only in-flight requests hold the window", clk.Sleeps(), poll)
			}
		}
	})
}

func TestBlockIsSharedThroughTheLedger(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		for _, tc := range []struct {
			retryAfter, want time.Duration
		}{
			{0, 60 * time.Second},
			{-time.Second, 60 * time.Second},
			{30 * time.Second, 30 * time.Second},
			{2 * time.Hour, 10 * time.Minute},
		} {
			clk := newFakeClock()
			dir := k.place(t)
			a := k.open(t, dir, DefaultConfig(), clk)
			var waits []Wait
			cfg := DefaultConfig()
			cfg.MaxWait = time.Hour
			b := k.open(t, dir, cfg, clk, WithNotify(func(w Wait) { waits = append(waits, w) }))
			if err := a.Blocked(tc.retryAfter); err != nil {
				t.Fatal(err)
			}
			if st := status(t, b); !st.BlockedUntil.Equal(t0.Add(tc.want)) {
				t.Fatalf("Retry-After %v: other ledger sees blocked until t0+%v, want t0+%v", tc.retryAfter, st.BlockedUntil.Sub(t0), tc.want)
			}
			tk := acquire(t, b, "/apps")
			if got := clk.Sleeps(); len(got) != 1 || got[0] != tc.want {
				t.Fatalf("Retry-After %v: sleeps = %v, want [%v]", tc.retryAfter, got, tc.want)
			}
			if len(waits) != 1 || waits[0].Reason != ReasonBlocked || waits[0].Duration != tc.want || !waits[0].Until.Equal(t0.Add(tc.want)) || waits[0].Points != 2 {
				t.Fatalf("notified %+v", waits)
			}
			if !tk.ReservedAt().Equal(t0.Add(tc.want)) {
				t.Fatalf("reserved at t0+%v", tk.ReservedAt().Sub(t0))
			}
		}
	})
}

func TestShorterBlockDoesNotShortenLongerOne(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		l := k.open(t, k.place(t), DefaultConfig(), clk)
		if err := l.Blocked(5 * time.Minute); err != nil {
			t.Fatal(err)
		}
		if err := l.Blocked(10 * time.Second); err != nil {
			t.Fatal(err)
		}
		if st := status(t, l); !st.BlockedUntil.Equal(t0.Add(5 * time.Minute)) {
			t.Fatalf("blocked until t0+%v, want t0+5m", st.BlockedUntil.Sub(t0))
		}
		clk.Advance(5 * time.Minute)
		if st := status(t, l); !st.BlockedUntil.IsZero() {
			t.Fatalf("still blocked at its end: %v", st.BlockedUntil)
		}
	})
}

func TestMaxWaitFailsFastWithNumbers(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		cfg := smallConfig()
		cfg.Points, cfg.Reserve = 12, 2
		cfg.MaxWait = 30 * time.Second
		l := k.open(t, k.place(t), cfg, clk)
		for range 4 {
			acquire(t, l, "/apps").Done(true) // 8 points at t0
		}
		clk.Advance(10 * time.Second)
		_, err := l.Acquire(context.Background(), "/groups") // 5 points: needs t0+60s, 50s away
		var we *WaitError
		if !errors.As(err, &we) {
			t.Fatalf("err = %v, want *WaitError", err)
		}
		want := WaitError{Needed: 5, Used: 8, Limit: 10, Waited: 0, RetryAt: t0.Add(60 * time.Second),
			Window: time.Minute, MaxWait: 30 * time.Second}
		if !we.RetryAt.Equal(want.RetryAt) {
			t.Fatalf("RetryAt = %v, want %v", we.RetryAt, want.RetryAt)
		}
		want.RetryAt = we.RetryAt
		if *we != want {
			t.Fatalf("WaitError = %+v\nwant        %+v", *we, want)
		}
		if len(clk.Sleeps()) != 0 {
			t.Fatalf("slept %v before giving up on a wait known to be too long", clk.Sleeps())
		}
		msg := we.Error()
		for _, part := range []string{"8 of 10 points used in the last 1m0s", "needs 5", "30s limit", "retry after " + t0.Add(time.Minute).Local().Format("15:04:05")} {
			if !strings.Contains(msg, part) {
				t.Errorf("message %q lacks %q", msg, part)
			}
		}
	})
}

func TestMaxWaitGivesUpWhenABlockArrivesDuringTheWait(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		dir := k.place(t)
		cfg := smallConfig()
		cfg.MaxWait = 90 * time.Second
		l := k.open(t, dir, cfg, clk)
		other := k.open(t, dir, cfg, clk)
		for range 5 {
			acquire(t, l, "/apps").Done(true)
		}
		clk.Advance(10 * time.Second)
		clk.onSleep = func(time.Duration) { _ = other.Blocked(0) } // another process hits a 429 meanwhile
		_, err := l.Acquire(context.Background(), "/apps")
		var we *WaitError
		if !errors.As(err, &we) {
			t.Fatalf("err = %v, want *WaitError", err)
		}
		if !we.Blocked || we.Waited != 50*time.Second || !we.RetryAt.Equal(t0.Add(120*time.Second)) || we.Err != nil {
			t.Fatalf("WaitError = %+v, want blocked, waited 50s, retry at t0+120s", we)
		}
		if !strings.Contains(we.Error(), "blocking") {
			t.Errorf("message %q does not say the server blocks", we.Error())
		}
	})
}

func TestCancelledContextEndsWait(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		l := k.open(t, k.place(t), smallConfig(), clk)
		for range 5 {
			acquire(t, l, "/apps").Done(true)
		}
		ctx, cancel := context.WithCancel(context.Background())
		clk.onSleep = func(time.Duration) { cancel() }
		// The fake sleep returns normally; the next loop turn sees the cancelled context.
		_, err := l.Acquire(ctx, "/apps")
		var we *WaitError
		if !errors.As(err, &we) || !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want *WaitError wrapping context.Canceled", err)
		}
		if we.Waited != 60*time.Second {
			t.Fatalf("waited = %v, want 60s", we.Waited)
		}
	})
}

func TestNotifyOnlyForWaitsOverASecond(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		var waits []Wait
		l := k.open(t, k.place(t), smallConfig(), clk, WithNotify(func(w Wait) { waits = append(waits, w) }))
		for i := range 5 {
			acquire(t, l, "/apps").Done(true)
			if i == 0 {
				clk.Advance(59 * time.Second) // the first charge expires 1s from here
			}
		}
		acquire(t, l, "/apps").Done(true) // waits exactly 1s: no notice
		if len(waits) != 0 {
			t.Fatalf("notified for a 1s wait: %+v", waits)
		}
		acquire(t, l, "/apps").Done(true) // waits 59s for the t0+59s charges
		want := Wait{Duration: 59 * time.Second, Until: t0.Add(119 * time.Second), Reason: ReasonWindowFull, Points: 2, Used: 10, Limit: 10}
		if len(waits) != 1 || waits[0].Duration != want.Duration || !waits[0].Until.Equal(want.Until) ||
			waits[0].Reason != want.Reason || waits[0].Points != 2 || waits[0].Used != 10 || waits[0].Limit != 10 {
			t.Fatalf("waits = %+v, want [%+v]", waits, want)
		}
		select {
		case <-waits[0].Ended: // the wait is over once Acquire returned
		default:
			t.Fatal("Wait.Ended is still open after the request went ahead")
		}
	})
}

func TestTooCostlyRequestFailsAtOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		cfg := smallConfig()
		cfg.Reserve = 1 // 9 usable; Permissions costs 10
		l := k.open(t, k.place(t), cfg, clk)
		_, err := l.Acquire(context.Background(), "/permissions/grant")
		if !errors.Is(err, ErrTooCostly) {
			t.Fatalf("err = %v, want ErrTooCostly", err)
		}
		if _, err := l.Estimate([]string{"/apps", "/permissions"}); !errors.Is(err, ErrTooCostly) {
			t.Fatalf("Estimate err = %v, want ErrTooCostly", err)
		}
		if len(clk.Sleeps()) != 0 {
			t.Fatal("slept on a request that can never fit")
		}
	})
}

func TestFreeFamilyNeedsNoPoints(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		cfg := smallConfig()
		cfg.Costs = map[string]int{"info": 0}
		l := k.open(t, k.place(t), cfg, clk)
		for range 5 {
			acquire(t, l, "/apps").Done(true)
		}
		tk := acquire(t, l, "/info")
		tk.Done(true)
		if st := status(t, l); st.Used != 10 || len(clk.Sleeps()) != 0 {
			t.Fatalf("free request changed the ledger or waited: %+v %v", st, clk.Sleeps())
		}
	})
}

func TestEstimate(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		l := k.open(t, k.place(t), smallConfig(), clk)
		paths := func(n int, p string) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = p
			}
			return out
		}
		for _, tc := range []struct {
			paths []string
			want  time.Duration
		}{
			{nil, 0},
			{paths(5, "/apps"), 0},
			{paths(6, "/apps"), time.Minute},
			{paths(10, "/apps"), time.Minute},
			{paths(11, "/apps"), 2 * time.Minute},
			{[]string{"/groups", "/groups", "/apps"}, time.Minute},
		} {
			got, err := l.Estimate(tc.paths)
			if err != nil || got != tc.want {
				t.Errorf("Estimate(%v) = %v, %v; want %v", tc.paths, got, err, tc.want)
			}
		}
		acquire(t, l, "/apps").Done(true) // t0
		clk.Advance(20 * time.Second)
		acquire(t, l, "/apps") // in flight since t0+20s: assumed to complete now
		if got, _ := l.Estimate(paths(4, "/apps")); got != 40*time.Second {
			t.Errorf("Estimate with 4 used = %v, want 40s (the t0 charge expires)", got)
		}
		// a job's progress asks the status for its points: the same answer
		if got := status(t, l).TimeFor(8); got != 40*time.Second {
			t.Errorf("Status.TimeFor(8) with 4 used = %v, want 40s", got)
		}
		if err := l.Blocked(30 * time.Second); err != nil {
			t.Fatal(err)
		}
		if got, _ := l.Estimate(paths(1, "/apps")); got != 30*time.Second {
			t.Errorf("Estimate while blocked = %v, want 30s", got)
		}
		if st := status(t, l); st.Used != 4 {
			t.Errorf("Estimate reserved points: used %d, want 4", st.Used)
		}
	})
}

func TestStatusCostsAndKey(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		cfg := DefaultConfig()
		cfg.Costs = map[string]int{"usage": 5}
		place := k.place(t)
		l, err := k.openErr(place, cfg)
		if err != nil {
			t.Fatal(err)
		}
		key, store := "test-key", "file"
		if k.store != nil {
			key, store = place, k.server.URL
		}
		st := status(t, l)
		if st.Key != key || st.Store != store || st.Points != 300 || st.Free != 300 || st.Window != time.Minute || st.Costs["usage"] != 5 || st.Costs["permissions"] != 10 || st.Costs["apps"] != 2 {
			t.Fatalf("status = %+v", st)
		}
	})
}

func TestOpenValidates(t *testing.T) {
	dir := t.TempDir()
	for _, key := range []string{"", "..", "a/b", `a\b`, "tok en"} {
		if _, err := Open(dir, key, DefaultConfig()); err == nil {
			t.Errorf("Open accepted key %q", key)
		}
	}
	bad := []Config{
		{Points: 10, Reserve: 10},
		{Points: 10, Reserve: -1},
		{Points: -1},
		{Window: -time.Second},
		{Costs: map[string]int{"apps": -1}},
	}
	for _, cfg := range bad {
		if _, err := Open(dir, "k", cfg); err == nil {
			t.Errorf("Open accepted %+v", cfg)
		}
	}
	l, err := Open(dir+"/sub/dir", "k", Config{})
	if err != nil {
		t.Fatal(err)
	}
	if st := status(t, l); st.Points != 300 || st.Window != time.Minute {
		t.Errorf("zero config did not take defaults: %+v", st)
	}
}
