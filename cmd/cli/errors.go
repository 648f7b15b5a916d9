package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/cli/usage"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// UsageError is invalid usage or input, caught before any request (exit 2).
type UsageError = usage.Error

func UsageErrorf(format string, args ...any) error {
	return usage.Errorf(format, args...)
}

// AuthError is a missing or unusable credential found before sending (exit 4).
type AuthError struct{ Err error }

func (e *AuthError) Error() string { return e.Err.Error() }
func (e *AuthError) Unwrap() error { return e.Err }

// NotFoundError is something local that does not exist, such as a profile
// (exit 3).
type NotFoundError struct{ Err error }

func (e *NotFoundError) Error() string { return e.Err.Error() }
func (e *NotFoundError) Unwrap() error { return e.Err }

// ExitError asks main to exit with Code after printing Err (when not nil);
// for commands whose result is a verdict, like `resources audit --fail-on`.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}
func (e *ExitError) Unwrap() error { return e.Err }

// FirstLine is the first line of err's message, for a warning about
// something a command does without: the lines after it (Explain's hints)
// are for an error that ends the run.
func FirstLine(err error) string {
	line, _, _ := strings.Cut(err.Error(), "\n")
	return line
}

// ErrCancelled is the user answering "no" at a confirmation prompt.
var ErrCancelled = errors.New("cancelled")

// Exit codes: one meaning each; scripts depend on them.
const (
	ExitOK             = 0
	ExitFailure        = 1 // includes an API error with no status of its own below
	ExitUsage          = 2 // invalid usage or input, before any request
	ExitNotFound       = 3
	ExitAuth           = 4 // authentication or missing scope
	ExitGaveUp         = 5 // the rate budget would wait past --max-wait
	ExitOutcomeUnknown = 6 // a write may have been applied; no answer confirmed it
	ExitFindings       = 7 // the run worked and found differences or findings (plan --exit-code, --fail-on)
	ExitSIGINT         = 130
	ExitSIGTERM        = 143
)

// JobExit is the exit status of a job that ran: 6 when a row's outcome is
// unknown, 1 when it was stopped (Main then exits 130 or 143) or a row
// failed, 0 otherwise.
func JobExit(sum bulk.Summary) error {
	switch {
	case sum.Counts[bulk.Unknown] > 0:
		return &ExitError{Code: ExitOutcomeUnknown}
	case sum.Stopped, sum.Counts[bulk.Failed] > 0:
		return &ExitError{Code: ExitFailure}
	}
	return nil
}

// ExitCode maps typed errors to exit statuses in this one place: Main
// exits with it, and a test of any command reads the status it would give.
func ExitCode(err error) int {
	var (
		ee      *ExitError
		usage   *UsageError
		cfgErr  *client.ConfigError
		setting *settings.Error
		auth    *AuthError
		nf      *NotFoundError
		api     *client.APIError
		wait    *ratebudget.WaitError
		retry   *client.WaitError
		lock    *ratebudget.LockError
		unknown *client.OutcomeUnknownError
		noName  *resolve.NotFoundError
		twoName *resolve.AmbiguousError
		columns *output.UnknownColumnsError
	)
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.Code
	case errors.As(err, &unknown):
		return ExitOutcomeUnknown
	case errors.As(err, &wait), errors.As(err, &retry), errors.As(err, &lock):
		return ExitGaveUp
	case errors.As(err, &noName):
		return ExitNotFound
	case errors.As(err, &usage), errors.As(err, &cfgErr), errors.As(err, &setting), errors.As(err, &twoName), errors.As(err, &columns):
		return ExitUsage
	case errors.As(err, &auth):
		return ExitAuth
	case errors.As(err, &nf):
		return ExitNotFound
	case errors.As(err, &api):
		switch api.StatusCode {
		case 401, 403:
			return ExitAuth
		case 404:
			return ExitNotFound
		case 429:
			return ExitGaveUp
		}
	}
	return ExitFailure
}
