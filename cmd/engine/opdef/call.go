package opdef

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/request"
	"github.com/orgctl/orgctl/cmd/cli/usage"
	"github.com/orgctl/orgctl/cmd/internal/suggest"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// Input is what the user gave for one call, as text: positional arguments
// and the values of the fields that were set, from flags or from one row of
// a bulk file. Nothing in it has been checked yet.
type Input struct {
	// Command is the command path, for messages ("orgctl users create").
	Command string
	Args    []string
	// Values holds each given field's text by flag name: one entry per
	// occurrence for repeatable fields, "true"/"false" for booleans.
	Values map[string][]string
	// Body names the --body source ("" for none, "-" for stdin).
	Body string
	// BodyData is the body once read (LoadBody), so a call can be built
	// twice from one stdin.
	BodyData []byte
	// Limit is --limit's text when given.
	Limit *string
	// All asks for every page (--all).
	All bool
}

// Call is a built invocation: everything the send phase needs, checked,
// before any request. Local options live in Given.Local, never in the body.
type Call struct {
	Op *Placed
	// Command is the command path, for messages ("orgctl users create").
	Command string
	// Req is the main request as built.
	Req Req
	// Given is what the user gave, as the build phase found it.
	Given   Given
	Columns []output.Column
	Pages   Pages
	// Reads are requests sent before the main one; their answers go to
	// Op.Hooks.Merge (read-merge-write). The dry run lists them and sends none.
	Reads []request.Request
	// Then are follow-up requests built from the main answer.
	Then []FollowUp
	// Warnings are printed on stderr before the request is sent (or dry-run).
	Warnings []string
	// Notices are values sent that the description does not list among a
	// value's allowed ones (see EnumNotice): the instance may be newer
	// than orgctl, so they are said once on stderr, not refused.
	Notices []string
	// Summary replaces the body in dry-run output when the body is not
	// readable text (multipart uploads).
	Summary map[string]any
	// Labels name the positional arguments that were looked up by name.
	Labels Labels
	// Run is what the send phase adds: the answer and the readers a view
	// may use. It is empty until then.
	Run Run
	// stdin is where "-" sources read from.
	stdin io.Reader
}

// Req is the main request of a call as the build phase makes it.
type Req struct {
	Params map[string]string
	Query  url.Values
	// Body is the JSON object to send (nil: no body).
	Body map[string]any
	// RawBody, when set, is sent instead of Body (e.g. a JSON array).
	RawBody json.RawMessage
	// ContentType of RawBody when it is not JSON (multipart uploads).
	ContentType string
	Patch       []any
	// Path overrides Op.Path (an op that picks between endpoints).
	Path string
	// RawPath, when set, is sent as is: an already escaped path (orgctl api).
	RawPath string
}

// Given is what the user gave for a call, once checked.
type Given struct {
	// Set is the set of fields the user set, by flag name.
	Set map[string]bool
	// Local holds the values of InLocal fields by flag name.
	Local map[string]any
	// Typed are the flags' values as the user typed them: names where
	// the request went on with the ids found for them.
	Typed map[string][]string
	// FromBody is true when --body supplied the body.
	FromBody bool
}

// Pages says how a list call pages.
type Pages struct {
	// All follows next_token through every page.
	All bool
	// Flag is the flag that fetches every page, for the "more results" hint.
	Flag string
}

// Labels describe positional arguments that were looked up by name.
type Labels struct {
	// Args are the labels for prompts and messages, by argument index
	// ("ada@example.com (Ada Lovelace)").
	Args map[int]string
	// Keys are those arguments' natural keys alone (an email, a group
	// name), for commands a message suggests.
	Keys map[int]string
}

// Run is what the send phase adds to a call.
type Run struct {
	// Answer is the main request's answer, for the confirmation line (a
	// group given by id is named by the name the answer carries).
	Answer json.RawMessage
	// Names lists every object of a kind (one request per kind at most),
	// for views that show names beside the ids an answer holds.
	Names func(kind string) ([]kinds.Object, error)
	// Get reads one more list for a view that joins it to the answer (a
	// user's groups from GET /groups): its data, through the same client.
	Get func(path, scope string) (json.RawMessage, error)
}

// FollowUp is a request built from the previous answer's data.
type FollowUp struct {
	// What says what the follow-up does, for the dry run.
	What  string
	Path  string // for pricing in the dry run
	Build func(answer json.RawMessage) (request.Request, error)
	// PrintMain prints the main answer, not the follow-up's (adding the
	// new user to a group answers with the group).
	PrintMain bool
	// Join is the body's array that a bulk job joins across rows whose
	// follow-ups go to the same path (one request per group for all the
	// new users); JoinKey names that path's object as the row gives it,
	// for the dry run's count.
	Join, JoinKey string
	// Joined says what the joined request does for all the rows that
	// share it, for a bulk dry run ("add each --group's new users to it,
	// one request per group").
	Joined string
}

// TypedList is a flag's values as typed, each occurrence split at commas
// and trimmed.
func (c *Call) TypedList(flag string) []string {
	var out []string
	for _, v := range c.Given.Typed[flag] {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// ArgKey is positional argument i by its natural key where one was found
// (a group's name), else as given.
func (c *Call) ArgKey(i int) string {
	if k, ok := c.Labels.Keys[i]; ok {
		return k
	}
	if i < len(c.Op.Args.Params) {
		return c.Req.Params[c.Op.Args.Params[i]]
	}
	return ""
}

// Has reports whether the user set the field with this flag name.
func (c *Call) Has(flag string) bool { return c.Given.Set[flag] }

// LocalString is the text of a local string field ("" when unset).
func (c *Call) LocalString(flag string) string {
	s, _ := c.Given.Local[flag].(string)
	return s
}

// LocalStrings is the list of a local repeatable field.
func (c *Call) LocalStrings(flag string) []string {
	vs, _ := c.Given.Local[flag].([]any)
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// LocalBool is the value of a local boolean field.
func (c *Call) LocalBool(flag string) bool {
	b, _ := c.Given.Local[flag].(bool)
	return b
}

// Stdin is where a "-" file argument reads from.
func (c *Call) Stdin() io.Reader { return c.stdin }

// BodyObject returns the body object, creating it.
func (c *Call) BodyObject() map[string]any {
	if c.Req.Body == nil {
		c.Req.Body = map[string]any{}
	}
	return c.Req.Body
}

// Request is the main request the call sends.
func (c *Call) Request() request.Request {
	path := c.Op.Path
	if c.Req.Path != "" {
		path = c.Req.Path
	}
	if c.Req.RawPath == "" {
		path = request.Expand(path, c.Req.Params)
	} else {
		path = c.Req.RawPath
	}
	r := request.Request{
		Method:      c.Op.Method,
		Path:        path,
		Query:       c.Req.Query,
		Scope:       c.Op.Scope,
		ContentType: c.Req.ContentType,
	}
	switch {
	case c.Req.RawBody != nil:
		r.Body = c.Req.RawBody
	case c.Op.Patch:
		r.Body = map[string]any{"operations": c.Req.Patch}
	case c.Req.Body != nil:
		r.Body = c.Req.Body
	}
	return r
}

// MaxBodyBytes bounds --body and other JSON read from files or stdin.
const MaxBodyBytes = 16 << 20

// Build is the build phase: it turns an Input into a Call, converting and
// checking every value, and reports every problem it finds together. It
// reads only files the user named; it sends nothing.
func (op *Placed) Build(in Input, stdin io.Reader) (*Call, error) {
	c := &Call{Op: op, Command: in.Command,
		Req:     Req{Params: map[string]string{}, Query: url.Values{}},
		Given:   Given{Set: map[string]bool{}, Local: map[string]any{}, Typed: in.Values},
		Columns: op.Table, stdin: stdin}
	problems := c.placeArgs(in.Args)
	if in.Body != "" {
		if in.BodyData == nil {
			if err := in.LoadBody(stdin); err != nil {
				return nil, err
			}
		}
		if err := c.parseBody(in.Body, in.BodyData); err != nil {
			return nil, err
		}
	}
	problems = append(problems, c.placeFields(in.Values)...)
	problems = append(problems, c.missingRequired(in.Values)...)
	if in.Limit != nil {
		if p := c.setLimit(*in.Limit); p != "" {
			problems = append(problems, p)
		}
	}
	if in.All && op.List {
		// Without --limit the API answers every item at once: --all then
		// follows next_token only if an answer still has one.
		c.Pages.All = true
	}
	if len(problems) > 0 {
		return nil, inputProblems(in.Command, problems)
	}
	if err := c.shape(); err != nil {
		return nil, err
	}
	// The request as Shape built it, --body included, against the spec.
	if problems := c.specProblems(); len(problems) > 0 {
		return nil, inputProblems(in.Command, problems)
	}
	return c, nil
}

// placeArgs puts the positional arguments into the path's parameters.
func (c *Call) placeArgs(args []string) []string {
	var problems []string
	for i, name := range c.Op.Args.Params {
		if i >= len(args) {
			break
		}
		a := args[i]
		if strings.TrimSpace(a) == "" {
			problems = append(problems, fmt.Sprintf("argument %d (%s) is empty", i+1, ArgLabel(c.Op.Op, i)))
			continue
		}
		if p := c.argProblem(i, a); p != "" {
			problems = append(problems, p)
		}
		c.Req.Params[name] = a
	}
	return problems
}

// placeFields converts and checks every given field and puts its value
// where the field says.
func (c *Call) placeFields(values map[string][]string) []string {
	var problems []string
	for _, fd := range c.Op.Fields {
		raw, ok := values[fd.Flag]
		if !ok {
			continue
		}
		v, err := fieldValue(fd, raw)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if p := c.enumProblem(fd, v); p != "" {
			problems = append(problems, p)
			continue
		}
		if p := c.fieldProblem(fd, v); p != "" {
			problems = append(problems, p)
			continue
		}
		c.Given.Set[fd.Flag] = true
		c.place(fd, v)
	}
	return problems
}

// missingRequired names the required fields neither a flag nor --body gave.
func (c *Call) missingRequired(values map[string][]string) []string {
	var missing []string
	for _, fd := range c.Op.Fields {
		if !fd.Required || c.Given.Set[fd.Flag] || len(values[fd.Flag]) > 0 {
			continue
		}
		if fd.In == InBody && c.Req.Body != nil && output.Lookup(c.Req.Body, fd.Key) != nil {
			continue
		}
		missing = append(missing, "--"+fd.Flag)
	}
	switch {
	case len(missing) == 1:
		return []string{fmt.Sprintf("required flag %s not set", missing[0])}
	case len(missing) > 1:
		return []string{fmt.Sprintf("required flags %s not set", strings.Join(missing, ", "))}
	}
	return nil
}

// setLimit checks --limit's text and sets the query's limit.
func (c *Call) setLimit(text string) string {
	n, err := strconv.Atoi(strings.TrimSpace(text))
	switch {
	case err != nil:
		return fmt.Sprintf("--limit takes a whole number, got %s", usage.Shown(text))
	case n < 1 || n > 100:
		return fmt.Sprintf("--limit takes a whole number from 1 to 100, got %d", n)
	}
	c.Req.Query.Set("limit", strconv.Itoa(n))
	return ""
}

// shape runs the op's Shape, refusing a JSON Patch with nothing to change.
func (c *Call) shape() error {
	op := c.Op
	if op.Patch && len(c.Req.Patch) == 0 && op.Hooks.Shape == nil {
		return usage.Errorf("%s: %w: pass at least one field flag or --body with JSON Patch operations", c.Command, usage.ErrNothingToChange)
	}
	if op.Hooks.Shape != nil {
		if err := op.Hooks.Shape(c); err != nil {
			return err
		}
	}
	if op.Patch && len(c.Req.Patch) == 0 && c.Req.RawBody == nil {
		return usage.Errorf("%s: %w: pass at least one field flag or --body with JSON Patch operations", c.Command, usage.ErrNothingToChange)
	}
	return nil
}

// inputProblems reports every problem of one input in one usage error.
func inputProblems(command string, problems []string) error {
	return &usage.Error{Err: &InputError{command: command, problems: problems}}
}

// InputError keeps an input's problems apart, so a bulk file can list
// each under its line.
type InputError struct {
	command  string
	problems []string
}

func (e *InputError) Error() string {
	prefix := ""
	if e.command != "" {
		prefix = e.command + ": "
	}
	if len(e.problems) == 1 {
		return prefix + e.problems[0]
	}
	return fmt.Sprintf("%s%d problems:\n  %s", prefix, len(e.problems), strings.Join(e.problems, "\n  "))
}

// Problems are the input's problems, one line each.
func (e *InputError) Problems() []string { return e.problems }

// place puts one converted value where its field says.
func (c *Call) place(fd Field, v any) {
	switch fd.In {
	case InLocal:
		c.Given.Local[fd.Flag] = v
	case InQuery:
		switch t := v.(type) {
		case []any:
			for _, e := range t {
				c.Req.Query.Add(fd.Key, fmt.Sprint(e))
			}
		default:
			c.Req.Query.Set(fd.Key, QueryText(v))
		}
	case InPatch:
		base := "/" + strings.ReplaceAll(fd.Key, ".", "/")
		if kv, ok := v.(map[string]any); ok && fd.Type == TKV {
			// One "add" per key keeps the object's other keys.
			for _, k := range slices.Sorted(maps.Keys(kv)) {
				c.Req.Patch = append(c.Req.Patch, map[string]any{"op": "add", "path": base + "/" + PointerEscape(k), "value": kv[k]})
			}
			return
		}
		c.Req.Patch = append(c.Req.Patch, map[string]any{"op": "replace", "path": base, "value": v})
	default:
		SetPath(c.BodyObject(), fd.Key, v)
	}
}

// PointerEscape escapes a JSON Pointer token (RFC 6901).
func PointerEscape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// QueryText is a value as a query parameter spells it: as jsonscan.AsText
// does, and null as the word, since a query has no null of its own.
func QueryText(v any) string {
	if v == nil {
		return "null"
	}
	return jsonscan.AsText(v)
}

// fieldValue converts a field's text to its JSON value, checking type and enum.
func fieldValue(fd Field, raw []string) (any, error) {
	switch fd.Type {
	case TBool, TStrings, TTexts, TKV:
		return repeatableValue(fd, raw)
	}
	s := ""
	if len(raw) > 0 {
		s = raw[len(raw)-1]
	}
	switch fd.Type {
	case TInt:
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("invalid value %q for --%s: expected a whole number", s, fd.Flag)
		}
		return n, nil
	case TNumber:
		t := strings.TrimSpace(s)
		if _, err := strconv.ParseFloat(t, 64); err != nil || !json.Valid([]byte(t)) {
			return nil, fmt.Errorf("invalid value %q for --%s: expected a number", s, fd.Flag)
		}
		return json.Number(t), nil
	case TJSON:
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, fmt.Errorf("invalid JSON for --%s: %v", fd.Flag, err)
		}
		return v, nil
	}
	return s, nil
}

// enumProblem checks a converted value against the field's declared
// values. A field sent to the API takes a value the declaration does not
// list with a notice; one of orgctl's own options (local, sent nowhere)
// has no other values, so it refuses it.
func (c *Call) enumProblem(fd Field, v any) string {
	if len(fd.Enum) == 0 || DescribedEnum(c.Op.fieldRules(fd)) != nil {
		return "" // the description's values: the request check says what it does not list
	}
	values := []any{v}
	if list, ok := v.([]any); ok {
		values = list
	}
	for _, e := range values {
		s := QueryText(e)
		if slices.Contains(fd.Enum, s) {
			continue
		}
		if fd.In == InLocal && fd.Into == "" {
			return fmt.Sprintf("invalid value %q for --%s: allowed values are %s", s, fd.Flag, strings.Join(fd.Enum, ", "))
		}
		c.notice(EnumNotice("--"+fd.Flag, s, fd.Enum))
	}
	return ""
}

// EnumNotice is the one line that says a value outside the allowed ones
// is sent anyway, with the nearest allowed one when it looks like a typo.
func EnumNotice(where, value string, allowed []string) string {
	hint := ""
	if near := nearestValue(value, allowed); near != "" {
		hint = " (did you mean " + near + "?)"
	}
	return fmt.Sprintf("%s %q is not a value this orgctl knows%s; sending it anyway", where, value, hint)
}

// nearestValue is the allowed value a mistyped one most likely meant: one
// that differs only in case, else the nearest within a typo's distance. A
// value without letters (a version, a number) is taken as meant: 4.0 is
// no typo of 1.0.
func nearestValue(value string, allowed []string) string {
	for _, a := range allowed {
		if strings.EqualFold(a, value) {
			return a
		}
	}
	if !strings.ContainsFunc(value, unicode.IsLetter) {
		return ""
	}
	return suggest.Nearest(value, allowed, suggest.Typo(len(value)))
}

// notice adds a notice once.
func (c *Call) notice(n string) {
	if !slices.Contains(c.Notices, n) {
		c.Notices = append(c.Notices, n)
	}
}

// repeatableValue converts the kinds whose value is not one text alone:
// booleans (the last occurrence), lists and KEY=VALUE objects.
func repeatableValue(fd Field, raw []string) (any, error) {
	switch fd.Type {
	case TBool:
		s := ""
		if len(raw) > 0 {
			s = raw[len(raw)-1]
		}
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("invalid value %q for --%s: expected true or false", s, fd.Flag)
		}
		return b, nil
	case TStrings:
		out := make([]any, 0, len(raw))
		for _, s := range raw {
			for _, part := range strings.Split(s, ",") {
				part = strings.TrimSpace(part)
				if part == "" {
					continue
				}
				out = append(out, part)
			}
		}
		return out, nil
	case TTexts:
		out := make([]any, 0, len(raw))
		for _, s := range raw {
			out = append(out, s)
		}
		return out, nil
	}
	out := map[string]any{}
	for _, s := range raw {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("invalid --%s %q: expected KEY=VALUE", fd.Flag, s)
		}
		out[k] = LooseJSON(v)
	}
	return out, nil
}

// LooseJSON keeps numbers, booleans, null, objects and arrays typed in
// key=value pairs and everything else a string.
func LooseJSON(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err == nil {
		return v
	}
	return s
}

// SetPath stores v at a dot path ("deploy_params.commit_sha"), creating
// objects on the way and replacing any non-object in between.
func SetPath(m map[string]any, path string, v any) {
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[keys[len(keys)-1]] = v
}

// OpenSource opens a file argument, "-" meaning stdin.
func (c *Call) OpenSource(src string) (io.ReadCloser, error) {
	if src == "-" {
		if c.stdin == nil {
			return nil, fmt.Errorf("no standard input")
		}
		return io.NopCloser(c.stdin), nil
	}
	return os.Open(src)
}

// ReadLimited reads at most maxBodyBytes, failing (rather than cutting)
// when there is more; a regular file's size is checked before reading it.
func ReadLimited(r io.Reader, what string) ([]byte, error) {
	if err := checkFileSize(r, what); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(r, MaxBodyBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxBodyBytes {
		return nil, BodyTooLarge(what, -1)
	}
	return b, nil
}

// LoadBody reads the --body source once, from a file or stdin.
func (in *Input) LoadBody(stdin io.Reader) error {
	if in.Body == "" || in.BodyData != nil {
		return nil
	}
	var r io.Reader = stdin
	if in.Body != "-" {
		f, err := os.Open(in.Body)
		if err != nil {
			return usage.Errorf("--body: %v", err)
		}
		defer f.Close()
		r = f
	} else if stdin == nil {
		return usage.Errorf("--body -: no standard input")
	}
	b, err := ReadLimited(r, "--body "+in.Body)
	if err != nil {
		return usage.Errorf("--body: %v", err)
	}
	if b == nil {
		b = []byte{}
	}
	in.BodyData = b
	return nil
}

// parseBody takes --body: a JSON object, or for JSON-Patch operations
// either {"operations":[...]} or a bare array of operations.
func (c *Call) parseBody(src string, b []byte) error {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return usage.Errorf("--body %s is not valid JSON: %v", src, err)
	}
	// Decode stops after the first value: what follows would be dropped (or, for an array, sent raw).
	if _, err := dec.Token(); err != io.EOF {
		return usage.Errorf("--body %s is not valid JSON: data after the first value", src)
	}
	c.Given.FromBody = true
	if c.Op.Patch {
		switch t := v.(type) {
		case []any:
			c.Req.Patch = t
		case map[string]any:
			ops, ok := t["operations"].([]any)
			if !ok {
				return usage.Errorf("--body must be a JSON array of JSON Patch operations or {\"operations\": [...]}")
			}
			c.Req.Patch = ops
		default:
			return usage.Errorf("--body must be a JSON array of JSON Patch operations or {\"operations\": [...]}")
		}
		return nil
	}
	switch t := v.(type) {
	case map[string]any:
		c.Req.Body = t
	case []any:
		if c.Op.Method == "DELETE" || len(c.Op.Fields) > 0 {
			return usage.Errorf("--body %s must be a JSON object (got an array); the fields go inside it", src)
		}
		c.Req.RawBody = json.RawMessage(b)
	default:
		return usage.Errorf("--body %s must be a JSON object", src)
	}
	return nil
}

// SetArgKey records positional argument i's natural key, found by a lookup.
func (c *Call) SetArgKey(i int, key string) {
	if key == "" {
		return
	}
	if c.Labels.Keys == nil {
		c.Labels.Keys = map[int]string{}
	}
	c.Labels.Keys[i] = key
}
