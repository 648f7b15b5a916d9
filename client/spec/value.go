package spec

import (
	"encoding/json"
	"fmt"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Value is what the spec says one value may be: a path or query parameter,
// or a value of a request body.
type Value struct {
	// Name is the parameter's name, or the body value's dot path
	// ("options.copy_sso_settings"), where "[]" steps into an array's
	// items ("members[].id", "app_ids[]").
	Name      string
	Type      string // string, integer, number, boolean, array, object; "" for any
	Format    string // email, uuid, date-time, uri, date, ...
	Pattern   string
	Enum      []string
	Min, Max  float64
	HasMin    bool
	HasMax    bool
	MinLength int
	MaxLength int // 0: no limit
	Required  bool
	Nullable  bool
	// Since is the API version that added it, when newer than its
	// operation (GET /apps using_resource: 4.0.0); "" otherwise.
	Since string
}

// Rule names the rule a value breaks.
type Rule string

const (
	Fine        Rule = ""
	RuleNull    Rule = "null"      // null where the value may not be null
	RuleType    Rule = "type"      // not of the value's type (or, as text, not a number or boolean)
	RuleEnum    Rule = "enum"      // not one of the allowed values
	RuleShort   Rule = "minLength" // text shorter than MinLength
	RuleLong    Rule = "maxLength" // text longer than MaxLength
	RulePattern Rule = "pattern"   // text not matching Pattern
	RuleFormat  Rule = "format"    // text not of Format
	RuleInteger Rule = "integer"   // a number with a fraction where a whole number goes
	RuleMinimum Rule = "minimum"   // a number below Min
	RuleMaximum Rule = "maximum"   // a number above Max
)

// Check reports whether v is acceptable. text says the value arrived as
// text (a path or query parameter), so numbers and booleans are parsed.
func (r *Value) Check(v any, text bool) bool { return r.Broken(v, text) == Fine }

// Broken is the first rule v breaks, Fine when it breaks none. Numbers may
// come as float64 (decoded JSON), json.Number, int or int64.
func (r *Value) Broken(v any, text bool) Rule {
	if r == nil {
		return Fine
	}
	if v == nil {
		if r.Nullable || r.Type == "" {
			return Fine
		}
		return RuleNull
	}
	if s, ok := v.(string); ok && text {
		var parsed bool
		if v, parsed = r.fromText(s); !parsed {
			return RuleType
		}
	}
	if len(r.Enum) > 0 && !r.inEnum(v) {
		return RuleEnum
	}
	switch r.Type {
	case "string":
		s, ok := v.(string)
		if !ok {
			return RuleType
		}
		return r.brokenString(s)
	case "integer", "number":
		return r.brokenNumber(v)
	case "boolean":
		if _, ok := v.(bool); !ok {
			return RuleType
		}
	case "array":
		if _, ok := v.([]any); !ok {
			return RuleType
		}
	case "object":
		if _, ok := v.(map[string]any); !ok {
			return RuleType
		}
	}
	return Fine
}

// fromText is a value that arrived as text as the value's type reads it:
// a number or boolean parsed, other text as it is; false when it does not
// parse.
func (r *Value) fromText(s string) (any, bool) {
	switch r.Type {
	case "integer", "number":
		if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
			return nil, false
		}
		return json.Number(strings.TrimSpace(s)), true
	case "boolean":
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, false
		}
		return b, true
	}
	return s, true
}

// brokenNumber is the first rule of a number value that v breaks.
func (r *Value) brokenNumber(v any) Rule {
	f, ok := number(v)
	switch {
	case !ok:
		return RuleType
	case r.Type == "integer" && f != float64(int64(f)):
		return RuleInteger
	case r.HasMin && f < r.Min:
		return RuleMinimum
	case r.HasMax && f > r.Max:
		return RuleMaximum
	}
	return Fine
}

// Loosely is Check with an enum's case ignored (a flag's value that the
// op's Shape corrects).
func (r *Value) Loosely(v any, text bool) bool {
	if s, ok := v.(string); ok && len(r.Enum) > 0 {
		for _, e := range r.Enum {
			if strings.EqualFold(e, s) {
				v = e
				break
			}
		}
	}
	return r.Check(v, text)
}

func (r *Value) inEnum(v any) bool {
	s := fmt.Sprint(v)
	for _, e := range r.Enum {
		if e == s {
			return true
		}
	}
	return false
}

func number(v any) (float64, bool) {
	switch t := v.(type) {
	case json.Number:
		f, err := t.Float64()
		return f, err == nil
	case int64:
		return float64(t), true
	case int:
		return float64(t), true
	case float64:
		return t, true
	}
	return 0, false
}

func (r *Value) brokenString(s string) Rule {
	n := utf8.RuneCountInString(s)
	if n < r.MinLength {
		return RuleShort
	}
	if r.MaxLength > 0 && n > r.MaxLength {
		return RuleLong
	}
	if r.Pattern != "" {
		if re := compiled(r.Pattern); re != nil && !re.MatchString(s) {
			return RulePattern
		}
	}
	ok := true
	switch r.Format {
	case "email":
		ok = IsEmail(s)
	case "uuid":
		ok = IsUUID(s)
	case "date-time":
		_, err := time.Parse(time.RFC3339, s)
		ok = err == nil
	case "date":
		_, err := time.Parse(time.DateOnly, s)
		ok = err == nil
	case "uri":
		ok = isURL(s)
	}
	if !ok {
		return RuleFormat
	}
	return Fine
}

// patterns are compiled on first use: compiling every pattern at start-up
// would cost every command.
var patterns sync.Map

func compiled(p string) *regexp.Regexp {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = nil // a pattern Go cannot read checks nothing
	}
	patterns.Store(p, re)
	return re
}

// IsEmail accepts a bare address (no display name): one @, something on
// each side, a dot in the domain, no spaces.
func IsEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || strings.ContainsAny(s, " \t\r\n") || strings.Contains(domain, "@") {
		return false
	}
	dot := strings.LastIndexByte(domain, '.')
	if dot <= 0 || dot == len(domain)-1 {
		return false
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s
}

// IsUUID accepts the 8-4-4-4-12 hex form, in either case.
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

func isURL(s string) bool {
	scheme, rest, ok := strings.Cut(s, "://")
	return ok && scheme != "" && rest != "" && !strings.ContainsAny(s, " \t\r\n")
}

// patternWords say in words what the spec's id patterns accept. Tables of
// pairs rather than maps, so that nothing is built before every orgctl
// command.
var patternWords = []wording{
	{`user_([a-z0-9]+)`, "a user id such as user_0a1b2c3d (user_ then lowercase letters and digits)"},
	{`^\d+$`, "a number such as 7"},
	{`^(app|workflow|resource|agent|library)_([0-9]\d*)$`, "a folder id such as app_7 (app_, workflow_, resource_, agent_ or library_, then a number)"},
	{`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$`, "a version such as 1.2.0"},
	{`^#[A-Fa-f0-9]{6}$`, "a colour such as #3C92DC"},
	{`^[a-z0-9\_]+$`, "lowercase letters, digits and _ only"},
}

// formatWords say what the spec's string formats accept.
var formatWords = []wording{
	{"email", "an email address such as ada@example.com"},
	{"uuid", "a UUID such as 5a4d0006-0000-4000-8000-000000000001"},
	{"date-time", "a date and time such as 2025-01-15T10:00:00Z (RFC 3339)"},
	{"uri", "a URL such as https://example.com"},
	{"date", "a date such as 2025-01-15"},
}

// wording is what a pattern or format (key) accepts, in words.
type wording struct{ key, words string }

// wordsFor is the words of key in table; "" when it has none.
func wordsFor(table []wording, key string) string {
	for _, w := range table {
		if w.key == key {
			return w.words
		}
	}
	return ""
}

// Accepts says in words what the value takes, for messages.
func (r *Value) Accepts() string {
	switch {
	case len(r.Enum) > 0:
		return "one of " + strings.Join(r.Enum, ", ")
	case r.Pattern != "":
		if w := wordsFor(patternWords, r.Pattern); w != "" {
			return w
		}
		return "text matching the pattern " + r.Pattern
	case wordsFor(formatWords, r.Format) != "":
		return wordsFor(formatWords, r.Format)
	}
	bounds := func(what string) string {
		switch {
		case r.HasMin && r.HasMax:
			return fmt.Sprintf("%s from %s to %s", what, num(r.Min), num(r.Max))
		case r.HasMin:
			return fmt.Sprintf("%s, at least %s", what, num(r.Min))
		case r.HasMax:
			return fmt.Sprintf("%s, at most %s", what, num(r.Max))
		}
		return what
	}
	switch r.Type {
	case "integer":
		return bounds("a whole number")
	case "number":
		return bounds("a number")
	case "boolean":
		return "true or false"
	case "array":
		return "a list"
	case "object":
		return "a JSON object"
	case "string":
		switch {
		case r.MinLength > 0 && r.MaxLength > 0:
			return fmt.Sprintf("text of %d to %d characters", r.MinLength, r.MaxLength)
		case r.MinLength == 1:
			return "text that is not empty"
		case r.MinLength > 1:
			return fmt.Sprintf("text of at least %d characters", r.MinLength)
		case r.MaxLength > 0:
			return fmt.Sprintf("text of at most %d characters", r.MaxLength)
		}
		return "text"
	}
	return "a value"
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// Invalid is the message for a value v, given for where ("--email"), that
// the rule does not accept.
func (r *Value) Invalid(v any, where string) string {
	if len(r.Enum) > 0 {
		return fmt.Sprintf("invalid value %s for %s: allowed values are %s", shown(v), where, strings.Join(r.Enum, ", "))
	}
	return fmt.Sprintf("invalid value %s for %s: expected %s", shown(v), where, r.Accepts())
}

// shown is a value as a message quotes it.
func shown(v any) string {
	switch t := v.(type) {
	case string:
		return strconv.Quote(t)
	case nil:
		return "null"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
