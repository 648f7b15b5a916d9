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
// message when it is absent: the reference material is not part of the repository.
func SharedFile(t testing.TB, elem ...string) string {
	t.Helper()
	shared, err := SharedDir()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	p := filepath.Join(append([]string{shared}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("skipping: reference file absent: %v", err)
	}
	return p
}
