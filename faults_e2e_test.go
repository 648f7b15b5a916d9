package main

import (
	"bytes"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The fault-injection suite: a loopback server whose handler each test
// chooses answers the real orgctl binary with one fault, and every test
// asserts what the server saw, the exit status and the message.

// faultToken is the token orgctl sends; no server here checks it, but the
// suite checks where it travels.
const faultToken = "fault_token_5f3a9c0e7b214d68"

// faultServer is an API on loopback that answers with a test's handler and
// records every request that reached it.
type faultServer struct {
	*httptest.Server
	mu     sync.Mutex
	seen   []string // "METHOD /path?query"
	bearer int      // requests that carried the token
	handle http.HandlerFunc
}

func newFaultServer(t *testing.T, tls bool, handle http.HandlerFunc) *faultServer {
	t.Helper()
	s := &faultServer{handle: handle}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Method+" "+r.URL.RequestURI())
		if r.Header.Get("Authorization") == "Bearer "+faultToken {
			s.bearer++
		}
		s.mu.Unlock()
		s.handle(w, r)
	})
	if tls {
		s.Server = httptest.NewTLSServer(h)
	} else {
		s.Server = httptest.NewServer(h)
	}
	t.Cleanup(s.Close)
	return s
}

// requests lists what reached the server, in order.
func (s *faultServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// tokens is how many requests carried orgctl's token.
func (s *faultServer) tokens() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bearer
}

// expectRequests fails unless exactly want reached the server.
func (s *faultServer) expectRequests(t *testing.T, want ...string) {
	t.Helper()
	got := s.requests()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the server saw %d request(s) %q, want %d %q", len(got), got, len(want), want)
	}
}

// faultRun is one finished orgctl process.
type faultRun struct {
	code           int
	stdout, stderr string
}

// faultRig runs orgctl against one base URL with its own HOME and state.
type faultRig struct {
	bin string
	dir string
	env []string
}

func newFaultRig(t *testing.T, base string, env ...string) *faultRig {
	t.Helper()
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// testscript.Main runs the real main when the binary is called "orgctl".
	bin := filepath.Join(dir, "orgctl")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ORGCTL_") {
			keep = append(keep, kv)
		}
	}
	r := &faultRig{bin: bin, dir: dir}
	r.env = append(keep,
		"HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"), "DBUS_SESSION_BUS_ADDRESS=", "NO_COLOR=1",
		"ORGCTL_BASE_URL="+base, "ORGCTL_TOKEN="+faultToken)
	r.env = append(r.env, env...)
	return r
}

// trust makes the child trust a TLS test server's certificate.
func (r *faultRig) trust(t *testing.T, s *httptest.Server) {
	t.Helper()
	path := filepath.Join(r.dir, "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw})
	if err := os.WriteFile(path, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	r.env = append(r.env, "SSL_CERT_FILE="+path)
}

func (r *faultRig) run(t *testing.T, args ...string) faultRun {
	t.Helper()
	cmd := exec.Command(r.bin, args...)
	cmd.Env = r.env
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("orgctl %s did not finish within 90s; stderr %q", strings.Join(args, " "), e.String())
	}
	if strings.Contains(o.String()+e.String(), faultToken) {
		t.Errorf("the token appeared in orgctl's output")
	}
	return faultRun{code: cmd.ProcessState.ExitCode(), stdout: o.String(), stderr: e.String()}
}

// expect checks the exit status and that stderr says each of says.
func (f faultRun) expect(t *testing.T, code int, says ...string) {
	t.Helper()
	t.Logf("exit %d, stderr:\n%s", f.code, f.stderr)
	if f.code != code {
		t.Errorf("exit %d, want %d; stderr %q", f.code, code, f.stderr)
	}
	for _, s := range says {
		if !strings.Contains(f.stderr, s) {
			t.Errorf("stderr %q does not say %q", f.stderr, s)
		}
	}
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}

const (
	usersPage   = `{"success":true,"data":[{"id":"user_1","email":"ada@example.com","first_name":"Ada","last_name":"L","active":true,"is_admin":false}],"total_count":1,"has_more":false}`
	createdUser = `{"success":true,"data":{"id":"user_2","email":"new@example.com","first_name":"N","last_name":"U","active":true}}`
)

var createArgs = []string{"users", "create", "--email", "new@example.com", "--first-name", "N", "--last-name", "U"}
var updateArgs = []string{"users", "update", "user_1", "--last-name", "Byron"}

// dropConnection ends the exchange without an answer, after the request arrived.
func dropConnection(w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		conn.Close()
	}
}

// ---- Redirects ----

// A redirect to another port of the same host is another origin: orgctl
// does not follow it, so the token never reaches that port.
func TestFaultRedirectToAnotherPortIsRefused(t *testing.T) {
	for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			other := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, usersPage) })
			api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, other.URL+r.URL.Path, status)
			})
			run := newFaultRig(t, api.URL).run(t, "users", "list")
			run.expect(t, 1, "redirect", "HTTP "+fmt.Sprint(status), other.URL+"/api/v2/users", "another origin")
			api.expectRequests(t, "GET /api/v2/users")
			other.expectRequests(t)
			if run.stdout != "" {
				t.Errorf("stdout %q, want nothing", run.stdout)
			}
		})
	}
}

// A create redirected elsewhere may have been acted on by the first
// server: exit 6, and the other origin sees nothing.
func TestFaultRedirectedCreateToAnotherOriginExits6(t *testing.T) {
	other := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 201, createdUser) })
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	})
	run := newFaultRig(t, api.URL).run(t, createArgs...)
	run.expect(t, 6, "outcome unknown", "redirect", other.URL+"/api/v2/users", "Check the current state")
	api.expectRequests(t, "POST /api/v2/users")
	other.expectRequests(t)
}

// From an https base URL, a redirect to http:// is never followed: the
// token would travel in clear text.
func TestFaultRedirectFromHTTPSToHTTPIsRefused(t *testing.T) {
	plain := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, usersPage) })
	api := newFaultServer(t, true, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+r.URL.Path, http.StatusFound)
	})
	rig := newFaultRig(t, api.URL)
	rig.trust(t, api.Server)
	// The TLS server itself answers normally before the redirect is tried.
	run := rig.run(t, "users", "list")
	run.expect(t, 1, "redirect", plain.URL+"/api/v2/users", "https", "http")
	api.expectRequests(t, "GET /api/v2/users")
	plain.expectRequests(t)
	if plain.tokens() != 0 {
		t.Errorf("the token reached the plain-http server")
	}
}

// A create or update answered with a redirect to its own origin is not
// replayed as a GET: it may or may not have been applied, so exit 6 and
// print nothing.
func TestFaultWriteAnsweredWithSameOriginRedirectExits6(t *testing.T) {
	for _, cmd := range [][]string{createArgs, updateArgs} {
		t.Run(cmd[1], func(t *testing.T) {
			api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodGet {
					http.Redirect(w, r, "/api/v2/users", http.StatusFound)
					return
				}
				writeJSON(w, 200, usersPage)
			})
			run := newFaultRig(t, api.URL).run(t, cmd...)
			run.expect(t, 6, "outcome unknown", "HTTP 302", "/api/v2/users", "Check the current state")
			if cmd[1] == "create" {
				api.expectRequests(t, "POST /api/v2/users")
			} else {
				api.expectRequests(t, "PATCH /api/v2/users/user_1")
			}
			if run.stdout != "" {
				t.Errorf("stdout %q, want nothing", run.stdout)
			}
		})
	}
}

// A redirect whose target carries user info is refused, and the message
// naming the target masks the password.
func TestFaultRedirectTargetUserInfoIsNotShown(t *testing.T) {
	other := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, usersPage) })
	target := strings.Replace(other.URL, "http://", "http://admin:hunter2secret@", 1) + "/api/v2/users"
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusFound)
	})
	run := newFaultRig(t, api.URL).run(t, "users", "list")
	run.expect(t, 1, "redirect", strings.Replace(other.URL, "http://", "http://admin:xxxxx@", 1)+"/api/v2/users", "another origin")
	if strings.Contains(run.stderr, "hunter2") {
		t.Errorf("stderr shows the redirect's user info: %q", run.stderr)
	}
	api.expectRequests(t, "GET /api/v2/users")
	other.expectRequests(t)
}

// A GET redirected within its own origin is followed.
func TestFaultSameOriginRedirectOfGetIsFollowed(t *testing.T) {
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v2/users" {
			http.Redirect(w, r, "/api/v2/users/", http.StatusMovedPermanently)
			return
		}
		writeJSON(w, 200, usersPage)
	})
	run := newFaultRig(t, api.URL).run(t, "users", "list")
	run.expect(t, 0)
	api.expectRequests(t, "GET /api/v2/users", "GET /api/v2/users/")
	if api.tokens() != 2 {
		t.Errorf("%d of 2 requests carried the token", api.tokens())
	}
	if !strings.Contains(run.stdout, "ada@example.com") {
		t.Errorf("stdout %q, want the user", run.stdout)
	}
}

// ---- Answers to writes that cannot be read ----

// Every answer to a create or update that is neither a readable success
// nor a definite refusal exits 6, after exactly one request.
func TestFaultUnreadableAnswersToWritesExit6(t *testing.T) {
	faults := map[string]http.HandlerFunc{
		"502": func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 502, `<html>bad gateway</html>`) },
		"504": func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 504, `{"success":false,"message":"upstream timed out"}`)
		},
		"500": func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 500, `internal error`) },
		"dropped connection": func(w http.ResponseWriter, r *http.Request) {
			dropConnection(w)
		},
		"timeout": func(w http.ResponseWriter, r *http.Request) {
			// With the body read, the server watches the connection and
			// cancels the context as soon as the client hangs up.
			io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
			case <-time.After(20 * time.Second):
			}
		},
		"truncated body": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "400")
			w.WriteHeader(201)
			w.Write([]byte(`{"success":true,"data":{"id":`))
			w.(http.Flusher).Flush()
			dropConnection(w)
		},
		"200 with an unreadable body": func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, `<html><body>Created</body></html>`)
		},
		"200 with cut JSON": func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, `{"success":true,"data":{"id":"user_2"`)
		},
		"304 without a body": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotModified)
		},
	}
	for name, fault := range faults {
		for _, cmd := range [][]string{createArgs, updateArgs} {
			t.Run(name+"/"+cmd[1], func(t *testing.T) {
				t.Parallel()
				api := newFaultServer(t, false, fault)
				run := newFaultRig(t, api.URL).run(t, append(cmd, "--timeout", "1s")...)
				run.expect(t, 6, "outcome unknown", "may have been applied", "Check the current state")
				method, path := "POST", "/api/v2/users"
				if cmd[1] == "update" {
					method, path = "PATCH", "/api/v2/users/user_1"
				}
				api.expectRequests(t, method+" "+path)
				if run.stdout != "" {
					t.Errorf("stdout %q, want nothing", run.stdout)
				}
			})
		}
	}
}

// A definite refusal of a write stays a plain failure (1), sent once.
func TestFaultRefusedWriteExits1(t *testing.T) {
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 409, `{"success":false,"message":"a user with this email exists"}`)
	})
	run := newFaultRig(t, api.URL).run(t, createArgs...)
	run.expect(t, 1, "HTTP 409", "a user with this email exists")
	api.expectRequests(t, "POST /api/v2/users")
}

// ---- Bounded waits ----

// A 503 whose Retry-After exceeds --max-wait gives up at once (exit 5),
// naming the server's Retry-After.
func TestFault503RetryAfterPastMaxWaitExits5(t *testing.T) {
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "10")
		writeJSON(w, 503, `{"success":false,"message":"maintenance"}`)
	})
	start := time.Now()
	run := newFaultRig(t, api.URL).run(t, "users", "list", "--max-wait", "2s")
	run.expect(t, 5, "HTTP 503", "Retry-After", "10s", "--max-wait", "2s")
	api.expectRequests(t, "GET /api/v2/users")
	t.Logf("gave up after %s", time.Since(start).Round(time.Millisecond))
}

// A 503 with a Retry-After within --max-wait is waited out, and a wait
// over a second is announced on stderr.
func TestFault503RetryAfterIsWaitedAndAnnounced(t *testing.T) {
	t.Parallel() // its own sandbox, HOME and ledger; mostly waiting on windows
	var mu sync.Mutex
	n := 0
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first {
			w.Header().Set("Retry-After", "2")
			writeJSON(w, 503, `{"success":false,"message":"busy"}`)
			return
		}
		writeJSON(w, 200, usersPage)
	})
	run := newFaultRig(t, api.URL).run(t, "users", "list", "--max-wait", "1m")
	run.expect(t, 0, "HTTP 503", "waiting 2s", "Retry-After")
	api.expectRequests(t, "GET /api/v2/users", "GET /api/v2/users")
	if !strings.Contains(run.stdout, "ada@example.com") {
		t.Errorf("stdout %q", run.stdout)
	}
}

// A 503 without Retry-After is retried with backoff that fits in
// --max-wait: with no wait allowed, the retries come at once and end with
// the server's answer.
func TestFault503WithoutRetryAfterIsBoundedByMaxWait(t *testing.T) {
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 503, `{"success":false,"message":"busy"}`)
	})
	start := time.Now()
	run := newFaultRig(t, api.URL).run(t, "users", "list", "--max-wait", "0s")
	run.expect(t, 1, "HTTP 503", "busy")
	api.expectRequests(t, "GET /api/v2/users", "GET /api/v2/users", "GET /api/v2/users", "GET /api/v2/users")
	t.Logf("4 attempts took %s", time.Since(start).Round(time.Millisecond))
}

// A 429 with a long Retry-After gives up within --max-wait (exit 5).
func TestFault429LongRetryAfterExits5(t *testing.T) {
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		writeJSON(w, 429, `{"success":false,"message":"rate limited"}`)
	})
	run := newFaultRig(t, api.URL).run(t, "users", "list", "--max-wait", "2s")
	run.expect(t, 5, "the server is blocking this token", "2s limit")
	api.expectRequests(t, "GET /api/v2/users")
}

// ---- Configuration that would unbound a wait ----

// A mistyped timeout is refused before any request, wherever it comes
// from, instead of silently meaning "no timeout" against a hung server.
func TestFaultMistypedTimeoutIsRefusedBeforeSending(t *testing.T) {
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	for _, tc := range []struct {
		name string
		env  []string
		file string
		args []string
		says []string
	}{
		{name: "env", env: []string{"ORGCTL_TIMEOUT=abc"}, says: []string{"timeout", "ORGCTL_TIMEOUT", `"abc"`, "duration"}},
		{name: "flag", args: []string{"--timeout", "-1s"}, says: []string{"timeout", "--timeout", `"-1s"`, "positive duration"}},
		{name: "file", file: "timeout: abc\n", says: []string{"timeout", "config.yaml:1", `"abc"`, "duration"}},
		{name: "file negative", file: "output: json\ntimeout: -5s\n", says: []string{"timeout", "config.yaml:2", `"-5s"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rig := newFaultRig(t, api.URL, tc.env...)
			if tc.file != "" {
				os.MkdirAll(filepath.Join(rig.dir, "config", "orgctl"), 0o700)
				if err := os.WriteFile(filepath.Join(rig.dir, "config", "orgctl", "config.yaml"), []byte(tc.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			run := rig.run(t, append([]string{"users", "list"}, tc.args...)...)
			run.expect(t, 2, tc.says...)
		})
	}
	api.expectRequests(t)
}

// ---- What already holds ----

// A typed id is one escaped path segment: it cannot reach another endpoint.
func TestFaultTypedIdsStayOneSegment(t *testing.T) {
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 404, `{"success":false,"message":"no such user"}`)
	})
	run := newFaultRig(t, api.URL).run(t, "resources", "get", "../groups?x=1#f")
	run.expect(t, 3, "not found")
	api.expectRequests(t, "GET /api/v2/resources/..%2Fgroups%3Fx=1%23f")
}

// A corrupt ledger counts as the whole budget spent: nothing is sent when
// waiting is not allowed.
func TestFaultCorruptLedgerNeverOverdraws(t *testing.T) {
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, usersPage) })
	rig := newFaultRig(t, api.URL)
	if run := rig.run(t, "users", "list"); run.code != 0 {
		t.Fatalf("first run: exit %d %s", run.code, run.stderr)
	}
	files, _ := filepath.Glob(filepath.Join(rig.dir, "state", "orgctl", "budget", "*.[01]"))
	if len(files) == 0 {
		t.Fatal("no ledger slot files")
	}
	for _, f := range files {
		if err := os.WriteFile(f, []byte("orgctl-ledger 2 ff 10 0\n{\"v\":2,\"entr"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	run := rig.run(t, "users", "list", "--max-wait", "0s")
	run.expect(t, 5, "rate budget")
	api.expectRequests(t, "GET /api/v2/users")
}

// freePort is a loopback port nothing listens on.
func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// A refused connection never reached the server: a create is safe to
// report as a failure (1), not an unknown outcome.
func TestFaultRefusedConnectionIsAPlainFailure(t *testing.T) {
	run := newFaultRig(t, "http://"+freePort(t)).run(t, createArgs...)
	run.expect(t, 1, "connection refused")
	if strings.Contains(run.stderr, "outcome unknown") {
		t.Errorf("stderr %q: a request that never left is not an unknown outcome", run.stderr)
	}
}

// ---- orgctl api paths ----

// What --dry-run prints is exactly what is sent, and a PATH that would
// reach another endpoint is refused before sending.
func TestFaultAPIDryRunShowsTheURLSent(t *testing.T) {
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, usersPage) })
	rig := newFaultRig(t, api.URL)
	for _, typed := range []string{
		"users/a%41b%2Fc?email=x%2By&limit=2",
		"users/caf%C3%A9",
		"users/café",
		"users/a b",
		"/api/v2/folders/app_1?recursive=true",
		api.URL + "/api/v2/users/u%3F1?x=%26",
	} {
		dry := rig.run(t, "api", "GET", typed, "--dry-run", "-o", "json", "--jq", ".url")
		if dry.code != 0 {
			t.Fatalf("%q --dry-run: exit %d %s", typed, dry.code, dry.stderr)
		}
		printed := strings.TrimSpace(dry.stdout)
		before := len(api.requests())
		if run := rig.run(t, "api", "GET", typed); run.code != 0 {
			t.Fatalf("%q: exit %d %s", typed, run.code, run.stderr)
		}
		reqs := api.requests()
		if len(reqs) != before+1 {
			t.Fatalf("%q: %d requests, want 1", typed, len(reqs)-before)
		}
		if sent := api.URL + strings.TrimPrefix(reqs[before], "GET "); sent != printed {
			t.Errorf("%q: --dry-run printed %s, the server got %s", typed, printed, sent)
		}
	}
	for _, typed := range []string{"users/user_1%zz", "folders%", "users\n", "users/a\\b", "users/\u202e", "%2F", "users/a%2F..%2Fgroups"} {
		before := len(api.requests())
		for _, extra := range [][]string{nil, {"--dry-run"}} {
			run := rig.run(t, append([]string{"api", "DELETE", typed}, extra...)...)
			run.expect(t, 2, "PATH")
			if run.stdout != "" {
				t.Errorf("%q %v: stdout %q", typed, extra, run.stdout)
			}
		}
		if n := len(api.requests()) - before; n != 0 {
			t.Errorf("%q: %d requests sent", typed, n)
		}
	}
}

// ---- The ledger lock ----

// ---- Secrets in URLs ----

// A base URL carrying user info is refused before any request, from the
// environment or the file, and the message does not repeat the secret.
func TestFaultBaseURLWithUserInfoIsRefused(t *testing.T) {
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, usersPage) })
	withInfo := strings.Replace(api.URL, "http://", "http://u:SECRETpw42@", 1)
	t.Run("env", func(t *testing.T) {
		run := newFaultRig(t, withInfo).run(t, "users", "list")
		run.expect(t, 2, "base_url", "ORGCTL_BASE_URL", "user info")
		if strings.Contains(run.stderr, "SECRETpw42") {
			t.Errorf("stderr shows the password: %q", run.stderr)
		}
	})
	t.Run("file", func(t *testing.T) {
		rig := newFaultRig(t, "")
		rig.writeConfig(t, "output: json\nbase_url: "+withInfo+"\n")
		run := rig.run(t, "users", "list")
		run.expect(t, 2, "base_url", "config.yaml:2", "user info")
		if strings.Contains(run.stderr, "SECRETpw42") {
			t.Errorf("stderr shows the password: %q", run.stderr)
		}
	})
	api.expectRequests(t)
}

// writeConfig writes the rig's config file.
func (r *faultRig) writeConfig(t *testing.T, text string) {
	t.Helper()
	dir := filepath.Join(r.dir, "config", "orgctl")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// ---- Mistyped configuration ----

// Every mistyped setting is refused before any request, naming the key,
// where it came from and what is accepted, instead of silently falling
// back to a default (or to 0 points, a free request).
func TestFaultMistypedSettingsAreRefusedBeforeSending(t *testing.T) {
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, usersPage) })
	for _, tc := range []struct {
		name string
		env  []string
		file string
		says []string
	}{
		{name: "points in the file", file: "budget:\n  points: lots\n", says: []string{"budget.points", "config.yaml:2", `"lots"`, "a whole number, at least 1"}},
		{name: "points in the environment", env: []string{"ORGCTL_BUDGET_POINTS=abc"}, says: []string{"budget.points", "ORGCTL_BUDGET_POINTS", `"abc"`, "a whole number"}},
		{name: "a family's cost", file: "budget:\n  costs:\n    users: \"x\"\n", says: []string{"budget.costs.users", "config.yaml:3", `"x"`, "a whole number, at least 0"}},
		{name: "output in the file", file: "output: xml\n", says: []string{"output", "config.yaml:1", `"xml"`, "one of table, json, yaml"}},
		{name: "a profile's timeout", env: []string{"ORGCTL_PROFILE=work"}, file: "profiles:\n  work:\n    timeout: zz\n", says: []string{"timeout", "config.yaml:3 (profile work)", `"zz"`, "duration"}},
		{name: "max wait in the environment", env: []string{"ORGCTL_MAX_WAIT=forever"}, says: []string{"max_wait", "ORGCTL_MAX_WAIT", `"forever"`, "duration"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rig := newFaultRig(t, api.URL, tc.env...)
			if tc.file != "" {
				rig.writeConfig(t, tc.file)
			}
			run := rig.run(t, "users", "list")
			run.expect(t, 2, tc.says...)
			if run.stdout != "" {
				t.Errorf("stdout %q, want nothing", run.stdout)
			}
		})
	}
	api.expectRequests(t)
}

// An unknown key in the file is a warning naming the nearest known key;
// the command still runs.
func TestFaultUnknownConfigKeyWarnsWithTheNearestKey(t *testing.T) {
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, usersPage) })
	rig := newFaultRig(t, api.URL)
	rig.writeConfig(t, "output: json\ntimout: 5s\nbudget:\n  ponits: 10\n")
	run := rig.run(t, "users", "list")
	run.expect(t, 0, `config.yaml:2: unknown setting "timout" is ignored; did you mean "timeout"?`,
		`config.yaml:4: unknown setting "budget.ponits" is ignored; did you mean "budget.points"?`)
	api.expectRequests(t, "GET /api/v2/users")
}

// ---- Request bodies ----

// A body that is not the JSON object the API takes, or that is over the
// one size limit, is refused before anything is sent, without reading a
// large file into memory.
func TestFaultBodiesAreCheckedBeforeSending(t *testing.T) {
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 201, createdUser) })
	rig := newFaultRig(t, api.URL)
	arr := filepath.Join(rig.dir, "arr.json")
	os.WriteFile(arr, []byte(`[{"email":"a@example.com","first_name":"A","last_name":"B"}]`), 0o600)
	big := filepath.Join(rig.dir, "big.bin")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(200 << 20) // sparse: 200 MiB that take no disk
	f.Close()
	for _, tc := range []struct {
		args []string
		says []string
	}{
		{[]string{"users", "create", "--body", arr}, []string{"must be a JSON object (got an array)"}},
		{[]string{"api", "POST", "users", "--input", arr}, []string{"must be a JSON object", "an array would replace it"}},
		{[]string{"api", "POST", "folders", "-f", "name=x", "-F", "description=@" + big}, []string{"200.0 MiB", "16 MiB limit", "nothing was sent"}},
		{[]string{"api", "PUT", "/organization/ai_settings", "--input", big}, []string{"200.0 MiB", "16 MiB limit", "nothing was sent"}},
		{[]string{"users", "create", "--body", big}, []string{"200.0 MiB", "16 MiB limit"}},
	} {
		run := rig.run(t, tc.args...)
		run.expect(t, 2, tc.says...)
	}
	api.expectRequests(t)
}

// ---- The budget across processes ----

// A process killed while it waits for budget gives up its place: the next
// process is not queued behind a waiter that will never come.
func TestFaultKilledWaiterReleasesItsPlace(t *testing.T) {
	t.Parallel() // its own sandbox, HOME and ledger; mostly waiting on windows
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, usersPage) })
	// Room for one 2-point list per 3 s window.
	rig := newFaultRig(t, api.URL, "ORGCTL_BUDGET_POINTS=2", "ORGCTL_BUDGET_WINDOW=3s", "ORGCTL_BUDGET_COSTS_USERS=2")
	if run := rig.run(t, "users", "list"); run.code != 0 {
		t.Fatalf("first run: exit %d %s", run.code, run.stderr)
	}
	waiter := exec.Command(rig.bin, "users", "list", "--max-wait", "1m")
	waiter.Env = rig.env
	var waitErr lockedBuffer
	waiter.Stderr = &waitErr
	if err := waiter.Start(); err != nil {
		t.Fatal(err)
	}
	waitErr.waitFor("waiting", nil, 10*time.Second) // until it has queued and announced its wait
	waiter.Process.Kill()
	waiter.Wait()
	// Queued behind the dead waiter, this one would wait two windows, past
	// its --max-wait, and give up at once; with the place released it fits.
	run := rig.run(t, "users", "list", "--max-wait", "4s")
	run.expect(t, 0)
	api.expectRequests(t, "GET /api/v2/users", "GET /api/v2/users")
}

// lockedBuffer is a child's stderr that the test may read while the child
// writes to it.
type lockedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{}
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case b.signal() <- struct{}{}:
	default: // a signal is already pending; the waiter rereads the buffer
	}
	return b.buf.Write(p)
}

func (b *lockedBuffer) signal() chan struct{} {
	if b.wrote == nil {
		b.wrote = make(chan struct{}, 1)
	}
	return b.wrote
}

// waitFor returns once s has been written, or false when the process
// ended (done closed) or failsafe passed without it: a test waits on the
// process's own announcement, never on a guess of how long it takes.
func (b *lockedBuffer) waitFor(s string, done <-chan struct{}, failsafe time.Duration) bool {
	b.mu.Lock()
	wrote := b.signal()
	b.mu.Unlock()
	give := time.After(failsafe)
	for !strings.Contains(b.String(), s) {
		select {
		case <-wrote:
		case <-done:
			return strings.Contains(b.String(), s)
		case <-give:
			return false
		}
	}
	return true
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Twenty processes started at once on one token never put more than the
// budget into any window the server sees.
func TestFaultParallelProcessesStayInBudget(t *testing.T) {
	t.Parallel() // its own sandbox, HOME and ledger; mostly waiting on windows
	const points, window, cost = 10, 2 * time.Second, 2
	var mu sync.Mutex
	var arrivals []time.Time
	api := newFaultServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		mu.Unlock()
		writeJSON(w, 200, usersPage)
	})
	rig := newFaultRig(t, api.URL, fmt.Sprintf("ORGCTL_BUDGET_POINTS=%d", points), "ORGCTL_BUDGET_WINDOW="+window.String(),
		fmt.Sprintf("ORGCTL_BUDGET_COSTS_USERS=%d", cost))
	var wg sync.WaitGroup
	codes := make([]int, 20)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = rig.run(t, "users", "list", "--max-wait", "1m").code
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != 0 {
			t.Errorf("process %d exited %d", i, c)
		}
	}
	if n := len(api.requests()); n != 20 {
		t.Errorf("the server saw %d requests, want 20", n)
	}
	mu.Lock()
	defer mu.Unlock()
	for i, a := range arrivals {
		in := 0
		for _, b := range arrivals {
			if !b.After(a) && a.Sub(b) < window {
				in++
			}
		}
		if in*cost > points {
			t.Errorf("%d points in the window ending at request %d, budget %d", in*cost, i, points)
		}
	}
}
