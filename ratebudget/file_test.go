package ratebudget

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/orgctl/orgctl/output/fsguard"
)

func readLedgerFile(t *testing.T, l *Ledger) state {
	t.Helper()
	s, ld, recovered, err := fileSlots(l).read(1, time.Now())
	if err != nil || recovered || ld.newest < 0 {
		t.Fatalf("ledger has no valid slot after a write (err %v, recovered %v, newest %d)", err, recovered, ld.newest)
	}
	return s
}

// writeLedgerFile puts the same raw bytes in both slots, as if both were
// garbled.
func writeLedgerFile(t *testing.T, l *Ledger, content string, mtime time.Time) {
	t.Helper()
	for _, p := range l.Files() {
		writeFileAt(t, p, []byte(content), mtime)
	}
}

// writeLedgerState frames a JSON payload as a valid slot 0 (sequence 1) and
// removes slot 1.
func writeLedgerState(t *testing.T, l *Ledger, payload string, mtime time.Time) {
	t.Helper()
	writeFileAt(t, l.Files()[0], encodeSlot(nil, 1, []byte(payload)), mtime)
	if err := os.Remove(l.Files()[1]); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

func writeFileAt(t *testing.T, path string, data []byte, mtime time.Time) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// Slots that do not verify (raw garbage) or verify but do not hold this
// format's state (framed garbage) are taken as a full window dated at their
// last write: requests wait until that window has passed, then the ledger is
// sound. One slot garbled and the other missing is the same.
func TestGarbledFileRecoversAsFullWindowAtItsMtime(t *testing.T) {
	variants := map[string]string{
		"empty":           "",
		"truncated":       `{"v":1,"entries":[{"id":3,"points":2,"at":17`,
		"brace":           "{",
		"null":            "null",
		"array":           "[]",
		"binary":          "\x00\xff\xfe garbage",
		"future version":  `{"v":99,"entries":[]}`,
		"no version":      `{"entries":[]}`,
		"wrong types":     `{"v":1,"entries":"lots"}`,
		"text from a bug": "Retool rate limit exceeded\n",
	}
	damage := map[string]func(t *testing.T, l *Ledger, content string){
		"raw both": func(t *testing.T, l *Ledger, content string) {
			writeLedgerFile(t, l, content, t0.Add(-20*time.Second))
		},
		"framed both": func(t *testing.T, l *Ledger, content string) {
			for i, p := range l.Files() {
				writeFileAt(t, p, encodeSlot(nil, uint64(i+1), []byte(content)), t0.Add(-20*time.Second))
			}
		},
		"raw one, older other missing": func(t *testing.T, l *Ledger, content string) {
			writeFileAt(t, l.Files()[1], []byte(content), t0.Add(-20*time.Second))
		},
		"raw one, older other garbled": func(t *testing.T, l *Ledger, content string) {
			writeFileAt(t, l.Files()[0], []byte("x"), t0.Add(-50*time.Second))
			writeFileAt(t, l.Files()[1], []byte(content), t0.Add(-20*time.Second))
		},
	}
	for name, content := range variants {
		for how, put := range damage {
			t.Run(name+"/"+how, func(t *testing.T) {
				clk := newFakeClock()
				l := openTest(t, t.TempDir(), smallConfig(), clk)
				put(t, l, content)
				if st := status(t, l); st.Used != 10 || !st.NextFree.Equal(t0.Add(40*time.Second)) {
					t.Fatalf("status of a garbled file: %+v", st)
				}
				tk := acquire(t, l, "/apps")
				if got := clk.Sleeps(); len(got) != 1 || got[0] != 40*time.Second {
					t.Fatalf("sleeps = %v, want [40s] (full window dated 20s before now)", got)
				}
				tk.Done(true)
				s := readLedgerFile(t, l)
				if len(s.Entries) != 1 || s.Entries[0].ID != tk.id || s.Entries[0].Pending {
					t.Fatalf("rewritten file entries = %+v", s.Entries)
				}
			})
		}
	}
}

func TestGarbledFileOlderThanWindowCostsNothing(t *testing.T) {
	clk := newFakeClock()
	l := openTest(t, t.TempDir(), smallConfig(), clk)
	writeLedgerFile(t, l, "{{{", t0.Add(-time.Hour))
	acquire(t, l, "/apps").Done(true)
	if len(clk.Sleeps()) != 0 {
		t.Fatalf("slept %v for a garbled file written an hour ago", clk.Sleeps())
	}
	if s := readLedgerFile(t, l); len(s.Entries) != 1 {
		t.Fatalf("entries = %+v", s.Entries)
	}
}

func TestGarbledFileWithFutureMtimeIsDatedNow(t *testing.T) {
	clk := newFakeClock()
	l := openTest(t, t.TempDir(), smallConfig(), clk)
	writeLedgerFile(t, l, "{", t0.Add(24*time.Hour))
	acquire(t, l, "/apps")
	if got := clk.Sleeps(); len(got) != 1 || got[0] != time.Minute {
		t.Fatalf("sleeps = %v, want [1m0s]", got)
	}
}

// Valid JSON with impossible values must neither overdraw nor wait forever.
func TestNonsenseValuesAreBounded(t *testing.T) {
	clk := newFakeClock()
	l := openTest(t, t.TempDir(), smallConfig(), clk)
	ns := func(d time.Duration) int64 { return t0.Add(d).UnixNano() }
	content := fmt.Sprintf(`{"v":1,"blocked_until":%d,"entries":[
		{"id":1,"points":-50,"at":%d},
		{"id":2,"points":0,"at":%d},
		{"id":3,"points":4,"at":%d},
		{"id":4,"points":2,"at":%d,"expires":%d}]}`,
		ns(1000*time.Hour), ns(-time.Second), ns(-time.Second), ns(100*time.Hour), ns(-10*time.Second), ns(time.Hour))
	writeLedgerState(t, l, content, t0)
	st := status(t, l)
	if st.Used != 6 {
		t.Fatalf("used = %d, want 6 (negative and zero entries dropped)", st.Used)
	}
	if !st.BlockedUntil.Equal(t0.Add(10 * time.Minute)) {
		t.Fatalf("blocked until t0+%v, want capped at t0+10m", st.BlockedUntil.Sub(t0))
	}
	if !st.NextFree.Equal(t0.Add(50 * time.Second)) {
		t.Fatalf("next free t0+%v, want t0+50s (stored expiry ignored)", st.NextFree.Sub(t0))
	}
	tk := acquire(t, l, "/apps")
	if got := clk.Sleeps(); len(got) != 1 || got[0] != 10*time.Minute {
		t.Fatalf("sleeps = %v, want [10m0s]: the capped block, after which the future-dated entry has expired", got)
	}
	if !tk.ReservedAt().Equal(t0.Add(10 * time.Minute)) {
		t.Fatalf("reserved at t0+%v", tk.ReservedAt().Sub(t0))
	}
}

func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=exit")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func pendingFile(entries ...entry) string {
	data, _ := json.Marshal(state{Version: fileVersion, Entries: entries})
	return string(data)
}

func TestPendingOfDeadProcessIsChargedWhenFound(t *testing.T) {
	clk := newFakeClock()
	l := openTest(t, t.TempDir(), smallConfig(), clk)
	pid := deadPID(t)
	writeLedgerState(t, l, pendingFile(entry{ID: 9, Points: 10, At: t0.Add(-5 * time.Second).UnixNano(),
		Pending: true, PID: pid, Host: l.host}), t0)
	clk.Advance(3 * time.Second)
	tk := acquire(t, l, "/apps")
	// Charged when found (t0+3s), one exact wait until it expires.
	if got := clk.Sleeps(); len(got) != 1 || got[0] != time.Minute {
		t.Fatalf("sleeps = %v, want [1m0s]", got)
	}
	if !tk.ReservedAt().Equal(t0.Add(63 * time.Second)) {
		t.Fatalf("reserved at t0+%v, want t0+63s", tk.ReservedAt().Sub(t0))
	}
}

func TestPendingOfPredecessorWithOurPIDIsCharged(t *testing.T) {
	clk := newFakeClock()
	l := openTest(t, t.TempDir(), smallConfig(), clk)
	writeLedgerState(t, l, pendingFile(entry{ID: 12345, Points: 10, At: t0.UnixNano(),
		Pending: true, PID: l.pid, Host: l.host}), t0)
	if s := readLedgerFile(t, l); !s.Entries[0].Pending {
		t.Fatal("setup")
	}
	if err := l.Blocked(time.Nanosecond); err != nil { // any write normalizes
		t.Fatal(err)
	}
	if s := readLedgerFile(t, l); len(s.Entries) != 1 || s.Entries[0].Pending || s.Entries[0].At != t0.UnixNano() {
		t.Fatalf("entries = %+v, want the unknown reservation charged at t0", s.Entries)
	}
}

// A live process's reservation (or one from another machine, whose pid says
// nothing here) holds its points until the stale bound, then counts as
// charged at that bound.
func TestPendingOfLiveOrForeignProcessAgesOut(t *testing.T) {
	for name, e := range map[string]entry{
		"live":    {ID: 9, Points: 10, Pending: true, PID: os.Getppid()},
		"foreign": {ID: 9, Points: 10, Pending: true, PID: 1 << 30, Host: "elsewhere"},
	} {
		t.Run(name, func(t *testing.T) {
			clk := newFakeClock()
			l := openTest(t, t.TempDir(), smallConfig(), clk)
			if e.Host == "" {
				e.Host = l.host
			}
			e.At = t0.Add(-5 * time.Second).UnixNano()
			writeLedgerState(t, l, pendingFile(e), t0)
			tk := acquire(t, l, "/apps")
			stale := time.Minute + staleExtra
			if want := t0.Add(-5*time.Second + stale + time.Minute); !tk.ReservedAt().Equal(want) {
				t.Fatalf("reserved at t0+%v, want t0+%v", tk.ReservedAt().Sub(t0), want.Sub(t0))
			}
		})
	}
}

// The ledger is the two slots and the lock, nothing else, all private.
func TestLedgerFilesAndModes(t *testing.T) {
	clk := newFakeClock()
	dir := t.TempDir()
	l := openTest(t, dir, smallConfig(), clk)
	acquire(t, l, "/apps").Done(true)
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	want := map[string]bool{l.Files()[0]: true, l.Files()[1]: true, filepath.Join(dir, "test-key.lock"): true}
	if len(names) != len(want) {
		t.Errorf("files = %v, want the two slots and the lock", names)
	}
	for _, n := range names {
		if !want[n] {
			t.Errorf("unexpected file %s", n)
		}
		if fi, err := os.Stat(n); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode = %v, %v; want 0600", n, fi.Mode().Perm(), err)
		}
	}
	sub := filepath.Join(dir, "fresh")
	openTest(t, sub, smallConfig(), clk)
	if fi, err := os.Stat(sub); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("created dir: %v, %v; want mode 0700", fi, err)
	}
}

// A symlink planted where a slot or the lock goes (another user's, in a
// directory they could write) is never followed: the file it points at
// stays as it was, and the ledger fails instead.
func TestLedgerNeverWritesThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("root's file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"test-key.0", "test-key.1"} {
		if err := os.Symlink(victim, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	l := openTest(t, dir, smallConfig(), newFakeClock())
	if _, err := l.Acquire(context.Background(), "/apps"); err == nil {
		t.Fatal("Acquire through symlinked slots succeeded")
	}
	if b, _ := os.ReadFile(victim); string(b) != "root's file\n" {
		t.Fatalf("the symlink's target was written: %q", b)
	}

	lockDir := t.TempDir()
	if err := os.Symlink(filepath.Join(t.TempDir(), "made-by-root"), filepath.Join(lockDir, "test-key.lock")); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(lockDir, "test-key", smallConfig()); err == nil {
		t.Fatal("Open with a symlinked lock file succeeded")
	}
}

func TestLedgerRefusesADirectoryOthersCanWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "budget")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o777)
	_, err := Open(dir, "test-key", smallConfig())
	var ie *fsguard.InsecureError
	if !errors.As(err, &ie) || ie.Path != dir {
		t.Fatalf("Open in a world-writable directory: %v", err)
	}
}
