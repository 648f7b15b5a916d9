//go:build unix

package orgcode

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A named pipe where an object's file should be is a problem of the
// directory, found without opening it for good: opening a pipe waits for
// a writer that never comes.
func TestReadDirRefusesANamedPipeWithoutWaiting(t *testing.T) {
	dir := writeFiles(t, map[string]string{"groups/ops.yaml": "name: ops\n"})
	if err := syscall.Mkfifo(filepath.Join(dir, "groups", "pipe.yaml"), 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadDir(context.Background(), dir)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "pipe.yaml") || !strings.Contains(err.Error(), "a named pipe (FIFO), not a regular file") {
			t.Fatalf("ReadDir = %v, want a problem naming pipe.yaml as a named pipe", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("ReadDir still waits on the named pipe after a minute")
	}
}
