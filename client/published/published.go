package published

import (
	"errors"
	"fmt"
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

var methods = map[string]bool{"get": true, "post": true, "put": true, "patch": true, "delete": true}

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
			if !methods[strings.ToLower(method)] {
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

// NotPublishedError is an operation, or a query parameter of one, that the
// instance's description lacks: the instance would answer 404 or ignore
// the parameter, after the request's points are spent.
type NotPublishedError struct {
	Method, Path string
	Param        string // the query parameter; "" when the operation itself is missing
	Version      string // the instance's API version
	Since        string // the first API version orgctl knows to have it; "" unknown
}

func (e *NotPublishedError) Error() string {
	what := e.Method + " /api/v2" + e.Path
	if e.Param != "" {
		what = fmt.Sprintf("the %s parameter of %s", e.Param, what)
	}
	msg := fmt.Sprintf("this instance does not publish %s: its API version is %s", what, spec.VersionText(e.Version))
	if e.Since != "" {
		msg += fmt.Sprintf(", and %s first has it", spec.VersionText(e.Since))
	}
	return msg + "; nothing was sent (upgrade the instance, or use a command its version has)"
}

// Check says whether the instance described by d publishes the operation
// at method and path (its template, "/users/{userId}/logout", as
// client/spec writes it) and the query parameters it will send; nil when it
// does, when d is nil (the instance serves no description), or when the
// operation is one no description lists (POST /apps, see
// spec.Operation.Unpublished). Otherwise a *NotPublishedError.
func Check(d *Description, method, path string, query []string) error {
	if d == nil {
		return nil
	}
	op := spec.Find(method, path)
	if op != nil && op.Unpublished {
		return nil
	}
	tmpl := path
	if op != nil {
		tmpl = op.Path
	}
	if !d.Has(method, path) {
		e := &NotPublishedError{Method: strings.ToUpper(method), Path: tmpl, Version: d.Version}
		if op != nil {
			e.Since = op.Since
		}
		return e
	}
	for _, q := range query {
		v := op.QueryValue(q)
		if v == nil || d.HasQuery(method, path, q) {
			continue // published, or a parameter orgctl itself does not know of
		}
		e := &NotPublishedError{Method: strings.ToUpper(method), Path: tmpl, Param: q, Version: d.Version, Since: v.Since}
		if e.Since == "" {
			e.Since = op.Since
		}
		return e
	}
	return nil
}
