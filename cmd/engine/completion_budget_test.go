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
// stdout, stderr and how long it took.
func complete(t *testing.T, args ...string) (string, string, time.Duration) {
	t.Helper()
	f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
	start := time.Now()
	err := familytest.Run(f, append([]string{cobra.ShellCompRequestCmd}, args...)...)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("__complete %v: %v", args, err)
	}
	return tio.Out.String(), tio.Err.String(), took
}

func TestHungAPICompletesInAboutASecond(t *testing.T) {
	s := completionSetup(t)
	s.mu.Lock()
	s.hang = true
	s.mu.Unlock()
	out, errOut, took := complete(t, "users", "get", "")
	t.Logf("completion against a hung API answered in %s", took.Round(time.Millisecond))
	if out != ":4\n" {
		t.Errorf("stdout = %q, want only the NoFileComp directive", out)
	}
	if errOut != "" {
		t.Errorf("stderr = %q, want nothing", errOut)
	}
	// The deadline is one second; three leave room for a loaded machine.
	if took >= 3*time.Second {
		t.Errorf("completion took %s against a hung API, want about 1s", took)
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
	// Fill the ledger: 5 points of groups requests within the window.
	f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
	if err := familytest.Run(f, "groups", "list"); err != nil {
		t.Fatal(err)
	}
	s.api.ResetRequests()
	// A long deadline tells "refused at once" from "waited until the deadline".
	t.Setenv("ORGCTL_COMPLETION_TIMEOUT", "20s")
	out, errOut, took := complete(t, "users", "get", "")
	t.Logf("completion with a full budget answered in %s", took.Round(time.Millisecond))
	if out != ":4\n" || errOut != "" {
		t.Errorf("stdout %q, stderr %q; want the bare directive and nothing", out, errOut)
	}
	if n := len(s.api.Requests()); n != 0 {
		t.Errorf("%d requests sent with a full budget", n)
	}
	if took >= 3*time.Second {
		t.Errorf("completion waited %s with a full budget (deadline 20s)", took)
	}
	// The refusal must not have queued or charged anything.
	conn, err := f.Connection()
	if err != nil {
		t.Fatal(err)
	}
	l := conn.Ledger
	st, err := l.Status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Used != 5 {
		t.Errorf("ledger used %d points after the refused completion, want the 5 of groups list", st.Used)
	}
}

func TestCompletionChargesTheSharedBudget(t *testing.T) {
	completionSetup(t)
	complete(t, "users", "get", "")
	complete(t, "users", "get", "")
	f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
	conn, err := f.Connection()
	if err != nil {
		t.Fatal(err)
	}
	l := conn.Ledger
	st, err := l.Status()
	if err != nil {
		t.Fatal(err)
	}
	if want := ratebudget.DefaultConfig().Cost("/users"); st.Used != want {
		t.Errorf("ledger used %d after two completions, want one users request (%d)", st.Used, want)
	}
}
