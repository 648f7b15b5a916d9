package ratebudget

import "slices"

const fileVersion = 1

// maxPoints caps one entry's or waiter's points as loaded: far above any
// budget, yet low enough that summing a whole file's worth cannot wrap
// around to a small number and let requests overdraw.
const maxPoints = 1 << 32

// entry is one request's charge. While pending, At is the reservation time;
// once charged, At is the completion time. Expires is when it stops counting;
// it is recomputed on every load and stored only for people reading the file.
// Lease, set only in a shared store, is when a pending reservation lapses
// unless its holder renews it (files never carry one).
type entry struct {
	ID      uint64 `json:"id"`
	Points  int    `json:"points"`
	At      int64  `json:"at"`
	Pending bool   `json:"pending,omitempty"`
	PID     int    `json:"pid"`
	Host    string `json:"host,omitempty"`
	Lease   int64  `json:"lease,omitempty"`
	Expires int64  `json:"expires"`
}

// waiter is a request waiting its turn. Waiters are served in the order
// they joined, so a 10-point request is not starved by a stream of 2-point
// ones from other processes. Wake is when it will look again.
type waiter struct {
	ID     uint64 `json:"id"`
	Points int    `json:"points"`
	Since  int64  `json:"since"`
	Wake   int64  `json:"wake"`
	PID    int    `json:"pid"`
	Host   string `json:"host,omitempty"`
}

// state is a ledger slot's payload; times are Unix nanoseconds.
//
// Gen and Seq, kept in a shared store only, let a process tell that the
// store lost the state it saw: a store restarted empty comes back without
// it (a new Gen), one restored from an older snapshot with a lower Seq (see
// sharedBackend.restore). Unreadable and Lost date the conservative charges
// made when a ledger could not be read, or a store lost part of it, so that
// a wait they cause says so instead of reading as a full window.
type state struct {
	Version      int      `json:"v"`
	Gen          uint64   `json:"gen,omitempty"`
	Seq          uint64   `json:"seq,omitempty"`
	BlockedUntil int64    `json:"blocked_until,omitempty"`
	Unreadable   int64    `json:"unreadable,omitempty"`
	Lost         int64    `json:"lost,omitempty"`
	Entries      []entry  `json:"entries"`
	Queue        []waiter `json:"queue,omitempty"`
}

// timing is what the window arithmetic needs to know of the configuration.
type timing struct {
	window int64 // sliding window
	stale  int64 // age after which a pending reservation is assumed to have completed
	block  int64 // longest block a valid file can record
	grace  int64 // how late past its Wake a waiter may be before it loses its place
}

// normalize brings a loaded state to now: drops entries that no longer count
// or are nonsense, converts pending reservations of dead processes and
// over-age ones into charges, and recomputes every expiry.
//
// Conservative rules: an entry dated in the future (clock stepped back, or a
// foreign writer) is dated now; a pending entry whose process is gone is
// charged now (its request reached the server, if at all, before the process
// died, so no later than now); a pending entry older than the stale bound, or
// whose lease lapsed (its holder stopped renewing, so it died or lost the
// store before then), is charged at that bound; a block longer than any valid
// one is cut to that.
// It reports whether anything changed that must be written back; dropping
// what merely expired need not be, since every reader drops it again, so a
// waiter's poll stays a read.
func (s *state) normalize(now int64, tm timing, dead func(entry) bool) (changed bool) {
	out := s.Entries[:0]
	for _, e := range s.Entries {
		if e.Points <= 0 {
			changed = true
			continue
		}
		if e.Points > maxPoints {
			e.Points, changed = maxPoints, true
		}
		if e.At > now {
			e.At, changed = now, true
		}
		if e.Pending {
			bound := e.At + tm.stale
			if e.Lease != 0 {
				bound = min(bound, max(e.Lease, e.At))
			}
			switch {
			case now >= bound:
				e.Pending, e.At, changed = false, bound, true
			case dead(e):
				e.Pending, e.At, changed = false, now, true
			}
		}
		if e.Pending {
			e.Expires = e.At + tm.stale + tm.window
		} else {
			e.Expires = e.At + tm.window
			if e.Expires <= now {
				continue
			}
		}
		out = append(out, e)
	}
	clear(s.Entries[len(out):])
	s.Entries = out
	s.Version = fileVersion
	q := s.Queue[:0]
	for _, w := range s.Queue {
		// A waiter that died or overslept would hold up everyone behind it.
		if w.Points <= 0 || now > w.Wake+tm.grace || dead(entry{ID: w.ID, PID: w.PID, Host: w.Host}) {
			changed = true
			continue
		}
		if w.Points > maxPoints {
			w.Points, changed = maxPoints, true
		}
		q = append(q, w)
	}
	clear(s.Queue[len(q):])
	s.Queue = q
	if s.BlockedUntil > now+tm.block {
		s.BlockedUntil, changed = now+tm.block, true
	}
	if s.BlockedUntil != 0 && s.BlockedUntil <= now {
		s.BlockedUntil = 0
	}
	// Past a window, the charges they explain have expired.
	if s.Unreadable > now || s.Lost > now {
		s.Unreadable, s.Lost, changed = min(s.Unreadable, now), min(s.Lost, now), true
	}
	if s.Unreadable != 0 && s.Unreadable+tm.window <= now {
		s.Unreadable = 0
	}
	if s.Lost != 0 && s.Lost+tm.window <= now {
		s.Lost = 0
	}
	return changed
}

// used is the points counting at now: charges dated within the window
// before now, plus every pending reservation.
func (s *state) used(now int64) int {
	n := 0
	for _, e := range s.Entries {
		if e.Pending || e.Expires > now {
			n += e.Points
		}
	}
	return n
}

// release is points in use coming back at a moment; exact unless it is a
// pending reservation's, which frees no sooner than a window from now.
type release struct {
	at     int64
	points int
	exact  bool
}

// releases are the points in use at now and when each comes back, in
// that order (exact ones first at the same moment).
func (s *state) releases(now int64, tm timing) []release {
	rs := make([]release, 0, len(s.Entries))
	for _, e := range s.Entries {
		switch {
		case e.Pending:
			rs = append(rs, release{now + tm.window, e.Points, false})
		case e.Expires > now:
			rs = append(rs, release{e.Expires, e.Points, true})
		}
	}
	slices.SortFunc(rs, func(a, b release) int {
		if a.at != b.at {
			if a.at < b.at {
				return -1
			}
			return 1
		}
		if a.exact != b.exact {
			if a.exact {
				return -1
			}
			return 1
		}
		return 0
	})
	return rs
}

// fit returns the earliest instant, not before now, at which cost more points
// fit under capacity, and whether that instant is exact. Charges free their
// points exactly when they expire. A pending reservation frees its points no
// sooner than one window from now (if it completed right now) unless it is
// refunded, so counting on it gives only a lower bound.
func (s *state) fit(now int64, cost, capacity int, tm timing) (at int64, exact bool) {
	used := s.used(now)
	if used+cost <= capacity {
		return now, true
	}
	rs := s.releases(now, tm)
	exact = true
	for _, r := range rs {
		used -= r.points
		exact = exact && r.exact
		if used+cost <= capacity {
			return r.at, exact
		}
	}
	// Only reachable when cost alone exceeds capacity, which callers reject.
	return now + tm.window, false
}

// own returns the pending reservation id of this process, if s holds it.
func (s *state) own(id uint64, pid int, host string) (entry, bool) {
	for _, e := range s.Entries {
		if e.ID == id && e.Pending && e.PID == pid && e.Host == host {
			return e, true
		}
	}
	return entry{}, false
}

// queued returns the index of waiter id (-1 if absent) and the points of the
// waiters ahead of it (all of them if absent).
func (s *state) queued(id uint64) (idx, ahead int) {
	for i, w := range s.Queue {
		if w.ID == id {
			return i, ahead
		}
		ahead += w.Points
	}
	return -1, ahead
}

// turn estimates when a request of cost, behind the given waiters, may go:
// each waiter ahead is assumed to go at its earliest instant and complete at
// once, and pending reservations to complete now. That is a lower bound, so
// sleeping until it never oversleeps; it is exact only with nobody ahead and
// no pending reservation in the way.
func (s *state) turn(now int64, ahead []waiter, cost, capacity int, tm timing) (at int64, exact bool) {
	if len(ahead) == 0 {
		return s.fit(now, cost, capacity, tm)
	}
	sim := state{Entries: make([]entry, 0, len(s.Entries)+len(ahead))}
	for _, e := range s.Entries {
		if e.Pending {
			e.Pending, e.Expires = false, now+tm.window
		}
		sim.Entries = append(sim.Entries, e)
	}
	t := now
	for _, w := range ahead {
		t, _ = sim.fit(t, min(w.Points, capacity), capacity, tm)
		sim.normalize(t, tm, func(entry) bool { return false })
		sim.Entries = append(sim.Entries, entry{Points: w.Points, At: t, Expires: t + tm.window})
	}
	at, _ = sim.fit(t, cost, capacity, tm)
	return at, false
}

// nextFree is when the next used points free up: the earliest charge expiry,
// or for pending reservations alone the earliest they could (zero if none).
func (s *state) nextFree(now int64, tm timing) int64 {
	var next int64
	for _, e := range s.Entries {
		var at int64
		switch {
		case e.Pending:
			at = now + tm.window
		case e.Expires > now:
			at = e.Expires
		default:
			continue
		}
		if next == 0 || at < next {
			next = at
		}
	}
	return next
}
