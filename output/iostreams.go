package output

import (
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

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

	errFile *os.File  // stderr, when it is the process's own
	bar     *barSlot  // the progress bar on the terminal, shared by Out and Err
	errRaw  io.Writer // Err beneath its terminal filter
}

// barSlot holds the progress bar being shown, if any.
type barSlot struct {
	mu sync.Mutex
	p  *Progress
}

func (b *barSlot) clear() {
	if b == nil {
		return
	}
	b.mu.Lock()
	p := b.p
	b.mu.Unlock()
	if p != nil {
		p.clearForOutput()
	}
}

// setProgress makes p the bar that other output clears first (nil: none).
func (s *IO) setProgress(p *Progress) {
	if s.bar == nil {
		return
	}
	s.bar.mu.Lock()
	s.bar.p = p
	s.bar.mu.Unlock()
}

// ProgressShown reports whether a progress display is running: a budget
// wait it shows need not be announced on a line of its own.
func (s *IO) ProgressShown() bool {
	if s.bar == nil {
		return false
	}
	s.bar.mu.Lock()
	defer s.bar.mu.Unlock()
	return s.bar.p != nil
}

// rawErr is stderr beneath the terminal filter, for the bar's own drawing.
func (s *IO) rawErr() io.Writer {
	if s.errRaw != nil {
		return s.errRaw
	}
	return s.Err
}

// ErrWidth is the width of the terminal on stderr as it is now (it follows
// resizes): ORGCTL_WIDTH when set, else the terminal's, else COLUMNS,
// else the width found at start; 0 when none is known.
func (s *IO) ErrWidth() int {
	if s.errFile != nil {
		if w := terminalWidth(s.errFile); w > 0 {
			return w
		}
	}
	return s.Width
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
	io.errFile = os.Stderr
	io.bar = &barSlot{}
	if io.OutTTY {
		io.Width = terminalWidth(os.Stdout)
		if io.ErrTTY {
			// one screen: what stdout prints clears stderr's bar first
			io.Out = &terminalWriter{w: io.Out, bar: io.bar}
		} else {
			io.Out = &terminalWriter{w: io.Out}
		}
	}
	if io.ErrTTY {
		io.errRaw = io.Err
		io.Err = &terminalWriter{w: io.Err, bar: io.bar}
	}
	return io
}

// Flush writes what a terminal stream still holds back (the start of a
// sequence that was never completed), escaped.
func (s *IO) Flush() {
	flushTerminal(s.Out)
	flushTerminal(s.Err)
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
