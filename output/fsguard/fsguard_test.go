//go:build unix

package fsguard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func insecure(t *testing.T, err error, path, fix string) {
	t.Helper()
	var ie *InsecureError
	if !errors.As(err, &ie) || ie.Path != path || !strings.Contains(err.Error(), fix) {
		t.Fatalf("got %v; want an InsecureError for %s saying %q", err, path, fix)
	}
}

func TestMkdirAllAcceptsAPrivateTree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "orgctl", "budget")
	if err := MkdirAll(dir); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("created %v (%v), want mode 0700", fi.Mode(), err)
	}
}

func TestWritableByOthersIsRefused(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "orgctl")
	for _, mode := range []os.FileMode{0o777, 0o770, 0o702, 0o777 | os.ModeSticky} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		os.Chmod(dir, mode)
		insecure(t, Check(dir), dir, "chmod go-w "+dir)
		os.Chmod(dir, 0o700)
	}
	// above it: writable by others too, unless sticky (as /tmp)
	os.Chmod(base, 0o777)
	insecure(t, Check(dir), base, "chmod go-w "+base)
	os.Chmod(base, 0o777|os.ModeSticky)
	if err := Check(dir); err != nil {
		t.Fatalf("under a sticky directory: %v", err)
	}
	os.Chmod(base, 0o700)
}

// Root is refused another user's directory too: that user could replace
// what root writes there by symlinks to root's files.
func TestAnotherUsersDirectoryIsRefusedEvenToRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a directory to another user needs root")
	}
	base := t.TempDir()
	dir := filepath.Join(base, "orgctl")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	insecure(t, Check(dir), dir, "chown 0 "+dir)
	if err := os.Chown(dir, 0, 0); err != nil {
		t.Fatal(err)
	}
	// above it: another user's directory, though not writable by others
	if err := os.Chown(base, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	insecure(t, Check(dir), base, "belongs to uid 65534")
	os.Chown(base, 0, 0)
	if err := Check(dir); err != nil {
		t.Fatal(err)
	}
}
