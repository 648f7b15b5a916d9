package resources

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/changes"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/output"
)

// PrecheckODBC refuses, before any request, ODBC params the service would reject for a Windows-auth
// T-SQL resource (and values that could inject attributes).
func PrecheckODBC(raw any, create bool) error {
	if raw == nil {
		return nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return cli.UsageErrorf("options.params_from_connection_string must be a JSON object of ODBC attributes")
	}
	params := make(map[string]string, len(m))
	for k, v := range m {
		s, err := changes.ValueText(k, v)
		if err != nil {
			return &cli.UsageError{Err: err}
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
	return cli.UsageErrorf("%s", b.String())
}

// ODBCCheckOptions are one 'resources odbc-check': the params to check, or
// Allowlist to print the accepted keys instead.
type ODBCCheckOptions struct {
	Factory   *cli.Factory
	Params    []changes.Param
	Allowlist bool
}

// NewCmdODBCCheck parses 'resources odbc-check' into ODBCCheckOptions for
// runF (odbcCheckRun when nil). It sends no request, so its help states no
// scope or cost.
func NewCmdODBCCheck(f *cli.Factory, runF func(*ODBCCheckOptions) error) *cobra.Command {
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
		Args: cli.NoArgsGroup,
	}
	fl := c.Flags()
	fl.StringArray("param", nil, "ODBC attribute `KEY=VALUE` (repeatable)")
	fl.String("file", "", "read params from `FILE` (- for stdin): a JSON object or KEY=VALUE;KEY=VALUE")
	fl.Bool("allowlist", false, "print the accepted keys (canonical, then alternate spellings) and exit")
	c.RunE = func(c *cobra.Command, _ []string) error {
		o := &ODBCCheckOptions{Factory: f}
		o.Allowlist, _ = c.Flags().GetBool("allowlist")
		if !o.Allowlist {
			params, err := odbcCheckInput(f, c)
			if err != nil {
				return err
			}
			o.Params = params
		}
		if runF != nil {
			return runF(o)
		}
		return odbcCheckRun(o)
	}
	return c
}

// odbcCheckRun prints the allowlist, or checks the params against it.
func odbcCheckRun(o *ODBCCheckOptions) error {
	_, p, err := cli.PrinterFor(o.Factory)
	if err != nil {
		return err
	}
	if o.Allowlist {
		return printODBCAllowlist(o.Factory, p)
	}
	return runODBCCheck(o.Factory, p, o.Params)
}

func printODBCAllowlist(f *cli.Factory, p *output.Printer) error {
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

func odbcCheckInput(f *cli.Factory, c *cobra.Command) ([]changes.Param, error) {
	var params []changes.Param
	seen := map[string]bool{}
	add := func(k, v, from string) error {
		if seen[k] {
			return cli.UsageErrorf("ODBC parameter %s given twice (%s)", strconv.Quote(k), from)
		}
		seen[k] = true
		params = append(params, changes.Param{Key: k, Value: v})
		return nil
	}
	flags, _ := c.Flags().GetStringArray("param")
	for _, s := range flags {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return nil, cli.UsageErrorf("invalid --param %q: expected KEY=VALUE", s)
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
				return nil, cli.UsageErrorf("--file: %v", err)
			}
			defer file.Close()
			r = file
		}
		b, err := io.ReadAll(io.LimitReader(r, 1<<20))
		if err != nil {
			return nil, cli.UsageErrorf("--file: %v", err)
		}
		var fromFile []changes.Param
		if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
			fromFile, err = changes.ParseParamsJSON(t)
		} else {
			fromFile, err = changes.ParseConnectionString(string(b))
		}
		if err != nil {
			return nil, cli.UsageErrorf("--file %s: %v", src, err)
		}
		for _, p := range fromFile {
			if err := add(p.Key, p.Value, "--file"); err != nil {
				return nil, err
			}
		}
	}
	if len(params) == 0 {
		return nil, cli.UsageErrorf("nothing to check: pass --param KEY=VALUE or --file FILE")
	}
	return params, nil
}

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

func runODBCCheck(f *cli.Factory, p *output.Printer, params []changes.Param) error {
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
	case p.Opts.Structured():
		var data []byte
		if data, err = output.MarshalText(report); err == nil {
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
		return &cli.ExitError{Code: cli.ExitFailure, Err: fmt.Errorf("%d of %d ODBC parameter(s) rejected", len(report.Rejected), len(params))}
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
