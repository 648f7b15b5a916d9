package output

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/orgctl/orgctl/output/safetext"
)

// Safe is the one rule for text from an org on a terminal (see safetext):
// C0 and C1 controls, bidi controls and other invisible format characters
// are shown escaped (\x1b, \u202e), never passed through.
func Safe(s string) string { return safetext.Safe(s) }

// flatten is the one rule for putting a cell on a line (safetext.OneLine).
func flatten(s string) string { return safetext.OneLine(s) }

// terminalWriter is a terminal stream that lets through only what orgctl
// itself draws with: line breaks, tabs, colours (ESC [ digits m) and the
// progress line's clearing (CR ESC [ K). Anything else that could act on
// the terminal is written as Safe shows it. Text printed through a
// Printer has been made Safe already; this catches what a command prints
// by hand, so that no path to the terminal can forget the rule.
type terminalWriter struct {
	mu    sync.Mutex
	w     io.Writer
	carry []byte   // an incomplete rune or sequence at the end of a write
	bar   *barSlot // a progress bar to clear before writing
}

// maxCarry bounds what waits for the next write: the longest sequence
// orgctl draws, and the longest rune.
const maxCarry = 16

func (t *terminalWriter) Write(p []byte) (int, error) {
	t.bar.clear()
	t.mu.Lock()
	defer t.mu.Unlock()
	data := p
	if len(t.carry) > 0 {
		data = append(t.carry, p...)
		t.carry = nil
	}
	out, rest := filterTerminal(data)
	if len(rest) > 0 {
		t.carry = append([]byte(nil), rest...)
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what waits for a write that never came, escaped.
func (t *terminalWriter) Flush() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.carry) == 0 {
		return nil
	}
	s := Safe(string(t.carry))
	t.carry = nil
	_, err := io.WriteString(t.w, s)
	return err
}

// flushTerminal flushes w when it is a terminal stream that holds back
// the start of a sequence.
func flushTerminal(w io.Writer) error {
	if t, ok := w.(*terminalWriter); ok {
		return t.Flush()
	}
	return nil
}

// filterTerminal returns p as it may reach the terminal, and the bytes at
// its end that may be the start of a rune or sequence the next write
// completes.
func filterTerminal(p []byte) (out, rest []byte) {
	i := cleanPrefix(p)
	if i == len(p) {
		return p, nil
	}
	var b strings.Builder
	b.Grow(len(p) + 16)
	b.Write(p[:i])
	for i < len(p) {
		n, held := filterOne(&b, p[i:])
		if held {
			return []byte(b.String()), p[i:]
		}
		i += n
	}
	return []byte(b.String()), nil
}

// cleanPrefix is the length of p's start that passes as it is.
func cleanPrefix(p []byte) int {
	i := 0
	for i < len(p) {
		c := p[i]
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
			i++
			continue
		}
		if c < 0x80 {
			return i
		}
		r, n := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && n == 1 && !utf8.FullRune(p[i:]) || safetext.Unsafe(r, n) {
			return i
		}
		i += n
	}
	return i
}

// filterOne writes the first character or sequence of p as it may reach
// the terminal and returns its length; held says p ends before it can be
// told, and nothing was written.
func filterOne(b *strings.Builder, p []byte) (n int, held bool) {
	c := p[0]
	switch {
	case c >= 0x20 && c < 0x7f || c == '\n' || c == '\t':
		b.WriteByte(c)
		return 1, false
	case c == 0x1b || c == '\r':
		n, complete := ownSequence(p)
		if n > 0 {
			b.Write(p[:n])
			return n, false
		}
		if !complete && len(p) < maxCarry {
			return 0, true
		}
		safetext.WriteEscaped(b, string(c), rune(c))
		return 1, false
	case c < 0x80:
		safetext.WriteEscaped(b, string(c), rune(c))
		return 1, false
	}
	r, n := utf8.DecodeRune(p)
	if r == utf8.RuneError && n == 1 && !utf8.FullRune(p) {
		return 0, true
	}
	if safetext.Unsafe(r, n) {
		safetext.WriteEscaped(b, string(p[:n]), r)
	} else {
		b.Write(p[:n])
	}
	return n, false
}

// ownSequence returns the length of the sequence orgctl draws with at the
// start of p (ESC [ digits-and-semicolons m, ESC [ K, CR ESC [ K), 0 if
// there is none; complete is false when p ends before one could be told.
func ownSequence(p []byte) (n int, complete bool) {
	i := 0
	if p[0] == '\r' {
		if len(p) < 4 {
			return 0, false
		}
		if p[1] != 0x1b || p[2] != '[' || p[3] != 'K' {
			return 0, true
		}
		return 4, true
	}
	if len(p) < 2 {
		return 0, false
	}
	if p[1] != '[' {
		return 0, true
	}
	for i = 2; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= '0' && c <= '9' || c == ';':
			if i > 12 {
				return 0, true
			}
		case c == 'm':
			return i + 1, true
		case c == 'K' && i == 2:
			return 3, true
		default:
			return 0, true
		}
	}
	return 0, false
}
