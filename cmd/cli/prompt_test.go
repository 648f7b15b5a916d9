package cli

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/output"
)

func terminal(in string) (*TerminalPrompter, *bytes.Buffer) {
	var errb bytes.Buffer
	return &TerminalPrompter{IO: &output.IO{In: strings.NewReader(in), Out: io.Discard, Err: &errb}}, &errb
}

func TestConfirmReadsTheAnswer(t *testing.T) {
	for _, tc := range []struct {
		in   string
		def  bool
		want bool
		hint string
	}{
		{"\n", true, true, "[Y/n]"},
		{"\n", false, false, "[y/N]"},
		{"y\n", false, true, "[y/N]"},
		{" YES \n", false, true, "[y/N]"},
		{"yes", false, true, "[y/N]"}, // the end of input ends the answer
		{"n\n", true, false, "[Y/n]"},
		{"nope\n", false, false, "[y/N]"},
		{"ye\n", false, false, "[y/N]"},
	} {
		p, errb := terminal(tc.in)
		got, err := p.Confirm("Use it?", tc.def)
		if err != nil || got != tc.want {
			t.Errorf("%q (default %v): %v %v, want %v", tc.in, tc.def, got, err, tc.want)
		}
		if want := "Use it? " + tc.hint + " "; errb.String() != want {
			t.Errorf("%q: prompt %q, want %q", tc.in, errb.String(), want)
		}
	}
	// Nobody answered: cancelled, whatever the default.
	for _, def := range []bool{true, false} {
		p, _ := terminal("")
		if _, err := p.Confirm("Use it?", def); !errors.Is(err, ErrCancelled) {
			t.Errorf("end of input (default %v): %v, want cancelled", def, err)
		}
	}
}

func TestConfirmOrCancel(t *testing.T) {
	p, _ := terminal("y\n")
	if err := ConfirmOrCancel(p, "Go?"); err != nil {
		t.Errorf("yes: %v", err)
	}
	p, _ = terminal("\n")
	if err := ConfirmOrCancel(p, "Go?"); !errors.Is(err, ErrCancelled) {
		t.Errorf("Enter: %v, want cancelled (no is the default)", err)
	}
}

// Each question reads only its own line: the next question, or a command
// reading stdin itself, gets what was typed ahead.
func TestAnswersKeepWhatWasTypedAhead(t *testing.T) {
	in := strings.NewReader("acme.example.com\ny\ntok_3\nrest of stdin")
	errb := &bytes.Buffer{}
	p := &TerminalPrompter{IO: &output.IO{In: in, Out: io.Discard, Err: errb}}
	if s, err := p.Input("Base URL: "); err != nil || s != "acme.example.com" {
		t.Fatalf("Input = %q %v", s, err)
	}
	if yes, err := p.Confirm("Use https?", true); err != nil || !yes {
		t.Fatalf("Confirm = %v %v", yes, err)
	}
	if s, err := p.Password("Token: "); err != nil || s != "tok_3" {
		t.Fatalf("Password = %q %v", s, err)
	}
	rest, _ := io.ReadAll(in)
	if string(rest) != "rest of stdin" {
		t.Errorf("left on stdin: %q", rest)
	}
	if want := "Base URL: Use https? [Y/n] Token: \n"; errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
}

func TestInputAndPasswordAtTheEndOfInput(t *testing.T) {
	p, _ := terminal("  tok_2")
	if s, err := p.Password("Token: "); err != nil || s != "tok_2" {
		t.Errorf("without a newline: %q %v", s, err)
	}
	p, _ = terminal("")
	if s, err := p.Password("Token: "); err == nil || s != "" {
		t.Errorf("empty input: %q %v, want an error", s, err)
	}
	p, _ = terminal("")
	if s, err := p.Input("Name: "); err == nil || s != "" {
		t.Errorf("empty input: %q %v, want an error", s, err)
	}
	p, _ = terminal("\n")
	if s, err := p.Input("Name: "); err != nil || s != "" {
		t.Errorf("a bare Enter: %q %v, want an empty answer", s, err)
	}
}

func TestAnswerLengthIsBounded(t *testing.T) {
	p, _ := terminal(strings.Repeat("y", maxAnswer+10) + "\n")
	if _, err := p.Input("? "); err == nil {
		t.Error("an endless line was taken as an answer")
	}
}

// scripted answers questions from a list, as a test's Factory.Prompter.
type scripted struct{ answers []string }

func (s *scripted) next() string { a := s.answers[0]; s.answers = s.answers[1:]; return a }
func (s *scripted) Confirm(string, bool) (bool, error) {
	return s.next() == "y", nil
}
func (s *scripted) Input(string) (string, error)    { return s.next(), nil }
func (s *scripted) Password(string) (string, error) { return s.next(), nil }

func TestFactoryAsksThroughItsPrompter(t *testing.T) {
	f := &Factory{IO: &output.IO{In: strings.NewReader("y\n"), Err: io.Discard}}
	if _, ok := f.Ask().(*TerminalPrompter); !ok {
		t.Fatalf("default prompter is %T", f.Ask())
	}
	s := &scripted{answers: []string{"n"}}
	f.Prompter = s
	if err := ConfirmOrCancel(f.Ask(), "Go?"); !errors.Is(err, ErrCancelled) {
		t.Errorf("the test's prompter was not asked: %v", err)
	}
	if len(s.answers) != 0 {
		t.Errorf("answers left: %v", s.answers)
	}
	if f.CanPrompt() {
		t.Error("CanPrompt without a terminal")
	}
	f.IO.InTTY, f.IO.ErrTTY = true, true
	if !f.CanPrompt() {
		t.Error("CanPrompt is false on a terminal")
	}
}
