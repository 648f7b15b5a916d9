package cli_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/ratebudget"
)

// Each typed error maps to its one exit status, also when wrapped.
func TestExitCodeForEveryErrorType(t *testing.T) {
	unknown := &client.OutcomeUnknownError{Method: "POST", Path: "/users", Cause: errors.New("EOF")}
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, cli.ExitOK},
		{"plain", errors.New("boom"), cli.ExitFailure},
		{"cancelled", cli.ErrCancelled, cli.ExitFailure},
		{"usage", cli.UsageErrorf("bad"), cli.ExitUsage},
		{"wrapped usage", fmt.Errorf("ctx: %w", cli.UsageErrorf("bad")), cli.ExitUsage},
		{"client config", &client.ConfigError{Msg: "http to a remote host"}, cli.ExitUsage},
		{"auth", &cli.AuthError{Err: errors.New("not logged in")}, cli.ExitAuth},
		{"not found", &cli.NotFoundError{Err: errors.New("no profile")}, cli.ExitNotFound},
		{"budget wait", &ratebudget.WaitError{Needed: 10, Limit: 300}, cli.ExitGaveUp},
		{"outcome unknown", unknown, cli.ExitOutcomeUnknown},
		{"wrapped outcome unknown", fmt.Errorf("create: %w", unknown), cli.ExitOutcomeUnknown},
		{"transport", &client.TransportError{Method: "GET", Path: "/users", Cause: errors.New("refused")}, cli.ExitFailure},
		{"API 401", &client.APIError{StatusCode: 401}, cli.ExitAuth},
		{"API 403", &client.APIError{StatusCode: 403}, cli.ExitAuth},
		{"API 404", &client.APIError{StatusCode: 404}, cli.ExitNotFound},
		{"API 429", &client.APIError{StatusCode: 429}, cli.ExitGaveUp},
		{"API 409", &client.APIError{StatusCode: 409}, cli.ExitFailure},
		{"API 500", &client.APIError{StatusCode: 500}, cli.ExitFailure},
		{"exit error", &cli.ExitError{Code: 7}, 7},
		{"exit error over its cause", &cli.ExitError{Code: 4, Err: cli.UsageErrorf("x")}, 4},
	} {
		if got := cli.ExitCode(tc.err); got != tc.want {
			t.Errorf("%s: cli.ExitCode(%v) = %d, want %d", tc.name, tc.err, got, tc.want)
		}
	}
}

func TestErrorTypesUnwrap(t *testing.T) {
	cause := errors.New("cause")
	for _, err := range []error{&cli.UsageError{Err: cause}, &cli.AuthError{Err: cause}, &cli.NotFoundError{Err: cause}, &cli.ExitError{Code: 1, Err: cause}} {
		if err.Error() != "cause" || !errors.Is(err, cause) {
			t.Errorf("%T: Error() = %q, Is(cause) = %v", err, err.Error(), errors.Is(err, cause))
		}
	}
	if got := (&cli.ExitError{Code: 3}).Error(); got != "exit status 3" {
		t.Errorf("ExitError without Err: %q", got)
	}
}

// A warning quotes an error's first line, not the hints Explain added.
func TestFirstLineLeavesTheHints(t *testing.T) {
	ae := &client.APIError{StatusCode: 403, Method: "GET", Path: "/folders", Scope: "Folders > Read"}
	want := "names: " + ae.Error()
	err := cli.Explain(nil, fmt.Errorf("names: %w", ae))
	if got := cli.FirstLine(err); got == err.Error() || got != want {
		t.Errorf("FirstLine(%q) = %q", err.Error(), got)
	}
}
