package fsguard

import (
	"fmt"
	"os"
	"path/filepath"
)

// InsecureError is a directory orgctl will not write in.
type InsecureError struct {
	Path string
	Why  string // "is writable by others (mode drwxrwxrwx)"
	Fix  string // a command, or what to do
}

func (e *InsecureError) Error() string {
	return fmt.Sprintf("refusing to write in %s: it %s, so another user could redirect orgctl's files; %s", e.Path, e.Why, e.Fix)
}

// MkdirAll creates dir (0700) and its parents if missing, then checks it
// with Check.
func MkdirAll(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return Check(dir)
}

// Check refuses dir unless it belongs to this process's user and no one
// else can write it, and every directory above it belongs to the user or
// root and is not writable by others, or is sticky (as /tmp is, where no
// one can rename what another owns). Root gets no exemption: a directory
// of another user's is refused to root too.
func Check(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	own := true
	for p := abs; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if err := check(p, fi, own); err != nil {
			return err
		}
		own = false
		if parent := filepath.Dir(p); parent == p {
			return nil
		}
	}
}
