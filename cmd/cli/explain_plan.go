package cli

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/spec"
)

// planHint says which plan an operation needs, for a 403, or a 404 on an
// endpoint that names no object (a 404 on /users/{id} is the object's): a
// Business org meets those on an Enterprise operation.
func planHint(ae *client.APIError) string {
	if ae.StatusCode != http.StatusForbidden && ae.StatusCode != http.StatusNotFound {
		return ""
	}
	op := matchOperation(ae.Method, ae.Path)
	if op == nil || op.PlanText() == "" {
		return ""
	}
	if ae.StatusCode == http.StatusNotFound && strings.Contains(op.Path, "{") {
		return "" // the object's own 404
	}
	if strings.Contains(ae.Message, "missing one of") {
		return "" // the token's scope, not the plan
	}
	plans := "the " + op.PlanText() + " plan"
	if op.PlanText() == "Business" {
		plans = "the Business and Enterprise plans"
	}
	return fmt.Sprintf("%s %s is on %s only (API description): on another plan the API refuses it.", op.Method, op.Path, plans)
}

// matchOperation is the described operation a request's method and escaped
// path were sent to: literal segments equal, parameters anything.
func matchOperation(method, path string) *spec.Operation {
	path, _, _ = strings.Cut(path, "?")
	segs := strings.Split(strings.Trim(path, "/"), "/")
	ops := spec.Operations()
	var best *spec.Operation
	bestLiterals := -1
	for i := range ops {
		op := &ops[i]
		if op.Method != strings.ToUpper(method) {
			continue
		}
		tsegs := strings.Split(strings.Trim(op.Path, "/"), "/")
		if len(tsegs) != len(segs) {
			continue
		}
		literals, ok := 0, true
		for j, t := range tsegs {
			switch {
			case strings.HasPrefix(t, "{") || strings.HasPrefix(t, ":"):
			case t == segs[j]:
				literals++
			default:
				ok = false
			}
		}
		if ok && literals > bestLiterals {
			best, bestLiterals = op, literals
		}
	}
	return best
}
