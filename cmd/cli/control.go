package cli

import (
	"fmt"
	"unicode/utf8"
)

// ControlChar names the first control character in s (C0, DEL or C1),
// and reports whether there is one. Such a character in a token or a URL
// would end up in a request's header or line, where CR and LF start a
// header of their own.
func ControlChar(s string) (string, bool) {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return controlName(r), true
		}
	}
	// A byte that is not UTF-8 is no control character, but C1 bytes
	// written in Latin-1 are meant as ones.
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 && s[i] >= 0x80 && s[i] <= 0x9f {
			return fmt.Sprintf("byte 0x%02X", s[i]), true
		}
		i += n
	}
	return "", false
}

var controlNames = map[rune]string{
	0x00: "NUL", 0x07: "BEL", 0x08: "BS", 0x09: "TAB", 0x0a: "LF", 0x0b: "VT",
	0x0c: "FF", 0x0d: "CR", 0x1b: "ESC", 0x7f: "DEL",
}

func controlName(r rune) string {
	if n, ok := controlNames[r]; ok {
		return n
	}
	return fmt.Sprintf("U+%04X", r)
}

// CheckTokenText refuses a token that holds a control character, naming where
// the token came from (what: "the token in ORGCTL_TOKEN") and never the
// token itself; fix says what to do.
func CheckTokenText(token, what, fix string) error {
	name, bad := ControlChar(token)
	if !bad {
		return nil
	}
	return UsageErrorf("%s holds a control character (%s), which cannot be sent in a request; %s", what, name, fix)
}

// tokenWhere names where a resolved token came from, for CheckTokenText.
func tokenWhere(source, profile, fileDir string) (what, fix string) {
	switch source {
	case SourceEnv:
		return "the token in ORGCTL_TOKEN", "set ORGCTL_TOKEN to the token alone (no line breaks)"
	case SourceKeyring:
		return fmt.Sprintf("the token stored in the OS keyring for profile %q", profile),
			fmt.Sprintf("log in again with `orgctl auth login --profile %s`", profile)
	default:
		return fmt.Sprintf("the token file of profile %q (in %s)", profile, fileDir),
			fmt.Sprintf("log in again with `orgctl auth login --profile %s --insecure-storage`", profile)
	}
}

// CheckBaseURLText refuses a base URL that holds a control character;
// where names where it came from ("ORGCTL_BASE_URL", "--base-url", the
// profile's key in the file).
func CheckBaseURLText(base, where string) error {
	name, bad := ControlChar(base)
	if !bad {
		return nil
	}
	if where == "" {
		where = "the base URL"
	} else {
		where = "the base URL from " + where
	}
	return UsageErrorf("%s holds a control character (%s); set it to the address alone, e.g. https://acme.example.com", where, name)
}
