package resources

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/changes"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
)

func TestNewCmdAuditParsesAndChecksItsFlags(t *testing.T) {
	f, _, _ := clitest.Buffered(t, "")
	for _, tc := range []struct {
		args []string
		want AuditOptions
		err  string
	}{
		{args: []string{"--as-of", "2026-09-01", "--fail-on", "breaking", "--list-only"},
			want: AuditOptions{AsOf: time.Date(2026, 9, 1, 0, 0, 0, 0, time.Local), FailOn: "breaking", ListOnly: true}},
		{args: []string{"--as-of", "1 Sept"}, err: `invalid --as-of "1 Sept"`},
		{args: []string{"--fail-on", "bad"}, err: `invalid value "bad" for --fail-on`},
	} {
		got := clitest.ParseOptions(t, f, NewCmdAudit, tc.err, tc.args...)
		if tc.err != "" {
			continue
		}
		tc.want.Factory = f
		if !got.AsOf.Equal(tc.want.AsOf) || got.FailOn != tc.want.FailOn || got.ListOnly != tc.want.ListOnly || got.Factory != f {
			t.Errorf("%v: options %+v, want %+v", tc.args, *got, tc.want)
		}
	}
	// without --as-of, today
	if got := clitest.ParseOptions(t, f, NewCmdAudit, ""); time.Since(got.AsOf) > time.Hour || got.AsOf.After(time.Now()) {
		t.Errorf("default --as-of: %+v", got)
	}
	c := NewCmdAudit(f, nil)
	if !strings.Contains(c.Long, "\nScope:  resources:read (Resources > Read)\n        and apps:read (Apps > Read)\nCost:   5 points per request") || !strings.Contains(c.Long, "\n\nRequests: 1 GET /resources, plus") {
		t.Errorf("help lacks the facts:\n%s", c.Long)
	}
}

func TestAuditRunFindsAndFails(t *testing.T) {
	f, out, errOut, _ := clitest.SandboxFactory(t, "json")
	asOf := time.Date(2026, 9, 1, 0, 0, 0, 0, time.Local)
	if err := auditRun(context.Background(), &AuditOptions{Factory: f, AsOf: asOf}); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var findings []map[string]any
	if err := json.Unmarshal(out.Bytes(), &findings); err != nil {
		t.Fatalf("-o json: %v\n%s", err, out)
	}
	byName := map[string]string{}
	for _, fd := range findings {
		byName[fd["resource_name"].(string)+" "+fd["change"].(string)] = fd["status"].(string)
	}
	if byName["legacy-mssql tsql-connector-v1-v2-removed"] != "deprecated" || byName["archive-mongodb document-db-server-3.4-removed"] != "removed" {
		t.Errorf("findings: %v", byName)
	}
	if !strings.Contains(errOut.String(), "reading the options of 8 resource") {
		t.Errorf("stderr: %s", errOut)
	}

	// --list-only: findings that options decide become "check"; --fail-on exits 7 after printing
	out.Reset()
	err := auditRun(context.Background(), &AuditOptions{Factory: f, AsOf: asOf, ListOnly: true, FailOn: changes.StatusCheck})
	var exit *cli.ExitError
	if !errors.As(err, &exit) || exit.Code != cli.ExitFindings || !strings.Contains(out.String(), `"resource_name":"legacy-mssql"`) {
		t.Errorf("--fail-on check: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), `"resource_name":"legacy-mssql","type":"mssql","change":"tsql-connector-v1-v2-removed","status":"check"`) {
		t.Errorf("--list-only: legacy-mssql is not check:\n%s", out)
	}
}

func TestNewCmdODBCCheckParsesParamsAndFiles(t *testing.T) {
	f, _, _ := clitest.Buffered(t, `{"packetsize":"4096","ApplicationIntent":"ReadOnly"}`)
	got := clitest.ParseOptions(t, f, NewCmdODBCCheck, "", "--param", "Encrypt=yes", "--file", "-")
	want := []changes.Param{{Key: "Encrypt", Value: "yes"}, {Key: "packetsize", Value: "4096"}, {Key: "ApplicationIntent", Value: "ReadOnly"}}
	if len(got.Params) != 3 || got.Params[0] != want[0] || got.Allowlist {
		t.Errorf("options %+v, want params %v", got, want)
	}
	if got := clitest.ParseOptions(t, f, NewCmdODBCCheck, "", "--allowlist"); !got.Allowlist || got.Params != nil {
		t.Errorf("--allowlist: %+v", got)
	}
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"--param", "a=1", "--param", "a=2"}, `"a" given twice`},
		{[]string{"--param", "flag"}, `invalid --param "flag": expected KEY=VALUE`},
		{nil, "nothing to check"},
	} {
		clitest.ParseOptions(t, f, NewCmdODBCCheck, tc.err, tc.args...)
	}
	if c := NewCmdODBCCheck(f, nil); c.Annotations["scope"] != "" {
		t.Errorf("odbc-check sends no request but declares a scope: %v", c.Annotations)
	}
}

func TestODBCCheckRunReportsEachKey(t *testing.T) {
	f, out, _ := clitest.Buffered(t, "")
	params := []changes.Param{{Key: "packetsize", Value: "4096"}, {Key: "Trusted_Connection", Value: "yes"}}
	err := odbcCheckRun(&ODBCCheckOptions{Factory: f, Params: params})
	var exit *cli.ExitError
	if !errors.As(err, &exit) || exit.Code != cli.ExitFailure {
		t.Errorf("a rejected key: %v, want exit %d", err, cli.ExitFailure)
	}
	if !strings.Contains(out.String(), "accepted\tpacketsize\tPacket Size\t4096\n") || !strings.Contains(out.String(), "rejected\tTrusted_Connection\t") {
		t.Errorf("piped report:\n%s", out)
	}

	out.Reset()
	if err := odbcCheckRun(&ODBCCheckOptions{Factory: f, Allowlist: true}); err != nil || !strings.Contains(out.String(), "Packet Size\t") {
		t.Errorf("allowlist: %v\n%s", err, out)
	}

	f, out, _ = clitest.Buffered(t, "")
	t.Setenv("ORGCTL_OUTPUT", "json")
	if err := odbcCheckRun(&ODBCCheckOptions{Factory: f, Params: params[:1]}); err != nil {
		t.Fatal(err)
	}
	var rep struct{ Accepted, Rejected []map[string]any }
	if json.Unmarshal(out.Bytes(), &rep); len(rep.Accepted) != 1 || len(rep.Rejected) != 0 {
		t.Errorf("JSON report = %s", out)
	}
}
