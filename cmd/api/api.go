package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output/redact"
)

// apiMethods are the methods the management API uses.
var apiMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// apiOptions is one `orgctl api` invocation, parsed.
type apiOptions struct {
	Method   string
	Path     string // relative to /api/v2, as typed (already escaped)
	Host     string // host of a full URL argument, checked against the profile
	Query    url.Values
	Body     any // nil, map[string]any, or json.RawMessage from --input
	Paginate bool
	DryRun   bool
	Yes      bool
}

func NewCmd(f *cli.Factory) *cobra.Command {
	var fields, typed []string
	var input string
	var paginate, dry, yes bool
	var method string
	c := &cobra.Command{
		Use:   "api [METHOD] PATH",
		Short: "Call any management API endpoint",
		Long: `Send one request to any endpoint of the management API and print its data, like
gh api. Without METHOD (or -X METHOD) the request is a GET: 'orgctl api /users'
lists users; fields do not turn it into a POST, as they do in gh (GET fields are
query parameters here). PATH is relative to /api/v2 (users, /users/user_abc); a path starting
/api/v2 or a full URL on the profile's host is accepted too. PATH is sent as
typed: escape special characters yourself; ".." segments are refused.

-f KEY=VALUE adds a string field, -F KEY=VALUE a typed one: true, false, null
and numbers become JSON values, @FILE reads the value from a file (@- from
stdin). KEY[SUB]=V nests objects and KEY[]=V appends to arrays. For GET the
fields become query parameters; otherwise they form the JSON body. With
--input FILE (- for stdin) the file is the body and the fields go in the query.

The request is paced and priced like every other command (see orgctl budget
status). The scope it needs depends on the endpoint: orgctl names it in errors
when PATH matches an endpoint it has a command for. The answer's data is printed
as JSON unless -o, --jq or --template say otherwise; --paginate follows
next_token and joins the pages' arrays into one (each page is paced and priced).

A DELETE is sent as typed too, but first it is shown and asked about at a
terminal, as every command that removes something asks; a script passes --yes
(without a terminal and without --yes it is refused, nothing sent).`,
		Example: `  orgctl api /users
  orgctl api users -f email=ada@example.com
  orgctl api /groups --paginate -f limit=100 --jq '.[].name'
  orgctl api POST folders -f name=Reports -f folder_type=app
  orgctl api PATCH /users/user_0000000000000000005a4d0000000004 -F 'operations[][op]=replace' -F 'operations[][path]=/active' -F 'operations[][value]=false'
  orgctl api PUT /organization/ai_settings --input ai.json
  orgctl api DELETE /folders/app_8 --dry-run
  orgctl api DELETE /folders/app_8 --yes`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return cli.UsageErrorf("api takes PATH, or METHOD PATH; got %d arguments\nUsage: %s", len(args), c.UseLine())
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			m, path, err := methodAndPath(args, method, c.Flags().Changed("method"))
			if err != nil {
				return err
			}
			opts, err := parseAPI(f, m, path, fields, typed, input)
			if err != nil {
				return err
			}
			opts.Paginate, opts.DryRun, opts.Yes = paginate, dry, yes
			if paginate && opts.Method != http.MethodGet {
				return cli.UsageErrorf("--paginate works with GET only")
			}
			return apiRun(c.Context(), f, c, opts)
		},
	}
	fl := c.Flags()
	fl.StringVarP(&method, "method", "X", http.MethodGet, "the HTTP `METHOD`, as gh api takes it (or give METHOD before PATH)")
	c.RegisterFlagCompletionFunc("method", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return apiMethods, cobra.ShellCompDirectiveNoFileComp
	})
	fl.StringArrayVarP(&fields, "raw-field", "f", nil, "add a string field `KEY=VALUE` (repeatable)")
	fl.StringArrayVarP(&typed, "field", "F", nil, "add a typed field `KEY=VALUE`: true/false/null/numbers as JSON, @FILE reads a file (repeatable)")
	fl.StringVar(&input, "input", "", "send the JSON body from `FILE` (- for stdin); fields then go in the query")
	fl.BoolVar(&paginate, "paginate", false, "follow next_token through every page and join the arrays (GET)")
	fl.BoolVar(&dry, "dry-run", false, "print the request, its point cost and the expected wait; send nothing")
	fl.BoolVarP(&yes, "yes", "y", false, "send a DELETE without asking")
	c.RegisterFlagCompletionFunc("raw-field", cobra.NoFileCompletions)
	c.ValidArgsFunction = func(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) == 0 && !c.Flags().Changed("method") {
			return apiMethods, cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return c
}

// methodAndPath reads the arguments: PATH alone (a GET, or -X), or
// METHOD PATH as before.
func methodAndPath(args []string, flagMethod string, flagGiven bool) (string, string, error) {
	if len(args) == 1 {
		if isMethod(args[0]) {
			return "", "", cli.UsageErrorf("api %s: PATH is missing (orgctl api %s /users)", args[0], strings.ToUpper(args[0]))
		}
		return flagMethod, args[0], nil
	}
	if flagGiven && !strings.EqualFold(flagMethod, args[0]) {
		return "", "", cli.UsageErrorf("api: the method is given twice (%s and -X %s): pass it once", args[0], flagMethod)
	}
	return args[0], args[1], nil
}

// isMethod says whether s names a method api sends, in any case.
func isMethod(s string) bool { return slices.Contains(apiMethods, strings.ToUpper(s)) }

// parseAPI validates everything the user typed; nothing is sent on error.
func parseAPI(f *cli.Factory, method, path string, raw, typed []string, input string) (*apiOptions, error) {
	o := &apiOptions{Method: strings.ToUpper(method), Query: url.Values{}}
	if !isMethod(o.Method) {
		return nil, cli.UsageErrorf("invalid method %q: expected one of %s", method, strings.Join(apiMethods, ", "))
	}
	p, q, host, err := splitAPIPath(path)
	if err != nil {
		return nil, err
	}
	o.Path, o.Host, o.Query = p, host, q

	fieldsInQuery := o.Method == http.MethodGet || input != ""
	var body map[string]any
	add := func(kv string, value func(string) (any, error)) error {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return cli.UsageErrorf("invalid field %q: expected KEY=VALUE", kv)
		}
		val, err := value(v)
		if err != nil {
			return err
		}
		keys, err := fieldKeys(k)
		if err != nil {
			return err
		}
		if fieldsInQuery {
			if len(keys) > 2 || (len(keys) == 2 && keys[1] != "") {
				return cli.UsageErrorf("field %q: nested keys need a JSON body (not GET, no --input)", k)
			}
			o.Query.Add(keys[0], opdef.QueryText(val))
			return nil
		}
		if body == nil {
			body = map[string]any{}
		}
		return setField(body, keys, val, k)
	}
	for _, kv := range raw {
		if err := add(kv, func(s string) (any, error) { return s, nil }); err != nil {
			return nil, err
		}
	}
	var fileBytes int64 // read by -F KEY=@FILE, held against the one body limit
	for _, kv := range typed {
		if err := add(kv, func(s string) (any, error) { return typedValue(f, s, &fileBytes) }); err != nil {
			return nil, err
		}
	}
	if body != nil {
		o.Body = body
	}
	if input != "" {
		if err := o.readInput(f, input); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// readInput makes the body the JSON of --input FILE ("-": stdin); an empty
// file leaves the body as the fields made it.
func (o *apiOptions) readInput(f *cli.Factory, input string) error {
	b, err := opdef.ReadBodyFile(input, f.IO.In, "--input "+input)
	if err != nil {
		return cli.UsageErrorf("%v", err)
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	if !json.Valid(b) {
		return cli.UsageErrorf("--input %s is not valid JSON", input)
	}
	if op := knownOp(o.Method, o.Path); b[0] != '{' && op != nil && takesObject(op) {
		return cli.UsageErrorf("--input %s must be a JSON object: %s %s takes one, and %s would replace it", input, o.Method, o.Path, jsonKind(b))
	}
	o.Body = json.RawMessage(b)
	return nil
}

// takesObject reports whether an operation's published body is a JSON
// object: it has named values, or its schema is an object's.
func takesObject(op *spec.Operation) bool {
	return len(op.Body) > 0 || strings.HasPrefix(op.Schema, `{"type":"object"`)
}

// jsonKind names the kind of a JSON text, for messages.
func jsonKind(b []byte) string {
	switch b[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// splitAPIPath reduces PATH (relative, /api/v2/..., or a full URL) to the
// escaped path under /api/v2 and its query.
func splitAPIPath(s string) (path string, q url.Values, host string, err error) {
	if strings.TrimSpace(s) == "" {
		return "", nil, "", cli.UsageErrorf("empty PATH")
	}
	if err := checkTypedPath(s); err != nil {
		return "", nil, "", err
	}
	if strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") {
		if s, host, err = underAPI(s); err != nil {
			return "", nil, "", err
		}
	}
	s, rawQuery, _ := strings.Cut(s, "?")
	q, perr := url.ParseQuery(rawQuery)
	if perr != nil {
		return "", nil, "", cli.UsageErrorf("invalid query in PATH: %v", perr)
	}
	if !strings.HasPrefix(s, "/") {
		s = "/" + s
	}
	if rest, ok := strings.CutPrefix(s, "/api/v2"); ok && (rest == "" || strings.HasPrefix(rest, "/")) {
		s = rest
	}
	if s == "" || s == "/" {
		return "", nil, "", cli.UsageErrorf("PATH names no endpoint")
	}
	if err := checkSegments(s); err != nil {
		return "", nil, "", err
	}
	return s, q, host, nil
}

// underAPI reduces a full URL to its escaped path and query, which must be
// under /api/v2, and its host.
func underAPI(s string) (path, host string, err error) {
	u, perr := url.Parse(s)
	if perr != nil || u.Host == "" {
		return "", "", cli.UsageErrorf("invalid URL %q", redact.URL(s))
	}
	if u.User != nil {
		return "", "", cli.UsageErrorf("URL %q carries user info (USER:PASSWORD@), which is never sent; remove it", redact.URL(s))
	}
	path = u.EscapedPath()
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	if !strings.HasPrefix(path, "/api/v2/") && path != "/api/v2" {
		return "", "", cli.UsageErrorf("URL %q is not under /api/v2", redact.URL(u.String()))
	}
	return path, u.Host, nil
}

// checkSegments refuses a path whose segments a server could read as
// another path.
func checkSegments(s string) error {
	segs := strings.Split(s, "/")
	for i, seg := range segs {
		dec, _ := url.PathUnescape(seg)
		if dec == ".." || dec == "." {
			return cli.UsageErrorf("PATH %q: %q segments are not allowed", s, seg)
		}
		// A server that decodes %2F sees the parts: none may climb or fold.
		if strings.Contains(dec, "/") {
			for _, part := range strings.Split(dec, "/") {
				if part == "" || part == "." || part == ".." {
					return cli.UsageErrorf("PATH %q: segment %q decodes to %q, which a server may read as another path; escape it differently or leave it out", s, seg, dec)
				}
			}
		}
		if strings.ContainsAny(seg, "#") {
			return cli.UsageErrorf("PATH %q: escape '#' as %%23", s)
		}
		if seg == "" && i > 0 && i < len(segs)-1 {
			return cli.UsageErrorf("PATH %q has an empty segment (//), which servers may fold into another endpoint", s)
		}
	}
	return nil
}

// checkTypedPath refuses what would make the request go elsewhere than the
// PATH typed: an invalid %-escape (the URL would not parse), control or
// invisible characters (a pasted newline), a backslash (some servers read
// it as '/'), surrounding spaces, and text that is not UTF-8.
func checkTypedPath(s string) error {
	shown := redact.URL(s) // a pasted URL may carry a password
	// at is a byte's position in the PATH as shown, without the user info.
	at := func(i int) int { return i + 1 - (len(s) - len(shown)) }
	if !utf8.ValidString(s) {
		return cli.UsageErrorf("PATH %q is not valid UTF-8", shown)
	}
	for i, r := range s {
		switch {
		case r == '%':
			if i+2 >= len(s) || !isHexDigit(s[i+1]) || !isHexDigit(s[i+2]) {
				return cli.UsageErrorf("PATH %q: invalid escape at byte %d: '%%' must be followed by two hex digits (write a literal %% as %%25)", shown, at(i))
			}
		case r == '\\':
			return cli.UsageErrorf("PATH %q: escape '\\' as %%5C", shown)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029':
			return cli.UsageErrorf("PATH %q: control or invisible character %U at byte %d; remove it", shown, r, at(i))
		}
	}
	if strings.TrimSpace(s) != s {
		return cli.UsageErrorf("PATH %q has leading or trailing spaces; remove them", shown)
	}
	return nil
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// fieldKeys splits "a[b][]" into ["a","b",""].
func fieldKeys(k string) ([]string, error) {
	name, rest, nested := strings.Cut(k, "[")
	if name == "" {
		return nil, cli.UsageErrorf("invalid field key %q", k)
	}
	keys := []string{name}
	if !nested {
		return keys, nil
	}
	rest = "[" + rest
	for rest != "" {
		if rest[0] != '[' {
			return nil, cli.UsageErrorf("invalid field key %q: expected KEY[SUB]...", k)
		}
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return nil, cli.UsageErrorf("invalid field key %q: missing ]", k)
		}
		keys = append(keys, rest[1:end])
		rest = rest[end+1:]
	}
	return keys, nil
}

// setField stores v at keys; "" appends to an array, and keys after "[]"
// fill the last element until they name a value it already has (as gh does).
func setField(m map[string]any, keys []string, v any, orig string) error {
	var set func(cur any, keys []string) (any, error)
	set = func(cur any, keys []string) (any, error) {
		if len(keys) == 0 {
			return v, nil
		}
		k := keys[0]
		if k == "" {
			arr, ok := cur.([]any)
			if cur != nil && !ok {
				return nil, cli.UsageErrorf("field %q: %v is not an array", orig, cur)
			}
			if len(keys) > 1 && len(arr) > 0 {
				if last, ok := arr[len(arr)-1].(map[string]any); ok && !hasLeaf(last, keys[1:]) {
					next, err := set(last, keys[1:])
					if err != nil {
						return nil, err
					}
					arr[len(arr)-1] = next
					return arr, nil
				}
			}
			elem, err := set(nil, keys[1:])
			if err != nil {
				return nil, err
			}
			return append(arr, elem), nil
		}
		obj, ok := cur.(map[string]any)
		if cur != nil && !ok {
			return nil, cli.UsageErrorf("field %q: %v is not an object", orig, cur)
		}
		if obj == nil {
			obj = map[string]any{}
		}
		next, err := set(obj[k], keys[1:])
		if err != nil {
			return nil, err
		}
		obj[k] = next
		return obj, nil
	}
	_, err := set(m, keys)
	return err
}

// hasLeaf reports whether keys already lead to a value in m ("" never does).
func hasLeaf(m map[string]any, keys []string) bool {
	var cur any = m
	for _, k := range keys {
		obj, ok := cur.(map[string]any)
		if !ok || k == "" {
			return false
		}
		if cur, ok = obj[k]; !ok {
			return false
		}
	}
	return true
}

// typedValue converts a -F value: JSON literals and numbers, or @file;
// read counts the bytes files add to the body.
func typedValue(f *cli.Factory, s string, read *int64) (any, error) {
	switch s {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	}
	if name, ok := strings.CutPrefix(s, "@"); ok {
		b, err := opdef.ReadBodyFile(name, f.IO.In, "-F "+s)
		if err != nil {
			return nil, cli.UsageErrorf("%v", err)
		}
		if *read += int64(len(b)); *read > opdef.MaxBodyBytes {
			return nil, cli.UsageErrorf("%v", opdef.BodyTooLarge("the body from -F KEY=@FILE files", *read))
		}
		return strings.TrimSuffix(string(b), "\n"), nil
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil && json.Valid([]byte(s)) {
		return json.Number(s), nil
	}
	return s, nil
}

// knownScope is the scope the published description says PATH needs, as
// the token settings name it, so a 403 can say which scope to add.
func knownScope(method, path string) string {
	op := knownOp(method, path)
	if op == nil {
		return ""
	}
	if op.ScopeName != "" {
		return op.ScopeName
	}
	return op.Scope
}

// knownOp is the published operation whose path template PATH fills; where
// two templates fit, the one with more fixed segments ("/users/reset2fa/{id}"
// over "/users/{id}/{name}") is the one meant.
func knownOp(method, path string) *spec.Operation {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	var best *spec.Operation
	bestFixed := -1
	ops := spec.Operations()
	for i := range ops {
		if ops[i].Method != method {
			continue
		}
		if fixed, ok := templateMatches(ops[i].Path, segs); ok && fixed > bestFixed {
			best, bestFixed = &ops[i], fixed
		}
	}
	return best
}

// templateMatches reports whether segs fill the template, and how many of
// its segments are fixed words rather than parameters.
func templateMatches(tmpl string, segs []string) (int, bool) {
	parts := strings.Split(strings.Trim(tmpl, "/"), "/")
	if len(parts) != len(segs) {
		return 0, false
	}
	fixed := 0
	for i, p := range parts {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			continue
		}
		if p != segs[i] {
			return 0, false
		}
		fixed++
	}
	return fixed, true
}

// apiRun sends the typed request through the same engine as every
// command: one client, the budget, --dry-run, pagination and printing.
func apiRun(ctx context.Context, f *cli.Factory, c *cobra.Command, o *apiOptions) error {
	e, err := engine.New(f)
	if err != nil {
		return err
	}
	var confirm *opdef.Confirm
	if o.Method == http.MethodDelete {
		// The raw command may send any DELETE, the built-in group's or the
		// root folder's among them, so it asks as every removal does: the
		// request as it will go, which is all it knows of what it removes.
		confirm = &opdef.Confirm{Question: strings.ReplaceAll(
			fmt.Sprintf("Send DELETE %s? The API removes what the path names; this cannot be undone.", o.Path), "%", "%%")}
	}
	op := &opdef.Op{Method: o.Method, Path: o.Path, Scope: knownScope(o.Method, o.Path), List: o.Method == http.MethodGet, Confirm: confirm}
	call := &opdef.Call{Op: opdef.Alone(op), Command: c.CommandPath() + " " + o.Method + " " + o.Path, Req: opdef.Req{Query: o.Query, RawPath: o.Path}, Pages: opdef.Pages{All: o.Paginate, Flag: "--paginate"}}
	switch b := o.Body.(type) {
	case map[string]any:
		call.Req.Body = b
	case json.RawMessage:
		call.Req.RawBody = b
	}
	if o.DryRun {
		return e.DryRun(call)
	}
	if !c.Flags().Changed("output") && e.Printer.Opts.Format == "table" {
		e.Printer.Opts.Format = "json" // arbitrary data has no columns worth guessing
	}
	if o.Host != "" {
		cl, err := f.Client()
		if err != nil {
			return err
		}
		if bu, err := url.Parse(cl.BaseURL()); err == nil && !strings.EqualFold(bu.Host, o.Host) {
			return cli.UsageErrorf("URL host %s is not the profile's API host %s: the token is only sent to its own host", o.Host, bu.Host)
		}
	}
	return e.Run(ctx, call, engine.RunOptions{Yes: o.Yes})
}
