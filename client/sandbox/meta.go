package sandbox

import (
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/client/spec"
)

// meta answers the two requests that say what the instance is rather than
// act on the org: GET /api/checkHealth (is it up) and GET /api/v2/spec (its
// OpenAPI description, with the published version). Neither needs a token
// or costs points, so a setup check can ask before it has a working login.
func meta(r *http.Request) (status int, out any, ok bool) {
	if r.Method != http.MethodGet {
		return 0, nil, false
	}
	switch r.URL.Path {
	case "/api/checkHealth":
		return 200, obj{"status": "HEALTHY"}, true
	case "/api/v2/spec":
		return 200, specDocument(), true
	}
	return 0, nil, false
}

// specDocument is an OpenAPI outline of the routes the sandbox serves:
// version, paths and their methods' tags and query parameters; the schemas stay in the
// published file.
func specDocument() obj {
	paths := obj{}
	for _, op := range spec.Operations() {
		if op.Unpublished || op.Dropped {
			continue // no instance's 4.0 description lists it
		}
		item, _ := paths[op.Path].(obj)
		if item == nil {
			item = obj{}
			paths[op.Path] = item
		}
		// The query parameters too: they say which release an instance is
		// (GET /apps takes using_resource from 4.0 on).
		params := []any{}
		for _, q := range op.Query {
			params = append(params, obj{"name": q.Name, "in": "query"})
		}
		item[strings.ToLower(op.Method)] = obj{"tags": []any{op.Tag}, "parameters": params}
	}
	return obj{
		"openapi": "3.0.0",
		"info":    obj{"title": "orgctl sandbox", "version": spec.Version},
		"paths":   paths,
	}
}
