package engine

import (
	"encoding/json"
	"fmt"
	"net/mail"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The published OpenAPI file sits in ../shared beside the repository; only the generator reads it.
//go:generate go run ./internal/specrules -spec ../../../shared/api/openapi.json -o spec_rules_gen.go

// specOp is what the published API description says about one operation:
// what its input may hold, checked in the build phase so that bad input
// exits 2 before any request (and a dry run or a bulk row fails alike), and
// which fields its answer has, for --json and --columns.
type specOp struct {
	Key    string      // "GET /users/{}": the method and the path with each parameter as {}
	Params []specValue // path parameters, in the path's order
	Query  []specValue
	// Body values by dot path ("options.copy_sso_settings"); "[]" steps
	// into an array's items ("members[].id", "app_ids[]").
	Body []specValue
	// Fields are the answer's fields (of each item, for a list), sorted;
	// Times those holding a date-time.
	Fields []string
	Times  []string
}

// specValue is one value the spec describes.
type specValue struct {
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
}

// specKey is how an operation is found: "GET /users/{}".
func specKey(method, path string) string {
	var b strings.Builder
	b.WriteString(method)
	b.WriteString(" /")
	for i, seg := range strings.Split(strings.Trim(path, "/"), "/") {
		if i > 0 {
			b.WriteByte('/')
		}
		if isParamSegment(seg) {
			seg = "{}"
		}
		b.WriteString(seg)
	}
	return b.String()
}

func isParamSegment(seg string) bool {
	return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") || strings.HasPrefix(seg, ":")
}

// pathParams are a path template's parameter names in order.
func pathParams(path string) []string {
	var names []string
	for _, seg := range strings.Split(path, "/") {
		if isParamSegment(seg) {
			names = append(names, strings.Trim(seg, "{}:"))
		}
	}
	return names
}

// specFor finds an operation of the published spec; nil when it is not there.
func specFor(method, path string) *specOp {
	k := specKey(method, path)
	i := sort.Search(len(specOps), func(i int) bool { return specOps[i].Key >= k })
	if i < len(specOps) && specOps[i].Key == k {
		return &specOps[i]
	}
	return nil
}

func (s *specOp) body(path string) *specValue {
	if s == nil {
		return nil
	}
	for i := range s.Body {
		if s.Body[i].Name == path {
			return &s.Body[i]
		}
	}
	return nil
}

func (s *specOp) query(name string) *specValue {
	if s == nil {
		return nil
	}
	for i := range s.Query {
		if s.Query[i].Name == name {
			return &s.Query[i]
		}
	}
	return nil
}

// param is the rule of the op's path parameter name, matched by position.
func (s *specOp) param(opPath, name string) *specValue {
	if s == nil {
		return nil
	}
	for i, n := range pathParams(opPath) {
		if n == name && i < len(s.Params) {
			return &s.Params[i]
		}
	}
	return nil
}

// patternWords say in words what the spec's id patterns accept.
var patternWords = map[string]string{
	`user_([a-z0-9]+)`: "a user id such as user_0a1b2c3d (user_ then lowercase letters and digits)",
	`^\d+$`:            "a number such as 7",
	`^(app|workflow|resource|agent|library)_([0-9]\d*)$`: "a folder id such as app_7 (app_, workflow_, resource_, agent_ or library_, then a number)",
	`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$`:         "a version such as 1.2.0",
	`^#[A-Fa-f0-9]{6}$`: "a colour such as #3C92DC",
	`^[a-z0-9\_]+$`:     "lowercase letters, digits and _ only",
}

// formatWords say what the spec's string formats accept.
var formatWords = map[string]string{
	"email":     "an email address such as ada@example.com",
	"uuid":      "a UUID such as 5a4d0006-0000-4000-8000-000000000001",
	"date-time": "a date and time such as 2025-01-15T10:00:00Z (RFC 3339)",
	"uri":       "a URL such as https://example.com",
	"date":      "a date such as 2025-01-15",
}

// accepts says what the value takes, for messages.
func (r *specValue) accepts() string {
	switch {
	case len(r.Enum) > 0:
		return "one of " + strings.Join(r.Enum, ", ")
	case r.Pattern != "":
		if w, ok := patternWords[r.Pattern]; ok {
			return w
		}
		return "text matching the pattern " + r.Pattern
	case formatWords[r.Format] != "":
		return formatWords[r.Format]
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

// check reports whether v is acceptable. text says the value arrived as
// text (a path or query parameter), so numbers and booleans are parsed.
func (r *specValue) check(v any, text bool) bool {
	if r == nil {
		return true
	}
	if v == nil {
		return r.Nullable || r.Type == ""
	}
	if s, ok := v.(string); ok && text {
		switch r.Type {
		case "integer", "number":
			if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
				return false
			}
			v = json.Number(strings.TrimSpace(s))
		case "boolean":
			b, err := strconv.ParseBool(s)
			if err != nil {
				return false
			}
			v = b
		}
	}
	if len(r.Enum) > 0 && !r.inEnum(v) {
		return false
	}
	switch r.Type {
	case "string":
		s, ok := v.(string)
		return ok && r.checkString(s)
	case "integer", "number":
		f, ok := number(v)
		if !ok || r.Type == "integer" && f != float64(int64(f)) {
			return false
		}
		return (!r.HasMin || f >= r.Min) && (!r.HasMax || f <= r.Max)
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	}
	return true
}

func (r *specValue) inEnum(v any) bool {
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

func (r *specValue) checkString(s string) bool {
	n := utf8.RuneCountInString(s)
	if n < r.MinLength || r.MaxLength > 0 && n > r.MaxLength {
		return false
	}
	if r.Pattern != "" {
		if re := specPattern(r.Pattern); re != nil && !re.MatchString(s) {
			return false
		}
	}
	switch r.Format {
	case "email":
		return isEmail(s)
	case "uuid":
		return IsUUIDText(s)
	case "date-time":
		_, err := time.Parse(time.RFC3339, s)
		return err == nil
	case "date":
		_, err := time.Parse(time.DateOnly, s)
		return err == nil
	case "uri":
		return isURL(s)
	}
	return true
}

// specPatterns are compiled on first use: compiling every pattern at
// start-up would cost every command.
var specPatterns sync.Map

func specPattern(p string) *regexp.Regexp {
	if re, ok := specPatterns.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = nil // a pattern Go cannot read checks nothing
	}
	specPatterns.Store(p, re)
	return re
}

// isEmail accepts a bare address (no display name): one @, something on
// each side, a dot in the domain, no spaces.
func isEmail(s string) bool {
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

func IsUUIDText(s string) bool {
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

// invalid is the message for one value that the spec does not accept.
func invalid(v any, where string, r *specValue) string {
	if len(r.Enum) > 0 {
		return fmt.Sprintf("invalid value %s for %s: allowed values are %s", shown(v), where, strings.Join(r.Enum, ", "))
	}
	return fmt.Sprintf("invalid value %s for %s: expected %s", shown(v), where, r.accepts())
}

// spec is the published operation the op sends (nil when unpublished).
func (op *Op) spec() *specOp { return specFor(op.Method, op.Path) }

// argProblem checks one positional argument against its path parameter.
func (op *Op) argProblem(i int, a string) string {
	r := op.spec().param(op.Path, op.Args[i])
	if r == nil || r.loosely(a, true) {
		return ""
	}
	return invalid(a, argLabel(op, i), r)
}

// fieldRules are the spec's rules for a field's value as a whole and for
// each element of a list. Fields that replace one value of an object
// (JSON Patch) follow the rule for that value where the same collection
// creates its objects.
func (op *Op) fieldRules(fd Field) (whole, each *specValue) {
	s := op.spec()
	switch fd.In {
	case InQuery:
		return s.query(fd.Key), nil
	case InBody:
		return s.body(fd.Key), s.body(fd.Key + "[]")
	case InPatch:
		create := specFor("POST", collectionOf(op.Path))
		if r := create.body(fd.Key); r != nil {
			rr := *r
			rr.Required = false
			return &rr, create.body(fd.Key + "[]")
		}
	case InLocal:
		if fd.Into != "" {
			return nil, s.body(fd.Into)
		}
	}
	return nil, nil
}

// collectionOf is the path of the collection an item path belongs to:
// "/users/{userId}" -> "/users".
func collectionOf(path string) string {
	segs := strings.Split(strings.TrimRight(path, "/"), "/")
	if n := len(segs); n > 1 && isParamSegment(segs[n-1]) {
		segs = segs[:n-1]
	}
	return strings.Join(segs, "/")
}

// fieldProblem checks one field's converted value against the spec, before
// the op's Shape: text may still become a number there, a list may be
// joined, and an enum's case may be corrected, so those are let through
// here and checked strictly once the request is built (specProblems).
func (op *Op) fieldProblem(fd Field, v any) string {
	whole, each := op.fieldRules(fd)
	where := "--" + fd.Flag
	text := fd.In == InQuery || fd.Kind == KString || fd.Kind == KStrings || fd.Kind == KTexts
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
	if whole != nil && !whole.loosely(v, text) {
		return invalid(v, where, whole)
	}
	if isList && each != nil {
		for _, e := range list {
			if !each.loosely(e, text) {
				return invalid(e, where, each)
			}
		}
	}
	return ""
}

// loosely is check with an enum's case ignored.
func (r *specValue) loosely(v any, text bool) bool {
	if s, ok := v.(string); ok && len(r.Enum) > 0 {
		for _, e := range r.Enum {
			if strings.EqualFold(e, s) {
				v = e
				break
			}
		}
	}
	return r.check(v, text)
}

// specProblems checks the request a call would send, once its Shape has
// built it: every path parameter, query parameter and body value the spec
// describes, and the body values it requires. A problem names the flag
// that sets the value where one does.
func (c *Call) specProblems() []string {
	if c.RawPath != "" {
		return nil // orgctl api sends what it is given
	}
	path := c.Op.Path
	if c.Path != "" {
		path = c.Path
	}
	s := specFor(c.Op.Method, path)
	if s == nil {
		return nil
	}
	var problems, missing []string
	for i, name := range c.Op.Args {
		if v, ok := c.Params[name]; ok {
			if r := s.param(path, name); r != nil && !r.check(v, true) {
				problems = append(problems, invalid(v, argLabel(c.Op, i), r))
			}
		}
	}
	for i := range s.Query {
		r := &s.Query[i]
		vs, ok := c.Query[r.Name]
		if !ok || c.Op.List && (r.Name == "limit" || r.Name == "next_token") {
			continue
		}
		for _, v := range vs {
			parts := []string{v}
			if len(r.Enum) > 0 {
				parts = strings.Split(v, ",") // "a comma-separated list of" an enum's values
			}
			for _, p := range parts {
				if !r.check(p, true) {
					problems = append(problems, invalid(p, c.flagFor(InQuery, r.Name), r))
					break
				}
			}
		}
	}
	if c.Body == nil || c.Op.Patch {
		return problems
	}
	// Merge completes a body from what Reads find: its required values may come from there.
	merging := c.Op.Merge != nil && len(c.Reads) > 0
	for i := range s.Body {
		r := &s.Body[i]
		visitBody(c.Body, bodySteps(r.Name), "", func(parentOK bool, v any, present bool, at string) {
			switch {
			case !present && r.Required && parentOK && !merging:
				if fl := c.fieldFor(InBody, r.Name); fl != "" {
					missing = append(missing, "--"+fl)
				} else {
					problems = append(problems, fmt.Sprintf("the request needs %q: give it in --body", at))
				}
			case present && !r.check(v, false):
				problems = append(problems, invalid(v, c.flagFor(InBody, r.Name), r))
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
		if sets(fd) && c.Given[fd.Flag] {
			return "--" + fd.Flag
		}
	}
	shown := strings.ReplaceAll(key, "[]", "[i]")
	if c.FromBody && in == InBody {
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
