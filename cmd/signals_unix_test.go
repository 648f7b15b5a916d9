//go:build unix

package cmd

import (
	"syscall"
	"testing"
	"time"

	"github.com/orgctl/orgctl/cmd/cli"
)

// Sending the process a signal needs syscall.Kill, which Windows lacks.
func TestNotifyContextMapsSignalsToExitCodes(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGINT, cli.ExitSIGINT}, {syscall.SIGTERM, cli.ExitSIGTERM}} {
		ctx, interrupted, arm, stop := notifyContext()
		arm()
		arm() // twice is once
		if interrupted() != 0 || ctx.Err() != nil {
			t.Fatalf("%v: interrupted before any signal", tc.sig)
		}
		if err := syscall.Kill(syscall.Getpid(), tc.sig); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(30 * time.Second):
			t.Fatalf("%v did not cancel the context", tc.sig)
		}
		// The status is recorded before the cancellation: whoever sees the
		// context cancelled sees which signal did it, with no wait.
		if got := interrupted(); got != tc.want {
			t.Errorf("%v: interrupted() = %d, want %d", tc.sig, got, tc.want)
		}
		stop()
	}
}
