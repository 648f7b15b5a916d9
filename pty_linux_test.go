//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// scriptPTY is the script command `pty [-cols N] CMD ARGS...`: it runs CMD
// on a pseudo-terminal of N columns (80 unless told), stdin, stdout and
// stderr all on it, as a person at a terminal sees it, and writes what the
// terminal received to the file ptyout in the work directory. ORGCTL_FORCE_TTY
// and ORGCTL_WIDTH are left out of CMD's environment, so that CMD finds the
// terminal and its width as it would in use. With !, CMD must fail.
func scriptPTY(ts *testscript.TestScript, neg bool, args []string) {
	cols := 80
	if len(args) > 1 && args[0] == "-cols" {
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		cols, args = n, args[2:]
	}
	if len(args) == 0 {
		ts.Fatalf("usage: pty [-cols N] CMD [ARGS...]")
	}
	master, slave, err := openPTY(cols, 24)
	if err != nil {
		ts.Fatalf("pty: no pseudo-terminal (/dev/ptmx): %v", err)
	}
	defer master.Close()
	path := args[0]
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if p := filepath.Join(dir, args[0]); fileExists(p) {
			path = p
			break
		}
	}
	cmd := exec.Command(path, args[1:]...)
	cmd.Dir = ts.Getenv("WORK")
	for _, kv := range scriptEnv(ts) {
		if !strings.HasPrefix(kv, "ORGCTL_FORCE_TTY=") && !strings.HasPrefix(kv, "ORGCTL_WIDTH=") && !strings.HasPrefix(kv, "COLUMNS=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	ts.Check(cmd.Start())
	slave.Close()
	var out bytes.Buffer
	read := make(chan error, 1)
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := master.Read(buf)
			out.Write(buf[:n])
			if err != nil { // EIO once CMD and its children closed the terminal
				read <- err
				return
			}
		}
	}()
	werr := cmd.Wait()
	select {
	case <-read:
	case <-time.After(10 * time.Second):
		ts.Fatalf("pty: the terminal stayed open after %s exited", args[0])
	}
	ts.Check(os.WriteFile(filepath.Join(ts.Getenv("WORK"), "ptyout"), out.Bytes(), 0o644))
	var ee *exec.ExitError
	switch {
	case werr != nil && !errors.As(werr, &ee):
		ts.Fatalf("pty %s: %v", args[0], werr)
	case werr != nil && !neg:
		ts.Logf("[ptyout]\n%s", out.String())
		ts.Fatalf("pty %s: %v", args[0], werr)
	case werr == nil && neg:
		ts.Fatalf("pty %s: unexpected success", args[0])
	}
}

// scriptEnv is the script's environment as its exec would pass it.
func scriptEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	// the script's own variables, which need not be in the process's
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR",
		"ORGCTL_BASE_URL", "ORGCTL_TOKEN", "ORGCTL_PROFILE", "ORGCTL_QUIET", "ORGCTL_BUDGET_POINTS", "ORGCTL_BUDGET_WINDOW",
		"ORGCTL_BUDGET_STORE", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "GORACE", "WORK", "PATH", "TERM", "LANG"} {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	if ts.Getenv("TERM") == "" {
		env = append(env, "TERM=xterm")
	}
	return env
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// openPTY opens a pseudo-terminal pair of the given size.
func openPTY(cols, rows int) (master, slave *os.File, err error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		return nil, nil, fmt.Errorf("unlockpt: %w", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		m.Close()
		return nil, nil, fmt.Errorf("ptsname: %w", err)
	}
	if err := unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}); err != nil {
		m.Close()
		return nil, nil, err
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	return m, s, nil
}
