package output

import (
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"
)

// IO bundles the process streams with what is known about them, so commands
// decide terminal-vs-piped behaviour in one place and tests can fake either.
type IO struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer

	InTTY  bool
	OutTTY bool
	ErrTTY bool
	// Color is true when stderr is a terminal and NO_COLOR is unset.
	Color bool
	// Width of the terminal on stdout; 0 when unknown or piped.
	Width int
}

// System returns the process's real streams.
func System() *IO {
	io := &IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}
	io.InTTY = isTerminal(os.Stdin)
	io.OutTTY = isTerminal(os.Stdout)
	io.ErrTTY = isTerminal(os.Stderr)
	if force := os.Getenv("ORGCTL_FORCE_TTY"); force != "" {
		// Lets tests and screen recorders see the terminal form through a pipe;
		// "stdin" in the value also answers prompts from a pipe.
		io.OutTTY, io.ErrTTY = true, true
		if strings.Contains(force, "stdin") {
			io.InTTY = true
		}
	}
	_, noColor := os.LookupEnv("NO_COLOR")
	io.Color = io.ErrTTY && !noColor && os.Getenv("TERM") != "dumb"
	if io.OutTTY {
		io.Width = terminalWidth(os.Stdout)
	}
	return io
}

// terminalWidth is the width tables fit on: ORGCTL_WIDTH when set (tests
// and recordings, with ORGCTL_FORCE_TTY), else the terminal's own, else
// COLUMNS (a forced terminal on a pipe); 0 when none is known.
func terminalWidth(f *os.File) int {
	if w := envWidth("ORGCTL_WIDTH"); w > 0 {
		return w
	}
	if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
		return w
	}
	return envWidth("COLUMNS")
}

func envWidth(name string) int {
	w, err := strconv.Atoi(strings.TrimSpace(os.Getenv(name)))
	if err != nil || w < 0 {
		return 0
	}
	return w
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// Warn writes a warning line to stderr, in yellow when colour is allowed.
func (s *IO) Warn(format string, args ...any) {
	s.notice("33", "warning: ", format, args...)
}

// Success writes a line that confirms a change to stderr, after a ✓ that is
// green when colour is allowed.
func (s *IO) Success(format string, args ...any) {
	s.notice("32", "✓ ", format, args...)
}

// Notice writes an informational line to stderr.
func (s *IO) Notice(format string, args ...any) {
	s.notice("", "", format, args...)
}

func (s *IO) notice(color, prefix, format string, args ...any) {
	if s.Color && color != "" {
		prefix = "\x1b[" + color + "m" + prefix + "\x1b[0m"
	}
	fprintf(s.Err, prefix+format+"\n", args...)
}
