//go:build unix

// Unix only: the tests signal a process group as a terminal does, and kill
// a process with SIGKILL, which Windows has no way to do.

package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/sandbox"
)

// spacesRig is one sandbox org per profile on loopback, each answering
// GET /users never: a --profiles run started on it has a request in
// flight in every Space until it is stopped.
type spacesRig struct {
	bin, dir string
	env      []string
	names    []string
	// arrived gets a profile's name when its users list arrives; left
	// when the client that sent it went away.
	arrived, left chan string
	mu            sync.Mutex
	requests      int
	hang          atomic.Bool // once the profiles are logged in
}

func newSpacesRig(t *testing.T, names ...string) *spacesRig {
	t.Helper()
	r := &spacesRig{dir: t.TempDir(), names: names, arrived: make(chan string, 16), left: make(chan string, 16)}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r.bin = filepath.Join(r.dir, "orgctl")
	if err := os.Symlink(exe, r.bin); err != nil {
		t.Fatal(err)
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ORGCTL_") {
			r.env = append(r.env, kv)
		}
	}
	r.env = append(r.env, "HOME="+r.dir, "XDG_CONFIG_HOME="+filepath.Join(r.dir, "config"), "XDG_STATE_HOME="+filepath.Join(r.dir, "state"),
		"XDG_CACHE_HOME="+filepath.Join(r.dir, "cache"), "XDG_RUNTIME_DIR="+filepath.Join(r.dir, "run"), "DBUS_SESSION_BUS_ADDRESS=", "NO_COLOR=1")
	stop := make(chan struct{})
	for _, name := range names {
		api := sandbox.New(sandbox.Options{})
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			r.mu.Lock()
			r.requests++
			r.mu.Unlock()
			if r.hang.Load() && req.Method == http.MethodGet && req.URL.Path == "/api/v2/users" {
				r.arrived <- name
				select {
				case <-req.Context().Done():
					r.left <- name
				case <-stop:
				}
				return
			}
			api.ServeHTTP(w, req)
		}))
		t.Cleanup(func() {
			hs.CloseClientConnections()
			hs.Close()
		})
		login := exec.Command(r.bin, "auth", "login", "--profile", name, "--with-token", "--insecure-storage", "--base-url", hs.URL)
		login.Env, login.Stdin = r.env, strings.NewReader(api.AdminToken())
		if out, err := login.CombinedOutput(); err != nil {
			t.Fatalf("login %s: %v: %s", name, err, out)
		}
	}
	t.Cleanup(func() { close(stop) }) // runs first: no handler is left waiting
	r.hang.Store(true)
	return r
}

func (r *spacesRig) served() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests
}

// start runs orgctl in a process group of its own, as a shell runs a job;
// wait returns its exit status and stderr.
func (r *spacesRig) start(t *testing.T, args ...string) (cmd *exec.Cmd, wait func() (int, string)) {
	t.Helper()
	cmd = exec.Command(r.bin, args...)
	cmd.Env = r.env
	stderr := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // whatever is left of the group
		<-exited
	})
	return cmd, func() (int, string) {
		select {
		case <-exited:
		case <-time.After(60 * time.Second):
			t.Fatalf("orgctl did not end; stderr %q", stderr.String())
		}
		return cmd.ProcessState.ExitCode(), stderr.String()
	}
}

// awaitAll waits until every profile has been heard on ch.
func (r *spacesRig) awaitAll(t *testing.T, ch chan string, what string) {
	t.Helper()
	seen := map[string]bool{}
	for len(seen) < len(r.names) {
		select {
		case n := <-ch:
			seen[n] = true
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: only %d of %d profiles", what, len(seen), len(r.names))
		}
	}
}

// One Ctrl-C, which the terminal sends to the whole foreground group:
// each profile's run is interrupted once, so it ends as an interrupted
// run does (its own "interrupted" line, 130), never killed outright by a
// second signal; the whole run exits 130 and names each profile.
func TestProfilesOneCtrlCInterruptsEachProfileOnce(t *testing.T) {
	names := []string{"s1", "s2", "s3", "s4"}
	r := newSpacesRig(t, names...)
	for try := range 10 {
		cmd, wait := r.start(t, "users", "list", "--profiles", strings.Join(names, ","))
		r.awaitAll(t, r.arrived, "users list arrived")
		syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
		code, stderr := wait()
		if code != 130 {
			t.Fatalf("try %d: exit %d, want 130; stderr %q", try, code, stderr)
		}
		for _, n := range names {
			if !strings.Contains(stderr, "["+n+"] orgctl: interrupted (SIGINT)\n") {
				t.Errorf("try %d: profile %s never said it was interrupted; stderr %q", try, n, stderr)
			}
			if !strings.Contains(stderr, "orgctl: profile "+n+" interrupted (exit 130)\n") {
				t.Errorf("try %d: the run does not say profile %s was interrupted; stderr %q", try, n, stderr)
			}
		}
		if strings.Contains(stderr, "failed") {
			t.Errorf("try %d: a profile failed; stderr %q", try, stderr)
		}
		if t.Failed() {
			return
		}
		r.awaitAll(t, r.left, "clients gone")
	}
}

// SIGTERM to the parent alone (kill PID) reaches each profile's run as
// SIGTERM: 143.
func TestProfilesSIGTERMToTheParentReachesEachProfile(t *testing.T) {
	names := []string{"s1", "s2"}
	r := newSpacesRig(t, names...)
	cmd, wait := r.start(t, "users", "list", "--profiles", strings.Join(names, ","))
	r.awaitAll(t, r.arrived, "users list arrived")
	cmd.Process.Signal(syscall.SIGTERM)
	code, stderr := wait()
	if code != 143 {
		t.Fatalf("exit %d, want 143; stderr %q", code, stderr)
	}
	for _, n := range names {
		if !strings.Contains(stderr, "["+n+"] orgctl: interrupted (SIGTERM)\n") {
			t.Errorf("profile %s was not interrupted by SIGTERM; stderr %q", n, stderr)
		}
	}
}

// The parent killed outright: each profile's run stops at once (the
// request in flight abandoned), not at its next write to stderr, and
// sends nothing more.
func TestProfilesParentKilledStopsEveryProfile(t *testing.T) {
	names := []string{"s1", "s2"}
	r := newSpacesRig(t, names...)
	cmd, _ := r.start(t, "users", "list", "--profiles", strings.Join(names, ","))
	r.awaitAll(t, r.arrived, "users list arrived")
	before := r.served()
	cmd.Process.Signal(syscall.SIGKILL)
	r.awaitAll(t, r.left, "profiles' runs gone after the parent was killed")
	if n := r.served() - before; n != 0 {
		t.Errorf("%d request(s) sent after the parent was killed", n)
	}
}

// Where no death signal exists (every Unix but Linux), a profile's run
// learns of its parent's end from the parent's pipe: here the test is the
// parent, and closes it.
func TestProfileRunStopsWhenTheParentPipeCloses(t *testing.T) {
	r := newSpacesRig(t, "s1")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(r.bin, "users", "list", "--profile", "s1")
	cmd.Env = append(r.env, "ORGCTL_PARENT_PIPE=3")
	cmd.ExtraFiles = []*os.File{pr}
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	r.awaitAll(t, r.arrived, "users list arrived")
	pw.Close()
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		t.Fatal("the run went on after its parent's pipe closed")
	}
	if code := cmd.ProcessState.ExitCode(); code != 143 || stderr.String() != "orgctl: interrupted (SIGTERM)\n" {
		t.Fatalf("exit %d, stderr %q; want 143 and one line", code, stderr.String())
	}
}
