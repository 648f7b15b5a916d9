//go:build unix

package main

import (
	"strings"
	"syscall"
	"testing"
)

// SIGTERM while offboarding (or list-objects) is still reading: POST
// /permissions/listObjects only reads, so nothing may have been applied;
// the run is interrupted (143), not "outcome unknown" (6).
func TestSignalWhileOffboardOnlyReadsExits143(t *testing.T) {
	for _, args := range [][]string{
		{"users", "offboard", "former.employee@sandbox.example", "--yes"},
		{"permissions", "list-objects", "--user", "former.employee@sandbox.example"},
	} {
		t.Run(args[1], func(t *testing.T) {
			r := newHangRig(t, "POST /api/v2/permissions/listObjects", 100000)
			cmd, wait := r.start(t, args...)
			r.awaitArrival(t)
			cmd.Process.Signal(syscall.SIGTERM)
			code, stderr := wait()
			if code != 143 || strings.Contains(stderr, "may have been applied") {
				t.Fatalf("exit %d, stderr %q; want 143 and no word of an outcome unknown", code, stderr)
			}
			for _, r := range r.api.Requests() {
				if r.Method != "GET" && !strings.HasSuffix(r.Path, "/listObjects") {
					t.Errorf("a write was sent: %s %s", r.Method, r.Path)
				}
			}
		})
	}
}
