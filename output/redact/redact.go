package redact

import (
	"strings"
	"unicode"
)

// Mask replaces a password (and a user info that is only a secret).
const Mask = "xxxxx"

// template is how messages describe a Redis URL; it holds no secret.
const template = "[user:password@]"

// URL returns raw with its user info masked: the user name stays when one
// is told apart by a ':' and holds none of '/', '?', '#'; everything else up
// to the last '@' becomes Mask. Without a "//", text such as
// "user:password@host" (a URL missing its scheme) is masked too when a ':'
// precedes its last '@'; "ada@example.com" stays.
func URL(raw string) string {
	start := authorityStart(raw)
	if start < 0 {
		at := strings.LastIndexByte(raw, '@')
		if at < 0 || !strings.Contains(raw[:at], ":") {
			return raw
		}
		start = 0
	}
	return raw[:start] + maskUserInfo(raw[start:])
}

// Text masks the user info of every URL in free text (an error message, a
// log line). A URL runs from its "://" to the next space, quote, backquote
// or angle bracket.
func Text(text string) string {
	if !strings.Contains(text, "://") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(text, "://")
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i+3])
		text = text[i+3:]
		end := strings.IndexFunc(text, func(r rune) bool {
			return r == '"' || r == '\'' || r == '`' || r == '<' || r == '>' || unicode.IsSpace(r)
		})
		if end < 0 {
			end = len(text)
		}
		b.WriteString(maskUserInfo(text[:end]))
		text = text[end:]
	}
}

// authorityStart is where the authority begins: after "scheme://", or after
// a leading "//" (a scheme-relative URL); -1 if neither.
func authorityStart(raw string) int {
	if i := strings.Index(raw, "://"); i >= 0 {
		return i + 3
	}
	if t := strings.TrimLeft(raw, " \t"); strings.HasPrefix(t, "//") {
		return len(raw) - len(t) + 2
	}
	return -1
}

// maskUserInfo masks what precedes the last '@' of rest, a URL past its "//".
func maskUserInfo(rest string) string {
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return rest
	}
	info := rest[:at]
	if strings.HasPrefix(rest, template) {
		return rest
	}
	user, _, hasPassword := strings.Cut(info, ":")
	if !hasPassword || strings.ContainsAny(user, "/?#") {
		return Mask + rest[at:]
	}
	return user + ":" + Mask + rest[at:]
}
