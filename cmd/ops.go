package cmd

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

var stringsReplacer = strings.NewReplacer(".", "_", "-", "_")

// Kind is how a flag's text becomes a JSON value.
type Kind int

const (
	KString  Kind = iota
	KInt          // integer
	KNumber       // any JSON number
	KBool         // true/false
	KStrings      // repeatable flag -> array of strings
	KKV           // repeatable key=value -> object (values parsed as JSON when they are JSON, else strings)
	KJSON         // a JSON value given inline
)

// In says where a field goes.
type In int

const (
	InBody  In = iota // request body key (dot path for nesting)
	InQuery           // query parameter
	InPatch           // a JSON-Patch "replace" operation on /Key
)

// Field is one flag of an operation.
type Field struct {
	Flag     string
	Key      string
	In       In
	Kind     Kind
	Required bool
	Enum     []string
	Usage    string
	Short    string
	// Default is used for required-less fields only as the flag's shown default.
	Default string
	// Complete names the object kind the flag's value completes from ("users",
	// "groups": see completionKinds); "" infers it from Key, "-" turns it off.
	Complete string
}

// Op declares one API operation as a command. The shared machinery parses
// flags into a Call, validates it, sends it (budgeted, with --dry-run) and
// prints the result.
type Op struct {
	Use     string // "get USER_ID"
	Short   string
	Long    string
	Example string
	Method  string
	Path    string   // "/users/{userId}"
	Args    []string // path parameters filled from positional args, in order
	Scope   string   // "Users > Read", as the API docs name it
	Fields  []Field
	Columns []output.Column
	// List adds --limit and --all (next_token pagination).
	List bool
	// Body adds --body FILE|- for JSON too rich for flags.
	Body bool
	// Patch: the API takes {"operations":[...]} (JSON Patch).
	Patch bool
	// Destructive asks for confirmation (or --yes).
	Destructive bool
	// Prepare validates or shapes the call before anything is sent.
	Prepare func(f *Factory, c *Call) error
	// Print replaces the default output.
	Print func(f *Factory, c *Call, resp *client.Response) error
	// Hidden keeps a command out of help (deprecated endpoints reached through a flag).
	Hidden bool
	// ArgsComplete names, per positional argument, the object kind it
	// completes from; missing or "" entries are inferred from the path
	// parameter's name, "-" turns completion off.
	ArgsComplete []string
}

// Group is a command family (or a sub-group such as "groups members").
type Group struct {
	Name    string
	Aliases []string
	Short   string
	Long    string
	Example string
	// Columns are the default table columns for the group's operations.
	Columns []output.Column
	Ops     []Op
	Groups  []Group
	// Extra are commands that are not one API operation (local checks, multi-request reports).
	Extra []func(f *Factory) *cobra.Command
}

// Call is an operation's parsed invocation.
type Call struct {
	Op     *Op
	Cmd    *cobra.Command
	Params map[string]string
	Query  url.Values
	// Body is the JSON object to send (nil: no body).
	Body map[string]any
	// RawBody, when set, is sent instead of Body (e.g. a JSON array).
	RawBody json.RawMessage
	// ContentType of RawBody when it is not JSON (multipart uploads).
	ContentType string
	Patch       []any
	Columns     []output.Column
	// after are follow-up requests built from the first answer's data.
	after []func(data json.RawMessage) (client.Request, error)
}

// Request is what the call sends.
func (c *Call) Request() client.Request {
	r := client.Request{
		Method:      c.Op.Method,
		Path:        client.Expand(c.Op.Path, c.Params),
		Query:       c.Query,
		Scope:       c.Op.Scope,
		ContentType: c.ContentType,
	}
	switch {
	case c.RawBody != nil:
		r.Body = c.RawBody
	case c.Op.Patch:
		r.Body = map[string]any{"operations": c.Patch}
	case c.Body != nil:
		r.Body = c.Body
	}
	return r
}

func (g Group) command(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:     g.Name,
		Aliases: g.Aliases,
		Short:   g.Short,
		Long:    strings.TrimSpace(g.Short + "\n\n" + g.Long),
		Example: g.Example,
		Args:    noArgsGroup,
		RunE:    func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	for i := range g.Ops {
		op := &g.Ops[i]
		if op.Columns == nil {
			op.Columns = g.Columns
		}
		c.AddCommand(op.command(f))
	}
	for _, sub := range g.Groups {
		c.AddCommand(sub.command(f))
	}
	for _, mk := range g.Extra {
		c.AddCommand(mk(f))
	}
	return c
}

func noArgsGroup(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("unknown command %q for %q\nRun '%s --help' for the list of commands.", args[0], c.CommandPath(), c.CommandPath())
	}
	return nil
}

func (op *Op) mutating() bool { return op.Method != http.MethodGet }

// Cost is the operation's price under the default budget.
func (op *Op) Cost() int { return ratebudget.DefaultConfig().Cost(op.Path) }

func (op *Op) help() string {
	var b strings.Builder
	b.WriteString(op.Short)
	if op.Long != "" {
		b.WriteString("\n\n")
		b.WriteString(strings.TrimSpace(op.Long))
	}
	fmt.Fprintf(&b, "\n\nAPI:    %s /api/v2%s\nScope:  %s\nCost:   %d points per request (budget: %d points per minute)",
		op.Method, op.Path, op.Scope, op.Cost(), ratebudget.DefaultConfig().Points)
	if op.List {
		b.WriteString("\n\nWithout --limit, one request returns every item (the cheapest in points).\n" +
			"--limit N fetches one page; add --all to follow next_token through every page.")
	}
	return b.String()
}

func (op *Op) command(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:     op.Use,
		Short:   op.Short,
		Long:    op.help(),
		Example: op.Example,
		Hidden:  op.Hidden,
		Annotations: map[string]string{
			"scope":  op.Scope,
			"method": op.Method,
			"path":   op.Path,
			"cost":   strconv.Itoa(op.Cost()),
		},
	}
	c.Args = func(c *cobra.Command, args []string) error {
		if len(args) != len(op.Args) {
			want := "no arguments"
			if len(op.Args) > 0 {
				want = fmt.Sprintf("%d argument(s): %s", len(op.Args), strings.Join(argNames(c.Use), " "))
			}
			return usageErrorf("%s takes %s, got %d\nUsage: %s", c.CommandPath(), want, len(args), c.UseLine())
		}
		for i, a := range args {
			if strings.TrimSpace(a) == "" {
				return usageErrorf("%s: argument %d (%s) is empty", c.CommandPath(), i+1, op.Args[i])
			}
		}
		return nil
	}
	fl := c.Flags()
	for _, fd := range op.Fields {
		usage := fd.Usage
		if len(fd.Enum) > 0 {
			usage += " {" + strings.Join(fd.Enum, "|") + "}"
		}
		if fd.Required {
			usage += " (required)"
		}
		switch fd.Kind {
		case KBool:
			fl.BoolP(fd.Flag, fd.Short, false, usage)
		case KStrings, KKV:
			fl.StringArrayP(fd.Flag, fd.Short, nil, usage)
		default:
			fl.StringP(fd.Flag, fd.Short, fd.Default, usage)
		}
		if len(fd.Enum) > 0 {
			enum := fd.Enum
			c.RegisterFlagCompletionFunc(fd.Flag, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
				return enum, cobra.ShellCompDirectiveNoFileComp
			})
		}
	}
	if op.Body {
		fl.String("body", "", "JSON request body from `FILE` (- for stdin); flags override its fields")
	}
	if op.List {
		fl.Int("limit", 0, "fetch one page of at most `N` items (1-100)")
		fl.Bool("all", false, "with --limit, follow next_token through every page")
	}
	if op.mutating() {
		fl.Bool("dry-run", false, "print the request, its point cost and the expected wait; send nothing")
	}
	if op.Destructive {
		fl.BoolP("yes", "y", false, "do not ask for confirmation (required when stdin is not a terminal)")
	}
	op.wireCompletion(f, c)
	c.RunE = func(c *cobra.Command, args []string) error {
		call, err := op.parse(f, c, args)
		if err != nil {
			return err
		}
		return f.run(call)
	}
	return c
}

func argNames(use string) []string {
	parts := strings.Fields(use)
	if len(parts) <= 1 {
		return nil
	}
	return parts[1:]
}

// parse turns flags and args into a Call, rejecting bad input before any
// request.
func (op *Op) parse(f *Factory, c *cobra.Command, args []string) (*Call, error) {
	call := &Call{Op: op, Cmd: c, Params: map[string]string{}, Query: url.Values{}, Columns: op.Columns}
	for i, name := range op.Args {
		call.Params[name] = args[i]
	}
	fl := c.Flags()
	if op.Body {
		if src, _ := fl.GetString("body"); src != "" {
			if err := call.readBody(f, src); err != nil {
				return nil, err
			}
		}
	}
	for _, fd := range op.Fields {
		if !fl.Changed(fd.Flag) {
			continue
		}
		v, err := fieldValue(fl, fd)
		if err != nil {
			return nil, err
		}
		switch fd.In {
		case InQuery:
			switch t := v.(type) {
			case []any:
				for _, e := range t {
					call.Query.Add(fd.Key, fmt.Sprint(e))
				}
			default:
				call.Query.Set(fd.Key, queryText(v))
			}
		case InPatch:
			base := "/" + strings.ReplaceAll(fd.Key, ".", "/")
			if kv, ok := v.(map[string]any); ok && fd.Kind == KKV {
				// One "add" per key keeps the object's other keys.
				for _, k := range sortedKeys(kv) {
					call.Patch = append(call.Patch, map[string]any{"op": "add", "path": base + "/" + pointerEscape(k), "value": kv[k]})
				}
				continue
			}
			call.Patch = append(call.Patch, map[string]any{"op": "replace", "path": base, "value": v})
		default:
			if call.Body == nil {
				call.Body = map[string]any{}
			}
			setPath(call.Body, fd.Key, v)
		}
	}
	for _, fd := range op.Fields {
		if !fd.Required {
			continue
		}
		present := fl.Changed(fd.Flag)
		if !present && fd.In == InBody && call.Body != nil {
			present = lookupPath(call.Body, fd.Key) != nil
		}
		if !present {
			return nil, usageErrorf("%s: required flag --%s not set", c.CommandPath(), fd.Flag)
		}
	}
	if op.List {
		limit, _ := fl.GetInt("limit")
		all, _ := fl.GetBool("all")
		if fl.Changed("limit") && (limit < 1 || limit > 100) {
			return nil, usageErrorf("--limit must be between 1 and 100, got %d", limit)
		}
		if all && limit == 0 {
			limit = 100
		}
		if limit > 0 {
			call.Query.Set("limit", strconv.Itoa(limit))
		}
	}
	if op.Patch && len(call.Patch) == 0 {
		return nil, usageErrorf("%s: nothing to change: pass at least one field flag or --body with JSON Patch operations", c.CommandPath())
	}
	if op.Prepare != nil {
		if err := op.Prepare(f, call); err != nil {
			return nil, err
		}
	}
	return call, nil
}

// pointerEscape escapes a JSON Pointer token (RFC 6901).
func pointerEscape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

func queryText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	default:
		b, _ := json.Marshal(t)
		return string(b)
	}
}

// fieldValue converts a flag to its JSON value, validating enums and types.
func fieldValue(fl *pflag.FlagSet, fd Field) (any, error) {
	checkEnum := func(s string) error {
		if len(fd.Enum) == 0 {
			return nil
		}
		for _, e := range fd.Enum {
			if s == e {
				return nil
			}
		}
		return usageErrorf("invalid value %q for --%s: allowed values are %s", s, fd.Flag, strings.Join(fd.Enum, ", "))
	}
	switch fd.Kind {
	case KBool:
		b, _ := fl.GetBool(fd.Flag)
		return b, nil
	case KStrings:
		ss, _ := fl.GetStringArray(fd.Flag)
		out := make([]any, 0, len(ss))
		for _, s := range ss {
			for _, part := range strings.Split(s, ",") {
				part = strings.TrimSpace(part)
				if part == "" {
					continue
				}
				if err := checkEnum(part); err != nil {
					return nil, err
				}
				out = append(out, part)
			}
		}
		return out, nil
	case KKV:
		ss, _ := fl.GetStringArray(fd.Flag)
		out := map[string]any{}
		for _, s := range ss {
			k, v, ok := strings.Cut(s, "=")
			if !ok || k == "" {
				return nil, usageErrorf("invalid --%s %q: expected KEY=VALUE", fd.Flag, s)
			}
			out[k] = looseJSON(v)
		}
		return out, nil
	}
	s, _ := fl.GetString(fd.Flag)
	if err := checkEnum(s); err != nil {
		return nil, err
	}
	switch fd.Kind {
	case KInt:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, usageErrorf("invalid value %q for --%s: expected an integer", s, fd.Flag)
		}
		return n, nil
	case KNumber:
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return nil, usageErrorf("invalid value %q for --%s: expected a number", s, fd.Flag)
		}
		return json.Number(s), nil
	case KJSON:
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, usageErrorf("invalid JSON for --%s: %v", fd.Flag, err)
		}
		return v, nil
	}
	return s, nil
}

// looseJSON keeps numbers, booleans, null, objects and arrays typed in
// key=value pairs and everything else a string.
func looseJSON(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err == nil {
		return v
	}
	return s
}

func setPath(m map[string]any, path string, v any) {
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

func lookupPath(m map[string]any, path string) any {
	var cur any = m
	for _, k := range strings.Split(path, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[k]
	}
	return cur
}

// readBody loads --body: a JSON object, or for JSON-Patch operations either
// {"operations":[...]} or a bare array of operations.
func (c *Call) readBody(f *Factory, src string) error {
	var r io.Reader
	if src == "-" {
		r = f.IO.In
	} else {
		file, err := os.Open(src)
		if err != nil {
			return usageErrorf("--body: %v", err)
		}
		defer file.Close()
		r = file
	}
	b, err := io.ReadAll(bufio.NewReader(io.LimitReader(r, 16<<20)))
	if err != nil {
		return usageErrorf("--body: %v", err)
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return usageErrorf("--body %s is not valid JSON: %v", src, err)
	}
	if c.Op.Patch {
		switch t := v.(type) {
		case []any:
			c.Patch = t
		case map[string]any:
			ops, ok := t["operations"].([]any)
			if !ok {
				return usageErrorf("--body for %s must be a JSON array of JSON Patch operations or {\"operations\": [...]}", c.Cmd.CommandPath())
			}
			c.Patch = ops
		default:
			return usageErrorf("--body must be a JSON array or object")
		}
		return nil
	}
	switch t := v.(type) {
	case map[string]any:
		c.Body = t
	case []any:
		c.RawBody = json.RawMessage(b)
	default:
		return usageErrorf("--body must be a JSON object")
	}
	return nil
}

// run confirms, dry-runs or sends the call and prints the answer.
func (f *Factory) run(call *Call) error {
	op := call.Op
	p, err := f.Printer()
	if err != nil {
		return err
	}
	if op.mutating() {
		if dry, _ := call.Cmd.Flags().GetBool("dry-run"); dry {
			return f.dryRun(call)
		}
	}
	if op.Destructive {
		if err := f.confirm(call); err != nil {
			return err
		}
	}
	cl, err := f.Client()
	if err != nil {
		return err
	}
	req := call.Request()
	var resp *client.Response
	if all, _ := call.Cmd.Flags().GetBool("all"); op.List && all {
		var parts []json.RawMessage
		err = cl.Pages(ctx(), req, func(r *client.Response) error {
			parts = append(parts, r.Data)
			resp = r
			return nil
		})
		if err == nil {
			resp.Data, err = client.JoinArrays(parts)
		}
	} else {
		resp, err = cl.Do(ctx(), req)
		if err == nil && op.List && resp.HasMore && !f.v.GetBool("quiet") {
			f.IO.Notice("more results available: add --all to fetch every page")
		}
	}
	if err != nil {
		return f.explain(err)
	}
	for _, next := range call.after {
		r2, err := next(resp.Data)
		if err == nil {
			resp, err = cl.Do(ctx(), r2)
		}
		if err != nil {
			f.changed(call)
			return fmt.Errorf("%s %s succeeded, but the follow-up request failed: %w", req.Method, req.Path, f.explain(err))
		}
	}
	f.changed(call)
	if op.Print != nil {
		return op.Print(f, call, resp)
	}
	return p.Print(resp.Data, call.Columns)
}

// changed is told about every successful mutation (completion caches use it).
func (f *Factory) changed(call *Call) {
	if call.Op.mutating() && f.OnChange != nil {
		f.OnChange(ratebudget.Family(call.Op.Path))
	}
}

// explain adds what to do next to API errors.
func (f *Factory) explain(err error) error {
	var ae *client.APIError
	if !errors.As(err, &ae) {
		return err
	}
	cfg, _ := f.Config()
	profile := "default"
	if cfg != nil {
		profile = cfg.Profile
	}
	switch ae.StatusCode {
	case http.StatusUnauthorized:
		if os.Getenv("ORGCTL_TOKEN") != "" {
			ae.Hint = "The token in ORGCTL_TOKEN was rejected: check it, or unset it to use the stored login."
		} else {
			ae.Hint = fmt.Sprintf("Log in again with `orgctl auth login --profile %s`, or set ORGCTL_TOKEN.", profile)
		}
	case http.StatusForbidden:
		if ae.Scope != "" {
			ae.Hint = fmt.Sprintf("Create a token with the %q scope (Settings > API) and log in with it.", ae.Scope)
		}
	}
	if h := f.spaceHint(cfg, ae); h != "" {
		ae.Hint = strings.TrimSpace(ae.Hint + "\n" + h)
	}
	return ae
}

func (f *Factory) confirm(call *Call) error {
	if yes, _ := call.Cmd.Flags().GetBool("yes"); yes {
		return nil
	}
	what := call.Cmd.CommandPath()
	if len(call.Params) > 0 {
		var ids []string
		for _, a := range call.Op.Args {
			ids = append(ids, call.Params[a])
		}
		what += " " + strings.Join(ids, " ")
	}
	if !f.IO.InTTY || !f.IO.ErrTTY {
		return usageErrorf("refusing to run `%s` without confirmation: stdin is not a terminal; pass --yes", what)
	}
	fmt.Fprintf(f.IO.Err, "Run `%s`? This cannot be undone. [y/N] ", what)
	line, _ := bufio.NewReader(f.IO.In).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	return ErrCancelled
}

// sortedKeys is used where map order would make output unstable.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
