//go:build unix

// Unix only: the tests send SIGINT and SIGTERM to a running orgctl, which
// os.Process.Signal cannot do on Windows.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/sandbox"
)

// hangRig is the sandbox on loopback, except that requests matching hang
// arrive (and are announced on arrived) but are never answered.
type hangRig struct {
	api     *sandbox.Server
	arrived chan string
	hang    string // "METHOD /api/v2/path"
	env     []string
	bin     string
	// of the process started last: its stderr, and closed when it ended
	stderr *lockedBuffer
	exited chan struct{}
}

func newHangRig(t *testing.T, hang string, points int) *hangRig {
	t.Helper()
	r := &hangRig{api: sandbox.New(sandbox.Options{Points: points}), arrived: make(chan string, 16), hang: hang}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method+" "+req.URL.Path == r.hang {
			// The server notices a client gone only once the body is read.
			io.Copy(io.Discard, req.Body)
			r.arrived <- req.Method + " " + req.URL.Path
			<-req.Context().Done()
			return
		}
		r.api.ServeHTTP(w, req)
	}))
	t.Cleanup(hs.Close)
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r.bin = filepath.Join(dir, "orgctl")
	if err := os.Symlink(exe, r.bin); err != nil {
		t.Fatal(err)
	}
	r.env = append(os.Environ(),
		"HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"), "DBUS_SESSION_BUS_ADDRESS=", "NO_COLOR=1",
		"ORGCTL_BASE_URL="+hs.URL, "ORGCTL_TOKEN="+r.api.AdminToken(), fmt.Sprintf("ORGCTL_BUDGET_POINTS=%d", points))
	return r
}

// start runs orgctl in the background; wait returns its exit status and stderr.
func (r *hangRig) start(t *testing.T, args ...string) (cmd *exec.Cmd, wait func() (int, string)) {
	t.Helper()
	cmd = exec.Command(r.bin, args...)
	cmd.Env = r.env
	r.stderr = &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.exited = make(chan struct{})
	exited := r.exited
	go func() {
		cmd.Wait()
		close(exited)
	}()
	return cmd, func() (int, string) {
		<-exited
		return cmd.ProcessState.ExitCode(), r.stderr.String()
	}
}

// awaitStderr waits until the process started last has written s on
// stderr.
func (r *hangRig) awaitStderr(t *testing.T, s string) {
	t.Helper()
	if !r.stderr.waitFor(s, r.exited, 20*time.Second) {
		t.Fatalf("the process never wrote %q; stderr %q", s, r.stderr.String())
	}
}

func (r *hangRig) awaitArrival(t *testing.T) {
	t.Helper()
	select {
	case <-r.arrived:
	case <-time.After(20 * time.Second):
		t.Fatal("the request never reached the server")
	}
}

func (r *hangRig) budgetUsed(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(r.bin, "budget", "status", "-o", "json")
	cmd.Env = r.env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("budget status: %v", err)
	}
	var st struct {
		Used int `json:"used"`
	}
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatalf("budget status: %v: %s", err, out)
	}
	return st.Used
}

// A signal during a request that hangs ends the command at once with the
// signal's exit status and one line on stderr.
func TestSignalDuringRequestExits130Or143(t *testing.T) {
	for _, tc := range []struct {
		sig  os.Signal
		code int
		name string
	}{{os.Interrupt, 130, "SIGINT"}, {syscall.SIGTERM, 143, "SIGTERM"}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newHangRig(t, "GET /api/v2/users", 300)
			cmd, wait := r.start(t, "users", "list")
			r.awaitArrival(t)
			start := time.Now()
			cmd.Process.Signal(tc.sig)
			code, stderr := wait()
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, stderr)
			}
			if stderr != "orgctl: interrupted ("+tc.name+")\n" {
				t.Errorf("stderr %q, want exactly one line naming %s", stderr, tc.name)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %s to stop after the signal", took)
			}
		})
	}
}

// A create interrupted after it was sent may have been applied: exit 6
// with the outcome-unknown advice, not 130.
func TestSignalAfterCreateSentExits6(t *testing.T) {
	r := newHangRig(t, "POST /api/v2/users", 300)
	cmd, wait := r.start(t, "users", "create", "--email", "sig@e2e.example", "--first-name", "S", "--last-name", "S")
	r.awaitArrival(t)
	cmd.Process.Signal(os.Interrupt)
	code, stderr := wait()
	if code != 6 || !strings.Contains(stderr, "outcome unknown") {
		t.Fatalf("exit %d, stderr %q; want 6 and the outcome-unknown advice", code, stderr)
	}
}

// A signal while waiting for budget drops the waiter's place and charges
// nothing for the request that was never sent.
func TestSignalWhileWaitingForBudgetChargesNothing(t *testing.T) {
	r := newHangRig(t, "-", 4)
	for i := range 2 {
		cmd := exec.Command(r.bin, "users", "create", "--email", fmt.Sprintf("w%d@e2e.example", i), "--first-name", "W", "--last-name", "W")
		cmd.Env = r.env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("create %d: %v: %s", i, err, out)
		}
	}
	if used := r.budgetUsed(t); used != 4 {
		t.Fatalf("used %d points after two creates, want 4", used)
	}
	before := len(r.api.Requests())
	cmd, wait := r.start(t, "users", "list")
	// The wait is announced on stderr once the process has queued.
	r.awaitStderr(t, "waiting")
	cmd.Process.Signal(os.Interrupt)
	code, stderr := wait()
	if code != 130 {
		t.Fatalf("exit %d, want 130; stderr %q", code, stderr)
	}
	if n := len(r.api.Requests()) - before; n != 0 {
		t.Errorf("%d request(s) reached the server", n)
	}
	if used := r.budgetUsed(t); used != 4 {
		t.Errorf("used %d points after the interrupted wait, want 4 (nothing charged)", used)
	}
}
