package budget_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/budget"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/ratebudget"
)

func cost(path string) int { return ratebudget.DefaultConfig().Cost(path) }

// budgetRun runs `budget ARGS` on a fresh Factory, as one process would.
func budgetRun(t *testing.T, args ...string) string {
	t.Helper()
	f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
	if err := clitest.Execute(f, budget.NewCmd(f), args...); err != nil {
		t.Fatalf("budget %v: %v\n%s", args, err, tio.Err.String())
	}
	return tio.Out.String()
}

func TestBudgetStatus(t *testing.T) {
	clitest.SandboxEnv(t, sandbox.Options{})
	// One request, as `users list` sends it, charged to the shared ledger.
	f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
	c, err := f.Client()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(context.Background(), client.Request{Method: http.MethodGet, Path: "/users"}); err != nil {
		t.Fatal(err)
	}

	t.Setenv("ORGCTL_OUTPUT", "json")
	out := budgetRun(t, "status")
	var st struct {
		Key          string
		Points, Used int
		Free         int
		Window       float64 `json:"window_seconds"`
		NextFree     *string `json:"next_free"`
		BlockedUntil *string `json:"blocked_until"`
		Costs        map[string]int
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	used := cost("/users")
	if st.Points != 300 || st.Used != used || st.Free != 300-used || st.Window != 60 || st.NextFree == nil || st.BlockedUntil != nil ||
		st.Costs["users"] != cost("/users") || !strings.HasPrefix(st.Key, "127.0.0.1_") {
		t.Errorf("status = %s", out)
	}
	if _, err := time.Parse(time.RFC3339Nano, *st.NextFree); err != nil {
		t.Errorf("next_free %q: %v", *st.NextFree, err)
	}

	t.Setenv("ORGCTL_OUTPUT", "")
	out = budgetRun(t, "status")
	for _, want := range []string{"key:\t" + st.Key + "\n", "used:\t2 of 300 points in the last 1m0s (reserve 0)\n", "free:\t298 points\n", "next free:\t", "costs:\n", "users\t2\n", "permissions\t10\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "blocked until") {
		t.Errorf("status shows a block:\n%s", out)
	}
	out = budgetRun(t)
	if !strings.Contains(out, "ORGCTL_BUDGET_POINTS") {
		t.Errorf("budget prints its help: %s", out)
	}
}
