package client

import (
	"net/url"
	"strings"
)

// Path joins escaped segments into an API path relative to /api/v2, so an id
// like "../x" or "a?b" can never change which endpoint is called.
func Path(segments ...string) string {
	var b strings.Builder
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(escapeSegment(s))
	}
	return b.String()
}

func escapeSegment(s string) string {
	switch s {
	case "", ".", "..":
		// Dot segments would be resolved away by servers and proxies.
		return strings.ReplaceAll(s, ".", "%2E")
	}
	return url.PathEscape(s)
}

// Expand fills {name} placeholders of a path template, escaping each value.
func Expand(template string, values map[string]string) string {
	parts := strings.Split(strings.Trim(template, "/"), "/")
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			out = append(out, escapeSegment(values[p[1:len(p)-1]]))
			continue
		}
		out = append(out, p)
	}
	if len(out) == 1 && out[0] == "" {
		return "/"
	}
	return "/" + strings.Join(out, "/")
}
