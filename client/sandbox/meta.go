package sandbox

import (
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/client/spec"
)

// meta answers the two requests that say what the instance is rather than
// act on the org: GET /api/checkHealth (is it up) and GET /api/v2/spec (its
// OpenAPI description, at the API version the sandbox answers as). Neither
// needs a token or costs points, so a setup check can ask before it has a
// working login.
func meta(r *http.Request, version string) (status int, out any, ok bool) {
	if r.Method != http.MethodGet {
		return 0, nil, false
	}
	switch r.URL.Path {
	case "/api/checkHealth":
		return 200, obj{"status": "HEALTHY"}, true
	case "/api/v2/spec":
		return 200, specDocument(version), true
	}
	return 0, nil, false
}

// specDocument is an OpenAPI outline of the operations an instance of
// version describes: per path and method its tag, summary, plan badges and
// query parameters; the schemas stay in the description files. POST /apps
// is left out, as no instance's description lists it.
func specDocument(version string) obj {
	older := version == spec.OlderVersion
	paths := obj{}
	for _, op := range spec.Operations() {
		if op.Unpublished || (older && op.Since == spec.Version) || (!older && op.Dropped) {
			continue
		}
		item, _ := paths[op.Path].(obj)
		if item == nil {
			item = obj{}
			paths[op.Path] = item
		}
		params := []any{}
		for _, q := range op.Query {
			if !older || q.Since != spec.Version {
				params = append(params, obj{"in": "query", "name": q.Name, "required": q.Required})
			}
		}
		o := obj{"tags": []any{op.Tag}, "summary": op.Summary, "parameters": params}
		if !older && len(op.Badges) > 0 {
			badges := []any{}
			for _, b := range op.Badges {
				badges = append(badges, obj{"label": b})
			}
			o["x-badges"] = badges
		}
		if op.Deprecated {
			o["deprecated"] = true
		}
		item[strings.ToLower(op.Method)] = o
	}
	return obj{
		"openapi": "3.0.0",
		"info":    obj{"title": "orgctl sandbox", "version": version},
		"paths":   paths,
	}
}
