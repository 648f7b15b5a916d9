package ratebudget

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"
)

func TestTimeFor(t *testing.T) {
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return now.Add(time.Duration(s * float64(time.Second))) }
	w := 6 * time.Second
	for _, tc := range []struct {
		name   string
		st     Status
		points int
		want   time.Duration
	}{
		{"idle, fits", Status{Points: 300, Free: 300}, 200, 0},
		{"idle, exactly the budget", Status{Points: 300, Free: 300}, 300, 0},
		{"idle, one point over", Status{Points: 300, Free: 300}, 301, w},
		// the 300 spent at once all come back together a window later:
		// the 750th point goes after two windows, not two and a half
		{"idle, 750 points", Status{Points: 300, Free: 300}, 750, 2 * w},
		{"idle, 1200 points", Status{Points: 300, Free: 300}, 1200, 3 * w},
		{"nothing to spend", Status{Points: 300, Free: 0}, 0, 0},
		{"full, all back in 5s", Status{Points: 300, Free: 0, Releases: []Release{{at(5), 300}}}, 600, 11 * time.Second},
		{"full, no releases given: NextFree", Status{Points: 300, Free: 0, NextFree: at(5)}, 600, 11 * time.Second},
		{"blocked for 3s", Status{Points: 300, Free: 0, BlockedUntil: at(3), Releases: []Release{{at(5), 300}}}, 300, 3 * time.Second},
		{"blocked for 3s, then a window", Status{Points: 300, Free: 0, BlockedUntil: at(3)}, 301, 9 * time.Second},
		// 4 back at 2s and 6 at 7s, spent then; again at 8s and 13s
		{"spread releases", Status{Points: 10, Releases: []Release{{at(2), 4}, {at(7), 6}}}, 15, 13 * time.Second},
		{"spread releases, within the first", Status{Points: 10, Releases: []Release{{at(2), 4}, {at(7), 6}}}, 4, 2 * time.Second},
		{"the reserve is not spent", Status{Points: 300, Reserve: 100, Free: 200}, 450, 2 * w},
		// a raised reserve: more in use than usable, so 8 must come back first
		{"more in use than usable", Status{Points: 10, Releases: []Release{{at(1), 8}, {at(2), 8}}}, 5, 2 * time.Second},
		{"releases past are free", Status{Points: 10, Free: 10, Releases: []Release{{at(-1), 10}}}, 10, 0},
	} {
		st := tc.st
		st.Window, st.At = w, now
		if got := st.TimeFor(tc.points); got != tc.want {
			t.Errorf("%s: TimeFor(%d) = %v, want %v", tc.name, tc.points, got, tc.want)
		}
	}
}

// An idle budget spends its capacity at once and again every window.
func TestIdleTimeForIsWholeWindows(t *testing.T) {
	c := Config{Points: 300, Reserve: 20, Window: time.Minute}
	for p := 1; p <= 3000; p++ {
		if got, want := c.Idle().TimeFor(p), time.Duration((p-1)/280)*time.Minute; got != want {
			t.Fatalf("Idle().TimeFor(%d) = %v, want %v", p, got, want)
		}
	}
}

// TimeFor against a plain simulation: every moment something comes back,
// spend what fits, and have it come back a window later.
func TestTimeForAgainstSimulation(t *testing.T) {
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		capacity := 1 + rng.IntN(40)
		w := time.Duration(1+rng.IntN(60)) * time.Second
		var rel []Release
		used := 0
		for n := rng.IntN(8); n > 0; n-- {
			r := Release{At: now.Add(time.Duration(1+rng.IntN(int(w/time.Millisecond))) * time.Millisecond), Points: 1 + rng.IntN(capacity)}
			rel = append(rel, r)
			used += r.Points
		}
		sort.Slice(rel, func(i, j int) bool { return rel[i].At.Before(rel[j].At) })
		st := Status{Points: capacity, Window: w, At: now, Releases: rel, Free: max(0, capacity-used)}
		points := rng.IntN(6 * capacity)
		if got, want := st.TimeFor(points), simulate(now, capacity, w, rel, points); got != want {
			t.Fatalf("capacity %d window %v releases %v: TimeFor(%d) = %v, simulation %v", capacity, w, rel, points, got, want)
		}
	}
}

func simulate(now time.Time, capacity int, w time.Duration, rel []Release, points int) time.Duration {
	events := append([]Release{{At: now}}, rel...)
	used := 0
	for _, r := range rel {
		used += r.Points
	}
	for points > 0 {
		sort.SliceStable(events, func(i, j int) bool { return events[i].At.Before(events[j].At) })
		e := events[0]
		events = events[1:]
		used -= e.Points
		if n := min(capacity-used, points); n > 0 {
			used += n
			points -= n
			events = append(events, Release{At: e.At.Add(w), Points: n})
			if points == 0 {
				return e.At.Sub(now)
			}
		}
	}
	return 0
}

func TestTallyAndCostSentence(t *testing.T) {
	for _, tc := range []struct {
		requests, points int
		want             string
	}{
		{1, 1, "1 request, 1 point"},
		{1, 2, "1 request, 2 points"},
		{0, 0, "0 requests, 0 points"},
		{3, 20, "3 requests, 20 points"},
	} {
		if got := Tally(tc.requests, tc.points); got != tc.want {
			t.Errorf("Tally(%d, %d) = %q, want %q", tc.requests, tc.points, got, tc.want)
		}
	}
	c := DefaultConfig()
	if got, want := c.CostSentence(3, 20, nil), "3 requests, 20 points; they fit in one window of the budget (300 points per 1m0s)"; got != want {
		t.Errorf("CostSentence = %q, want %q", got, want)
	}
	c.Reserve = 100
	if got, want := c.CostSentence(1, 10, nil), "1 request, 10 points; it fits in one window of the budget (200 points per 1m0s)"; got != want {
		t.Errorf("CostSentence of one request = %q, want %q", got, want)
	}
	now := time.Now()
	st := Status{Points: 300, Reserve: 100, Window: time.Minute, At: now, Releases: []Release{{At: now.Add(12400 * time.Millisecond), Points: 200}}}
	if got, want := c.CostSentence(101, 202, &st), "101 requests, 202 points; the budget (200 points per 1m0s) needs at least 1m0s for them, 1m12.4s as it stands"; got != want {
		t.Errorf("CostSentence as it stands = %q, want %q", got, want)
	}
	// A job that fits in one window says so, never "needs at least 0s".
	free := Status{Points: 300, Reserve: 100, Free: 200, Window: time.Minute, At: now}
	if got, want := c.CostSentence(2, 20, &free), "2 requests, 20 points; they fit in the budget (200 points per 1m0s) now"; got != want {
		t.Errorf("CostSentence with room now = %q, want %q", got, want)
	}
	busy := Status{Points: 300, Reserve: 100, Window: time.Minute, At: now, Releases: []Release{{At: now.Add(5 * time.Second), Points: 200}}}
	if got, want := c.CostSentence(2, 20, &busy), "2 requests, 20 points; they fit in one window of the budget (200 points per 1m0s), which has room for them in 5s"; got != want {
		t.Errorf("CostSentence with room later = %q, want %q", got, want)
	}
}

// The ledger's status carries what TimeFor needs: the points in use and
// when they come back.
func TestStatusReleases(t *testing.T) {
	eachStore(t, func(t *testing.T, k *storeKind) {
		clk := newFakeClock()
		l := k.open(t, k.place(t), smallConfig(), clk) // 10 points per minute
		acquire(t, l, "/groups").Done(true)            // 5, back at +60s
		clk.Advance(10 * time.Second)
		acquire(t, l, "/apps").Done(true) // 2, back at +70s
		st := status(t, l)
		if len(st.Releases) != 2 || st.Releases[0].Points != 5 || st.Releases[1].Points != 2 ||
			st.Releases[1].At.Sub(st.Releases[0].At) != 10*time.Second {
			t.Fatalf("releases = %+v", st.Releases)
		}
		// 3 free now, 5 back in 50s, 2 in 60s: the 10th point goes at +60s
		if got := st.TimeFor(10); got != 60*time.Second {
			t.Errorf("TimeFor(10) = %v, want 1m0s", got)
		}
		if got := st.TimeFor(8); got != 50*time.Second {
			t.Errorf("TimeFor(8) = %v, want 50s", got)
		}
	})
}

// A request is held back while too few points are free or the budget is
// blocked, until the time the budget needs for its points.
func TestHeldUntil(t *testing.T) {
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		st   Status
		each int
		want time.Duration // from now; -1: not held
	}{
		{"points free", Status{Points: 300, Free: 10, Window: time.Minute, At: now}, 10, -1},
		{"too few free", Status{Points: 300, Free: 5, Window: time.Minute, At: now, Releases: []Release{{now.Add(4 * time.Second), 295}}}, 10, 4 * time.Second},
		{"blocked, points free", Status{Points: 300, Free: 300, Window: time.Minute, At: now, BlockedUntil: now.Add(30 * time.Second)}, 10, 30 * time.Second},
		{"a block that ended", Status{Points: 300, Free: 300, Window: time.Minute, At: now, BlockedUntil: now.Add(-time.Second)}, 10, -1},
	} {
		at, held := tc.st.HeldUntil(tc.each)
		switch {
		case tc.want < 0 && held:
			t.Errorf("%s: held until %v, want not held", tc.name, at)
		case tc.want >= 0 && (!held || !at.Equal(now.Add(tc.want))):
			t.Errorf("%s: held %v until %v, want until now+%v", tc.name, held, at, tc.want)
		}
	}
}
