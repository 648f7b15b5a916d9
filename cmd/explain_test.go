package cmd

import (
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli"
)

// Main explains a run's error in one place, whichever command failed.
func TestExplainedErrorsFromTheSandbox(t *testing.T) {
	api, _ := sandboxEnv(t)
	t.Setenv("ORGCTL_TOKEN", mustMint(t, api, "users:read"))
	_, _, err := run(t, "", "groups", "list")
	if cli.ExitCode(err) != cli.ExitAuth || !strings.Contains(err.Error(), `Create a token with the "Groups > Read" scope`) {
		t.Errorf("missing scope: %v (exit %d)", err, cli.ExitCode(err))
	}
	t.Setenv("ORGCTL_TOKEN", "tok_not_valid")
	_, _, err = run(t, "", "users", "list")
	if cli.ExitCode(err) != cli.ExitAuth || !strings.Contains(err.Error(), "The token in ORGCTL_TOKEN was rejected") {
		t.Errorf("rejected token: %v (exit %d)", err, cli.ExitCode(err))
	}
	t.Setenv("ORGCTL_TOKEN", api.AdminToken())
	_, _, err = run(t, "", "users", "get", "user_missing")
	if cli.ExitCode(err) != cli.ExitNotFound {
		t.Errorf("unknown user: %v (exit %d)", err, cli.ExitCode(err))
	}
}
