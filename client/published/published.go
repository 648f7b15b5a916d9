package published

import (
	"errors"
	"maps"
	"slices"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/orgctl/orgctl/client/spec"
)

// Path is where an instance serves its description, relative to /api/v2.
const Path = "/spec"

// Description is what an instance's description says: its API version and
// the operations it describes, each with the query parameters it takes.
type Description struct {
	Version string `json:"version"`
	// Ops maps spec.Key ("GET /users/{}") to the operation's query
	// parameter names, sorted.
	Ops map[string][]string `json:"ops"`
}

// document is the part of an OpenAPI description Parse reads. A path item
// holds its operations and, under "parameters", the parameters all of
// them share: decoded as nodes, as the two are told apart by their key.
type document struct {
	Info struct {
		Version string `yaml:"version"`
	} `yaml:"info"`
	Paths      map[string]map[string]yaml.Node `yaml:"paths"`
	Components struct {
		Parameters map[string]parameter `yaml:"parameters"`
	} `yaml:"components"`
}

type parameter struct {
	Ref  string `yaml:"$ref"`
	In   string `yaml:"in"`
	Name string `yaml:"name"`
}

// isMethod reports an operation's key in a path item (not "parameters"
// or "summary"); a switch, so that nothing is built before main.
func isMethod(key string) bool {
	switch strings.ToLower(key) {
	case "get", "post", "put", "patch", "delete":
		return true
	}
	return false
}

// ErrNotADescription says the answer was no OpenAPI description with a
// version: the instance is taken to serve none.
var ErrNotADescription = errors.New("not an OpenAPI description with info.version")

// Parse reads an OpenAPI description, JSON or YAML (a JSON document is
// YAML too): its version and, per operation, the query parameters declared
// on the operation or its path, inline or as a $ref to
// components.parameters.
func Parse(body []byte) (*Description, error) {
	var doc document
	if err := yaml.Unmarshal(body, &doc); err != nil || doc.Info.Version == "" || len(doc.Paths) == 0 {
		return nil, ErrNotADescription
	}
	queries := func(n yaml.Node, into map[string]bool) {
		var ps []parameter
		_ = n.Decode(&ps)
		for _, p := range ps {
			if name, ok := strings.CutPrefix(p.Ref, "#/components/parameters/"); ok {
				p = doc.Components.Parameters[name]
			}
			if p.In == "query" && p.Name != "" {
				into[p.Name] = true
			}
		}
	}
	d := &Description{Version: doc.Info.Version, Ops: map[string][]string{}}
	for path, item := range doc.Paths {
		shared := map[string]bool{}
		queries(item["parameters"], shared)
		for method, n := range item {
			if !isMethod(method) {
				continue
			}
			var op struct {
				Parameters yaml.Node `yaml:"parameters"`
			}
			_ = n.Decode(&op)
			q := maps.Clone(shared)
			queries(op.Parameters, q)
			d.Ops[spec.Key(method, path)] = slices.Sorted(maps.Keys(q))
		}
	}
	return d, nil
}

// Has says whether the description has the operation.
func (d *Description) Has(method, path string) bool {
	_, ok := d.Ops[spec.Key(method, path)]
	return ok
}

// HasQuery says whether the described operation takes the query parameter.
func (d *Description) HasQuery(method, path, name string) bool {
	q, ok := d.Ops[spec.Key(method, path)]
	if !ok {
		return false
	}
	i := sort.SearchStrings(q, name)
	return i < len(q) && q[i] == name
}
