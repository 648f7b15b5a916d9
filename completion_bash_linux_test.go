//go:build linux

package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orgctl/orgctl/completions"
)

// A new interactive bash, set up as `orgctl completion bash --help` says
// for every new shell, completes orgctl's arguments without the
// bash-completion package: bash reads ~/.bashrc, never that package's
// completions directories, which only the package loads.
func TestBashCompletionInANewShellWithoutBashCompletion(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash on this machine")
	}
	recipe := bashNewShellRecipe(t, completions.Install("orgctl", "bash"))
	bin := buildOrgctl(t)
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + filepath.Dir(bin) + ":/usr/bin:/bin", "TERM=xterm", "LANG=C.UTF-8",
		"ORGCTL_SANDBOX=true", "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".state"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache")}
	// the recipe as a user types it, in their home
	setup := exec.Command("bash", "--norc", "--noprofile", "-c", recipe)
	setup.Dir, setup.Env = home, env
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("the recipe %q failed: %v\n%s", recipe, err, out)
	}

	master, slave, err := openPTY(120, 24)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	// an interactive login-less shell: it reads ~/.bashrc as a new
	// terminal's shell does
	sh := exec.Command("bash", "-i")
	sh.Dir, sh.Env = home, env
	sh.Stdin, sh.Stdout, sh.Stderr = slave, slave, slave
	sh.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	defer func() { sh.Process.Kill(); sh.Wait() }()

	var got bytes.Buffer
	chunks := make(chan []byte, 64)
	go func() {
		for {
			buf := make([]byte, 4096)
			n, err := master.Read(buf)
			if n > 0 {
				chunks <- buf[:n]
			}
			if err != nil {
				close(chunks)
				return
			}
		}
	}()
	// await reads the terminal until it shows want, or fails after 20 s.
	await := func(want string) {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for !strings.Contains(got.String(), want) {
			select {
			case c, ok := <-chunks:
				if !ok {
					t.Fatalf("the shell ended before showing %q; the terminal showed:\n%q", want, got.String())
				}
				got.Write(c)
			case <-deadline:
				t.Fatalf("the terminal never showed %q; it showed:\n%q", want, got.String())
			}
		}
	}
	type_ := func(s string) {
		if _, err := master.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}
	// The shell has not loaded the bash-completion package.
	type_("declare -F _init_completion >/dev/null && echo PKG-LOADED || echo NO-PKG''-LOADED\n")
	await("NO-PKG-LOADED")
	if strings.Contains(got.String(), "\nPKG-LOADED") {
		t.Fatal("the bash-completion package is loaded: this test is about a shell without it")
	}
	// A name from the org, and a folder path whose part before ':' bash
	// keeps: each TAB completes the word in place.
	got.Reset()
	type_("orgctl groups get su\t")
	await("pport ")
	type_("\x15") // kill the line
	got.Reset()
	type_("orgctl folders get app:/Fin\t")
	await("ance ")
	type_("\x15exit\n")
}

// bashNewShellRecipe is the lines the bash help gives for every new shell
// without the bash-completion package.
func bashNewShellRecipe(t *testing.T, help string) string {
	_, rest, ok := strings.Cut(help, "Every new shell, with or without the bash-completion package:\n")
	if !ok {
		t.Fatalf("the bash help has no recipe for every new shell without the bash-completion package:\n%s", help)
	}
	var lines []string
	for _, l := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		lines = append(lines, strings.TrimSpace(l))
	}
	return strings.Join(lines, "\n")
}
