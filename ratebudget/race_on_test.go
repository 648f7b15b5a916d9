//go:build race

package ratebudget

// raceDetector: the race detector slows the ledger's file and lock work
// about fourfold, so the stress tests run fewer rounds under it; a race
// needs goroutines that overlap, not many rounds.
const raceDetector = true
