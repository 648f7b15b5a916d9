// Package ratebudget owns orgctl's share of the service's point budget
// (300 points per 60-second sliding window, a 60-second block when exceeded):
// what a request costs, and when it may be sent so that every orgctl process
// using one token together stays inside the budget.
//
// State lives in one small ledger per host and token, shared by all
// processes through a file lock (<key>.lock), so scripts looping over
// hundreds of orgctl runs and parallel CI jobs draw from the same budget.
//
// The ledger is two slot files, <key>.0 and <key>.1, each a header line
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
// It knows points and time. Of HTTP it knows only the API path it is asked to
// price: it must not import net/http, cobra, or orgctl's cmd, client or output
// packages. The HTTP side (a RoundTripper in client) calls Acquire before a
// request and Ticket.Done or Ledger.Blocked after it.
package ratebudget
