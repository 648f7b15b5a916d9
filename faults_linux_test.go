package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// Linux only: the test needs a FIFO and SIGSTOP, and only on Linux does
// orgctl tell that the lock's holder is stopped.
// A process stopped while it holds the ledger lock cannot hold every other
// orgctl process for ever: they give up within --max-wait (exit 5), name
// the lock file and the process holding it, and send nothing.
func TestFaultLedgerLockHeldByStoppedProcess(t *testing.T) {
	t.Parallel() // its own sandbox, HOME and ledger; mostly waiting on windows
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, usersPage) })
	rig := newFaultRig(t, api.URL)
	if run := rig.run(t, "users", "list"); run.code != 0 {
		t.Fatalf("first run: exit %d %s", run.code, run.stderr)
	}
	dir := filepath.Join(rig.dir, "state", "orgctl", "budget")
	slots, _ := filepath.Glob(filepath.Join(dir, "*.0"))
	locks, _ := filepath.Glob(filepath.Join(dir, "*.lock"))
	if len(slots) != 1 || len(locks) != 1 {
		t.Fatalf("ledger files %v %v", slots, locks)
	}
	// A slot that is a FIFO makes the next reader block, lock held, until a
	// writer comes: the holder then stops, as a process suspended with ^Z.
	os.Remove(slots[0])
	if err := syscall.Mkfifo(slots[0], 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	holder := exec.Command(rig.bin, "users", "list")
	holder.Env = rig.env
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { holder.Process.Kill(); holder.Wait() })
	// Wait until the holder has the lock (and so is blocked on the slot):
	// were the next run to take it first, that run would block instead.
	probe := flock.New(locks[0])
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if free, err := probe.TryLock(); err != nil {
			t.Fatal(err)
		} else if !free {
			break
		}
		probe.Unlock()
		if time.Now().After(deadline) {
			t.Fatal("the holder never took the ledger lock")
		}
	}
	holder.Process.Signal(syscall.SIGSTOP)

	run := rig.run(t, "users", "list", "--max-wait", "2s")
	run.expect(t, 5, locks[0], fmt.Sprintf("pid %d", holder.Process.Pid), "stopped", "--max-wait")
	if !strings.Contains(run.stderr, "waiting") {
		t.Errorf("the wait for the lock was not announced: %q", run.stderr)
	}
	api.expectRequests(t, "GET /api/v2/users")
}
