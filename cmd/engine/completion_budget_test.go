package engine_test

// Completion of object names asks the API under the shared budget, and
// never makes the shell wait: a hung API or a full budget gives no
// candidates at once rather than a wait.

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/families/familytest"
	"github.com/orgctl/orgctl/ratebudget"
)

// completionServer is the sandbox with a switch that makes GET /users hang.
type completionServer struct {
	api  *sandbox.Server
	mu   sync.Mutex
	hang bool
	hung int // requests that arrived and were never answered
	stop chan struct{}
}

func (s *completionServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	hang := s.hang && r.Method == http.MethodGet && r.URL.Path == "/api/v2/users"
	if hang {
		s.hung++
	}
	s.mu.Unlock()
	if hang {
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
		return
	}
	s.api.ServeHTTP(w, r)
}

func completionSetup(t *testing.T) *completionServer {
	t.Helper()
	clitest.Isolate(t)
	s := &completionServer{api: sandbox.New(sandbox.Options{}), stop: make(chan struct{})}
	hs := httptest.NewServer(s)
	t.Cleanup(func() { close(s.stop); hs.Close() })
	t.Setenv("ORGCTL_BASE_URL", hs.URL)
	t.Setenv("ORGCTL_TOKEN", s.api.AdminToken())
	t.Setenv("ORGCTL_COMPLETION_CACHE_TTL", "")
	t.Setenv("ORGCTL_BUDGET_POINTS", "")
	t.Setenv("ORGCTL_COMPLETION_TIMEOUT", "")
	return s
}

// complete runs `orgctl __complete args...` as the shell would and returns
// stdout and stderr. It fails the test if completion has not answered
// within a minute: every test here sets completion's own deadline far
// below that and every other deadline (the HTTP timeout, the budget's
// window) far above it, so an answer within the minute can only come from
// completion giving up by itself, however slow the machine.
func complete(t *testing.T, args ...string) (string, string) {
	t.Helper()
	f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
	done := make(chan error, 1)
	go func() { done <- familytest.Run(f, append([]string{cobra.ShellCompRequestCmd}, args...)...) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("__complete %v: %v", args, err)
		}
	case <-time.After(time.Minute):
		t.Fatalf("__complete %v has not answered in a minute: it waits on something other than its own deadline", args)
	}
	return tio.Out.String(), tio.Err.String()
}

func TestHungAPIGivesUpAtCompletionsDeadline(t *testing.T) {
	s := completionSetup(t)
	s.mu.Lock()
	s.hang = true
	s.mu.Unlock()
	// Each HTTP attempt may take an hour: only completion's own deadline
	// can end the hung request.
	t.Setenv("ORGCTL_TIMEOUT", "1h")
	t.Setenv("ORGCTL_COMPLETION_TIMEOUT", "200ms")
	out, errOut := complete(t, "users", "get", "")
	if out != ":4\n" {
		t.Errorf("stdout = %q, want only the NoFileComp directive", out)
	}
	if errOut != "" {
		t.Errorf("stderr = %q, want nothing", errOut)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hung != 1 {
		t.Errorf("%d requests reached the hung API, want exactly 1 (sent once, not retried)", s.hung)
	}
}

func TestFullBudgetNeitherSendsNorWaits(t *testing.T) {
	s := completionSetup(t)
	t.Setenv("ORGCTL_BUDGET_POINTS", "5")
	// A window of ten minutes and --max-wait of an hour: a command would
	// wait minutes for room, which completion must never do.
	t.Setenv("ORGCTL_BUDGET_WINDOW", "10m")
	t.Setenv("ORGCTL_MAX_WAIT", "1h")
	// Fill the ledger: 5 points of groups requests within the window.
	f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
	if err := familytest.Run(f, "groups", "list"); err != nil {
		t.Fatal(err)
	}
	s.api.ResetRequests()
	// With its own deadline an hour away, completion answers within
	// complete's minute only if it refuses at once rather than waiting
	// for room in the budget.
	t.Setenv("ORGCTL_COMPLETION_TIMEOUT", "1h")
	out, errOut := complete(t, "users", "get", "")
	if out != ":4\n" || errOut != "" {
		t.Errorf("stdout %q, stderr %q; want the bare directive and nothing", out, errOut)
	}
	if n := len(s.api.Requests()); n != 0 {
		t.Errorf("%d requests sent with a full budget", n)
	}
	// The refusal must not have queued or charged anything.
	if used := ledgerUsed(t, f); used != 5 {
		t.Errorf("ledger used %d points after the refused completion, want the 5 of groups list", used)
	}
}

// ledgerUsed is the points f's budget ledger holds as used.
func ledgerUsed(t *testing.T, f *cli.Factory) int {
	t.Helper()
	conn, err := f.Connection()
	if err != nil {
		t.Fatal(err)
	}
	st, err := conn.Ledger.Status()
	if err != nil {
		t.Fatal(err)
	}
	return st.Used
}

func TestCompletionChargesTheSharedBudget(t *testing.T) {
	completionSetup(t)
	complete(t, "users", "get", "")
	complete(t, "users", "get", "")
	f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
	if want, used := ratebudget.DefaultConfig().Cost("/users"), ledgerUsed(t, f); used != want {
		t.Errorf("ledger used %d after two completions, want one users request (%d)", used, want)
	}
}
