package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/changes"
	"github.com/orgctl/orgctl/output"
)

// auditLevels are the --fail-on thresholds, most urgent first (changes.StatusRank orders them).
var auditLevels = []string{changes.StatusRemoved, changes.StatusBreaking, changes.StatusDeprecated, changes.StatusCheck}

// optionTypes are the types whose findings depend on options, which only single reads return; for every
// other type changes.Audit decides from the type alone (a test pins this).
var optionTypes = map[string]bool{"mssql": true, "mongodb": true, "restapi": true, "graphql": true, "openapi": true, "grpc": true}

var auditColumns = []output.Column{
	{Header: "STATUS", Field: "status"},
	{Header: "DEADLINE", Field: "deadline"},
	{Header: "DAYS LEFT", Field: "days_left"},
	{Header: "ID", Field: "resource_id"},
	{Header: "NAME", Field: "resource_name"},
	{Header: "TYPE", Field: "type"},
	{Header: "CHANGE", Field: "change"},
	{Header: "ACTION", Field: "action"},
}

func auditOp() Op {
	return Op{
		Use:    "audit",
		Short:  "Report resources affected by announced resource-type deprecations and removals",
		Method: http.MethodGet, Path: "/resources", Scope: "Resources > Read",
		Long: `Checks every resource against the announced changes: T-SQL connector 1.0/2.0
(deprecated 2026-08-24, removed 2026-Q4), T-SQL Windows Auth (self-hosted,
2027-Q2) and its ODBC params allowlist, the columnar-database (vertica) and
data-governance (bigid) types (removed 2027-Q1), document-database server 3.4
and earlier (mongodb), preinstalled libraries in custom auth (2027-Q2) and the
built-in email sender on the Free plan (2027-01-01).

Requests: 1 GET /resources, plus 1 GET /resources/{id} for each mssql, mongodb,
restapi, graphql, openapi and grpc resource, since only single reads carry the
options that decide their findings (5 points each); vertica, bigid and
retoolEmail need no read. --list-only makes it 1 request: those findings then
become "check".

Status, most urgent first: removed (fails now), breaking (fails now or removal
under way this quarter), deprecated (works; act before the deadline), check
(the API does not show what decides it: look). Deadlines are the cloud dates,
the earliest; days left count to a quarter's first day.

Output: a terminal groups findings by status; piped, one finding per line:
status, deadline, days left, id, name, type, change, action (tab-separated, no
header); -o json gives the list of findings. --fail-on LEVEL exits 1 after
printing when a finding at or above LEVEL exists (for CI).`,
		Example: `  orgctl resources audit
  orgctl resources audit --as-of 2026-12-01 -o json
  orgctl resources audit --fail-on breaking    # in CI: exit 1 when something fails now
  orgctl resources audit --jq '.[] | select(.change == "tsql-connector-v1-v2-removed") | .resource_name'`,
		// Local flags ride as query fields only to reuse the flag machinery; Prepare removes them.
		Fields: []Field{
			{Flag: "as-of", Key: "as-of", In: InQuery, Usage: "judge the dates as of `YYYY-MM-DD` (default: today)"},
			{Flag: "fail-on", Key: "fail-on", In: InQuery, Enum: auditLevels, Usage: "exit 1 when a finding at or above `LEVEL` exists"},
			{Flag: "list-only", Key: "list-only", In: InQuery, Kind: KBool, Usage: "skip the per-resource reads (1 request; option-dependent findings become check)"},
		},
		Prepare: func(f *Factory, c *Call) error {
			for _, k := range []string{"as-of", "fail-on", "list-only"} {
				c.Query.Del(k)
			}
			_, err := auditDate(c.Cmd)
			return err
		},
		Print: printAudit,
	}
}

// auditDate is --as-of, or today in the local time zone.
func auditDate(c *cobra.Command) (time.Time, error) {
	s, _ := c.Flags().GetString("as-of")
	if !c.Flags().Changed("as-of") {
		return time.Now(), nil
	}
	t, err := time.ParseInLocation("2006-01-02", s, time.Local)
	if err != nil {
		return time.Time{}, usageErrorf("invalid --as-of %q: expected a date as YYYY-MM-DD", s)
	}
	return t, nil
}

func printAudit(f *Factory, c *Call, resp *client.Response) error {
	asOf, err := auditDate(c.Cmd)
	if err != nil {
		return err
	}
	var listed []struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
		Type        string `json:"type"`
	}
	if err := json.Unmarshal(resp.Data, &listed); err != nil {
		return fmt.Errorf("GET /resources: unexpected answer: %w", err)
	}
	listOnly, _ := c.Cmd.Flags().GetBool("list-only")
	reads := 0
	for _, r := range listed {
		if optionTypes[r.Type] {
			reads++
		}
	}
	if listOnly {
		reads = 0
	}
	var cl *client.Client
	if reads > 0 {
		if cl, err = f.Client(); err != nil {
			return err
		}
		if !f.v.GetBool("quiet") {
			f.IO.Notice("reading the options of %d resource(s): %d more request(s)", reads, reads)
		}
	}
	resources := make([]changes.Resource, 0, len(listed))
	for _, r := range listed {
		res := changes.Resource{ID: r.ID, Name: r.DisplayName, Type: r.Type}
		if optionTypes[r.Type] && !listOnly {
			opts, err := resourceOptions(cl, r.ID)
			if err != nil {
				return f.explain(err)
			}
			res.Options = opts
		}
		resources = append(resources, res)
	}
	findings := changes.Audit(resources, asOf)

	p, err := f.Printer()
	if err != nil {
		return err
	}
	data, err := marshalText(findings)
	if err != nil {
		return err
	}
	switch {
	case p.Opts.JQ != "" || p.Opts.Template != "" || (p.Opts.Format != "" && p.Opts.Format != "table"):
		err = p.Print(data, auditColumns)
	case f.IO.OutTTY:
		err = writeAuditReport(f.IO.Out, findings, asOf, f.IO.Width)
	default:
		err = p.Print(data, auditColumns)
	}
	if err != nil {
		return err
	}
	if level, _ := c.Cmd.Flags().GetString("fail-on"); level != "" {
		n := 0
		for _, fd := range findings {
			if changes.StatusRank(fd.Status) >= changes.StatusRank(level) {
				n++
			}
		}
		if n > 0 {
			return &ExitError{Code: 1, Err: fmt.Errorf("%d finding(s) at or above %q", n, level)}
		}
	}
	return nil
}

// marshalText is json.Marshal without HTML escaping: actions say "Resources page > resource settings".
func marshalText(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// resourceOptions reads one resource's options; a resource deleted since the list has none.
func resourceOptions(cl *client.Client, id string) (map[string]any, error) {
	r, err := cl.Do(ctx(), client.Request{Method: http.MethodGet, Path: client.Path("resources", id), Scope: "Resources > Read"})
	var ae *client.APIError
	if errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var one struct {
		Options map[string]any `json:"options"`
	}
	dec := json.NewDecoder(bytes.NewReader(r.Data))
	dec.UseNumber()
	if err := dec.Decode(&one); err != nil {
		return nil, fmt.Errorf("GET /resources/%s: unexpected answer: %w", id, err)
	}
	return one.Options, nil
}

var auditHeadings = map[string]string{
	changes.StatusRemoved:    "Removed: queries against these fail now",
	changes.StatusBreaking:   "Breaking: failing now, or removal under way this quarter",
	changes.StatusDeprecated: "Deprecated: still work; act before the deadline",
	changes.StatusCheck:      "Check: the API does not show what decides these; look yourself",
}

// writeAuditReport is the terminal form: one section per status, most urgent first.
func writeAuditReport(w io.Writer, findings []changes.Finding, asOf time.Time, width int) error {
	var b strings.Builder
	if len(findings) == 0 {
		fmt.Fprintf(&b, "No resource is affected by the announced changes (as of %s).\n", asOf.Format("2006-01-02"))
		_, err := io.WriteString(w, b.String())
		return err
	}
	if width <= 0 || width > 120 {
		width = 100
	}
	counts := map[string]int{}
	for _, fd := range findings {
		counts[fd.Status]++
	}
	for _, status := range auditLevels {
		if counts[status] == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s (%d)\n", auditHeadings[status], counts[status])
		for _, fd := range findings {
			if fd.Status != status {
				continue
			}
			fmt.Fprintf(&b, "  %s (%s, %s)  %s  %s\n", fd.ResourceName, fd.Type, fd.ResourceID, fd.Change, deadlineText(fd))
			for _, line := range wrapWords(fd.Action, width-6) {
				b.WriteString("      " + line + "\n")
			}
		}
	}
	var parts []string
	for _, status := range auditLevels {
		if counts[status] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[status], status))
		}
	}
	fmt.Fprintf(&b, "\n%d finding(s) as of %s: %s\n", len(findings), asOf.Format("2006-01-02"), strings.Join(parts, ", "))
	_, err := io.WriteString(w, b.String())
	return err
}

// deadlineText says when, relative to the audit date: "2026-Q4, in 40 days", "2026-08-24, 51 days ago".
func deadlineText(fd changes.Finding) string {
	if fd.DaysLeft == nil {
		return "in effect now"
	}
	d := *fd.DaysLeft
	switch {
	case d == 0:
		return fd.Deadline + ", today"
	case d == 1:
		return fd.Deadline + ", in 1 day"
	case d > 1:
		return fmt.Sprintf("%s, in %d days", fd.Deadline, d)
	case d == -1:
		return fd.Deadline + ", 1 day ago"
	}
	return fmt.Sprintf("%s, %d days ago", fd.Deadline, -d)
}

func wrapWords(s string, width int) []string {
	if width < 20 {
		width = 20
	}
	var lines []string
	var cur strings.Builder
	for _, word := range strings.Fields(s) {
		if cur.Len() > 0 && cur.Len()+1+len(word) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(word)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// precheckODBC refuses, before any request, ODBC params the service would reject for a Windows-auth
// T-SQL resource (and values that could inject attributes).
func precheckODBC(raw any, create bool) error {
	if raw == nil {
		return nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return usageErrorf("options.params_from_connection_string must be a JSON object of ODBC attributes")
	}
	params := make(map[string]string, len(m))
	for k, v := range m {
		s, err := odbcValueText(k, v)
		if err != nil {
			return err
		}
		params[k] = s
	}
	_, rejected := changes.CheckODBCParams(params)
	if len(rejected) == 0 {
		return nil
	}
	var b strings.Builder
	what := "update"
	if create {
		what = "create"
	}
	fmt.Fprintf(&b, "not sent: the %s would fail for a Windows-auth T-SQL resource:", what)
	for _, r := range rejected {
		fmt.Fprintf(&b, "\n  %s\n    instead: %s", r.Message(), r.Replacement)
	}
	b.WriteString("\nTry a set of params with `orgctl resources odbc-check --param KEY=VALUE ...`.")
	return usageErrorf("%s", b.String())
}

// odbcValueText turns a JSON value into the ODBC attribute's text; only scalars make sense.
func odbcValueText(key string, v any) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	case json.Number:
		return t.String(), nil
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), nil
	case bool:
		return strconv.FormatBool(t), nil
	}
	return "", usageErrorf("ODBC parameter %q: the value must be a string, number or boolean", key)
}

// odbcParam is one supplied ODBC attribute, in the order given.
type odbcParam struct{ Key, Value string }

func newODBCCheckCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "odbc-check",
		Short: "Check ODBC params for a Windows-auth T-SQL resource against the allowlist (no request)",
		Long: `Check ODBC params for a Windows-auth T-SQL resource against the allowlist (no request)

Applies the service's allowlist of paramsFromConnectionString keys locally: no
login, no request, no points. Accepted keys are shown in their canonical
spelling (packetsize -> Packet Size); each rejected key gets the service's
error text and what to use instead. orgctl also rejects values that could
inject attributes: ';' or braces outside one properly braced value ({...} with
every '}' inside doubled), control and invisible characters.

Input: --param KEY=VALUE (repeatable; split at the first '='), and/or --file
FILE (- for stdin) holding either a JSON object {"KEY":"VALUE",...} or a
connection string KEY=VALUE;KEY=VALUE. In the connection-string form a value
starting with '{' runs to its closing '}' ('}}' is a literal '}'), so ';' inside
braces belongs to the value; an unclosed brace takes the rest of the text (and
is rejected); whitespace and newlines around ';' are ignored, around '=' kept
(so the key is checked as the service would see it).

Output: a terminal gets a readable report; piped, one line per key:
  accepted<TAB>KEY<TAB>CANONICAL<TAB>VALUE
  rejected<TAB>KEY<TAB>CATEGORY<TAB>REPLACEMENT<TAB>MESSAGE
(keys with control characters are Go-quoted); -o json gives
{"accepted":[...],"rejected":[...],"connection_string":"..."}.
Exit status: 0 all accepted, 1 something rejected, 2 bad input.`,
		Example: `  orgctl resources odbc-check --param packetsize=4096 --param ApplicationIntent=ReadOnly
  orgctl resources odbc-check --param Encrypt=yes --param LoginRetryCount=3
  orgctl resources odbc-check --file params.json -o json
  echo 'APP=payroll;Packet Size=4096;Workstation ID={a;b}' | orgctl resources odbc-check --file -
  orgctl resources odbc-check --allowlist`,
		Args: noArgsGroup,
	}
	fl := c.Flags()
	fl.StringArray("param", nil, "ODBC attribute `KEY=VALUE` (repeatable)")
	fl.String("file", "", "read params from `FILE` (- for stdin): a JSON object or KEY=VALUE;KEY=VALUE")
	fl.Bool("allowlist", false, "print the accepted keys (canonical, then alternate spellings) and exit")
	c.RunE = func(c *cobra.Command, _ []string) error {
		p, err := f.Printer()
		if err != nil {
			return err
		}
		if all, _ := c.Flags().GetBool("allowlist"); all {
			return printODBCAllowlist(f, p)
		}
		params, err := odbcCheckInput(f, c)
		if err != nil {
			return err
		}
		return runODBCCheck(f, p, params)
	}
	return c
}

func printODBCAllowlist(f *Factory, p *output.Printer) error {
	type row struct {
		Canonical  string   `json:"canonical"`
		Alternates []string `json:"alternates"`
	}
	var rows []row
	for _, a := range changes.ODBCAllowlist() {
		rows = append(rows, row{a.Canonical, a.Alternates})
	}
	data, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	return p.Print(data, []output.Column{
		{Header: "ATTRIBUTE", Field: "canonical"},
		{Header: "ALSO ACCEPTED", Value: func(rec map[string]any) string {
			var alts []string
			if list, ok := rec["alternates"].([]any); ok {
				for _, a := range list {
					alts = append(alts, fmt.Sprint(a))
				}
			}
			return strings.Join(alts, ", ")
		}},
	})
}

func odbcCheckInput(f *Factory, c *cobra.Command) ([]odbcParam, error) {
	var params []odbcParam
	seen := map[string]bool{}
	add := func(k, v, from string) error {
		if seen[k] {
			return usageErrorf("ODBC parameter %s given twice (%s)", strconv.Quote(k), from)
		}
		seen[k] = true
		params = append(params, odbcParam{k, v})
		return nil
	}
	flags, _ := c.Flags().GetStringArray("param")
	for _, s := range flags {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return nil, usageErrorf("invalid --param %q: expected KEY=VALUE", s)
		}
		if err := add(k, v, "--param"); err != nil {
			return nil, err
		}
	}
	if src, _ := c.Flags().GetString("file"); src != "" {
		var r io.Reader = f.IO.In
		if src != "-" {
			file, err := os.Open(src)
			if err != nil {
				return nil, usageErrorf("--file: %v", err)
			}
			defer file.Close()
			r = file
		}
		b, err := io.ReadAll(io.LimitReader(r, 1<<20))
		if err != nil {
			return nil, usageErrorf("--file: %v", err)
		}
		var fromFile []odbcParam
		if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
			fromFile, err = parseODBCJSON(t)
		} else {
			fromFile, err = parseConnectionString(string(b))
		}
		if err != nil {
			return nil, usageErrorf("--file %s: %v", src, err)
		}
		for _, p := range fromFile {
			if err := add(p.Key, p.Value, "--file"); err != nil {
				return nil, err
			}
		}
	}
	if len(params) == 0 {
		return nil, usageErrorf("nothing to check: pass --param KEY=VALUE or --file FILE")
	}
	return params, nil
}

// parseODBCJSON reads a JSON object of scalars, keeping key order and refusing duplicate keys (which
// a plain decode would silently merge).
func parseODBCJSON(b []byte) ([]odbcParam, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out []odbcParam
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("invalid JSON: %v", err)
		}
		k := t.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("invalid JSON: %v", err)
		}
		if seen[k] {
			return nil, fmt.Errorf("key %s appears twice", strconv.Quote(k))
		}
		seen[k] = true
		s, err := odbcValueText(k, v)
		if err != nil {
			return nil, err
		}
		out = append(out, odbcParam{k, s})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("invalid JSON: data after the object")
	}
	return out, nil
}

// parseConnectionString splits KEY=VALUE;KEY=VALUE the way ODBC does: a value that starts with '{'
// runs to the '}' that closes it ('}}' inside is a literal '}'), so ';' inside braces is part of it.
// The braces are kept, so the allowlist check sees exactly what would be passed on.
func parseConnectionString(s string) ([]odbcParam, error) {
	var out []odbcParam
	i := 0
	for {
		for i < len(s) && (s[i] == ';' || isSpaceByte(s[i])) {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		eq := strings.IndexAny(s[i:], "=;")
		if eq < 0 || s[i+eq] == ';' {
			end := len(s)
			if eq >= 0 {
				end = i + eq
			}
			return nil, fmt.Errorf("%q has no '=': expected KEY=VALUE;KEY=VALUE", strings.TrimSpace(s[i:end]))
		}
		key := s[i : i+eq]
		j := i + eq + 1
		if end, ok := bracedEnd(s, j); ok {
			k := end
			for k < len(s) && isSpaceByte(s[k]) {
				k++
			}
			if k == len(s) || s[k] == ';' {
				out = append(out, odbcParam{key, s[j:end]})
				i = k
				continue
			}
		} else if j < len(s) && s[j] == '{' {
			// Unclosed: the rest is the value, which the check rejects.
			out = append(out, odbcParam{key, strings.TrimRightFunc(s[j:], unicode.IsSpace)})
			return out, nil
		}
		end := strings.IndexByte(s[j:], ';')
		if end < 0 {
			end = len(s) - j
		}
		out = append(out, odbcParam{key, strings.TrimSpace(s[j : j+end])})
		i = j + end
	}
}

// bracedEnd returns the index just after the '}' closing a braced value that starts at s[j].
func bracedEnd(s string, j int) (int, bool) {
	if j >= len(s) || s[j] != '{' {
		return 0, false
	}
	for k := j + 1; k < len(s); k++ {
		if s[k] != '}' {
			continue
		}
		if k+1 < len(s) && s[k+1] == '}' {
			k++
			continue
		}
		return k + 1, true
	}
	return 0, false
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

type odbcAccepted struct {
	Key       string `json:"key"`
	Canonical string `json:"canonical"`
	Value     string `json:"value"`
}

type odbcRejected struct {
	Key         string `json:"key"`
	Category    string `json:"category"`
	Message     string `json:"message"`
	Replacement string `json:"replacement"`
}

func runODBCCheck(f *Factory, p *output.Printer, params []odbcParam) error {
	m := make(map[string]string, len(params))
	for _, pr := range params {
		m[pr.Key] = pr.Value
	}
	_, rejections := changes.CheckODBCParams(m)
	byKey := map[string]changes.Rejection{}
	for _, r := range rejections {
		byKey[r.Key] = r
	}
	report := struct {
		Accepted         []odbcAccepted `json:"accepted"`
		Rejected         []odbcRejected `json:"rejected"`
		ConnectionString string         `json:"connection_string"`
	}{Accepted: []odbcAccepted{}, Rejected: []odbcRejected{}}
	var conn []string
	for _, pr := range params {
		if r, bad := byKey[pr.Key]; bad {
			report.Rejected = append(report.Rejected, odbcRejected{r.Key, r.Category, r.Message(), r.Replacement})
			continue
		}
		canonical, _ := changes.CheckODBCKey(pr.Key)
		report.Accepted = append(report.Accepted, odbcAccepted{pr.Key, canonical, pr.Value})
		conn = append(conn, canonical+"="+pr.Value)
	}
	report.ConnectionString = strings.Join(conn, ";")

	var err error
	switch {
	case p.Opts.JQ != "" || p.Opts.Template != "" || (p.Opts.Format != "" && p.Opts.Format != "table"):
		var data []byte
		if data, err = marshalText(report); err == nil {
			err = p.Print(data, nil)
		}
	case f.IO.OutTTY:
		var b strings.Builder
		if len(report.Accepted) > 0 {
			fmt.Fprintf(&b, "Accepted (%d), as the service applies them:\n", len(report.Accepted))
			for _, a := range report.Accepted {
				fmt.Fprintf(&b, "  %s=%s", a.Canonical, a.Value)
				if a.Key != a.Canonical {
					fmt.Fprintf(&b, "    (given as %s)", strconv.Quote(a.Key))
				}
				b.WriteByte('\n')
			}
		}
		if len(report.Rejected) > 0 {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "Rejected (%d):\n", len(report.Rejected))
			for _, r := range report.Rejected {
				fmt.Fprintf(&b, "  %s\n    instead: %s\n", r.Message, r.Replacement)
			}
		}
		if len(report.Accepted) > 0 {
			fmt.Fprintf(&b, "\nConnection params: %s\n", report.ConnectionString)
		}
		_, err = io.WriteString(f.IO.Out, b.String())
	default:
		var b strings.Builder
		for _, a := range report.Accepted {
			fmt.Fprintf(&b, "accepted\t%s\t%s\t%s\n", tsvText(a.Key), a.Canonical, tsvText(a.Value))
		}
		for _, r := range report.Rejected {
			fmt.Fprintf(&b, "rejected\t%s\t%s\t%s\t%s\n", tsvText(r.Key), r.Category, r.Replacement, r.Message)
		}
		_, err = io.WriteString(f.IO.Out, b.String())
	}
	if err != nil {
		return err
	}
	if len(report.Rejected) > 0 {
		return &ExitError{Code: 1, Err: fmt.Errorf("%d of %d ODBC parameter(s) rejected", len(report.Rejected), len(params))}
	}
	return nil
}

// tsvText keeps one field on one line: text with control or invisible characters is Go-quoted.
func tsvText(s string) string {
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == unicode.ReplacementChar {
			return strconv.Quote(s)
		}
	}
	return s
}
