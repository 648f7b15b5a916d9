//go:build !linux

package main

import "github.com/rogpeppe/go-internal/testscript"

// scriptPTY needs Linux's pseudo-terminals; scripts that use it begin with
// [!linux] skip.
func scriptPTY(ts *testscript.TestScript, neg bool, args []string) {
	ts.Fatalf("pty: pseudo-terminals are driven on Linux only")
}
