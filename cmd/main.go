package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/version"
	"github.com/orgctl/orgctl/output/redact"
	"github.com/orgctl/orgctl/output/safetext"
)

// Main runs orgctl on args and returns its exit status. Ctrl-C (SIGINT) or
// SIGTERM cancels the command's context: the request in flight is
// abandoned, a reservation not yet used goes back to the budget, and the
// exit status is 130 or 143 (6 when a write had already been sent). A
// second signal ends the process at once.
func Main(args []string) int {
	watchParent()
	ctx, interrupted, arm, stop := notifyContext()
	defer stop()
	f := newFactory()
	err := explain(f, execute(ctx, f, args, arm))
	code := finish(f.IO.Err, err, interrupted())
	f.IO.Flush()
	return code
}

// newFactory is the factory of a run on the process's streams, with what
// only the root knows: orgctl's version and the families' budget names.
func newFactory() *cli.Factory {
	f := cli.NewFactory("")
	f.VersionOf = func() string { return version.Get().Version }
	f.Families = families.Called
	return f
}

// explain adds what to do next to the run's error, in this one place, with
// the configuration the run read (none when it never read one).
func explain(f *cli.Factory, err error) error {
	return cli.Explain(f.LoadedConfig(), err)
}

// notifyContext is the root context, cancelled by SIGINT or SIGTERM once
// arm has been called, and a function that says which one arrived (its
// exit status, or 0). Installing the handlers costs a thread and about a
// millisecond, so Main arms only when a command is about to run: help and
// --version never need them. Until then a signal takes its default action,
// which ends the process with the same status, 130 or 143.
func notifyContext() (ctx context.Context, interrupted func() int, arm func(), stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	var status atomic.Int32
	signals := make(chan os.Signal, 1)
	done := make(chan struct{})
	var armed sync.Once
	arm = func() {
		armed.Do(func() {
			signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
			go func() {
				select {
				case sig := <-signals:
					code := cli.ExitSIGINT
					if sig == syscall.SIGTERM {
						code = cli.ExitSIGTERM
					}
					// Recorded before the cancellation, so whoever sees
					// ctx cancelled also sees which signal did it.
					status.Store(int32(code))
					// From now on a signal takes its default action: a
					// second Ctrl-C ends the process.
					signal.Stop(signals)
					cancel(&cli.Interrupted{Signal: sig})
				case <-done:
				}
			}()
		})
	}
	return ctx, func() int { return int(status.Load()) }, arm, func() {
		close(done)
		signal.Stop(signals)
		cancel(nil)
	}
}

// finish prints the error, if any, and maps it to the exit status. A run a
// signal reached is interrupted, whatever it returned (a job whose last
// steps were in flight may end without an error): 130 or 143, or 6 when a
// write's outcome is unknown; never 0.
func finish(stderr io.Writer, err error, signalled int) int {
	if err == nil && signalled == 0 {
		return cli.ExitOK
	}
	code := cli.ExitOK
	if err != nil {
		code = cli.ExitCode(err)
	}
	if signalled != 0 && code != cli.ExitOutcomeUnknown {
		name := "SIGINT"
		if signalled == cli.ExitSIGTERM {
			name = "SIGTERM"
		}
		fmt.Fprintf(stderr, "orgctl: interrupted (%s)\n", name)
		return signalled
	}
	var ee *cli.ExitError
	if !errors.As(err, &ee) || ee.Err != nil {
		// No URL's user info is ever shown, whichever path produced the error.
		// Errors quote names and the server's words: shown as safetext does.
		fmt.Fprintf(stderr, "orgctl: %s\n", safetext.Lines(oneOrgctl(redact.Text(err.Error()))))
	}
	return code
}

// oneOrgctl keeps a message from repeating the program's name after the
// "orgctl: " it is printed with: messages that name the command
// ("orgctl users get takes 1 argument") read "orgctl: users get takes ...".
func oneOrgctl(msg string) string {
	for {
		switch {
		case strings.HasPrefix(msg, "orgctl: "):
			msg = msg[len("orgctl: "):]
		case strings.HasPrefix(msg, "orgctl ") && !strings.HasPrefix(msg, "orgctl  "):
			msg = msg[len("orgctl "):]
		default:
			return msg
		}
	}
}
