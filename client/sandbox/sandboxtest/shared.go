package sandboxtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// SharedDir returns the reference material directory, ../shared beside the module root (the
// directory holding go.mod, found upward from the working directory), or an error saying why not.
func SharedDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
	shared := filepath.Join(dir, "..", "shared")
	if fi, err := os.Stat(shared); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("reference material %s is absent", shared)
	}
	return shared, nil
}

// SharedFile returns the path of a file under ../shared (elem joined), skipping the test with a
// message that names the file when it cannot be had: the reference material is not part of the
// repository, so a run without it skips, and says what it skipped for.
func SharedFile(t testing.TB, elem ...string) string {
	t.Helper()
	want := filepath.Join(append([]string{"..", "shared"}, elem...)...)
	shared, err := SharedDir()
	if err != nil {
		t.Skipf("skipping: needs the reference file %s: %v", want, err)
		return ""
	}
	p := filepath.Join(append([]string{shared}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("skipping: needs the reference file %s, absent: %v", p, err)
		return ""
	}
	return p
}
