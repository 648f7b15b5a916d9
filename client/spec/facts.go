package spec

import (
	"slices"
	"strings"
)

// Scopes are every token scope the description names (43 in 4.0), sorted:
// what `tokens create --scope` offers.
func Scopes() []string { return scopeNames }

// AnyScope are the scopes any one of which lets a token call the
// operation; nil when it needs none.
func (o *Operation) AnyScope() []string {
	switch {
	case o == nil || o.Scope == "":
		return nil
	case len(o.Scopes) > 0:
		return o.Scopes
	}
	return []string{o.Scope}
}

// ScopeText is the scope as help shows it: the token scope, with the
// console's label beside it where known ("users:read (Users > Read)"),
// alternatives joined by "or".
func (o *Operation) ScopeText() string {
	s := strings.Join(o.AnyScope(), " or ")
	if s != "" && o.ScopeName != "" {
		s += " (" + o.ScopeName + ")"
	}
	return s
}

// plans are the x-badges labels that name a plan, cheapest first.
var plans = []string{"Business", "Enterprise"}

// Plans are the plans the description says have the operation, cheapest
// first; nil when it names none (every plan, as far as it says).
func (o *Operation) Plans() []string {
	if o == nil {
		return nil
	}
	var out []string
	for _, p := range plans {
		if slices.Contains(o.Badges, p) {
			out = append(out, p)
		}
	}
	return out
}

// PlanText is the plan an org needs for the operation, as help and errors
// word it: "Business" where Business and Enterprise both have it,
// "Enterprise" where only Enterprise does; "" when no plan is named.
func (o *Operation) PlanText() string {
	if p := o.Plans(); len(p) > 0 {
		return p[0]
	}
	return ""
}

// Notes are the description's other labels ("Available for classic apps only").
func (o *Operation) Notes() []string {
	if o == nil {
		return nil
	}
	var out []string
	for _, b := range o.Badges {
		if !slices.Contains(plans, b) {
			out = append(out, b)
		}
	}
	return out
}

// Alternates are the operations that do the same job on other versions:
// for a deprecated operation its replacement, for a replacement the
// deprecated operations it replaces (which older instances may still
// need).
func (o *Operation) Alternates() []*Operation {
	if o == nil {
		return nil
	}
	var out []*Operation
	if o.Alternate != "" {
		m, p, _ := strings.Cut(o.Alternate, " ")
		if a := Find(m, p); a != nil {
			out = append(out, a)
		}
	}
	me := o.Method + " " + o.Path
	for i := range operations {
		if operations[i].Alternate == me {
			out = append(out, &operations[i])
		}
	}
	return out
}

// IsResourceType says whether the description lists t as a resource type.
func IsResourceType(t string) bool { return slices.Contains(ResourceTypes, t) }

// releases name the product release that publishes each known API version:
// the API version followed the release from 4.0 on; 2.12.0 is what the
// 3.334 stable release publishes.

// Release is the product release of an API version ("3.334" for 2.12.0),
// "" when unknown.
func Release(version string) string {
	// a switch, not a map: a map literal at package level is init work
	switch version {
	case "2.12.0":
		return "3.334"
	case "4.0.0":
		return "4.0"
	}
	return ""
}

// VersionText is a version as messages word it: "2.12.0 (the 3.334 release)".
func VersionText(version string) string {
	if r := Release(version); r != "" {
		return version + " (the " + r + " release)"
	}
	return version
}
