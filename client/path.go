package client

import "github.com/orgctl/orgctl/client/request"

// Path joins escaped segments into an API path relative to /api/v2, so an id
// like "../x" or "a?b" can never change which endpoint is called.
func Path(segments ...string) string { return request.Path(segments...) }

// Expand fills {name} placeholders of a path template, escaping each value.
func Expand(template string, values map[string]string) string {
	return request.Expand(template, values)
}
