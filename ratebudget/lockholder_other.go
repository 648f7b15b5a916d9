//go:build !linux

package ratebudget

// lockHolder cannot tell on this system which process holds a lock.
func lockHolder(string) string { return "" }
