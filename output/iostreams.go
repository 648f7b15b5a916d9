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
	// Color allows colour on stderr, ColorOut on stdout: each when that
	// stream is a terminal (or CLICOLOR_FORCE is set), NO_COLOR is unset
	// and TERM is not dumb.
	Color    bool
	ColorOut bool
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
	io.Color, io.ColorOut = colorAllowed(io.ErrTTY), colorAllowed(io.OutTTY)
	if io.OutTTY {
		io.Width = terminalWidth(os.Stdout)
		io.Out = NewTerminalWriter(io.Out)
	}
	if io.ErrTTY {
		io.Err = NewTerminalWriter(io.Err)
	}
	return io
}

// Flush writes what a terminal stream still holds back (the start of a
// sequence that was never completed), escaped.
func (s *IO) Flush() {
	FlushTerminal(s.Out)
	FlushTerminal(s.Err)
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

// colorAllowed follows the conventions of no-color.org and bixense.com/clicolors:
// NO_COLOR (any value) turns colour off, CLICOLOR_FORCE (not 0) turns it on
// through a pipe, CLICOLOR=0 and TERM=dumb turn it off on a terminal.
func colorAllowed(tty bool) bool {
	if v, ok := os.LookupEnv("NO_COLOR"); ok && v != "" {
		return false
	}
	if v := os.Getenv("CLICOLOR_FORCE"); v != "" && v != "0" {
		return true
	}
	return tty && os.Getenv("CLICOLOR") != "0" && os.Getenv("TERM") != "dumb"
}

// ANSI colours orgctl uses: green for done and ✓, red for ✗ and removals,
// yellow for warnings and changes.
const (
	Green  = "32"
	Red    = "31"
	Yellow = "33"
)

// Paint wraps text in a colour when on is true.
func Paint(on bool, color, text string) string {
	if !on || color == "" || text == "" {
		return text
	}
	return "\x1b[" + color + "m" + text + "\x1b[0m"
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// Warn writes a warning line to stderr, in yellow when colour is allowed.
func (s *IO) Warn(format string, args ...any) {
	s.notice(Yellow, "warning: ", format, args...)
}

// Success writes a line that confirms a change to stderr, after a ✓ that is
// green when colour is allowed.
func (s *IO) Success(format string, args ...any) {
	s.notice(Green, "✓ ", format, args...)
}

// Notice writes an informational line to stderr.
func (s *IO) Notice(format string, args ...any) {
	s.notice("", "", format, args...)
}

// notice shows the arguments as Safe shows them: they name objects of the
// org, and the format is orgctl's own.
func (s *IO) notice(color, prefix, format string, args ...any) {
	prefix = Paint(s.Color, color, prefix)
	fprintf(s.Err, prefix+format+"\n", safeArgs(args)...)
}

// safeArgs makes each string argument of a message Safe; errors, which
// may span lines, and the rest are left to the terminal stream's filter.
func safeArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		if v, ok := a.(string); ok {
			out[i] = Safe(v)
		} else {
			out[i] = a
		}
	}
	return out
}
