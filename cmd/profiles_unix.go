//go:build unix

package cmd

import (
	"io"
	"os"
	"os/exec"
	"syscall"
)

// asChild makes cmd a profile's run. It gets a process group of its own:
// a terminal sends Ctrl-C to its foreground group, which is the parent's,
// so each run hears it once, from the parent (forward), never twice (the
// terminal's and the parent's), which would end it at once, mid-way. The
// runs never read the terminal (stdin is the parent's copy, stdout and
// stderr pipes), so a background group costs them nothing. watch, the
// read end of a pipe whose write end only the parent holds, becomes the
// run's fd 3: when the parent dies, however, the run reads its end and
// stops (watchParent); on Linux the kernel also sends SIGTERM at once.
func asChild(cmd *exec.Cmd, watch *os.File) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
	if watch != nil {
		cmd.ExtraFiles = []*os.File{watch}
		cmd.Env = append(cmd.Env, parentPipeEnv+"=3")
	}
}

// forward sends a profile's run the signal that interrupted the parent.
func forward(p *os.Process, sig os.Signal) error { return p.Signal(sig) }

// watchParent, in a profile's run, stops the run as SIGTERM would when the
// parent is gone: its end of the parent's pipe (fd 3) reads end of file.
// The signal goes through the run's own handling, so a run that is
// already stopping after a signal ends at once, as on a second signal.
func watchParent() {
	if os.Getenv(parentPipeEnv) != "3" {
		return
	}
	os.Unsetenv(parentPipeEnv)
	var st syscall.Stat_t
	if syscall.Fstat(3, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return // not the parent's pipe: nothing to watch
	}
	syscall.CloseOnExec(3)
	f := os.NewFile(3, "parent")
	go func() {
		io.Copy(io.Discard, f)
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
	}()
}

// endedBy is the signal that ended a process, and the exit status the
// contract gives a run ended so: 130 and 143 for SIGINT and SIGTERM, 1
// for any other.
func endedBy(ps *os.ProcessState) (name string, code int, ok bool) {
	ws, isWS := ps.Sys().(syscall.WaitStatus)
	if !isWS || !ws.Signaled() {
		return "", 0, false
	}
	switch sig := ws.Signal(); sig {
	case syscall.SIGINT:
		return "SIGINT", 130, true
	case syscall.SIGTERM:
		return "SIGTERM", 143, true
	default:
		return sig.String(), 1, true
	}
}
