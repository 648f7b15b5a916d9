//go:build unix

package fsguard

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// NoFollow makes an open fail on a symlink (O_NOFOLLOW).
const NoFollow = syscall.O_NOFOLLOW

func check(path string, fi fs.FileInfo, own bool) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	uid := os.Geteuid()
	mode := fi.Mode()
	switch {
	case int(st.Uid) != uid && (own || st.Uid != 0):
		return &InsecureError{Path: path,
			Why: fmt.Sprintf("belongs to uid %d, not to you (uid %d)", st.Uid, uid),
			Fix: fmt.Sprintf("run `chown %d %s` if it is yours, or point XDG_STATE_HOME, XDG_CONFIG_HOME and XDG_CACHE_HOME (or HOME; sudo -H) at directories of your own", uid, path)}
	case mode.Perm()&0o022 != 0 && (own || mode&fs.ModeSticky == 0):
		return &InsecureError{Path: path,
			Why: fmt.Sprintf("is writable by others (mode %s)", mode),
			Fix: fmt.Sprintf("run `chmod go-w %s`", path)}
	}
	return nil
}
