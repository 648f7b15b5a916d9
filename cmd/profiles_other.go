//go:build !unix

package cmd

import (
	"os"
	"os/exec"
)

// asChild: Windows has no process groups of this kind nor inheritable
// extra files; the console's Ctrl-C reaches every process attached to
// it, each profile's run included, once.
func asChild(*exec.Cmd, *os.File) {}

// forward sends nothing: the console has told every run already.
func forward(*os.Process, os.Signal) error { return nil }

func watchParent() {}

func endedBy(*os.ProcessState) (string, int, bool) { return "", 0, false }
