package sandbox

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// schema is the subset of OpenAPI 3.0 schema keywords the published request bodies use.
type schema struct {
	Type                 string             `json:"type"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required"`
	Enum                 []any              `json:"enum"`
	Pattern              string             `json:"pattern"`
	Format               string             `json:"format"`
	Items                *schema            `json:"items"`
	OneOf                []*schema          `json:"oneOf"`
	AnyOf                []*schema          `json:"anyOf"`
	AllOf                []*schema          `json:"allOf"`
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

var patternCache sync.Map

func compiledPattern(p string) *regexp.Regexp {
	if v, ok := patternCache.Load(p); ok {
		return v.(*regexp.Regexp)
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = nil
	}
	patternCache.Store(p, re)
	return re
}

// Compiled on first use: the sandbox is linked into every orgctl, and most
// commands never start it.
var (
	emailRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`) })
	uuidRE  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	})
)

// validate returns the first violation as a message naming the field, or "" when v conforms.
func (s *schema) validate(v any, field string) string {
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
		if m := b.validate(v, field); m != "" {
			return m
		}
	}
	if alts := append(append([]*schema{}, s.AnyOf...), s.OneOf...); len(alts) > 0 {
		if m := firstMismatch(alts, v, field); m != "" {
			return m
		}
	}
	if len(s.Enum) > 0 {
		ok := false
		for _, e := range s.Enum {
			if fmt.Sprint(e) == fmt.Sprint(v) {
				ok = true
			}
		}
		if !ok {
			opts := make([]string, len(s.Enum))
			for i, e := range s.Enum {
				opts[i] = fmt.Sprint(e)
			}
			return fmt.Sprintf("%s must be one of: %s", quoteField(name), strings.Join(opts, ", "))
		}
	}
	switch s.Type {
	case "string":
		str, ok := v.(string)
		if !ok {
			return fmt.Sprintf("%s must be a string", quoteField(name))
		}
		if s.MinLength != nil && len([]rune(str)) < *s.MinLength {
			return fmt.Sprintf("%s must be at least %d characters", quoteField(name), *s.MinLength)
		}
		if s.MaxLength != nil && len([]rune(str)) > *s.MaxLength {
			return fmt.Sprintf("%s must be at most %d characters", quoteField(name), *s.MaxLength)
		}
		if s.Pattern != "" {
			if re := compiledPattern(s.Pattern); re != nil && !re.MatchString(str) {
				return fmt.Sprintf("%s must match pattern %s", quoteField(name), s.Pattern)
			}
		}
		if s.Format == "email" && !emailRE().MatchString(str) {
			return fmt.Sprintf("%s must be a valid email", quoteField(name))
		}
		if s.Format == "uuid" && !uuidRE().MatchString(str) {
			return fmt.Sprintf("%s must be a valid uuid", quoteField(name))
		}
	case "number", "integer":
		n, ok := v.(float64)
		if !ok {
			return fmt.Sprintf("%s must be a number", quoteField(name))
		}
		if s.Type == "integer" && n != float64(int64(n)) {
			return fmt.Sprintf("%s must be an integer", quoteField(name))
		}
		if s.Minimum != nil && n < *s.Minimum {
			return fmt.Sprintf("%s must be >= %v", quoteField(name), *s.Minimum)
		}
		if s.Maximum != nil && n > *s.Maximum {
			return fmt.Sprintf("%s must be <= %v", quoteField(name), *s.Maximum)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Sprintf("%s must be a boolean", quoteField(name))
		}
	case "array":
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
			if m := s.Items.validate(it, fmt.Sprintf("%s[%d]", field, i)); m != "" {
				return m
			}
		}
	}
	if s.Type == "object" || s.Properties != nil {
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
			ps, known := s.Properties[k]
			if !known {
				if string(s.AdditionalProperties) == "false" {
					return fmt.Sprintf("%s is not an allowed field", quoteField(join(field, k)))
				}
				if len(s.AdditionalProperties) > 0 && s.AdditionalProperties[0] == '{' {
					var ap schema
					if json.Unmarshal(s.AdditionalProperties, &ap) == nil {
						if m := ap.validate(obj[k], join(field, k)); m != "" {
							return m
						}
					}
				}
				continue
			}
			if m := ps.validate(obj[k], join(field, k)); m != "" {
				return m
			}
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
func firstMismatch(alts []*schema, v any, field string) string {
	first := ""
	for _, b := range alts {
		m := b.validate(v, field)
		if m == "" {
			return ""
		}
		if first == "" {
			first = m
		}
	}
	return first
}
