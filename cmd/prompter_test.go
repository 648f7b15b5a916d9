package cmd

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
)

// answering is a Prompter a test sets on the Factory: it records the
// questions and gives one answer, without a terminal.
type answering struct {
	yes       bool
	questions []string
}

func (a *answering) Confirm(q string, _ bool) (bool, error) {
	a.questions = append(a.questions, q)
	return a.yes, nil
}
func (a *answering) Input(q string) (string, error) {
	a.questions = append(a.questions, q)
	return "", nil
}
func (a *answering) Password(q string) (string, error) {
	a.questions = append(a.questions, q)
	return "", nil
}

// Every confirmation goes through the Factory's prompter: the test answers
// it, and nothing is read from stdin.
func TestConfirmationsGoThroughThePrompter(t *testing.T) {
	for _, yes := range []bool{false, true} {
		api, _ := sandboxEnv(t)
		f, tio := testFactory(t, &testKeyring{}, "y\n")
		f.IO.InTTY, f.IO.ErrTTY = true, true
		p := &answering{yes: yes}
		f.Prompter = p
		err := execute(context.Background(), f, []string{"groups", "delete", "support"}, nil)
		if len(p.questions) != 1 || !strings.HasPrefix(p.questions[0], "Delete group support? ") || strings.Contains(p.questions[0], "[y/N]") {
			t.Fatalf("asked %q", p.questions)
		}
		deleted := strings.Contains(strings.Join(clitest.Sent(api), "\n"), "DELETE /api/v2/groups/")
		switch {
		case yes && (err != nil || !deleted):
			t.Errorf("yes: err %v, deleted %v", err, deleted)
		case !yes && (!errors.Is(err, cli.ErrCancelled) || deleted):
			t.Errorf("no: err %v, deleted %v", err, deleted)
		}
		if strings.Contains(tio.err.String(), "[y/N]") {
			t.Errorf("the terminal prompter asked too: %q", tio.err.String())
		}
	}
}
