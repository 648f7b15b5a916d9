package atomicfile_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/orgctl/orgctl/output/atomicfile"
)

// onlyFile fails unless dir holds exactly the named file: no temporary file may be left behind.
func onlyFile(t *testing.T, dir, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 1 || names[0] != name {
		t.Fatalf("directory holds %v, want only %s", names, name)
	}
}

func TestWriteCreatesAndReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "state.json")
	if err := atomicfile.Write(p, []byte("first"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Write(p, []byte("second, longer"), 0o640); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "second, longer" {
		t.Fatalf("content %q, %v", b, err)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 (the mode asked for, not the umask's)", fi.Mode().Perm())
	}
	onlyFile(t, dir, "state.json")
}

func TestFailedWriteKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.yaml")
	if err := atomicfile.Write(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk full")
	err := atomicfile.WriteFunc(p, 0o600, func(w io.Writer) error {
		w.Write(bytes.Repeat([]byte("x"), 200<<10)) // past the buffer: part of it reaches the temp file
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the writer's error", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Fatalf("old file became %d bytes", len(b))
	}
	onlyFile(t, dir, "config.yaml")
}

func TestFailedRenameLeavesNoTempFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "taken")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "inside"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Write(target, []byte("x"), 0o600); err == nil {
		t.Fatal("replacing a non-empty directory must fail")
	}
	onlyFile(t, dir, "taken")
	if err := atomicfile.Write(filepath.Join(dir, "missing", "f"), []byte("x"), 0o600); err == nil {
		t.Fatal("writing into a missing directory must fail")
	}
}

func TestReadersSeeOldOrNewNeverAMix(t *testing.T) {
	p := filepath.Join(t.TempDir(), "cache.json")
	a, b := bytes.Repeat([]byte("a"), 1<<20), bytes.Repeat([]byte("b"), 1<<20+7)
	if err := atomicfile.Write(p, a, 0o600); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var bad error
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			got, err := os.ReadFile(p)
			if err != nil || !(bytes.Equal(got, a) || bytes.Equal(got, b)) {
				bad = errors.Join(err, errors.New("a reader saw neither the old nor the new content"))
				return
			}
		}
	}()
	for i := 0; i < 40; i++ {
		next := a
		if i%2 == 0 {
			next = b
		}
		if err := atomicfile.Write(p, next, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if bad != nil {
		t.Fatal(bad)
	}
}

// The fsyncs are the price of surviving a crash; this shows it against a plain os.WriteFile of the
// same 100 KB (about a --sandbox state file). Run: go test -bench . ./output/atomicfile
func BenchmarkWrite(b *testing.B) {
	data := bytes.Repeat([]byte("x"), 100<<10)
	p := filepath.Join(b.TempDir(), "state.json")
	b.Run("atomicfile", func(b *testing.B) {
		for b.Loop() {
			if err := atomicfile.Write(p, data, 0o600); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("os.WriteFile-reference", func(b *testing.B) {
		for b.Loop() {
			if err := os.WriteFile(p, data, 0o600); err != nil {
				b.Fatal(err)
			}
		}
	})
}
