package cmd

import "syscall"

// setDeathSignal has the kernel send a profile's run SIGTERM the moment
// the thread that started it ends, which the parent keeps alive until the
// run has ended (runProfile): so, when the parent dies.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }
