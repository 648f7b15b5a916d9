package opdef

import (
	"strings"

	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/output"
)

// ColumnFields are the top-level fields columns read.
func ColumnFields(cols []output.Column) string {
	var out []string
	for _, c := range cols {
		if top, _, _ := strings.Cut(c.Field, "."); top != "" {
			out = append(out, top)
		}
	}
	return strings.Join(out, ",")
}

// JSONFieldNames merges the spec's fields for "METHOD PATH" (none for "")
// with extra comma-separated names, in order, without repeats.
func JSONFieldNames(endpoint, extra string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		if name != "" && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	if method, path, ok := strings.Cut(endpoint, " "); ok {
		for _, f := range spec.DataFields(method, path) {
			add(f)
		}
	}
	for _, f := range strings.Split(extra, ",") {
		add(f)
	}
	return out
}
