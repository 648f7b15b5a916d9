// Package budget is `orgctl budget`: the client-side rate budget shared
// by every orgctl process (status, reset), read from the ledger that
// package ratebudget keeps.
//
// It must not import the root command package or another tool command.
package budget
