// Command orgctl administers an organization through its management API.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd"
	"github.com/orgctl/orgctl/ratebudget"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// Exit codes: one meaning each; scripts depend on them.
const (
	exitOK             = 0
	exitFailure        = 1
	exitUsage          = 2
	exitNotFound       = 3
	exitAuth           = 4
	exitRateBudget     = 5
	exitOutcomeUnknown = 6
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	f := cmd.NewFactory(version)
	err := cmd.Execute(f, args)
	if err == nil {
		return exitOK
	}
	code := exitCode(err)
	var ee *cmd.ExitError
	if !errors.As(err, &ee) || ee.Err != nil {
		fmt.Fprintf(os.Stderr, "orgctl: %v\n", err)
	}
	return code
}

// exitCode maps typed errors to exit codes in this one place.
func exitCode(err error) int {
	var (
		ee      *cmd.ExitError
		usage   *cmd.UsageError
		cfgErr  *client.ConfigError
		auth    *cmd.AuthError
		nf      *cmd.NotFoundError
		api     *client.APIError
		wait    *ratebudget.WaitError
		unknown *client.OutcomeUnknownError
	)
	switch {
	case errors.As(err, &ee):
		return ee.Code
	case errors.As(err, &unknown):
		return exitOutcomeUnknown
	case errors.As(err, &wait):
		return exitRateBudget
	case errors.As(err, &usage), errors.As(err, &cfgErr):
		return exitUsage
	case errors.As(err, &auth):
		return exitAuth
	case errors.As(err, &nf):
		return exitNotFound
	case errors.As(err, &api):
		switch api.StatusCode {
		case 401, 403:
			return exitAuth
		case 404:
			return exitNotFound
		case 429:
			return exitRateBudget
		}
		return exitFailure
	case errors.Is(err, cmd.ErrCancelled):
		return exitFailure
	}
	return exitFailure
}
