//go:build unix && !linux

package cmd

import "syscall"

// setDeathSignal: only Linux has a death signal; elsewhere the run
// watches the parent's pipe (watchParent).
func setDeathSignal(*syscall.SysProcAttr) {}
