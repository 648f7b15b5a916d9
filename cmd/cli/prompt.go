package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/orgctl/orgctl/output"
)

// Prompter asks the person at the terminal. Every question orgctl asks
// goes through one, so that the answer is read one way everywhere and
// tests answer without a terminal (Factory.Prompter). Callers decide
// whether anyone can be asked (Factory.CanPrompt) and say which flag
// to pass when nobody can.
type Prompter interface {
	// Confirm asks a yes/no question; a bare Enter answers def. The end
	// of input before any answer is ErrCancelled.
	Confirm(question string, def bool) (bool, error)
	// Input asks for a line of text, returned without surrounding space.
	Input(question string) (string, error)
	// Password asks for a secret, without echo on a terminal.
	Password(question string) (string, error)
}

// CanPrompt says whether someone can answer a question: stdin and stderr
// are terminals (or ORGCTL_FORCE_TTY says so).
func (f *Factory) CanPrompt() bool { return f.IO.InTTY && f.IO.ErrTTY }

// Unconfirmed is the one refusal of a change nobody can confirm: what
// ("reclaim", "run `orgctl users delete X`") was not done, and why no one
// could be asked ("" for the usual: stdin is not a terminal); review, when
// not "", is how to look before passing --yes ("review with --dry-run").
// It is invalid usage (exit 2): nothing was sent.
func Unconfirmed(what, why, review string) error {
	if why == "" {
		why = "stdin is not a terminal"
	}
	then := "pass --yes"
	if review != "" {
		then = review + ", then pass --yes"
	}
	return UsageErrorf("refusing to %s without confirmation: %s; %s", what, why, then)
}

// Ask is the run's prompter: Factory.Prompter when a test set one, else
// one that asks on the factory's streams.
func (f *Factory) Ask() Prompter {
	if f.Prompter == nil {
		f.Prompter = &TerminalPrompter{IO: f.IO}
	}
	return f.Prompter
}

// ConfirmOrCancel asks question with [y/N] and returns ErrCancelled
// unless the answer is yes.
func ConfirmOrCancel(p Prompter, question string) error {
	yes, err := p.Confirm(question, false)
	if err != nil {
		return err
	}
	if !yes {
		return ErrCancelled
	}
	return nil
}

// TerminalPrompter asks on stderr and reads the answer from stdin.
type TerminalPrompter struct {
	IO *output.IO
}

func (t *TerminalPrompter) Confirm(question string, def bool) (bool, error) {
	hint := "[y/N]"
	if def {
		hint = "[Y/n]"
	}
	fmt.Fprintf(t.IO.Err, "%s %s ", question, hint)
	line, err := readLine(t.IO.In)
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "":
		if err != nil {
			fmt.Fprintln(t.IO.Err)
			return false, ErrCancelled
		}
		return def, nil
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

func (t *TerminalPrompter) Input(question string) (string, error) {
	fmt.Fprint(t.IO.Err, question)
	text, err := answer(t.IO.In)
	if err != nil {
		fmt.Fprintln(t.IO.Err)
	}
	return text, err
}

// Password reads without echo from a real terminal, else one line (a
// pipe in tests, or ORGCTL_FORCE_TTY=stdin).
func (t *TerminalPrompter) Password(question string) (string, error) {
	fmt.Fprint(t.IO.Err, question)
	defer fmt.Fprintln(t.IO.Err)
	if file, ok := t.IO.In.(*os.File); ok && term.IsTerminal(int(file.Fd())) {
		b, err := term.ReadPassword(int(file.Fd()))
		return strings.TrimSpace(string(b)), err
	}
	return answer(t.IO.In)
}

// answer is a line without surrounding space; the end of input ends an
// answer, and is an error only when nothing was typed.
func answer(r io.Reader) (string, error) {
	line, err := readLine(r)
	text := strings.TrimSpace(line)
	if errors.Is(err, io.EOF) && text != "" {
		err = nil
	}
	if err != nil {
		return "", err
	}
	return text, nil
}

// maxAnswer bounds one answer: a stuck or hostile stdin cannot fill memory.
const maxAnswer = 64 << 10

// readLine reads up to and including a newline, one byte at a time: no
// buffer holds what was typed ahead, so the next question (or a command
// that reads stdin itself) gets it. An answer without a newline at the end
// of input is returned with io.EOF.
func readLine(r io.Reader) (string, error) {
	var b strings.Builder
	var c [1]byte
	for b.Len() < maxAnswer {
		n, err := r.Read(c[:])
		if n == 1 {
			if c[0] == '\n' {
				return b.String(), nil
			}
			b.WriteByte(c[0])
			continue
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return b.String(), io.EOF
			}
			return b.String(), err
		}
	}
	return b.String(), fmt.Errorf("answer longer than %d bytes", maxAnswer)
}
