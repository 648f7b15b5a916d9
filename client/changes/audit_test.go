package changes

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func on(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 12, 0, 0, 0, time.UTC) }

// want describes the single finding expected for one change; status "" means no finding.
type want struct {
	status   string
	deadline string
	days     *int // nil: undated
}

func days(n int) *int { return &n }

// only returns the findings of one change.
func only(fs []Finding, change string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Change == change {
			out = append(out, f)
		}
	}
	return out
}

func assertFinding(t *testing.T, label string, fs []Finding, change string, w want) {
	t.Helper()
	got := only(fs, change)
	if w.status == "" {
		if len(got) != 0 {
			t.Errorf("%s: %s: want no finding, got %+v", label, change, got)
		}
		return
	}
	if len(got) != 1 {
		t.Fatalf("%s: %s: want one finding, got %+v", label, change, got)
	}
	f := got[0]
	if f.Status != w.status || f.Deadline != w.deadline {
		t.Errorf("%s: %s: status %q deadline %q; want %q %q", label, change, f.Status, f.Deadline, w.status, w.deadline)
	}
	switch {
	case w.days == nil && f.DaysLeft != nil:
		t.Errorf("%s: %s: days_left %d; want nil", label, change, *f.DaysLeft)
	case w.days != nil && f.DaysLeft == nil:
		t.Errorf("%s: %s: days_left nil; want %d", label, change, *w.days)
	case w.days != nil && *f.DaysLeft != *w.days:
		t.Errorf("%s: %s: days_left %d; want %d", label, change, *f.DaysLeft, *w.days)
	}
	if strings.TrimSpace(f.Action) == "" {
		t.Errorf("%s: %s: empty action", label, change)
	}
}

// tsqlTimeline is the connector change's expected status and deadline per day, for a resource
// whose version is known to be 1.0 or 2.0. Days are counted by hand from the calendar.
var tsqlTimeline = []struct {
	asOf time.Time
	w    want
}{
	{on(2026, 2, 2), want{StatusDeprecated, "2026-08-24", days(203)}},
	{on(2026, 8, 23), want{StatusDeprecated, "2026-08-24", days(1)}},
	{on(2026, 8, 24), want{StatusDeprecated, "2026-Q4", days(38)}},
	{on(2026, 9, 30), want{StatusDeprecated, "2026-Q4", days(1)}},
	{on(2026, 10, 1), want{StatusBreaking, "2026-Q4", days(0)}},
	{on(2026, 11, 21), want{StatusBreaking, "2026-Q4", days(-51)}},
	{on(2026, 12, 31), want{StatusBreaking, "2026-Q4", days(-91)}},
	{on(2027, 1, 1), want{StatusRemoved, "2026-Q4", days(-92)}},
	{on(2027, 7, 1), want{StatusRemoved, "2026-Q4", days(-273)}},
}

func TestAuditTSQLConnectorKnownOldVersion(t *testing.T) {
	versions := []any{"1.0", "2.0", "Version 1.0", "version 2.0", "v2", "2", float64(1), float64(2), json.Number("2.0")}
	for _, v := range versions {
		for _, tt := range tsqlTimeline {
			r := Resource{ID: "r1", Name: "sql", Type: "mssql", Options: map[string]any{"connector_version": v, "windows_auth": false}}
			fs := Audit([]Resource{r}, tt.asOf)
			label := tt.asOf.Format("2006-01-02") + " version " + describe(v)
			assertFinding(t, label, fs, ChangeTSQLConnector, tt.w)
			if len(fs) != 1 {
				t.Errorf("%s: want only the connector finding, got %+v", label, fs)
			}
			if f := only(fs, ChangeTSQLConnector); len(f) == 1 && !strings.Contains(f[0].Action, "Connector version to 3.0") {
				t.Errorf("%s: action does not say to change to 3.0: %q", label, f[0].Action)
			}
		}
	}
}

func TestAuditTSQLConnectorDeprecationWording(t *testing.T) {
	r := Resource{ID: "r1", Type: "mssql", Options: map[string]any{"connector_version": "1.0", "windows_auth": false}}
	before := only(Audit([]Resource{r}, on(2026, 8, 23)), ChangeTSQLConnector)[0].Action
	at := only(Audit([]Resource{r}, on(2026, 8, 24)), ChangeTSQLConnector)[0].Action
	if !strings.Contains(before, "takes effect on cloud on 2026-08-24") {
		t.Errorf("before 2026-08-24: %q", before)
	}
	if !strings.Contains(at, "Deprecated on cloud since 2026-08-24") {
		t.Errorf("at 2026-08-24: %q", at)
	}
	for _, must := range []string{"1.0", "object query parameters are unsupported", "comma-separated", "no query rewrite"} {
		if !strings.Contains(at, must) {
			t.Errorf("action lacks %q: %q", must, at)
		}
	}
}

func TestAuditTSQLConnectorVersion3(t *testing.T) {
	for _, v := range []any{"3.0", "3", "Version 3.0", float64(3)} {
		for _, tt := range tsqlTimeline {
			r := Resource{ID: "r1", Type: "mssql", Options: map[string]any{"connector_version": v, "windows_auth": false}}
			if fs := Audit([]Resource{r}, tt.asOf); len(fs) != 0 {
				t.Errorf("version %v on %s: want no finding, got %+v", v, tt.asOf.Format("2006-01-02"), fs)
			}
		}
	}
}

func TestAuditTSQLConnectorUnknownIsCheck(t *testing.T) {
	cases := []struct {
		name string
		opts map[string]any
		hint string
	}{
		{"nil options", nil, "not exposed by the API"},
		{"options without version", map[string]any{"database_options": map[string]any{"host": "db"}}, "not exposed by the API"},
		{"unrecognized version", map[string]any{"connector_version": "4.0"}, `"4.0" is not one orgctl recognizes`},
		{"wrong type", map[string]any{"connector_version": true}, "not one orgctl recognizes"},
	}
	for _, c := range cases {
		for _, tt := range tsqlTimeline {
			fs := Audit([]Resource{{ID: "r1", Type: "mssql", Options: c.opts}}, tt.asOf)
			w := tt.w
			w.status = StatusCheck
			label := c.name + " " + tt.asOf.Format("2006-01-02")
			assertFinding(t, label, fs, ChangeTSQLConnector, w)
			f := only(fs, ChangeTSQLConnector)[0]
			for _, must := range []string{c.hint, "Resources page > resource settings > Connector version"} {
				if !strings.Contains(f.Action, must) {
					t.Errorf("%s: action lacks %q: %q", label, must, f.Action)
				}
			}
		}
	}
}

func TestAuditTSQLOptionsNestedUnderDatabaseOptions(t *testing.T) {
	r := Resource{ID: "r1", Type: "mssql", Options: map[string]any{
		"database_options": map[string]any{"connector_version": "2.0", "windows_auth": true},
	}}
	fs := Audit([]Resource{r}, on(2026, 11, 21))
	assertFinding(t, "nested", fs, ChangeTSQLConnector, want{StatusBreaking, "2026-Q4", days(-51)})
	assertFinding(t, "nested", fs, ChangeTSQLWindowsAuth, want{StatusDeprecated, "2027-Q2", days(131)})
}

var windowsAuthTimeline = []struct {
	asOf time.Time
	w    want
}{
	{on(2026, 11, 21), want{StatusDeprecated, "2027-Q2", days(131)}},
	{on(2027, 3, 31), want{StatusDeprecated, "2027-Q2", days(1)}},
	{on(2027, 4, 1), want{StatusBreaking, "2027-Q2", days(0)}},
	{on(2027, 6, 30), want{StatusBreaking, "2027-Q2", days(-90)}},
	{on(2027, 7, 1), want{StatusBreaking, "2027-Q2", days(-91)}},
}

func TestAuditTSQLWindowsAuth(t *testing.T) {
	for _, tt := range windowsAuthTimeline {
		label := tt.asOf.Format("2006-01-02")
		for _, v := range []any{true, "true"} {
			r := Resource{ID: "r1", Type: "mssql", Options: map[string]any{"connector_version": "3.0", "windows_auth": v}}
			fs := Audit([]Resource{r}, tt.asOf)
			assertFinding(t, label+" on", fs, ChangeTSQLWindowsAuth, tt.w)
			if len(fs) != 1 {
				t.Errorf("%s: want only the windows-auth finding, got %+v", label, fs)
			}
		}

		off := Resource{ID: "r1", Type: "mssql", Options: map[string]any{"connector_version": "3.0", "windows_auth": false}}
		assertFinding(t, label+" off", Audit([]Resource{off}, tt.asOf), ChangeTSQLWindowsAuth, want{})

		unknown := Resource{ID: "r1", Type: "mssql", Options: map[string]any{"connector_version": "3.0"}}
		w := tt.w
		w.status = StatusCheck
		fs := Audit([]Resource{unknown}, tt.asOf)
		assertFinding(t, label+" unknown", fs, ChangeTSQLWindowsAuth, w)
		if a := only(fs, ChangeTSQLWindowsAuth)[0].Action; !strings.Contains(a, "not exposed by the API") {
			t.Errorf("%s unknown: action %q", label, a)
		}
	}
}

func TestAuditTSQLODBCParams(t *testing.T) {
	bad := map[string]any{"Encrypt": "no", "APP": "orgctl", "Pwd": "x", "APP;Trusted_Connection": "yes"}
	good := map[string]any{"APP": "orgctl", "packetsize": float64(4096), "MultiSubnetFailover": true}
	cases := []struct {
		name   string
		opts   map[string]any
		w      want
		inText []string
	}{
		{"windows auth on, rejected keys", map[string]any{"connector_version": "3.0", "windows_auth": true, "params_from_connection_string": bad},
			want{StatusBreaking, "", nil},
			[]string{`"Encrypt" (encryption: use the resource's SSL/TLS settings)`,
				`"Pwd" (credentials: set by the service from the resource's own fields; remove it)`,
				`"APP;Trusted_Connection" (injection:`, "setup, save and test connection fail"}},
		{"camelCase keys", map[string]any{"connectorVersion": "3.0", "windowsAuth": true, "paramsFromConnectionString": map[string]string{"LoginRetryCount": "3"}},
			want{StatusBreaking, "", nil},
			[]string{`"LoginRetryCount" (login-retry: use ConnectRetryCount/ConnectRetryInterval)`}},
		{"windows auth on, all allowed", map[string]any{"connector_version": "3.0", "windows_auth": true, "params_from_connection_string": good},
			want{}, nil},
		{"windows auth off", map[string]any{"connector_version": "3.0", "windows_auth": false, "params_from_connection_string": bad},
			want{}, nil},
		{"windows auth unknown", map[string]any{"connector_version": "3.0", "params_from_connection_string": bad},
			want{StatusCheck, "", nil}, []string{"If Windows Auth is on", `"Encrypt"`}},
		{"params unreadable", map[string]any{"connector_version": "3.0", "windows_auth": true, "params_from_connection_string": []any{"Encrypt=no"}},
			want{StatusCheck, "", nil}, []string{"cannot check them"}},
		{"params null", map[string]any{"connector_version": "3.0", "windows_auth": true, "params_from_connection_string": nil},
			want{}, nil},
	}
	for _, c := range cases {
		fs := Audit([]Resource{{ID: "r1", Name: "sql", Type: "mssql", Options: c.opts}}, on(2026, 11, 21))
		assertFinding(t, c.name, fs, ChangeTSQLODBCParams, c.w)
		if c.w.status == "" {
			continue
		}
		action := only(fs, ChangeTSQLODBCParams)[0].Action
		for _, must := range c.inText {
			if !strings.Contains(action, must) {
				t.Errorf("%s: action lacks %q: %q", c.name, must, action)
			}
		}
		if strings.Contains(action, `"APP"`) {
			t.Errorf("%s: an accepted key is listed as rejected: %q", c.name, action)
		}
	}
}

var removedTypeTimeline = []struct {
	asOf time.Time
	w    want
}{
	{on(2026, 11, 21), want{StatusDeprecated, "2027-Q1", days(41)}},
	{on(2026, 12, 31), want{StatusDeprecated, "2027-Q1", days(1)}},
	{on(2027, 1, 1), want{StatusRemoved, "2027-Q1", days(0)}},
	{on(2027, 3, 31), want{StatusRemoved, "2027-Q1", days(-89)}},
	{on(2027, 4, 1), want{StatusRemoved, "2027-Q1", days(-90)}},
}

func TestAuditRemovedTypes(t *testing.T) {
	cases := []struct {
		typ, change string
		inText      []string
	}{
		{"vertica", ChangeColumnarDB, []string{"JDBC resource", "JDBC_DIRECTORY_PATH", "DisableCopyLocal=true", "SSH tunnels", "No automatic migration"}},
		{"bigid", ChangeDataGovernance, []string{"REST API resource with Custom Auth", "SYSTEM_TOKEN", "Authorization header",
			"Run this custom auth workflow without prompting the user", "non-200", "No automatic migration"}},
	}
	for _, c := range cases {
		for _, tt := range removedTypeTimeline {
			// Options never matter for these: the whole type goes.
			for _, opts := range []map[string]any{nil, {"database_options": map[string]any{"host": "h"}}} {
				fs := Audit([]Resource{{ID: "r", Name: "n", Type: c.typ, Options: opts}}, tt.asOf)
				label := c.typ + " " + tt.asOf.Format("2006-01-02")
				assertFinding(t, label, fs, c.change, tt.w)
				if len(fs) != 1 {
					t.Errorf("%s: want one finding, got %+v", label, fs)
					continue
				}
				for _, must := range c.inText {
					if !strings.Contains(fs[0].Action, must) {
						t.Errorf("%s: action lacks %q", label, must)
					}
				}
			}
		}
	}
}

func TestAuditDocumentDBServer(t *testing.T) {
	cases := []struct {
		version any
		w       want
	}{
		{nil, want{StatusCheck, "2026-Q3", days(-143)}}, // no option at all
		{"3.4", want{StatusRemoved, "2026-Q3", days(-143)}},
		{"3.4.24", want{StatusRemoved, "2026-Q3", days(-143)}},
		{"3.2", want{StatusRemoved, "2026-Q3", days(-143)}},
		{"2.6.12", want{StatusRemoved, "2026-Q3", days(-143)}},
		{float64(3.4), want{StatusRemoved, "2026-Q3", days(-143)}},
		{"3.6", want{}},
		{"3.6.0", want{}},
		{"4.4.29", want{}},
		{"7", want{}},
		{float64(5), want{}},
		{"latest", want{StatusCheck, "2026-Q3", days(-143)}},
		{"3.x", want{StatusCheck, "2026-Q3", days(-143)}},
	}
	for _, c := range cases {
		var opts map[string]any
		if c.version != nil {
			opts = map[string]any{"server_version": c.version}
		}
		fs := Audit([]Resource{{ID: "m", Type: "mongodb", Options: opts}}, on(2026, 11, 21))
		assertFinding(t, "mongodb "+describe(c.version), fs, ChangeDocumentDBServer, c.w)
		if c.w.status == StatusCheck && !strings.Contains(fs[0].Action, "3.6") {
			t.Errorf("check action does not name the minimum version: %q", fs[0].Action)
		}
	}
	// Cloud support is already gone, so a known old server is "removed" even before the self-hosted dates.
	fs := Audit([]Resource{{ID: "m", Type: "mongodb", Options: map[string]any{"server_version": "3.4"}}}, on(2026, 3, 31))
	assertFinding(t, "mongodb 3.4 early", fs, ChangeDocumentDBServer, want{StatusRemoved, "2026-Q3", days(92)})
}

func TestAuditCustomAuthLibraries(t *testing.T) {
	timeline := []struct {
		asOf time.Time
		days int
	}{
		{on(2026, 11, 21), 131}, {on(2027, 3, 31), 1}, {on(2027, 4, 1), 0}, {on(2027, 6, 30), -90}, {on(2027, 7, 1), -91},
	}
	for _, typ := range []string{"restapi", "graphql", "openapi", "grpc"} {
		for _, tt := range timeline {
			label := typ + " " + tt.asOf.Format("2006-01-02")
			unknown := Audit([]Resource{{ID: "a", Type: typ}}, tt.asOf)
			assertFinding(t, label, unknown, ChangeCustomAuthLibs, want{StatusCheck, "2027-Q2", days(tt.days)})
			if a := unknown[0].Action; !strings.Contains(a, "require()") || !strings.Contains(a, "crypto, Buffer") {
				t.Errorf("%s: action %q", label, a)
			}
		}
		for name, opts := range map[string]map[string]any{
			"bearer":          {"authentication_options": map[string]any{"authentication_type": "bearer"}},
			"none":            {"authentication_type": "none"},
			"custom_auth off": {"custom_auth": false},
		} {
			assertFinding(t, typ+" "+name, Audit([]Resource{{ID: "a", Type: typ, Options: opts}}, on(2026, 11, 21)), ChangeCustomAuthLibs, want{})
		}
		for name, opts := range map[string]map[string]any{
			"custom":         {"authentication_options": map[string]any{"authentication_type": "custom"}},
			"custom_auth on": {"custom_auth": true},
			"empty type":     {"authentication_type": ""},
		} {
			assertFinding(t, typ+" "+name, Audit([]Resource{{ID: "a", Type: typ, Options: opts}}, on(2026, 11, 21)),
				ChangeCustomAuthLibs, want{StatusCheck, "2027-Q2", days(131)})
		}
	}
}

func TestAuditBuiltinEmail(t *testing.T) {
	for _, tt := range []struct {
		asOf time.Time
		days int
	}{{on(2026, 11, 21), 41}, {on(2026, 12, 31), 1}, {on(2027, 1, 1), 0}, {on(2027, 1, 2), -1}} {
		fs := Audit([]Resource{{ID: "e", Type: "retoolEmail"}}, tt.asOf)
		assertFinding(t, "email "+tt.asOf.Format("2006-01-02"), fs, ChangeFreePlanEmail, want{StatusCheck, "2027-01-01", days(tt.days)})
	}
}

func TestAuditUnaffectedTypes(t *testing.T) {
	var rs []Resource
	for _, typ := range []string{"postgresql", "mysql", "jdbc", "smtp", "sendgrid", "snowflake", "oracledb", "redis",
		"slackopenapi", "MSSQL", "Vertica", "RestAPI", ""} {
		rs = append(rs, Resource{ID: typ, Type: typ, Options: map[string]any{"connector_version": "1.0", "windows_auth": true}})
	}
	for _, asOf := range []time.Time{on(2026, 1, 1), on(2026, 11, 21), on(2028, 1, 1)} {
		fs := Audit(rs, asOf)
		if fs == nil || len(fs) != 0 {
			t.Errorf("%s: want an empty, non-nil list, got %#v", asOf.Format("2006-01-02"), fs)
		}
	}
	if b, _ := json.Marshal(Audit(nil, on(2026, 11, 21))); string(b) != "[]" {
		t.Errorf("no findings encode as %s, want []", b)
	}
}

func TestAuditUsesCalendarDayInAsOfLocation(t *testing.T) {
	r := Resource{ID: "r", Type: "mssql", Options: map[string]any{"connector_version": "1.0", "windows_auth": false}}
	chicago := time.FixedZone("UTC-5", -5*3600)
	// 2026-10-01T04:30Z is still 2026-09-30 in UTC-5: not yet Q4 there.
	late := time.Date(2026, 9, 30, 23, 30, 0, 0, chicago)
	assertFinding(t, "late evening", Audit([]Resource{r}, late), ChangeTSQLConnector, want{StatusDeprecated, "2026-Q4", days(1)})
	assertFinding(t, "same instant in UTC", Audit([]Resource{r}, late.UTC()), ChangeTSQLConnector, want{StatusBreaking, "2026-Q4", days(0)})
	// Any time of day counts as the whole day.
	assertFinding(t, "midnight", Audit([]Resource{r}, time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)), ChangeTSQLConnector, want{StatusBreaking, "2026-Q4", days(0)})
	assertFinding(t, "last second", Audit([]Resource{r}, time.Date(2026, 9, 30, 23, 59, 59, 0, time.UTC)), ChangeTSQLConnector, want{StatusDeprecated, "2026-Q4", days(1)})
}

func TestAuditSorting(t *testing.T) {
	rs := []Resource{
		{ID: "5", Name: "zeta-rest", Type: "restapi"},
		{ID: "4", Name: "beta-vertica", Type: "vertica"},
		{ID: "3", Name: "alpha-vertica", Type: "vertica"},
		{ID: "2", Name: "sql", Type: "mssql", Options: map[string]any{"connector_version": "1.0", "windows_auth": true,
			"params_from_connection_string": map[string]any{"Encrypt": "no"}}},
		{ID: "1", Name: "mongo", Type: "mongodb", Options: map[string]any{"server_version": "3.4"}},
		{ID: "0", Name: "alpha-vertica", Type: "vertica"},
		{ID: "6", Name: "mail", Type: "retoolEmail"},
	}
	fs := Audit(rs, on(2026, 11, 21))
	var got []string
	for _, f := range fs {
		got = append(got, f.Status+" "+f.ResourceName+"#"+f.ResourceID+" "+f.Change)
	}
	want := []string{
		"removed mongo#1 document-db-server-3.4-removed",
		"breaking sql#2 tsql-connector-v1-v2-removed", // dated (-51) before undated
		"breaking sql#2 tsql-odbc-params-rejected",
		"deprecated alpha-vertica#0 columnar-db-type-removed", // 41 days
		"deprecated alpha-vertica#3 columnar-db-type-removed",
		"deprecated beta-vertica#4 columnar-db-type-removed",
		"deprecated sql#2 tsql-windows-auth-deprecated", // 131 days
		"check mail#6 builtin-email-free-plan-removed",  // 41 days
		"check zeta-rest#5 custom-auth-libraries-removed",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestStatusRank(t *testing.T) {
	order := []string{StatusRemoved, StatusBreaking, StatusDeprecated, StatusCheck}
	for i := 0; i+1 < len(order); i++ {
		if StatusRank(order[i]) <= StatusRank(order[i+1]) {
			t.Errorf("StatusRank(%q)=%d not above StatusRank(%q)=%d", order[i], StatusRank(order[i]), order[i+1], StatusRank(order[i+1]))
		}
	}
	if StatusRank(StatusCheck) <= 0 {
		t.Errorf("check must rank above unknown statuses")
	}
	for _, s := range []string{"", "Removed", "ok", "unknown"} {
		if StatusRank(s) != 0 {
			t.Errorf("StatusRank(%q) = %d, want 0", s, StatusRank(s))
		}
	}
}

func TestFindingJSON(t *testing.T) {
	fs := Audit([]Resource{{ID: "r1", Name: "sql", Type: "mssql", Options: map[string]any{"connector_version": "1.0", "windows_auth": true,
		"params_from_connection_string": map[string]any{"Encrypt": "no"}}}}, on(2026, 11, 21))
	b, err := json.Marshal(fs)
	if err != nil {
		t.Fatal(err)
	}
	var decoded []map[string]any
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	keys := []string{"action", "change", "days_left", "deadline", "resource_id", "resource_name", "status", "type"}
	for _, d := range decoded {
		var got []string
		for k := range d {
			got = append(got, k)
		}
		if len(got) != len(keys) {
			t.Errorf("keys %v, want %v", got, keys)
		}
		for _, k := range keys {
			if _, ok := d[k]; !ok {
				t.Errorf("missing key %q in %s", k, b)
			}
		}
		if d["change"] == ChangeTSQLODBCParams && d["days_left"] != nil {
			t.Errorf("undated finding should encode days_left as null: %v", d)
		}
		if d["change"] == ChangeTSQLConnector && d["days_left"] != float64(-51) {
			t.Errorf("days_left = %v, want -51", d["days_left"])
		}
	}
}
