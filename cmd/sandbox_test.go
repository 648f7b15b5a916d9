package cmd

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli"
)

// sandboxState creates the --sandbox state file by running one command against it.
func sandboxState(t *testing.T) {
	t.Helper()
	f, _ := testFactory(t, &testKeyring{}, "")
	if err := execute(context.Background(), f, []string{"--sandbox", "users", "list"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cli.SandboxStatePath()); err != nil {
		t.Fatal(err)
	}
}

func TestSandboxResetAsksOnATerminal(t *testing.T) {
	isolate(t)
	for _, c := range []struct {
		answer string
		kept   bool
	}{{"n\n", true}, {"\n", true}, {"yes\n", false}} {
		sandboxState(t)
		f, tio := testFactory(t, &testKeyring{}, c.answer)
		f.IO.InTTY, f.IO.ErrTTY = true, true
		err := execute(context.Background(), f, []string{"sandbox", "reset"}, nil)
		if !strings.Contains(tio.err.String(), "Reset the --sandbox org?") {
			t.Errorf("answer %q: no question on stderr: %q", c.answer, tio.err.String())
		}
		_, statErr := os.Stat(cli.SandboxStatePath())
		if kept := statErr == nil; kept != c.kept {
			t.Errorf("answer %q: state kept = %v, want %v", c.answer, kept, c.kept)
		}
		if c.kept && !errors.Is(err, cli.ErrCancelled) {
			t.Errorf("answer %q: err = %v, want ErrCancelled", c.answer, err)
		}
		if !c.kept && err != nil {
			t.Errorf("answer %q: %v", c.answer, err)
		}
	}
}

func TestSandboxResetWithoutATerminalNeedsYes(t *testing.T) {
	isolate(t)
	sandboxState(t)
	f, tio := testFactory(t, &testKeyring{}, "y\n") // an answer on a pipe is not a confirmation
	err := execute(context.Background(), f, []string{"sandbox", "reset"}, nil)
	var ue *cli.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "pass --yes") {
		t.Fatalf("err = %v, want a UsageError naming --yes", err)
	}
	if strings.Contains(tio.err.String(), "[y/N]") {
		t.Error("asked a question without a terminal")
	}
	if _, err := os.Stat(cli.SandboxStatePath()); err != nil {
		t.Fatalf("the state must survive a refused reset: %v", err)
	}
	f, _ = testFactory(t, &testKeyring{}, "")
	if err := execute(context.Background(), f, []string{"sandbox", "reset", "--yes"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cli.SandboxStatePath()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("after reset --yes: %v", err)
	}
}
