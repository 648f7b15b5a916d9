// Package ctlchar finds control characters in input that must hold none: a
// token, a base URL, a profile name. Such a character would reach a
// request's header or line (where CR LF starts a header of its own) or a
// file name. It knows strings only; it must not import any orgctl package.
package ctlchar

import (
	"fmt"
	"unicode/utf8"
)

// Find names the first control character in s (C0, DEL or C1) and reports
// whether there is one.
func Find(s string) (string, bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
			return name(r), true
		case r == utf8.RuneError && n == 1 && s[i] >= 0x80 && s[i] <= 0x9f:
			// Not UTF-8: a C1 control written as one Latin-1 byte.
			return fmt.Sprintf("byte 0x%02X", s[i]), true
		}
		i += n
	}
	return "", false
}

// names are the usual names of control characters. A slice searched in place,
// not a map: a map literal would be built before every orgctl command.
var names = []struct {
	r    rune
	name string
}{
	{0x00, "NUL"}, {0x07, "BEL"}, {0x08, "BS"}, {0x09, "TAB"}, {0x0a, "LF"}, {0x0b, "VT"},
	{0x0c, "FF"}, {0x0d, "CR"}, {0x1b, "ESC"}, {0x7f, "DEL"},
}

func name(r rune) string {
	for _, n := range names {
		if n.r == r {
			return n.name
		}
	}
	return fmt.Sprintf("U+%04X", r)
}
