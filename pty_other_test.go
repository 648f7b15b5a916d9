//go:build !linux

package main

import "github.com/rogpeppe/go-internal/testscript"

// scriptPTY needs Linux's pseudo-terminals; elsewhere a script using it skips.
func scriptPTY(ts *testscript.TestScript, neg bool, args []string) {
	ts.Skip("pty: pseudo-terminals are driven on Linux only")
}
