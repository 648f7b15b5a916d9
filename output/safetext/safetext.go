// Package safetext is the one rule for text from an org (names, messages,
// file contents) shown to a person: what could act on a terminal or change
// how the text around it reads is shown escaped instead. It is a leaf:
// it imports only the standard library, so that every package that prints
// (completions included) can use it.
//
// A name is written by many people and read on the terminal of the one
// with the most power: ESC ] 52 could write to the admin's clipboard,
// ESC [ 2 J clear the screen, U+202E reverse what is read.
package safetext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Safe returns s with every character that could act on a terminal or
// change how the text around it reads shown visibly escaped: C0 controls
// and DEL as \x1b, \n, \t, \r; C1 controls, bidi controls and other
// invisible format characters as \u202e; invalid UTF-8 bytes as \xff.
// Printable text, including emoji joined by U+200D, is unchanged.
func Safe(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if Unsafe(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if Unsafe(r, n) {
			WriteEscaped(&b, s[i:i+n], r)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Lines is Safe for text of several lines (an error with its hint, a
// list of problems): line breaks and tabs stay, the rest is as Safe.
func Lines(s string) string {
	if !strings.ContainsAny(s, "\n\t") {
		return Safe(s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		cells := strings.Split(l, "\t")
		for j, c := range cells {
			cells[j] = Safe(c)
		}
		lines[i] = strings.Join(cells, "\t")
	}
	return strings.Join(lines, "\n")
}

// OneLine puts a value on one line, for a table cell, a TSV field or a
// completion label: each tab, line feed and carriage return becomes a
// space, so that a value's other characters keep their places. The one
// flattening rule of every line-based output.
func OneLine(s string) string {
	if !strings.ContainsAny(s, "\t\n\r") {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c == '\t' || c == '\n' || c == '\r' {
			b[i] = ' '
		}
	}
	return string(b)
}

// Unsafe reports a rune (of n bytes, RuneError with n 1 for a byte
// that is not UTF-8) that Safe escapes.
func Unsafe(r rune, n int) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return true
	case r < 0x80:
		return false
	case r == utf8.RuneError && n == 1:
		return true
	case r <= 0x9f: // C1: 8-bit CSI, OSC and the like
		return true
	}
	return invisibleFormat(r)
}

// invisibleFormat reports format characters (Unicode's Cf: bidi marks,
// overrides and isolates, zero-width spaces, the BOM) and the line and
// paragraph separators. Zero-width joiners and tag characters are left:
// scripts and emoji sequences need them, and they move no text.
func invisibleFormat(r rune) bool {
	switch {
	case r == '\u200c' || r == '\u200d':
		return false
	case r >= 0xe0020 && r <= 0xe007f:
		return false
	case r == '\u2028' || r == '\u2029':
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// WriteEscaped writes r (raw: its bytes as they came) as Safe shows a
// character it escapes: \n, \t, \r; \xNN for the other C0 controls, DEL
// and a byte that is not UTF-8 (\x1b); \uNNNN or \UNNNNNNNN above
// (\u202e). The terminal stream's filter writes with it too, so that both
// show a character alike.
func WriteEscaped(b *strings.Builder, raw string, r rune) {
	switch {
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\t':
		b.WriteString(`\t`)
	case r == '\r':
		b.WriteString(`\r`)
	case r == utf8.RuneError && len(raw) == 1:
		fmt.Fprintf(b, `\x%02x`, raw[0])
	case r < 0x80:
		fmt.Fprintf(b, `\x%02x`, r)
	case r <= 0xffff:
		fmt.Fprintf(b, `\u%04x`, r)
	default:
		fmt.Fprintf(b, `\U%08x`, r)
	}
}
