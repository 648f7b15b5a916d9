package ratebudget

import (
	"os"
	"testing"
)

// childEnv switches the test binary into a helper process for the
// multi-process tests.
const childEnv = "RATEBUDGET_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
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
