// Package ratebudget owns orgctl's share of the service's point budget
// (300 points per 60-second sliding window, a 60-second block when exceeded):
// what a request costs, and when it may be sent so that every orgctl process
// using one token together stays inside the budget.
//
// It is orgctl's one price list and its one estimate of time: Config.Cost
// (the service's list with budget.costs applied) prices every request the
// client paces and every estimate commands state; ListPrice is the list
// alone, which the sandbox charges; Status.TimeFor is the least time a budget
// needs for a number of points, from the ledger as it stands or from an idle
// one (Config.Idle); CostSentence states a job's cost the same way
// everywhere.
//
// State lives in one small ledger per host and token. By default (Open) it
// is a pair of files shared by all processes on one machine through a file
// lock (<key>.lock), so scripts looping over hundreds of orgctl runs and
// parallel CI jobs on one runner draw from the same budget. The budget
// belongs to the token, though, not to the machine: for several machines
// using one token, OpenStore keeps the same ledger in a shared Store
// (ratebudget/redisstore). The arithmetic (costs, reservation before
// sending, dating by completion, refunds, the shared block, the reserve,
// FIFO order of waiters) is written once, over a small internal seam,
// backend, with two implementations: fileBackend and sharedBackend.
//
// The file ledger is two slot files, <key>.0 and <key>.1, each a header line
// "orgctl-ledger 2 <seq> <length> <crc32c>" (hex) followed by the state as
// JSON. Readers, under the lock, take the slot with the highest sequence
// whose checksum verifies. Every update writes the next sequence in place
// into the other slot, so a process killed mid-write damages only that slot
// and the last good state survives; no temporary file and no rename, which
// on ext4 forces a data flush and made each request cost milliseconds. If
// neither slot verifies, the ledger is taken as the whole capacity spent at
// the newest slot's modification time: that can only delay requests by up to
// one window, never overdraw into a block.
//
// A shared Store holds the same JSON state and a version. An update loads
// state, version and the store's clock, computes, and saves only if the
// version is unchanged, else starts again: atomic for any number of
// processes on any number of machines, with no lock a dead holder could keep.
// Its clock is the store's, never the machines': their clocks differ, and a
// charge dated by a machine running behind would expire early for everyone.
// Machines only sleep for durations computed in the store's time; times
// shown to people are converted to the local clock.
//
// A reservation whose process died must not hold its points forever. On
// one machine the file ledger asks the kernel whether the pid is alive. In
// a shared store a pid on another machine (or in another container) says
// nothing, and a fixed staleness bound (a window plus two minutes, which
// the file ledger keeps as a backstop) would let a fleet whose CI jobs get
// cancelled leak minutes of budget per killed request. So each shared
// reservation carries a lease (15 s) that its holder renews every third of
// it while the request is in flight; most requests finish before the first
// renewal, so this costs nothing in the common case. A holder that stops
// renewing died, or lost the store, before its lease ended, and so did its
// request's arrival at the server: the reservation is charged at the lease's
// end, and its points come back one window later. A holder that was only
// cut off re-dates the charge to its completion when it finishes.
//
// A shared store can also lose the state: a Redis without persistence
// restarted by a failover or an upgrade comes back empty, one restored from
// a snapshot comes back older. Read as it stands that is an empty window,
// and a fleet would overdraw into a block. So the state carries a
// generation and a sequence, every process keeps the last state it saw, and
// the first process to find the state gone or older puts back every charge
// it saw, charges the rest of the budget now (points other processes may
// have spent meanwhile and cannot put back, having ended), and starts a new
// generation; the others, seeing it, put back what they saw. This errs
// toward waiting: at most one window, and only by what the known charges
// fall short of a full window, so a process that was spending the whole
// budget itself hardly waits. A wait that such a charge, or an unreadable
// ledger, causes says so (Wait.Note, WaitError, Status.Note) instead of
// reading as a full window.
//
// A shared store that fails returns *StoreError; WithFallback instead
// continues on a local ledger, warning once, and tries the store again on
// every operation. While it is down each machine keeps its own budget, so a
// fleet can overdraw until it is back and for one window after.
//
// It knows points and time. Of HTTP it knows only the API path it is asked to
// price: it must not import net/http, cobra, a Redis client, or orgctl's cmd,
// client or output packages. The HTTP side (a RoundTripper in client) calls
// Acquire before a request and Ticket.Done or Ledger.Blocked after it.
package ratebudget
