// Package budget is `orgctl budget`: the client-side rate budget shared
// by every orgctl process (status, read from the ledger that package
// ratebudget keeps), and price, which prices a --debug log's requests by
// ratebudget's one price list (the points scripts in .ci measure with it).
//
// It must not import the root command package or another tool command.
package budget
