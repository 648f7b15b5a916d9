// Package ratebudget owns orgctl's share of the service's point budget
// (300 points per 60-second sliding window, a 60-second block when exceeded):
// what a request costs, and when it may be sent so that every orgctl process
// using one token together stays inside the budget.
//
// State lives in one small JSON ledger per host and token, shared by all
// processes through a file lock, so scripts looping over hundreds of orgctl
// runs and parallel CI jobs draw from the same budget.
//
// It knows points and time. Of HTTP it knows only the API path it is asked to
// price: it must not import net/http, cobra, or orgctl's cmd, client or output
// packages. The HTTP side (a RoundTripper in client) calls Acquire before a
// request and Ticket.Done or Ledger.Blocked after it.
package ratebudget
