package request

import (
	"net/url"
	"strings"

	"github.com/orgctl/orgctl/output/jsonscan"
)

// Request is one API call.
type Request struct {
	Method string
	// Path is relative to /api/v2 and already escaped (see Path, Expand).
	Path  string
	Query url.Values
	// Body is nil, raw JSON ([]byte or json.RawMessage), or a value to marshal.
	Body any
	// Scope is the scope the operation needs, named in 403 errors.
	Scope string
	// ContentType of the body; default application/json.
	ContentType string
	// Raw takes a success as the document it is, not as an envelope:
	// Response.Data is the body as received, JSON or not (the instance's
	// own description, which may be YAML).
	Raw bool
	// Render, when set, is given a large success's data while the answer
	// arrives, so that work on it overlaps the wait for the rest: r is at
	// the data value, and Render reads that value whole (r.More waits for
	// bytes still on the way) and returns what it made of it, or nil when
	// it could not (then the value is checked as usual). It is called once
	// per attempt. Response.Rendered gives the result.
	Render func(r *jsonscan.Reader) any
}

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
