package sandbox

import (
	"strconv"
	"strings"

	"github.com/orgctl/orgctl/client/spec"
)

// An older release: with Options.APIVersion "2.12" the sandbox answers as
// the 3.334 release does. Its /api/v2/spec is the 2.12 description (no
// operation or query parameter that came later), the operations that came
// later are not there (404), and the query parameters that came later are
// ignored, as such a release ignores what it does not know. orgctl's
// version checks are tested against it.

// apiVersion is the version the sandbox answers as: spec.Version unless
// Options.APIVersion names another ("2.12" is "2.12.0").
func (s *Server) apiVersion() string { return fullVersion(s.opts.APIVersion) }

func fullVersion(v string) string {
	switch {
	case v == "":
		return spec.Version
	case strings.Count(v, ".") == 1:
		return v + ".0"
	}
	return v
}

// versionBefore reports whether API version a is older than b.
func versionBefore(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}

// has reports whether version v has what came in since ("" for always).
func has(v, since string) bool { return since == "" || !versionBefore(v, since) }

// routeAs is the route as version v has it: nil when the operation came
// later, else the route with only the query parameters v has.
func routeAs(rt *route, v string) *route {
	if rt == nil || v == spec.Version {
		return rt
	}
	if !has(v, rt.Since) {
		return nil
	}
	cp := *rt
	cp.Query = nil
	for _, q := range rt.Query {
		if has(v, q.Since) {
			cp.Query = append(cp.Query, q)
		}
	}
	return &cp
}

// describes reports whether version v's description lists the operation.
func describes(op spec.Operation, v string) bool {
	if op.Unpublished {
		return false // served, but in no description
	}
	if v == spec.Version {
		return !op.Dropped
	}
	return has(v, op.Since)
}

// SetAPIVersion makes a running sandbox answer as another API version
// (Options.APIVersion), its org kept: a script switches releases mid-way.
func (s *Server) SetAPIVersion(v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opts.APIVersion = v
}
