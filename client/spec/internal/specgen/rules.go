package main

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// This file derives the checking rules: per operation, what its input may
// hold (path and query parameters, body values by dot path). It reads the description as plain maps (see
// plain), since the rules do not depend on key order.

type schema = map[string]any

// value is one checked input value, as the generated Value literal.
type value struct {
	Name                 string
	Type, Format         string
	Pattern              string
	Enum                 []string
	Min, Max             *float64
	MinLength, MaxLength int
	Required, Nullable   bool
	Since                string // the API version it first appeared in, when newer than its operation
}

// operation is the rules of one operation.
type operation struct {
	Key           string
	Params, Query []value
	Body          []value
}

// {userId} and the spec's literal :accessTokenId are both parameters.
var paramRE = regexp.MustCompile(`\{[^}/]+\}|:[A-Za-z_][A-Za-z0-9_]*`)

// key is how orgctl finds an operation: "GET /users/{}".
func key(method, path string) string {
	return strings.ToUpper(method) + " /" + strings.Trim(paramRE.ReplaceAllString(path, "{}"), "/")
}

func writeValues(b *bytes.Buffer, field string, vs []value) {
	if len(vs) == 0 {
		return
	}
	fmt.Fprintf(b, "%s: []Value{\n", field)
	for _, v := range vs {
		parts := []string{fmt.Sprintf("Name: %q", v.Name)}
		if v.Type != "" {
			parts = append(parts, fmt.Sprintf("Type: %q", v.Type))
		}
		if v.Format != "" {
			parts = append(parts, fmt.Sprintf("Format: %q", v.Format))
		}
		if v.Pattern != "" {
			parts = append(parts, fmt.Sprintf("Pattern: %s", strconv.Quote(v.Pattern)))
		}
		if len(v.Enum) > 0 {
			parts = append(parts, "Enum: "+strs(v.Enum))
		}
		if v.Min != nil {
			parts = append(parts, fmt.Sprintf("Min: %s, HasMin: true", num(*v.Min)))
		}
		if v.Max != nil {
			parts = append(parts, fmt.Sprintf("Max: %s, HasMax: true", num(*v.Max)))
		}
		if v.MinLength > 0 {
			parts = append(parts, fmt.Sprintf("MinLength: %d", v.MinLength))
		}
		if v.MaxLength > 0 {
			parts = append(parts, fmt.Sprintf("MaxLength: %d", v.MaxLength))
		}
		if v.Required {
			parts = append(parts, "Required: true")
		}
		if v.Nullable {
			parts = append(parts, "Nullable: true")
		}
		if v.Since != "" {
			parts = append(parts, fmt.Sprintf("Since: %q", v.Since))
		}
		fmt.Fprintf(b, "{%s},\n", strings.Join(parts, ", "))
	}
	b.WriteString("},\n")
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func strs(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

func lookupMap(v any, keys ...string) schema {
	for _, k := range keys {
		m, ok := v.(schema)
		if !ok {
			return nil
		}
		v = m[k]
	}
	s, _ := v.(schema)
	return s
}

// merged folds allOf into one schema: properties and required lists joined.
func merged(s schema) schema {
	all, ok := s["allOf"].([]any)
	if !ok {
		return s
	}
	out := schema{}
	props := schema{}
	var req []any
	for k, v := range s {
		if k != "allOf" {
			out[k] = v
		}
	}
	if p, ok := s["properties"].(schema); ok {
		for k, v := range p {
			props[k] = v
		}
	}
	for _, b := range all {
		bs := merged(asSchema(b))
		for k, v := range bs {
			switch k {
			case "properties":
				for pk, pv := range v.(schema) {
					props[pk] = pv
				}
			case "required":
				req = append(req, v.([]any)...)
			default:
				out[k] = v
			}
		}
	}
	if r, ok := s["required"].([]any); ok {
		req = append(req, r...)
	}
	out["properties"] = props
	out["required"] = req
	out["type"] = "object"
	return out
}

func asSchema(v any) schema { s, _ := v.(schema); return s }

// alternatives are the branches of anyOf or oneOf.
func alternatives(s schema) []schema {
	var out []schema
	for _, k := range []string{"anyOf", "oneOf"} {
		if l, ok := s[k].([]any); ok {
			for _, b := range l {
				out = append(out, merged(asSchema(b)))
			}
		}
	}
	return out
}

// scalar describes one value. A choice between alternatives keeps only what
// every alternative shares: one type, and their enums joined when each has
// one; a choice between objects checks nothing inside them.
func scalar(name string, s schema) value {
	v := value{Name: name}
	s = merged(s)
	if alts := alternatives(s); len(alts) > 0 {
		typ, _ := alts[0]["type"].(string)
		allEnum := true
		var enum []string
		for _, a := range alts {
			if t, _ := a["type"].(string); t != typ {
				typ = ""
			}
			e, ok := a["enum"].([]any)
			if !ok {
				allEnum = false
			}
			for _, x := range e {
				enum = append(enum, fmt.Sprint(x))
			}
		}
		if typ != "object" && typ != "array" {
			v.Type = typ
		}
		if allEnum && typ != "" {
			v.Enum = enum
		}
		v.Nullable, _ = s["nullable"].(bool)
		return v
	}
	v.Type, _ = s["type"].(string)
	if v.Type == "" && s["properties"] != nil {
		v.Type = "object"
	}
	v.Format, _ = s["format"].(string)
	v.Pattern, _ = s["pattern"].(string)
	if e, ok := s["enum"].([]any); ok {
		for _, x := range e {
			v.Enum = append(v.Enum, fmt.Sprint(x))
		}
	}
	if f, ok := s["minimum"].(float64); ok {
		v.Min = &f
	}
	if f, ok := s["maximum"].(float64); ok {
		v.Max = &f
	}
	if f, ok := s["minLength"].(float64); ok {
		v.MinLength = int(f)
	}
	if f, ok := s["maxLength"].(float64); ok {
		v.MaxLength = int(f)
	}
	v.Nullable, _ = s["nullable"].(bool)
	return v
}

// walk lists the body's values by dot path ("options.copy_sso_settings"),
// "[]" stepping into an array's items ("members[].id").
func walk(s schema, path string, required bool, out *[]value) {
	s = merged(s)
	if path != "" {
		v := scalar(path, s)
		v.Required = required
		*out = append(*out, v)
	}
	if len(alternatives(s)) > 0 {
		return
	}
	if props, ok := s["properties"].(schema); ok {
		req := map[string]bool{}
		if r, ok := s["required"].([]any); ok {
			for _, k := range r {
				req[fmt.Sprint(k)] = true
			}
		}
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			walk(asSchema(props[k]), p, req[k], out)
		}
	}
	if items := asSchema(s["items"]); items != nil && s["type"] == "array" {
		walk(items, path+"[]", false, out)
	}
}

// correct adjusts the operations where the service accepts more than the
// spec publishes (the sandbox makes the same exceptions): an app theme's
// body is published as the stored theme, whose id and timestamps a create
// cannot know; and a resource may be created with any published resource
// type, its options shaped by the type rather than by the few published
// variants.
func correct(ops []operation, doc schema) error {
	typ := lookupMap(doc, "paths", "/resources", "get", "responses", "200", "content", "application/json", "schema", "properties", "data", "items", "properties", "type")
	types, _ := typ["enum"].([]any)
	if len(types) == 0 {
		return fmt.Errorf("no resource type enum at GET /resources data[].type")
	}
	for i := range ops {
		o := &ops[i]
		switch o.Key {
		case "POST /app_themes", "PUT /app_themes":
			for j := range o.Body {
				b := &o.Body[j]
				b.Required = b.Required && (b.Name == "name" || b.Name == "theme")
			}
		case "POST /resources":
			kept := o.Body[:0]
			for _, b := range o.Body {
				switch {
				case b.Name == "type":
					b.Enum = nil
					for _, t := range types {
						b.Enum = append(b.Enum, fmt.Sprint(t))
					}
				case b.Name == "options":
					b = value{Name: "options", Type: "object", Required: b.Required}
				case strings.HasPrefix(b.Name, "options."):
					continue
				}
				kept = append(kept, b)
			}
			o.Body = kept
		}
	}
	return nil
}

// rules derives one operation's rules from its description op (plain maps)
// at path.
func rules(method, path string, op schema) operation {
	o := operation{Key: key(method, path)}
	params := map[string]value{}
	for _, p := range asList(op["parameters"]) {
		p := asSchema(p)
		name, _ := p["name"].(string)
		v := scalar(name, asSchema(p["schema"]))
		v.Required, _ = p["required"].(bool)
		switch p["in"] {
		case "path":
			params[name] = v
		case "query":
			o.Query = append(o.Query, v)
		}
	}
	// Path parameters in the order the path names them: arguments fill them in that order.
	for _, m := range paramRE.FindAllString(path, -1) {
		name := strings.Trim(m, "{}:")
		v, ok := params[name]
		if !ok {
			v = value{Name: name, Type: "string"}
		}
		v.Required = true
		o.Params = append(o.Params, v)
	}
	sort.Slice(o.Query, func(i, j int) bool { return o.Query[i].Name < o.Query[j].Name })
	if s := lookupMap(op, "requestBody", "content", "application/json", "schema"); s != nil {
		walk(s, "", false, &o.Body)
	}
	return o
}

// plain is an ordered decoded value as plain maps, slices, float64
// numbers, strings and booleans.
func plain(v any) any {
	switch t := v.(type) {
	case *object:
		m := make(schema, len(t.keys))
		for _, k := range t.keys {
			m[k] = plain(t.vals[k])
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = plain(e)
		}
		return out
	case number:
		f, _ := strconv.ParseFloat(string(t), 64)
		return f
	}
	return v
}
