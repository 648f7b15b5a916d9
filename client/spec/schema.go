package spec

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Schema is the subset of OpenAPI 3.0 schema keywords the published
// request bodies use (Operation.Schema). Validate checks a decoded request
// body against it, as a server would, and words the first violation as
// the API does; its checks of one value are Value's.
type Schema struct {
	Type                 string             `json:"type"`
	Properties           map[string]*Schema `json:"properties"`
	Required             []string           `json:"required"`
	Enum                 []any              `json:"enum"`
	Pattern              string             `json:"pattern"`
	Format               string             `json:"format"`
	Items                *Schema            `json:"items"`
	OneOf                []*Schema          `json:"oneOf"`
	AnyOf                []*Schema          `json:"anyOf"`
	AllOf                []*Schema          `json:"allOf"`
	Nullable             bool               `json:"nullable"`
	MinLength            *int               `json:"minLength"`
	MaxLength            *int               `json:"maxLength"`
	Minimum              *float64           `json:"minimum"`
	Maximum              *float64           `json:"maximum"`
	MinItems             *int               `json:"minItems"`
	MaxItems             *int               `json:"maxItems"`
	AdditionalProperties json.RawMessage    `json:"additionalProperties"`
	Default              any                `json:"default"`
}

// Validate returns the first violation as a message naming the field
// ("body" when field is ""), or "" when v, decoded from JSON, conforms.
func (s *Schema) Validate(v any, field string) string {
	if s == nil {
		return ""
	}
	name := field
	if name == "" {
		name = "body"
	}
	if v == nil {
		if s.Nullable || (s.Type == "" && len(s.AnyOf)+len(s.OneOf)+len(s.AllOf) == 0) {
			return ""
		}
		return fmt.Sprintf("%s must not be null", quoteField(name))
	}
	for _, b := range s.AllOf {
		if m := b.Validate(v, field); m != "" {
			return m
		}
	}
	if alts := append(append([]*Schema{}, s.AnyOf...), s.OneOf...); len(alts) > 0 {
		if m := firstMismatch(alts, v, field); m != "" {
			return m
		}
	}
	if m := s.scalar().message(v, name); m != "" {
		return m
	}
	if s.Type == "array" {
		if m := s.validateArray(v, field, name); m != "" {
			return m
		}
	}
	if s.Type == "object" || s.Properties != nil {
		return s.validateObject(v, field, name)
	}
	return ""
}

// validateArray is Validate's message for an array value.
func (s *Schema) validateArray(v any, field, name string) string {
	arr, ok := v.([]any)
	if !ok {
		return fmt.Sprintf("%s must be an array", quoteField(name))
	}
	if s.MinItems != nil && len(arr) < *s.MinItems {
		return fmt.Sprintf("%s must have at least %d items", quoteField(name), *s.MinItems)
	}
	if s.MaxItems != nil && len(arr) > *s.MaxItems {
		return fmt.Sprintf("%s must have at most %d items", quoteField(name), *s.MaxItems)
	}
	for i, it := range arr {
		if m := s.Items.Validate(it, fmt.Sprintf("%s[%d]", field, i)); m != "" {
			return m
		}
	}
	return ""
}

// validateObject is Validate's message for an object value: its required
// members, then each member in key order.
func (s *Schema) validateObject(v any, field, name string) string {
	obj, ok := v.(map[string]any)
	if !ok {
		return fmt.Sprintf("%s must be an object", quoteField(name))
	}
	for _, r := range s.Required {
		if _, ok := obj[r]; !ok {
			return fmt.Sprintf("%s is required", quoteField(join(field, r)))
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if m := s.validateMember(obj[k], k, field); m != "" {
			return m
		}
	}
	return ""
}

// validateMember is the message for member k of an object, by its
// property's schema or, for an unknown one, additionalProperties.
func (s *Schema) validateMember(v any, k, field string) string {
	if ps, known := s.Properties[k]; known {
		return ps.Validate(v, join(field, k))
	}
	if string(s.AdditionalProperties) == "false" {
		return fmt.Sprintf("%s is not an allowed field", quoteField(join(field, k)))
	}
	if len(s.AdditionalProperties) > 0 && s.AdditionalProperties[0] == '{' {
		var ap Schema
		if json.Unmarshal(s.AdditionalProperties, &ap) == nil {
			return ap.Validate(v, join(field, k))
		}
	}
	return ""
}

func join(parent, k string) string {
	if parent == "" {
		return k
	}
	return parent + "." + k
}

func quoteField(f string) string { return `"` + f + `"` }

// firstMismatch returns "" when any alternative accepts v, else the first alternative's complaint.
func firstMismatch(alts []*Schema, v any, field string) string {
	first := ""
	for _, b := range alts {
		m := b.Validate(v, field)
		if m == "" {
			return ""
		}
		if first == "" {
			first = m
		}
	}
	return first
}

// scalar is the schema's rule for a value as a whole, as Value states it.
func (s *Schema) scalar() *Value {
	r := &Value{Type: s.Type, Format: s.Format, Pattern: s.Pattern, Nullable: s.Nullable}
	for _, e := range s.Enum {
		r.Enum = append(r.Enum, fmt.Sprint(e))
	}
	if s.MinLength != nil {
		r.MinLength = *s.MinLength
	}
	if s.MaxLength != nil {
		r.MaxLength = *s.MaxLength
	}
	if s.Minimum != nil {
		r.Min, r.HasMin = *s.Minimum, true
	}
	if s.Maximum != nil {
		r.Max, r.HasMax = *s.Maximum, true
	}
	if r.Type == "object" || r.Type == "array" {
		r.Type = "" // checked below, with what they hold
	}
	return r
}

// message words, as the API does, the rule of r that v breaks; "" for none.
func (r *Value) message(v any, name string) string {
	f := quoteField(name)
	switch r.Broken(v, false) {
	case Fine, RuleNull: // null is decided before
		return ""
	case RuleEnum:
		return fmt.Sprintf("%s must be one of: %s", f, strings.Join(r.Enum, ", "))
	case RuleType:
		return fmt.Sprintf("%s must be %s", f, map[string]string{"string": "a string", "integer": "a number",
			"number": "a number", "boolean": "a boolean"}[r.Type])
	case RuleShort:
		return fmt.Sprintf("%s must be at least %d characters", f, r.MinLength)
	case RuleLong:
		return fmt.Sprintf("%s must be at most %d characters", f, r.MaxLength)
	case RulePattern:
		return fmt.Sprintf("%s must match pattern %s", f, r.Pattern)
	case RuleFormat:
		return fmt.Sprintf("%s must be a valid %s", f, r.Format)
	case RuleInteger:
		return fmt.Sprintf("%s must be an integer", f)
	case RuleMinimum:
		return fmt.Sprintf("%s must be >= %v", f, r.Min)
	case RuleMaximum:
		return fmt.Sprintf("%s must be <= %v", f, r.Max)
	}
	return ""
}
