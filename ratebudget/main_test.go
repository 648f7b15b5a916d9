package ratebudget

import (
	"os"
	"strings"
	"testing"
)

// childEnv switches the test binary into a helper process for the
// multi-process tests.
const childEnv = "RATEBUDGET_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		// Under -race each helper process would sleep a second before it
		// exits (atexit_sleep_ms) so that goroutines can report races; a
		// race is reported when it happens all the same.
		os.Setenv("GORACE", strings.TrimSpace("atexit_sleep_ms=0 "+os.Getenv("GORACE")))
		os.Exit(m.Run())
	case "exit":
		os.Exit(0)
	case "acquire":
		os.Exit(runChild())
	case "hold":
		os.Exit(runHolder())
	default:
		os.Exit(2)
	}
}
