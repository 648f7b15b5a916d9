package main

import (
	"fmt"
	"regexp"
	"strings"
)

// keptKeywords are the schema keywords the sandbox's validator understands; the rest (descriptions,
// examples, titles) would only bloat the binary.
var keptKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "enum": true, "pattern": true, "items": true,
	"oneOf": true, "anyOf": true, "allOf": true, "nullable": true, "minLength": true, "maxLength": true,
	"minimum": true, "maximum": true, "additionalProperties": true, "default": true, "minItems": true,
	"maxItems": true, "format": true,
}

// checkedFormats are the string formats the validator checks; other formats are dropped.
var checkedFormats = map[string]bool{"uuid": true, "email": true, "date-time": true}

// subset keeps the parts of a request schema the sandbox validates.
func subset(x any) any {
	o, ok := x.(*object)
	if !ok {
		return x
	}
	out := &object{}
	for _, k := range o.keys {
		v := o.vals[k]
		if !keptKeywords[k] {
			continue
		}
		switch {
		case k == "properties":
			props := &object{}
			if p, ok := v.(*object); ok {
				for _, pk := range p.keys {
					props.set(pk, subset(p.vals[pk]))
				}
			}
			out.set(k, props)
		case (k == "items" || k == "additionalProperties") && isObject(v):
			out.set(k, subset(v))
		case k == "oneOf" || k == "anyOf" || k == "allOf":
			var branches []any
			if l, ok := v.([]any); ok {
				for _, b := range l {
					branches = append(branches, subset(b))
				}
			}
			out.set(k, orEmpty(branches))
		case k == "format" && !isCheckedFormat(v):
			continue
		default:
			out.set(k, v)
		}
	}
	return out
}

func isObject(v any) bool { _, ok := v.(*object); return ok }

func isCheckedFormat(v any) bool { s, ok := v.(string); return ok && checkedFormats[s] }

func orEmpty(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

// example builds a value that satisfies schema x, for the sandbox's response templates.
func example(x any) any {
	o, ok := x.(*object)
	if !ok {
		return nil
	}
	if all, ok := o.get("allOf"); ok {
		merged := &object{}
		merged.set("type", "object")
		props := &object{}
		for _, b := range asList(all) {
			if bp, ok := b.(*object).get("properties"); ok {
				for _, k := range bp.(*object).keys {
					props.set(k, bp.(*object).vals[k])
				}
			}
		}
		merged.set("properties", props)
		return example(merged)
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if l, ok := o.get(k); ok {
			return example(asList(l)[0])
		}
	}
	t, _ := o.get("type")
	if enum, ok := o.get("enum"); ok {
		return asList(enum)[0]
	}
	ex, _ := o.get("example")
	_, hasProps := o.get("properties")
	switch {
	case t == "object" || hasProps:
		out := &object{}
		if p, ok := o.get("properties"); ok {
			for _, k := range p.(*object).keys {
				out.set(k, example(p.(*object).vals[k]))
			}
		}
		return out
	case t == "array":
		items, ok := o.get("items")
		if !ok {
			items = &object{}
		}
		it := example(items)
		if it == nil {
			return []any{}
		}
		return []any{it}
	case t == "string":
		return exampleString(o, ex)
	case t == "number" || t == "integer":
		if n, ok := ex.(number); ok {
			return n
		}
		if m, ok := o.get("minimum"); ok {
			return m
		}
		return number("1")
	case t == "boolean":
		return false
	}
	return nil // nullable or untyped
}

func exampleString(o *object, ex any) any {
	switch f, _ := o.get("format"); f {
	case "date-time":
		return "2025-01-15T10:00:00.000Z"
	case "uuid":
		return "00000000-0000-4000-8000-000000000000"
	case "email":
		return "someone@example.com"
	case "uri":
		return "https://example.com"
	}
	p, _ := o.get("pattern")
	ps, _ := p.(string)
	switch {
	case ps == "user_([a-z0-9]+)":
		return "user_0"
	case strings.HasPrefix(ps, "^(app|workflow"):
		return "app_1"
	case ps == `^\d+$`:
		return "1"
	case strings.HasPrefix(ps, "^(0|[1-9]"):
		return "1.0.0"
	case strings.HasPrefix(ps, "^#"):
		return "#3C92DC"
	case ps == `^[a-z0-9\_]+$`:
		return "example"
	}
	if s, ok := ex.(string); ok {
		return s
	}
	return "example"
}

func asList(v any) []any { l, _ := v.([]any); return l }

var (
	// 4.0: "Requires the `users:write` or `user_attributes:write` scope."
	requiresScope = regexp.MustCompile("Requires [^.]*?scope")
	tokenScope    = regexp.MustCompile("`([a-z_]+(?::[a-z_]+)?)`")
)

// scopesOf are the token scopes an operation's description says it needs, any one of which will
// do: 4.0 names them ("Requires the `users:read` scope"), 2.12 words them as the console does
// ("Users > Read"), and a few 2.12 paths name none, whose scope is derived.
func scopesOf(desc, method, path string) ([]string, error) {
	if m := requiresScope.FindString(desc); m != "" {
		var out []string
		for _, n := range tokenScope.FindAllStringSubmatch(m, -1) {
			out = append(out, n[1])
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	s, err := scope(desc, method, path)
	if err != nil || s == "" {
		return nil, err
	}
	return []string{s}, nil
}

var (
	scopeQuote   = regexp.MustCompile(`"([^"]+)" scope`)
	releaseScope = regexp.MustCompile(`^Source control > Releases \((\w+)\)`)
	familyNames  = map[string]string{"Permissions": "permissions:all", "Environment": "environments",
		"CustomComponent": "custom_component_libraries"}
)

// scopeName is the scope as the description names it ("Users > Read"), the
// words a user finds in the token settings; for the paths whose description
// names none, the name of the scope that scope derives for them.
func scopeName(desc, method, path string) string {
	if m := scopeQuote.FindStringSubmatch(desc); m != nil {
		return m[1]
	}
	name, _ := undescribedScope(method, path)
	return name
}

// undescribedScope is the scope of a path whose description names none, by
// its name in the token settings ("" for usage, which has none there) and
// as a token scope.
func undescribedScope(method, path string) (name, scope string) {
	switch {
	case strings.HasPrefix(path, "/user_invites") && method != "get":
		return "Users > Write", "users:write"
	case strings.HasPrefix(path, "/user_invites"):
		return "Users > Read", "users:read"
	case strings.HasPrefix(path, "/usage"):
		return "", "usage"
	case strings.HasPrefix(path, "/organization"):
		return "Organizations > Write", "organizations:write"
	}
	return "", ""
}

// scope derives the scope string an operation needs from its description's `"X > Level" scope`.
func scope(desc, method, path string) (string, error) {
	m := scopeQuote.FindStringSubmatch(desc)
	if m == nil {
		_, s := undescribedScope(method, path)
		return s, nil
	}
	s := m[1]
	if rel := releaseScope.FindStringSubmatch(s); rel != nil {
		return "source_control:releases:" + strings.ToLower(rel[1]), nil
	}
	fam, lvl, _ := strings.Cut(s, ">")
	if strings.Count(s, ">") != 1 {
		return "", fmt.Errorf("scope %q is not of the form \"Family > Level\"", s)
	}
	fam, lvl = strings.TrimSpace(fam), strings.TrimSpace(lvl)
	if n, ok := familyNames[fam]; ok {
		fam = n
	}
	fam = strings.ReplaceAll(strings.ToLower(fam), " ", "_")
	return fam + ":" + strings.ReplaceAll(strings.ToLower(lvl), " ", "_"), nil
}
