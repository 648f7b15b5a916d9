package opdef

// The build phase checks each request against the published rules (package
// client/spec): what a flag sets, then the request as a whole.

import (
	"fmt"
	"strings"

	"github.com/orgctl/orgctl/client/request"
	"github.com/orgctl/orgctl/client/spec"
)

// spec is the published operation the op sends (nil when unpublished).
func (op *Op) spec() *spec.Operation { return spec.Find(op.Method, op.Path) }

// argProblem checks one positional argument against its path parameter.
func (c *Call) argProblem(i int, a string) string {
	op := c.Op.Op
	return c.judge(op.spec().Param(op.Path, op.Args.Params[i]), a, true, true, ArgLabel(op, i))
}

// judge is the problem of a value against the description's rule for it,
// "" when it has none. A value that breaks only the rule's enum is sent,
// with a notice: the instance in front of orgctl may be newer than the
// description orgctl knows. loose lets an enum value's case through (the
// op's Shape may correct it).
func (c *Call) judge(r *spec.Value, v any, text, loose bool, where string) string {
	if r == nil || r.Check(v, text) || loose && r.Loosely(v, text) {
		return ""
	}
	if len(r.Enum) == 0 {
		return r.Invalid(v, where)
	}
	other := *r
	other.Enum = nil
	if !other.Check(v, text) {
		return other.Invalid(v, where)
	}
	c.notice(EnumNotice(where, QueryText(v), r.Enum))
	return ""
}

// fieldRules are the spec's rules for a field's value as a whole and for
// each element of a list. Fields that replace one value of an object
// (JSON Patch) follow the rule for that value where the same collection
// creates its objects.
func (op *Op) fieldRules(fd Field) (whole, each *spec.Value) {
	s := op.spec()
	switch fd.In {
	case InQuery:
		return s.QueryValue(fd.Key), nil
	case InBody:
		return s.BodyValue(fd.Key), s.BodyValue(fd.Key + "[]")
	case InPatch:
		create := spec.Find("POST", spec.Collection(op.Path))
		if r := create.BodyValue(fd.Key); r != nil {
			rr := *r
			rr.Required = false
			return &rr, create.BodyValue(fd.Key + "[]")
		}
	case InLocal:
		if fd.Into != "" {
			return nil, s.BodyValue(fd.Into)
		}
	}
	return nil, nil
}

// fieldProblem checks one field's converted value against the spec, before
// the op's Shape: text may still become a number there, a list may be
// joined, and an enum's case may be corrected, so those are let through
// here and checked strictly once the request is built (specProblems).
func (c *Call) fieldProblem(fd Field, v any) string {
	whole, each := c.Op.fieldRules(fd)
	where := "--" + fd.Flag
	text := fd.In == InQuery || fd.Type == TString || fd.Type == TStrings || fd.Type == TTexts
	list, isList := v.([]any)
	if fd.In == InQuery {
		// A query parameter is checked as the text it is sent as.
		if isList {
			texts := make([]any, len(list))
			for i, e := range list {
				texts[i] = fmt.Sprint(e)
			}
			list = texts
		} else {
			v = QueryText(v)
		}
	}
	if isList && whole != nil && whole.Type != "array" && whole.Type != "" {
		each, whole = whole, nil // each occurrence is one value (a repeated query parameter, or joined later)
	}
	if p := c.judge(whole, v, text, true, where); p != "" {
		return p
	}
	if isList && each != nil {
		for _, e := range list {
			if p := c.judge(each, e, text, true, where); p != "" {
				return p
			}
		}
	}
	return ""
}

// specProblems checks the request a call would send, once its Shape has
// built it: every path parameter, query parameter and body value the spec
// describes, and the body values it requires. A problem names the flag
// that sets the value where one does.
func (c *Call) specProblems() []string {
	if c.Req.RawPath != "" {
		return nil // orgctl api sends what it is given
	}
	path := c.Op.Path
	if c.Req.Path != "" {
		path = c.Req.Path
	}
	s := spec.Find(c.Op.Method, path)
	if s == nil {
		return nil
	}
	problems := c.paramProblems(s, path)
	problems = append(problems, c.queryProblems(s)...)
	if c.Req.Body == nil || c.Op.Patch {
		return problems
	}
	return append(problems, c.bodyProblems(s)...)
}

// paramProblems checks the path's parameters the arguments filled.
func (c *Call) paramProblems(s *spec.Operation, path string) []string {
	var problems []string
	for i, name := range c.Op.Args.Params {
		if v, ok := c.Req.Params[name]; ok {
			if p := c.judge(s.Param(path, name), v, true, false, ArgLabel(c.Op.Op, i)); p != "" {
				problems = append(problems, p)
			}
		}
	}
	return problems
}

// queryProblems checks the query's parameters, but the paging ones of a list.
func (c *Call) queryProblems(s *spec.Operation) []string {
	var problems []string
	for i := range s.Query {
		r := &s.Query[i]
		vs, ok := c.Req.Query[r.Name]
		if !ok || c.Op.List && (r.Name == "limit" || r.Name == "next_token") {
			continue
		}
		for _, v := range vs {
			parts := []string{v}
			if len(r.Enum) > 0 {
				parts = strings.Split(v, ",") // "a comma-separated list of" an enum's values
			}
			for _, p := range parts {
				if bad := c.judge(r, p, true, false, c.flagFor(InQuery, r.Name)); bad != "" {
					problems = append(problems, bad)
					break
				}
			}
		}
	}
	return problems
}

// bodyProblems checks the body's values and the ones it requires.
func (c *Call) bodyProblems(s *spec.Operation) []string {
	var problems, missing []string
	// Merge completes a body from what Reads find: its required values may come from there.
	merging := c.Op.Hooks.Merge != nil && len(c.Reads) > 0
	for i := range s.Body {
		r := &s.Body[i]
		visitBody(c.Req.Body, bodySteps(r.Name), "", func(parentOK bool, v any, present bool, at string) {
			switch {
			case !present && r.Required && parentOK && !merging:
				if fl := c.fieldFor(InBody, r.Name); fl != "" {
					missing = append(missing, "--"+fl)
				} else {
					problems = append(problems, fmt.Sprintf("the request needs %q: give it in --body", at))
				}
			case present:
				if p := c.judge(r, v, false, false, c.flagFor(InBody, r.Name)); p != "" {
					problems = append(problems, p)
				}
			}
		})
	}
	return append(problems, requiredFlags(missing)...)
}

// requiredFlags words the missing required flags as one problem.
func requiredFlags(missing []string) []string {
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return []string{fmt.Sprintf("required flag %s not set", missing[0])}
	}
	return []string{fmt.Sprintf("required flags %s not set", strings.Join(missing, ", "))}
}

// flagFor names what sets a request value: the flag that set it, else
// where it sits in the --body JSON, else the flag that could set it.
func (c *Call) flagFor(in In, key string) string {
	sets := func(fd Field) bool {
		return fd.In == in && (fd.Key == key || fd.Key+"[]" == key) || fd.In == InLocal && fd.Into != "" && fd.Into == key
	}
	for _, fd := range c.Op.Fields {
		if sets(fd) && c.Given.Set[fd.Flag] {
			return "--" + fd.Flag
		}
	}
	shown := strings.ReplaceAll(key, "[]", "[i]")
	if c.Given.FromBody && in == InBody {
		return fmt.Sprintf("%q in --body", shown)
	}
	for _, fd := range c.Op.Fields {
		if sets(fd) {
			return "--" + fd.Flag
		}
	}
	if in == InQuery {
		return "query parameter " + key
	}
	return fmt.Sprintf("%q in the request body", shown)
}

// fieldFor is the flag of the field that sets a request value ("" for none).
func (c *Call) fieldFor(in In, key string) string {
	for _, fd := range c.Op.Fields {
		if fd.In == in && (fd.Key == key || fd.Key+"[]" == key) || fd.In == InLocal && fd.Into == key && key != "" {
			return fd.Flag
		}
	}
	return ""
}

// bodySteps splits "members[].id" into "members", "[]", "id".
func bodySteps(path string) []string {
	var steps []string
	for _, part := range strings.Split(path, ".") {
		name := strings.TrimRight(part, "[]")
		if name != "" {
			steps = append(steps, name)
		}
		for range (len(part) - len(name)) / 2 {
			steps = append(steps, "[]")
		}
	}
	return steps
}

// visitBody calls fn for the value at steps under v: once per element
// where a step is "[]". parentOK says the object that should hold the last
// key exists, so a missing required value is worth reporting.
func visitBody(v any, steps []string, at string, fn func(parentOK bool, v any, present bool, at string)) {
	if len(steps) == 0 {
		return
	}
	if steps[0] == "[]" {
		list, _ := v.([]any)
		for i, e := range list {
			here := fmt.Sprintf("%s[%d]", at, i)
			if len(steps) == 1 {
				fn(true, e, true, here)
				continue
			}
			visitBody(e, steps[1:], here, fn)
		}
		return
	}
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	here := steps[0]
	if at != "" {
		here = at + "." + steps[0]
	}
	e, present := m[steps[0]]
	if len(steps) == 1 {
		fn(true, e, present, here)
		return
	}
	if present {
		visitBody(e, steps[1:], here, fn)
	}
}

// Rules are the description's rules for a field's value as a whole and
// for each element of a list; nil where it describes none.
func (op *Op) Rules(fd Field) (whole, each *spec.Value) { return op.fieldRules(fd) }

// Described is what the description says of the operation the op sends;
// nil when it does not describe it.
func (op *Op) Described() *spec.Operation { return op.spec() }

// described adds to a placed op what the description says of its
// operation: its scope, whether it pages, and per field the values it
// lists and whether it requires one. A declaration's own Scope and List
// stand only where no description names the request (orgctl api).
func described(p *Placed) *Placed {
	op := p.Op
	p.Scope, p.List = op.Scope, op.List
	if s := op.spec(); s != nil {
		if p.Scope == "" {
			p.Scope = scopeOf(s)
		}
		p.List = p.List || s.Paginated
	}
	p.Fields = make([]Field, len(op.Fields))
	for i, fd := range op.Fields {
		whole, each := op.fieldRules(fd)
		if len(fd.Enum) == 0 {
			fd.Enum = DescribedEnum(whole, each)
		}
		fd.Required = fd.Required || !fd.Optional && DescribedRequired(fd, whole)
		p.Fields[i] = fd
	}
	return p
}

// ScopeOf is the scope the description says the operation at method and
// path (a template: "/users/{userId}") needs, as Placed.Scope words it: for
// the requests an op's hooks send besides its own (a read before a write,
// a follow-up), which name no scope of their own either.
func ScopeOf(method, path string) string { return scopeOf(spec.Find(method, path)) }

// RequestTo is such a request: the operation at method and path, the
// template filled with params.
func RequestTo(method, path string, params map[string]string) request.Request {
	return request.Request{Method: method, Path: request.Expand(path, params), Scope: ScopeOf(method, path)}
}

func scopeOf(s *spec.Operation) string {
	switch {
	case s == nil:
		return ""
	case s.ScopeName != "":
		return s.ScopeName
	}
	return s.Scope
}

// DescribedEnum are the values the description lists for a field: for its
// value as a whole, else for each element of a list; nil for none.
func DescribedEnum(whole, each *spec.Value) []string {
	switch {
	case whole != nil && len(whole.Enum) > 0:
		return whole.Enum
	case each != nil && len(each.Enum) > 0:
		return each.Enum
	}
	return nil
}

// DescribedRequired says the description requires the field's value: a
// query parameter, or a value at the top of the body (one inside an
// object is required only when the object is sent, which the request
// check finds once it is built).
func DescribedRequired(fd Field, whole *spec.Value) bool {
	if whole == nil || !whole.Required {
		return false
	}
	switch fd.In {
	case InQuery:
		return true
	case InBody:
		return !strings.ContainsAny(fd.Key, ".[")
	}
	return false
}
