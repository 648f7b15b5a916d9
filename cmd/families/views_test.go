package families_test

// The families' own views, called directly and through their commands
// against the sandbox.

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/families/familytest"
	"github.com/orgctl/orgctl/output"
)

func TestViewObservabilityTest(t *testing.T) {
	view := familytest.Op(t, "observability", "test").Hooks.View
	c := &opdef.Call{Req: opdef.Req{Params: map[string]string{"provider": "Sentry"}}}

	p, buf, _ := printer("table")
	if err := view(p, c, json.RawMessage(`{"success":true}`)); err != nil || buf.String() != "test event sent to Sentry\n" {
		t.Errorf("success: %q %v", buf.String(), err)
	}
	p, buf, _ = printer("table")
	err := view(p, c, json.RawMessage(`{"success":false,"message":"DSN rejected"}`))
	if cli.ExitCode(err) != cli.ExitFailure || err.Error() != "Sentry did not accept the test event: DSN rejected" || buf.Len() != 0 {
		t.Errorf("failure: %v, printed %q", err, buf.String())
	}
	p, buf, _ = printer("json")
	err = view(p, c, json.RawMessage(`{"success":false,"message":"no"}`))
	if cli.ExitCode(err) != cli.ExitFailure || !strings.Contains(buf.String(), `"success":false`) {
		t.Errorf("failure -o json: %v, printed %q", err, buf.String())
	}

	// Through the sandbox, whose canned answer is a failure.
	clitest.SandboxEnv(t, sandbox.Options{})
	_, _, err = familytest.Exec(t, "", "observability", "test", "sentry")
	if cli.ExitCode(err) != cli.ExitFailure || !strings.HasPrefix(err.Error(), "Sentry did not accept the test event") {
		t.Errorf("sandbox test: %v", err)
	}
}

func TestViewsThroughTheSandbox(t *testing.T) {
	clitest.SandboxEnv(t, sandbox.Options{})
	out := familytest.MustExec(t, "info", "ip-allowlist")
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if region, _, ok := strings.Cut(line, "\t"); !ok || !strings.Contains(region, "-") {
			t.Errorf("ip-allowlist row %q is not REGION<TAB>ADDRESSES", line)
		}
	}
	if out := familytest.MustExec(t, "info", "ip-allowlist", "-o", "json"); !strings.HasPrefix(out, `{"ipAddresses":`) {
		t.Errorf("ip-allowlist -o json = %s", out)
	}
	out, errOut, err := familytest.Exec(t, "", "org", "invalidate-sessions", "--yes")
	if err != nil || errOut != "✓ Signed out every user of the organization\n" {
		t.Errorf("invalidate-sessions: %v, stderr %q, stdout %q", err, errOut, out)
	}
}

func TestODBCParamsAreCheckedBeforeSending(t *testing.T) {
	api, _ := clitest.SandboxEnv(t, sandbox.Options{})
	_, _, err := familytest.Exec(t, "", "resources", "create", "--name", "hr", "--type", "mssql", "--options", `{"windows_auth":true}`,
		"--odbc-param", "Trusted_Connection=yes")
	if cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), "not sent: the create would fail for a Windows-auth T-SQL resource") ||
		!strings.Contains(err.Error(), "Trusted_Connection") {
		t.Errorf("create with a blocked key: %v", err)
	}
	_, _, err = familytest.Exec(t, "", "resources", "update", "hr-mssql-winauth", "--odbc-param", "Packet Size=4096", "--odbc-param", "Driver={x}")
	if cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), "not sent: the update would fail") {
		t.Errorf("update with a blocked key: %v", err)
	}
	body := familytest.BodyFile(t, `[{"op":"replace","path":"/options/params_from_connection_string/APP~1x","value":"v;Driver=x"}]`)
	_, _, err = familytest.Exec(t, "", "resources", "update", "hr-mssql-winauth", "--body", body)
	if cli.ExitCode(err) != cli.ExitUsage {
		t.Errorf("patch op injecting an attribute: %v", err)
	}
	if got := clitest.Sent(api); len(got) != 0 {
		t.Errorf("refused changes sent %v", got)
	}

	// Accepted params, or Windows auth turned off, go through.
	familytest.MustExec(t, "resources", "update", "hr-mssql-winauth", "--odbc-param", "Packet Size=4096", "-q")
	familytest.MustExec(t, "resources", "update", "hr-mssql-winauth", "--odbc-param", "Trusted_Connection=yes", "--windows-auth=false", "-q")
	if got := clitest.Sent(api); len(got) != 2 {
		t.Errorf("accepted changes: sent %v", got)
	}
}

func TestViewSettingsKeepTheAPIsOrder(t *testing.T) {
	clitest.SandboxEnv(t, sandbox.Options{})
	out := familytest.MustExec(t, "org", "get")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 5 || !strings.HasPrefix(lines[0], "ai_support_bot_disabled\tfalse") {
		t.Fatalf("org get:\n%s", out)
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(familytest.MustExec(t, "org", "get", "-o", "json")), &raw); err != nil || len(raw) != len(lines) {
		t.Errorf("-o json has %d settings, the table %d (%v)", len(raw), len(lines), err)
	}

	// The rows follow the answer's key order, not an alphabetical one.
	p, buf, _ := printer("table")
	if err := families.SettingsPrint(p, &opdef.Call{}, json.RawMessage(`{"zeta":1,"alpha":{"x":true},"mid":"s"}`)); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "zeta\t1\nalpha\t{\"x\":true}\nmid\ts\n" {
		t.Errorf("settings rows:\n%q", buf.String())
	}
	// What is not an object prints as it is.
	p, buf, _ = printer("table")
	families.SettingsPrint(p, &opdef.Call{}, json.RawMessage(`["a","b"]`))
	if buf.String() != "a\nb\n" {
		t.Errorf("non-object settings: %q", buf.String())
	}
}

func TestViewNewTokenShownOnce(t *testing.T) {
	api, _ := clitest.SandboxEnv(t, sandbox.Options{})
	out, errOut, err := familytest.Exec(t, "", "tokens", "create", "--label", "ci", "--scope", "users:read")
	if err != nil {
		t.Fatal(err)
	}
	tok := strings.TrimSuffix(out, "\n")
	if strings.ContainsAny(tok, "\t\n ") || tok == "" {
		t.Errorf("stdout is not the token alone: %q", out)
	}
	if !strings.Contains(errOut, "warning: token ") || !strings.Contains(errOut, "(ci; scopes: users:read) is shown only once: store it now") || strings.Contains(errOut, tok) {
		t.Errorf("stderr = %q", errOut)
	}
	// The new token works.
	t.Setenv("ORGCTL_TOKEN", tok)
	familytest.MustExec(t, "users", "list")

	t.Setenv("ORGCTL_TOKEN", api.AdminToken())
	out = familytest.MustExec(t, "tokens", "create", "--label", "ci2", "--scope", "users:read", "-o", "json")
	var answer map[string]any
	if json.Unmarshal([]byte(out), &answer); answer["access_token"] == nil || answer["label"] != "ci2" {
		t.Errorf("-o json = %s", out)
	}

	p, _, _ := printer("table")
	if err := families.PrintNewToken(p, &opdef.Call{}, json.RawMessage(`{"id":"t1","label":"x"}`)); err == nil || !strings.Contains(err.Error(), "carries no token value; revoke it") {
		t.Errorf("answer without a token: %v", err)
	}
}

// printer is a piped printer in a format, writing to buffers.
func printer(format string) (*output.Printer, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &output.Printer{IO: &output.IO{Out: &out, Err: &errOut}, Opts: output.Options{Format: format}}, &out, &errOut
}

// users list --active and --admin narrow the list whatever prints it: the
// --json fields of the users kept, and on a terminal an empty result is
// told as every empty list is, which --quiet silences.
func TestUsersListFiltersForEveryPrinter(t *testing.T) {
	clitest.SandboxEnv(t, sandbox.Options{})
	out := familytest.MustExec(t, "users", "list", "--active=false", "--json", "email,active")
	if out != `[{"email":"former.employee@sandbox.example","active":false}]`+"\n" {
		t.Errorf("--active=false --json email,active printed %s", out)
	}
	for _, quiet := range []bool{false, true} {
		f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
		f.IO.OutTTY, f.IO.ErrTTY = true, true
		args := []string{"users", "list", "--active=false", "--admin"}
		if quiet {
			args = append(args, "--quiet")
		}
		if err := familytest.Run(f, args...); err != nil {
			t.Fatal(err)
		}
		want := "no users match\n"
		if quiet {
			want = ""
		}
		if tio.Out.Len() != 0 || tio.Err.String() != want {
			t.Errorf("%v: stdout %q, stderr %q; want nothing and %q", args, tio.Out.String(), tio.Err.String(), want)
		}
	}
}

// The resource types a flag takes are the spec's: listed in help, and
// anything else refused with the list, before a request.
func TestResourceTypeFlagsTakeTheSpecsTypes(t *testing.T) {
	for _, tc := range []struct {
		path []string
		flag string
	}{
		{[]string{"resources", "list"}, "type"},
		{[]string{"resources", "create"}, "type"},
		{[]string{"resource-configs", "list"}, "resource-type"},
	} {
		op := familytest.Op(t, tc.path...)
		var enum []string
		for _, fd := range op.Fields {
			if fd.Flag == tc.flag {
				enum = fd.Enum
			}
		}
		if len(enum) < 60 || enum[0] != "airflow" || enum[len(enum)-1] != "vertica" || !slices.Contains(enum, "mssql") {
			t.Errorf("%v --%s takes %q", tc.path, tc.flag, enum)
		}
		// A type newer than the description is sent, with a notice.
		in := familytest.Input(strings.Join(tc.path, " "), nil, tc.flag, "nosuch", "name", "n", "options", "{}")
		c := familytest.Build(t, op, in)
		if len(c.Notices) != 1 || !strings.HasPrefix(c.Notices[0], "--"+tc.flag+` "nosuch" is not a value this orgctl knows`) {
			t.Errorf("%v --%s nosuch: notices %q", tc.path, tc.flag, c.Notices)
		}
	}
}
