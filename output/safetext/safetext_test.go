package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSafeEscapesWhatActsOnATerminal(t *testing.T) {
	for in, want := range map[string]string{
		"support":                      "support",
		"Zoë 👩‍👩‍👧 日本":                 "Zoë 👩‍👩‍👧 日本", // ZWJ sequences stay
		"x\x1b]52;c;aGk=\x07":          `x\x1b]52;c;aGk=\x07`,
		"clear\x1b[2J":                 `clear\x1b[2J`,
		"a\nb\tc\rd":                   `a\nb\tc\rd`,
		"del\x7f":                      `del\x7f`,
		"csi\u009b2J":                  `csi\u009b2J`,
		"evil\u202etxt.exe":            `evil\u202etxt.exe`,
		"zero\u200bwidth\ufeff":        `zero\u200bwidth\ufeff`,
		"line\u2028sep":                `line\u2028sep`,
		"bad\xffbyte":                  `bad\xffbyte`,
		"tag\U000e0041":                "tag\U000e0041",
		"private\U000f0000":            "private\U000f0000",
		"\U0001d173 music format char": `\U0001d173 music format char`,
	} {
		if got := Safe(in); got != want {
			t.Errorf("Safe(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSafeOutputHasNothingUnsafeLeft(t *testing.T) {
	for _, in := range []string{"\x00\x01\x1b\x7f\u0085\u009f\u200e\u2066\ufeff\xc3", strings.Repeat("\x1b[", 50)} {
		out := Safe(in)
		for i, r := range out {
			_, n := utf8.DecodeRuneInString(out[i:])
			if Unsafe(r, n) {
				t.Errorf("Safe(%q) = %q still holds %U", in, out, r)
			}
		}
	}
}

func TestLinesKeepsLineBreaksAndTabs(t *testing.T) {
	in := "no group \"x\x1b[2J\"\n  try:\tsupport\u202e"
	want := "no group \"x\\x1b[2J\"\n  try:\tsupport\\u202e"
	if got := Lines(in); got != want {
		t.Errorf("Lines(%q) = %q, want %q", in, got, want)
	}
	if got := Lines("one line\r"); got != `one line\r` {
		t.Errorf("Lines of one line = %q", got)
	}
}

func TestOneLineKeepsEveryOtherCharacterInPlace(t *testing.T) {
	for in, want := range map[string]string{
		"plain":          "plain",
		"a\tb":           "a b",
		"two\r\nlines\n": "two  lines ",
		"  kept  ":       "  kept  ",
		"\x1b[2J\n":      "\x1b[2J ", // escaping is Safe's job, not OneLine's
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
