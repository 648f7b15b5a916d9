package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// Version is set at build time with -ldflags "-X github.com/orgctl/orgctl/cmd.Version=...".
var Version = "dev"

// Exit codes: one meaning each; scripts depend on them.
const (
	ExitOK             = 0
	ExitFailure        = 1 // also findings: --fail-on, plan --exit-code
	ExitUsage          = 2 // invalid usage or input, before any request
	ExitNotFound       = 3
	ExitAuth           = 4 // authentication or missing scope
	ExitGaveUp         = 5 // the rate budget would wait past --max-wait
	ExitOutcomeUnknown = 6 // a write may have been applied; no answer confirmed it
	ExitSIGINT         = 130
	ExitSIGTERM        = 143
)

// Main runs orgctl on args and returns its exit status. Ctrl-C (SIGINT) or
// SIGTERM cancels the command's context: the request in flight is
// abandoned, a reservation not yet used goes back to the budget, and the
// exit status is 130 or 143 (6 when a write had already been sent). A
// second signal ends the process at once.
func Main(args []string) int {
	ctx, interrupted, stop := notifyContext()
	defer stop()
	f := NewFactory(Version)
	err := Execute(ctx, f, args)
	return finish(f.IO.Err, err, interrupted())
}

// notifyContext is the root context, cancelled by SIGINT or SIGTERM, and a
// function that says which one arrived (its exit status, or 0).
func notifyContext() (ctx context.Context, interrupted func() int, stop func()) {
	term, stopTerm := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	ctx, stopInt := signal.NotifyContext(term, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
		case <-done:
			return
		}
		// From now on a signal takes its default action: a second Ctrl-C ends the process.
		stopInt()
		stopTerm()
	}()
	// Until stop, only a signal cancels ctx; a SIGTERM cancels term first,
	// and ctx only through it. Read synchronously, so the answer never
	// depends on whether the goroutine above has run yet.
	interrupted = func() int {
		switch {
		case ctx.Err() == nil:
			return 0
		case term.Err() != nil && context.Cause(term) != context.Canceled:
			return ExitSIGTERM
		}
		return ExitSIGINT
	}
	return ctx, interrupted, func() {
		close(done)
		stopInt()
		stopTerm()
	}
}

// finish prints the error, if any, and maps it to the exit status.
func finish(stderr io.Writer, err error, signalled int) int {
	if err == nil {
		return ExitOK
	}
	code := ExitCode(err)
	if signalled != 0 && code != ExitOutcomeUnknown {
		name := "SIGINT"
		if signalled == ExitSIGTERM {
			name = "SIGTERM"
		}
		fmt.Fprintf(stderr, "orgctl: interrupted (%s)\n", name)
		return signalled
	}
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Err != nil {
		// No URL's user info is ever shown, whichever path produced the error.
		fmt.Fprintf(stderr, "orgctl: %s\n", client.RedactURLsIn(err.Error()))
	}
	return code
}

// ExitCode maps typed errors to exit statuses in this one place.
func ExitCode(err error) int {
	var (
		ee      *ExitError
		usage   *UsageError
		cfgErr  *client.ConfigError
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
	case errors.As(err, &usage), errors.As(err, &cfgErr), errors.As(err, &twoName), errors.As(err, &columns):
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
