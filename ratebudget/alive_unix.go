//go:build unix

package ratebudget

import (
	"errors"
	"syscall"
)

// processAlive reports whether pid exists on this machine. EPERM means it
// exists under another user; anything unclear counts as alive.
func processAlive(pid int) bool {
	if pid <= 0 {
		return true
	}
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
