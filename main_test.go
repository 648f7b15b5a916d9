package main

import (
	"errors"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
	"github.com/orgctl/orgctl/cmd"
	"github.com/orgctl/orgctl/ratebudget/redisstore/redistest"
)

// TestMain lets scripts run `orgctl` as this test binary's real main.
func TestMain(m *testing.M) {
	// The scripts spend most of their time waiting (on budget windows, slow
	// sandboxes, killed jobs), not computing: four at a time keep two cores
	// busy. A -parallel on the command line still wins, being parsed later.
	if f := flag.Lookup("test.parallel"); f != nil && f.Value.String() == strconv.Itoa(runtime.GOMAXPROCS(0)) {
		f.Value.Set(strconv.Itoa(max(4, runtime.GOMAXPROCS(0))))
	}
	// Under -race the e2e tests that start this binary as orgctl start it
	// race-built, and the race runtime sleeps a second before each exit to
	// let other goroutines report (atexit_sleep_ms): hundreds of processes
	// would wait minutes for nothing. A race is still reported when it
	// happens, and the process still exits 66.
	os.Setenv("GORACE", strings.TrimSpace("atexit_sleep_ms=0 "+os.Getenv("GORACE")))
	testscript.Main(m, map[string]func(){
		"orgctl": func() { os.Exit(cmd.Main(os.Args[1:])) },
	})
}

// scriptServer is the sandbox on loopback for one script, with switches the
// script can flip to simulate network failures.
type scriptServer struct {
	mu  sync.Mutex
	api *sandbox.Server
	// budget is the sandbox's budget as budget or org last set it: an
	// apiversion restart keeps it, so the server never allows less than
	// the script's client was told.
	budget sandbox.Options
	drop   map[string]bool // "METHOD /path": process, then cut the connection
	hang   map[string]bool // "METHOD /path": never answer
	slow   map[string]bool // "METHOD /path": answer 2 s after it took effect
	fail   map[string]bool // "METHOD /path": answer 500 without processing
	// latency holds every answer back after the request took effect, so
	// a script can kill a client with requests in flight.
	latency time.Duration
	url     string
	// script names the script in request-validation failures.
	script string
	redis  *redistest.Server // started by the script's redis command
	tb     testing.TB        // the script's test, which the redis server dies with
}

func (s *scriptServer) server() *sandbox.Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.api
}

func (s *scriptServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	in := scriptRequests.observe(s.script, r)
	s.mu.Lock()
	api := s.api
	key := r.Method + " " + strings.TrimPrefix(r.URL.Path, "/api/v2")
	drop, hang, fail, latency := s.drop[key], s.hang[key], s.fail[key], s.latency
	if s.slow[key] {
		latency = max(latency, 2*time.Second)
	}
	s.mu.Unlock()
	if hang {
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
		return
	}
	if fail {
		// The server errs before doing anything: nothing is processed,
		// and the sandbox's request log never hears of it.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"success":false,"message":"Internal server error (injected by the test)"}`))
		return
	}
	if drop {
		// The request is processed, but the answer never arrives.
		api.ServeHTTP(httptest.NewRecorder(), r)
		panic(http.ErrAbortHandler)
	}
	rec := httptest.NewRecorder()
	api.ServeHTTP(rec, r)
	scriptRequests.observeResponse(s.script, in, rec)
	if latency > 0 {
		select {
		case <-r.Context().Done():
			return
		case <-time.After(latency):
		}
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	w.Write(rec.Body.Bytes())
}

func TestScripts(t *testing.T) {
	t.Cleanup(func() { scriptRequests.report(t) })
	testscript.Run(t, scriptParams("testdata/script", scriptBin(t)))
}

// scriptBin is the directory of orgctl built on its own (buildOrgctl),
// the binary users run, which the scripts find first in PATH. It is built
// without the race detector even under -race: the scripts check what the
// binary does (its bytes, exit codes, requests), while the goroutines that
// can race (a job's workers and their pacer, the ledger, progress, signal
// handling) run under -race in their own packages' tests and in this
// process's sandboxes. The scripts start some 2,000 orgctl processes, and
// under -race each cost several times as much: the scripts took 207 s of
// CPU with race-built orgctl processes, 107-126 s without.
func scriptBin(t *testing.T) string { return filepath.Dir(buildOrgctl(t)) }

// scriptParams runs the scripts in dir, each against its own sandbox on
// loopback, with the commands below; bin holds the orgctl they run.
func scriptParams(dir, bin string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: false,
		Setup: func(env *testscript.Env) error {
			ss := &scriptServer{api: sandbox.New(sandbox.Options{}), drop: map[string]bool{}, hang: map[string]bool{}, slow: map[string]bool{}, fail: map[string]bool{},
				script: strings.TrimPrefix(filepath.Base(env.WorkDir), "script-")}
			hs := httptest.NewServer(ss) // after every field ServeHTTP reads is set
			env.Defer(hs.Close)
			ss.url = hs.URL
			env.Values["server"] = ss
			ss.tb, _ = env.T().(testing.TB) // a *testing.T underneath
			work := env.WorkDir
			env.Setenv("HOME", work)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(work, ".config"))
			env.Setenv("XDG_STATE_HOME", filepath.Join(work, ".state"))
			env.Setenv("XDG_CACHE_HOME", filepath.Join(work, ".cache"))
			env.Setenv("XDG_RUNTIME_DIR", filepath.Join(work, ".run"))
			env.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
			env.Setenv("ORGCTL_BASE_URL", hs.URL)
			env.Setenv("ORGCTL_TOKEN", ss.api.AdminToken())
			env.Setenv("SANDBOX_URL", hs.URL)
			env.Setenv("NO_COLOR", "1")
			env.Setenv("GORACE", os.Getenv("GORACE"))
			env.Setenv("PATH", bin+string(filepath.ListSeparator)+env.Getenv("PATH"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// requests METHOD PATH N: the sandbox served exactly N requests
			// with that method and path (relative to /api/v2; a trailing *
			// matches a prefix).
			"requests": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 3 {
					ts.Fatalf("usage: requests METHOD PATH N")
				}
				want, err := strconv.Atoi(args[2])
				ts.Check(err)
				got := countRequests(srv(ts), args[0], args[1])
				if (got == want) == neg {
					ts.Fatalf("requests %s %s: got %d, want %s%d", args[0], args[1], got, map[bool]string{true: "not ", false: ""}[neg], want)
				}
			},
			// exit N CMD ARGS...: run CMD and require exit status N.
			"exit": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) < 2 {
					ts.Fatalf("usage: exit N CMD [ARGS...]")
				}
				want, err := strconv.Atoi(args[0])
				ts.Check(err)
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("%s: %v", args[1], err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("%s exited %d, want %d", args[1], got, want)
				}
			},
			// reset-requests forgets the request log.
			"reset-requests": func(ts *testscript.TestScript, neg bool, args []string) {
				srv(ts).server().ResetRequests()
			},
			// mint VAR SCOPE...: a primary-org token with these scopes.
			"mint": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) < 1 {
					ts.Fatalf("usage: mint VAR [SCOPE...]")
				}
				tok, err := sandboxtest.MintToken(srv(ts).server(), args[1:]...)
				ts.Check(err)
				ts.Setenv(args[0], tok)
			},
			// budget POINTS WINDOW BLOCK: restart the sandbox with this budget.
			"budget": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 3 {
					ts.Fatalf("usage: budget POINTS WINDOW BLOCK")
				}
				points, err := strconv.Atoi(args[0])
				ts.Check(err)
				window, err := time.ParseDuration(args[1])
				ts.Check(err)
				block, err := time.ParseDuration(args[2])
				ts.Check(err)
				s := srv(ts)
				s.mu.Lock()
				s.budget = sandbox.Options{Points: points, Window: window, Block: block}
				s.api = sandbox.New(s.budget)
				s.mu.Unlock()
				ts.Setenv("ORGCTL_TOKEN", s.api.AdminToken())
			},
			// org demo|empty [POINTS WINDOW] [users=N]: replace the sandbox's
			// org with a fresh demo or empty one (budget: POINTS per WINDOW,
			// blocked for WINDOW), with N synthetic users (as sandbox serve --users).
			"org": func(ts *testscript.TestScript, neg bool, args []string) {
				o := sandbox.Options{}
				if n := len(args); n > 0 && strings.HasPrefix(args[n-1], "users=") {
					var err error
					o.Users, err = strconv.Atoi(strings.TrimPrefix(args[n-1], "users="))
					ts.Check(err)
					args = args[:n-1]
				}
				if len(args) != 1 && len(args) != 3 {
					ts.Fatalf("usage: org demo|empty [POINTS WINDOW] [users=N]")
				}
				o.Empty = args[0] == "empty"
				if len(args) == 3 {
					scriptBudget(ts, &o, args[1], args[2])
				}
				s := srv(ts)
				s.mu.Lock()
				s.budget = sandbox.Options{Points: o.Points, Window: o.Window, Block: o.Block}
				s.api = sandbox.New(o)
				s.mu.Unlock()
				ts.Setenv("ORGCTL_TOKEN", s.api.AdminToken())
			},
			// sandbox2 URLVAR TOKENVAR [POINTS WINDOW]: another demo org
			// (another Space) on loopback for the rest of the script: its
			// base URL and admin token in the two variables.
			"sandbox2": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 && len(args) != 4 {
					ts.Fatalf("usage: sandbox2 URLVAR TOKENVAR [POINTS WINDOW]")
				}
				o := sandbox.Options{}
				if len(args) == 4 {
					scriptBudget(ts, &o, args[2], args[3])
				}
				api := sandbox.New(o)
				hs := httptest.NewServer(api)
				ts.Defer(hs.Close)
				ts.Setenv(args[0], hs.URL)
				ts.Setenv(args[1], api.AdminToken())
			},
			// apiversion VERSION: restart the sandbox as an instance of API
			// VERSION (4.0, or 2.12: the 3.334 release), with a fresh demo org.
			"apiversion": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: apiversion 4.0|2.12")
				}
				v, err := sandbox.APIVersionOf(args[0])
				ts.Check(err)
				s := srv(ts)
				s.mu.Lock()
				o := s.budget
				o.APIVersion = v
				s.api = sandbox.New(o)
				s.mu.Unlock()
				ts.Setenv("ORGCTL_TOKEN", s.api.AdminToken())
			},
			// envout VAR: set VAR to the last command's stdout, trimmed.
			"envout": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: envout VAR")
				}
				ts.Setenv(args[0], strings.TrimSpace(ts.ReadFile("stdout")))
			},
			// latency D: answer every request D after it took effect (0: at once).
			"latency": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: latency DURATION")
				}
				d, err := time.ParseDuration(args[0])
				ts.Check(err)
				s := srv(ts)
				s.mu.Lock()
				s.latency = d
				s.mu.Unlock()
			},
			// await METHOD PATH N: wait (up to 20 s) until the sandbox has
			// served at least N such requests (PATH as for requests).
			"await": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 3 {
					ts.Fatalf("usage: await METHOD PATH N")
				}
				want, err := strconv.Atoi(args[2])
				ts.Check(err)
				for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
					if got := countRequests(srv(ts), args[0], args[1]); got >= want {
						return
					} else if time.Now().After(deadline) {
						ts.Fatalf("await %s %s %d: only %d arrived", args[0], args[1], want, got)
					}
				}
			},
			// drop METHOD PATH: process such requests but cut the connection
			// before answering. hang METHOD PATH: never answer.
			// (! drop / ! hang answer such requests again.)
			"drop": func(ts *testscript.TestScript, neg bool, args []string) { setMode(ts, "drop", args, neg) },
			"hang": func(ts *testscript.TestScript, neg bool, args []string) { setMode(ts, "hang", args, neg) },
			// slow METHOD PATH: answer such requests 2 s after they took
			// effect, even to a client that has stopped waiting for them.
			"slow": func(ts *testscript.TestScript, neg bool, args []string) { setMode(ts, "slow", args, neg) },
			// fail METHOD PATH: answer such requests 500 without processing
			// them (! fail serves them again).
			"fail": func(ts *testscript.TestScript, neg bool, args []string) { setMode(ts, "fail", args, neg) },
			// redis start [PASSWORD] | stop | restart: a redis-server of the
			// script's own; start points ORGCTL_BUDGET_STORE and $REDIS_URL at it.
			"redis": scriptRedis,
			// pty [-cols N] CMD ARGS...: run CMD on a pseudo-terminal; what
			// it showed is in the file ptyout.
			"pty": scriptPTY,
		},
	}
}

func srv(ts *testscript.TestScript) *scriptServer { return ts.Value("server").(*scriptServer) }

// scriptBudget gives a sandbox the budget of a script command's POINTS
// and WINDOW arguments: POINTS per WINDOW, blocked for WINDOW after a 429.
func scriptBudget(ts *testscript.TestScript, o *sandbox.Options, points, window string) {
	var err error
	o.Points, err = strconv.Atoi(points)
	ts.Check(err)
	o.Window, err = time.ParseDuration(window)
	ts.Check(err)
	o.Block = o.Window
}

// countRequests counts the served requests with this method ("*": any)
// and path (relative to /api/v2; a trailing * matches a prefix).
func countRequests(s *scriptServer, method, path string) int {
	got := 0
	for _, r := range s.server().Requests() {
		p := strings.TrimPrefix(r.Path, "/api/v2")
		match := p == path
		if strings.HasSuffix(path, "*") {
			match = strings.HasPrefix(p, strings.TrimSuffix(path, "*"))
		}
		if (method == "*" || r.Method == method) && match {
			got++
		}
	}
	return got
}

func scriptRedis(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: redis start [PASSWORD] | stop | restart")
	}
	s := srv(ts)
	s.mu.Lock()
	r := s.redis
	s.mu.Unlock()
	switch args[0] {
	case "start":
		if s.tb == nil {
			ts.Fatalf("redis: the script's T is not a testing.TB")
		}
		o := redistest.Options{}
		if len(args) > 1 {
			o.Password = args[1]
		}
		r = redistest.Start(s.tb, o)
		s.mu.Lock()
		s.redis = r
		s.mu.Unlock()
		ts.Setenv("REDIS_URL", r.URL)
		ts.Setenv("ORGCTL_BUDGET_STORE", r.URL)
	case "stop", "restart":
		if r == nil {
			ts.Fatalf("redis %s: not started", args[0])
		}
		if args[0] == "stop" {
			r.Stop()
		} else {
			r.Restart()
		}
	default:
		ts.Fatalf("usage: redis start [PASSWORD] | stop | restart")
	}
}

func setMode(ts *testscript.TestScript, mode string, args []string, off bool) {
	if len(args) != 2 {
		ts.Fatalf("usage: %s METHOD PATH", mode)
	}
	s := srv(ts)
	s.mu.Lock()
	defer s.mu.Unlock()
	m := map[string]map[string]bool{"drop": s.drop, "hang": s.hang, "slow": s.slow, "fail": s.fail}[mode]
	m[args[0]+" "+args[1]] = !off
}
