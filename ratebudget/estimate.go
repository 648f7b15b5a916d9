package ratebudget

import (
	"fmt"
	"time"
)

// Release is points in use that come back to the budget at a moment.
type Release struct {
	At     time.Time
	Points int
}

// Idle is the budget's status with nothing spent and no block: what a job
// can count on when the ledger is unknown or was left alone for a window.
// It is for timing (TimeFor), so it leaves out the price table, which a
// ledger's Status carries for display.
func (c Config) Idle() Status {
	return Status{Points: c.Points, Reserve: c.Reserve, Free: max(0, c.Points-c.Reserve), Window: c.Window}
}

// HeldUntil is when a request of each points can go, if the budget holds
// it back now (too few points free, or a block): what a progress display
// says while a job waits on the budget.
func (st Status) HeldUntil(each int) (time.Time, bool) {
	now := st.At
	if now.IsZero() {
		now = time.Now()
	}
	if st.Free >= each && !st.BlockedUntil.After(now) {
		return time.Time{}, false
	}
	return now.Add(st.TimeFor(each)), true
}

// TimeFor is the least time the budget needs to spend points from st.At:
// what is free goes at once, then the points in use as they come back, and
// every point spent comes back a window after it went; a block first waits
// for its end, after which the whole budget is free. It is exact for a job
// that may spend any number of points at a time, so a job of requests that
// each need their points together can take a little longer, never less.
func (st Status) TimeFor(points int) time.Duration {
	capacity := st.Points - st.Reserve
	if points <= 0 || capacity <= 0 || st.Window <= 0 {
		return 0
	}
	now := st.At
	if now.IsZero() {
		now = time.Now()
	}
	start, rel := now, st.releases(now, capacity)
	if st.BlockedUntil.After(now) {
		start, rel = st.BlockedUntil, nil
	}
	used := 0
	for _, r := range rel {
		used += r.Points
	}
	// Spend at start and at each release while the points in use come back;
	// everything spent meanwhile comes back a window later, by when every
	// point in use now has come back too.
	need := points
	var spent []Release
	spend := func(at time.Time) bool {
		if n := min(capacity-used, need); n > 0 {
			spent = append(spent, Release{At: at, Points: n})
			used += n
			need -= n
		}
		return need == 0
	}
	if spend(start) {
		return start.Sub(now)
	}
	for _, r := range rel {
		used -= r.Points
		if spend(r.At) {
			return r.At.Sub(now)
		}
	}
	// From here the budget turns over as a whole: what was spent in the
	// first window (capacity points) comes back in the same order every
	// window after it, and is spent again at once.
	cycles := (need - 1) / capacity
	rest := need - cycles*capacity
	for _, s := range spent {
		if rest -= s.Points; rest <= 0 {
			return s.At.Add(time.Duration(cycles+1) * st.Window).Sub(now)
		}
	}
	return 0 // unreachable: spent sums to capacity
}

// releases are st.Releases still to come at now, or, for a Status without
// them, its used points (capacity less what is free) all coming back at
// NextFree, or a window from now when that is unknown.
func (st Status) releases(now time.Time, capacity int) []Release {
	if st.Releases != nil {
		out := make([]Release, 0, len(st.Releases))
		for _, r := range st.Releases {
			if r.At.After(now) && r.Points > 0 {
				out = append(out, r)
			}
		}
		return out
	}
	used := max(st.Used, capacity-st.Free)
	if used <= 0 {
		return nil
	}
	at := now.Add(st.Window)
	if st.NextFree.After(now) {
		at = st.NextFree
	}
	return []Release{{At: at, Points: used}}
}

// Tally says how many requests and points: "1 request, 2 points".
func Tally(requests, points int) string {
	return fmt.Sprintf("%d %s, %d %s", requests, plural(requests, "request", "requests"), points, plural(points, "point", "points"))
}

// CostSentence states what a job of requests costing points spends and
// the least time the budget c needs for it, starting idle: "3 requests,
// 20 points; the budget (300 points per 1m0s) needs at least 1m0s for
// them". With now, it adds the least time as the ledger stands ("…, 12.4s
// as it stands"). A job that fits in one window says so rather than
// "needs at least 0s".
func (c Config) CostSentence(requests, points int, now *Status) string {
	them, they, fit := "them", "they", "fit"
	if requests == 1 {
		them, they, fit = "it", "it", "fits"
	}
	usable := c.Points - c.Reserve
	budget := fmt.Sprintf("the budget (%d %s per %s)", usable, plural(usable, "point", "points"), c.Window)
	least := c.Idle().TimeFor(points)
	wait := time.Duration(-1)
	if now != nil {
		wait = now.TimeFor(points)
	}
	var s string
	switch {
	case least > 0 && wait >= 0:
		s = fmt.Sprintf("%s needs at least %s for %s, %s as it stands", budget, ShowDuration(least), them, ShowDuration(wait))
	case least > 0:
		s = fmt.Sprintf("%s needs at least %s for %s", budget, ShowDuration(least), them)
	case wait == 0:
		s = fmt.Sprintf("%s %s in %s now", they, fit, budget)
	case wait > 0:
		s = fmt.Sprintf("%s %s in one window of %s, which has room for %s in %s", they, fit, budget, them, ShowDuration(wait))
	default:
		s = fmt.Sprintf("%s %s in one window of %s", they, fit, budget)
	}
	return Tally(requests, points) + "; " + s
}

// ShowDuration is a time the budget needs as a person reads it: tenths of
// a second at most, so an estimate does not claim more precision than a
// clock between processes has.
func ShowDuration(d time.Duration) string {
	return d.Round(100 * time.Millisecond).String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
