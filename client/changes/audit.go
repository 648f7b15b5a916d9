package changes

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Resource is what the audit needs of a resource. Options may be nil: the API does not expose them.
type Resource struct {
	ID, Name, Type string
	Options        map[string]any
}

// Finding is one announced change that affects (or may affect) one resource.
type Finding struct {
	ResourceID   string `json:"resource_id"`
	ResourceName string `json:"resource_name"`
	Type         string `json:"type"`
	Change       string `json:"change"`    // stable identifier, one of the Change* constants
	Status       string `json:"status"`    // one of the Status* constants
	Deadline     string `json:"deadline"`  // next announced milestone: "2026-08-24", "2026-Q4"; "" when none was announced
	Action       string `json:"action"`    // what to do, concretely
	DaysLeft     *int   `json:"days_left"` // days from asOf to the deadline's first day; negative once passed; nil when no date
}

// Statuses, most urgent first.
const (
	StatusRemoved    = "removed"    // gone: dependent queries fail now
	StatusBreaking   = "breaking"   // fails now, or removal is under way this quarter
	StatusDeprecated = "deprecated" // still works; removal or breakage announced
	StatusCheck      = "check"      // the API does not expose what decides it: a person must look
)

// StatusRank orders statuses for --fail-on: removed 4 > breaking 3 > deprecated 2 > check 1;
// anything else is 0. A finding "reaches" a threshold when its rank is >= the threshold's.
func StatusRank(status string) int {
	switch status {
	case StatusRemoved:
		return 4
	case StatusBreaking:
		return 3
	case StatusDeprecated:
		return 2
	case StatusCheck:
		return 1
	}
	return 0
}

// Change identifiers (stable: scripts filter on them).
const (
	ChangeTSQLConnector    = "tsql-connector-v1-v2-removed"
	ChangeTSQLWindowsAuth  = "tsql-windows-auth-deprecated"
	ChangeTSQLODBCParams   = "tsql-odbc-params-rejected"
	ChangeColumnarDB       = "columnar-db-type-removed"
	ChangeDataGovernance   = "data-governance-type-removed"
	ChangeDocumentDBServer = "document-db-server-3.4-removed"
	ChangeCustomAuthLibs   = "custom-auth-libraries-removed"
	ChangeFreePlanEmail    = "builtin-email-free-plan-removed"
)

// milestone is an announced date: a day, or a quarter that starts on its first day. It holds
// the date's parts rather than a time.Time, so the table of milestones below is laid out by the
// compiler instead of computed when every orgctl command starts.
type milestone struct {
	year  int
	month time.Month // a day's month; unset for a quarter
	day   int        // a day's day of the month; unset for a quarter
	q     int        // a quarter's number, 1 to 4; 0 for a day
}

func day(y int, m time.Month, d int) milestone {
	return milestone{year: y, month: m, day: d}
}

func quarter(y, q int) milestone {
	return milestone{year: y, q: q}
}

// start is the milestone's first day, UTC midnight.
func (m milestone) start() time.Time {
	if m.q > 0 {
		return time.Date(m.year, time.Month(3*m.q-2), 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(m.year, m.month, m.day, 0, 0, 0, 0, time.UTC)
}

// label is how a finding names the milestone: 2026-08-24 or 2026-Q4. It is
// made when asked for, not for every milestone when the program starts.
func (m milestone) label() string {
	if m.q > 0 {
		return fmt.Sprintf("%d-Q%d", m.year, m.q)
	}
	return m.start().Format("2006-01-02")
}

// end is the first day after the milestone (the next quarter for a quarter, the next day for a day).
func (m milestone) end() time.Time {
	if m.q > 0 {
		return m.start().AddDate(0, 3, 0)
	}
	return m.start().AddDate(0, 0, 1)
}

// The announced milestones, as cloud dates: self-hosted follows later, so these are the earliest.
var (
	tsqlV1V2Deprecated  = day(2026, time.August, 24)
	tsqlV1V2Removed     = quarter(2026, 4)
	windowsAuthHardened = quarter(2027, 2)
	typesRemoved        = quarter(2027, 1) // columnar database and data governance
	documentDB34Removed = quarter(2026, 3)
	customAuthLibs      = quarter(2027, 2)
	freePlanEmail       = day(2027, time.January, 1)
)

// Resource types from the spec's enum that the changes name.
const (
	typeTSQL           = "mssql"
	typeColumnar       = "vertica"
	typeDataGovernance = "bigid"
	typeDocumentDB     = "mongodb"
	typeBuiltinEmail   = "retoolEmail"
)

// customAuthType reports whether a resource type can run custom auth code.
func customAuthType(t string) bool {
	switch t {
	case "restapi", "graphql", "openapi", "grpc":
		return true
	}
	return false
}

// Audit reports, for each resource, the announced changes that affect or may affect it, as of the
// calendar day of asOf in asOf's location. Findings are sorted by urgency (StatusRank descending,
// then days left ascending, undated last), then resource name, resource ID and change.
func Audit(resources []Resource, asOf time.Time) []Finding {
	y, m, d := asOf.Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	a := auditor{today: today, findings: []Finding{}} // non-nil: encodes as [] rather than null
	for _, r := range resources {
		a.resource(r)
	}
	sort.SliceStable(a.findings, func(i, j int) bool { return moreUrgent(a.findings[i], a.findings[j]) })
	return a.findings
}

// moreUrgent reports whether x sorts before y.
func moreUrgent(x, y Finding) bool {
	if rx, ry := StatusRank(x.Status), StatusRank(y.Status); rx != ry {
		return rx > ry
	}
	switch {
	case x.DaysLeft != nil && y.DaysLeft == nil:
		return true
	case x.DaysLeft == nil && y.DaysLeft != nil:
		return false
	case x.DaysLeft != nil && *x.DaysLeft != *y.DaysLeft:
		return *x.DaysLeft < *y.DaysLeft
	}
	if x.ResourceName != y.ResourceName {
		return x.ResourceName < y.ResourceName
	}
	if x.ResourceID != y.ResourceID {
		return x.ResourceID < y.ResourceID
	}
	return x.Change < y.Change
}

type auditor struct {
	today    time.Time
	findings []Finding
}

func (a *auditor) add(r Resource, change, status string, deadline *milestone, action string) {
	f := Finding{ResourceID: r.ID, ResourceName: r.Name, Type: r.Type, Change: change, Status: status, Action: action}
	if deadline != nil {
		f.Deadline = deadline.label()
		days := int(deadline.start().Sub(a.today).Hours() / 24)
		f.DaysLeft = &days
	}
	a.findings = append(a.findings, f)
}

// reached reports whether the milestone's first day has come.
func (a *auditor) reached(m milestone) bool { return !a.today.Before(m.start()) }

// over reports whether the whole milestone (a day, or every day of a quarter) has passed.
func (a *auditor) over(m milestone) bool { return !a.today.Before(m.end()) }

func (a *auditor) resource(r Resource) {
	switch {
	case r.Type == typeTSQL:
		a.tsqlConnector(r)
		a.tsqlWindowsAuth(r)
	case r.Type == typeColumnar:
		a.removedType(r, ChangeColumnarDB, columnarAction)
	case r.Type == typeDataGovernance:
		a.removedType(r, ChangeDataGovernance, dataGovernanceAction)
	case r.Type == typeDocumentDB:
		a.documentDB(r)
	case customAuthType(r.Type):
		a.customAuth(r)
	case r.Type == typeBuiltinEmail:
		a.add(r, ChangeFreePlanEmail, StatusCheck, &freePlanEmail,
			"The organization's plan is not visible to orgctl: if it is on the Free plan (cloud), the built-in "+
				"email sender cannot be used from apps, workflows or automations from 2027-01-01; move email "+
				"sending to an SMTP or SendGrid resource, or change plan (Team, Business and Enterprise keep it).")
	}
}

const connectorAdvice = "change Connector version to 3.0 (Resources page > resource settings > Connector version); " +
	"no query rewrite is needed, but object query parameters are unsupported in 3.0 (convert them to strings " +
	"first) and array parameters become comma-separated strings."

func (a *auditor) tsqlConnector(r Resource) {
	var timing, status string
	deadline := tsqlV1V2Removed
	switch {
	case !a.reached(tsqlV1V2Deprecated):
		status, deadline = StatusDeprecated, tsqlV1V2Deprecated
		timing = "Deprecation takes effect on cloud on 2026-08-24 (then in the next edge and stable releases); " +
			"removal from cloud follows in 2026-Q4."
	case !a.reached(tsqlV1V2Removed):
		status = StatusDeprecated
		timing = "Deprecated on cloud since 2026-08-24; removed from cloud in 2026-Q4, then in the following " +
			"edge and stable releases, after which dependent apps, workflows and queries stop working."
	case !a.over(tsqlV1V2Removed):
		status = StatusBreaking
		timing = "Removal from cloud is under way this quarter (2026-Q4), then in the following edge and stable " +
			"releases; dependent apps, workflows and queries stop working."
	default:
		status = StatusRemoved
		timing = "Removed from cloud in 2026-Q4 (self-hosted: in the edge and stable releases that followed); " +
			"dependent apps, workflows and queries no longer work."
	}

	raw, present := option(r.Options, "connector_version", "connectorVersion")
	version, known := parseConnectorVersion(raw)
	switch {
	case known && version == 3:
		return
	case known:
		a.add(r, ChangeTSQLConnector, status, &deadline,
			fmt.Sprintf("Connector version is %d.0: %s %s", version, connectorAdvice, timing))
	case present:
		a.add(r, ChangeTSQLConnector, StatusCheck, &deadline,
			fmt.Sprintf("Connector version %s is not one orgctl recognizes: look at Resources page > resource settings > "+
				"Connector version; if it is 1.0 or 2.0, %s %s", describe(raw), connectorAdvice, timing))
	default:
		a.add(r, ChangeTSQLConnector, StatusCheck, &deadline,
			"Connector version is not exposed by the API: look at Resources page > resource settings > Connector "+
				"version; if it is 1.0 or 2.0, "+connectorAdvice+" "+timing)
	}
}

const windowsAuthAdvice = "move it off Windows Authentication (and Kerberos), e.g. to a database login in the " +
	"resource's username and password"

func (a *auditor) tsqlWindowsAuth(r Resource) {
	status, timing := StatusDeprecated,
		"Self-hosted only: deprecated; hardened images become the default from 2027-Q2, after which resources "+
			"with Windows Auth eventually stop working."
	if a.reached(windowsAuthHardened) {
		status = StatusBreaking
		timing = "Self-hosted only: hardened images are the default since 2027-Q2; resources with Windows Auth " +
			"eventually stop working on them."
	}

	raw, present := option(r.Options, "windows_auth", "windowsAuth", "connect_using_windows_auth")
	on, known := parseBool(raw)
	switch {
	case known && !on:
		return
	case known:
		a.add(r, ChangeTSQLWindowsAuth, status, &windowsAuthHardened,
			"Connect using Windows Auth is on: "+windowsAuthAdvice+". "+timing)
	default:
		what := "Connect using Windows Auth is not exposed by the API"
		if present {
			what = "Connect using Windows Auth is " + describe(raw) + ", which orgctl does not recognize"
		}
		a.add(r, ChangeTSQLWindowsAuth, StatusCheck, &windowsAuthHardened,
			what+": on self-hosted deployments, look at the resource settings. If it is on, "+windowsAuthAdvice+
				", and make sure every ODBC connection params key is on the allowlist (other keys now fail setup). "+timing)
	}
	if !known || on {
		a.odbcParams(r, known)
	}
}

// odbcParams reports params_from_connection_string keys the service now refuses. windowsAuthKnown
// is false when Windows Auth may be off, in which case the allowlist may not apply: "check".
func (a *auditor) odbcParams(r Resource, windowsAuthKnown bool) {
	raw, present := option(r.Options, "params_from_connection_string", "paramsFromConnectionString")
	if !present || raw == nil {
		return
	}
	params, ok := stringMap(raw)
	if !ok {
		a.add(r, ChangeTSQLODBCParams, StatusCheck, nil,
			"ODBC connection params are present but not a map of attribute to value, so orgctl cannot check them: "+
				"look at the resource settings; with Windows Auth on, keys outside the allowlist fail setup, save and "+
				"test connection.")
		return
	}
	_, rejected := CheckODBCParams(params)
	if len(rejected) == 0 {
		return
	}
	parts := make([]string, len(rejected))
	for i, rej := range rejected {
		parts[i] = fmt.Sprintf("%s (%s: %s)", strconv.Quote(rej.Key), rej.Category, rej.Replacement)
	}
	status, lead := StatusBreaking, "With Windows Auth on, setup, save and test connection fail"
	if !windowsAuthKnown {
		status, lead = StatusCheck, "If Windows Auth is on, setup, save and test connection fail"
	}
	a.add(r, ChangeTSQLODBCParams, status, nil,
		lead+" on these ODBC connection params; fix each: "+strings.Join(parts, "; ")+".")
}

const columnarAction = "No automatic migration: recreate it before its type is removed in 2027-Q1 (its queries then " +
	"fail; the bundled JDBC driver is no longer shipped). Self-hosted replacement: a JDBC resource with a driver " +
	"jar you supply, placed in the directory set by JDBC_DIRECTORY_PATH, and DisableCopyLocal=true in the " +
	"connection string; JDBC resources have no managed SSH tunnels, so reach the database another way. Then " +
	"point its apps, workflows and queries at the new resource."

const dataGovernanceAction = "No automatic migration: before its type is removed in 2027-Q1 (it then stops " +
	"working), create a REST API resource with Custom Auth: an API Request step exchanging a user token for a " +
	"system token, a variable named SYSTEM_TOKEN, an Authorization header using it, \"Run this custom auth " +
	"workflow without prompting the user\" enabled, and a refresh workflow triggered by a non-200 response. " +
	"Custom auth is not supported in public apps. Then point its apps, workflows and queries at the new resource."

func (a *auditor) removedType(r Resource, change, action string) {
	status := StatusDeprecated
	if a.reached(typesRemoved) {
		status = StatusRemoved
	}
	a.add(r, change, status, &typesRemoved, action)
}

func (a *auditor) documentDB(r Resource) {
	const timing = "Cloud: support for 3.4 and earlier is already removed. Self-hosted: deprecated in the " +
		"2026-Q2 stable release, removed in the 2026-Q3 stable release."
	raw, present := option(r.Options, "server_version", "serverVersion")
	major, minor, known := parseServerVersion(raw)
	switch {
	case known && (major > 3 || major == 3 && minor >= 6):
		return
	case known:
		a.add(r, ChangeDocumentDBServer, StatusRemoved, &documentDB34Removed,
			fmt.Sprintf("Server version is %s, below the minimum supported 3.6: upgrade the server to 3.6 or later. %s",
				describe(raw), timing))
	default:
		what := "Server version is not exposed by the API"
		if present {
			what = "Server version " + describe(raw) + " is not one orgctl recognizes"
		}
		a.add(r, ChangeDocumentDBServer, StatusCheck, &documentDB34Removed,
			what+": look at the database server's version (db.version()); if it is 3.4 or earlier, upgrade to 3.6 "+
				"or later (the minimum supported). "+timing)
	}
}

func (a *auditor) customAuth(r Resource) {
	custom, known := customAuthInUse(r.Options)
	if known && !custom {
		return
	}
	lead := "If this resource uses Custom Auth (the API does not expose its steps)"
	if known {
		lead = "This resource uses Custom Auth, whose steps the API does not expose"
	}
	a.add(r, ChangeCustomAuthLibs, StatusCheck, &customAuthLibs,
		lead+": look at its JavaScript steps for require() of the preinstalled JWT, crypto helper, date or UUID "+
			"libraries, removed in 2027-Q2 (cloud and self-hosted), and rewrite them with the runtime's built-in "+
			"modules (crypto, Buffer). Form (modal), API Request and Define a variable steps are unaffected.")
}

// customAuthInUse reads the resource's authentication type when the options carry one.
func customAuthInUse(opts map[string]any) (custom, known bool) {
	if raw, ok := option(opts, "custom_auth", "customAuth"); ok {
		if b, ok := parseBool(raw); ok {
			return b, true
		}
	}
	raw, ok := option(opts, "authentication_type", "authenticationType")
	if !ok {
		if auth, isMap := opts["authentication_options"].(map[string]any); isMap {
			raw, ok = auth["authentication_type"]
		}
	}
	s, isString := raw.(string)
	if !ok || !isString || strings.TrimSpace(s) == "" {
		return false, false
	}
	return strings.Contains(strings.ToLower(s), "custom"), true
}

// option finds the first of names at the top level of opts, then under "database_options" (where
// the API nests database settings).
func option(opts map[string]any, names ...string) (any, bool) {
	for _, n := range names {
		if v, ok := opts[n]; ok {
			return v, true
		}
	}
	if db, ok := opts["database_options"].(map[string]any); ok {
		for _, n := range names {
			if v, ok := db[n]; ok {
				return v, true
			}
		}
	}
	return nil, false
}

// versionText is a version setting as text, whether JSON gave a string or a number.
func versionText(raw any) (string, bool) {
	switch v := raw.(type) {
	case string:
		return v, true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	case int:
		return strconv.Itoa(v), true
	case json.Number:
		return v.String(), true
	}
	return "", false
}

// parseConnectorVersion accepts 1, 2, 3 as numbers or as "1", "1.0", "v1", "Version 1.0" (any case).
func parseConnectorVersion(raw any) (int, bool) {
	s, ok := versionText(raw)
	if !ok {
		return 0, false
	}
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimSpace(strings.TrimPrefix(s, "version"))
	s = strings.TrimPrefix(s, "v")
	switch s {
	case "1", "1.0":
		return 1, true
	case "2", "2.0":
		return 2, true
	case "3", "3.0":
		return 3, true
	}
	return 0, false
}

// parseServerVersion accepts "3.4", "3.4.24", "4", numbers like 3.6, and json.Number.
func parseServerVersion(raw any) (major, minor int, ok bool) {
	s, ok := versionText(raw)
	if !ok {
		return 0, 0, false
	}
	parts := strings.Split(strings.TrimPrefix(strings.TrimSpace(s), "v"), ".")
	if len(parts) > 3 {
		return 0, 0, false
	}
	nums := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return 0, 0, false
		}
		nums[i] = n
	}
	if len(nums) > 1 {
		minor = nums[1]
	}
	return nums[0], minor, true
}

func parseBool(raw any) (value, ok bool) {
	switch v := raw.(type) {
	case bool:
		return v, true
	case string:
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		return b, err == nil
	}
	return false, false
}

// stringMap accepts map[string]string, or map[string]any with scalar values (as decoded JSON).
func stringMap(raw any) (map[string]string, bool) {
	switch m := raw.(type) {
	case map[string]string:
		return m, true
	case map[string]any:
		out := make(map[string]string, len(m))
		for k, v := range m {
			switch s := v.(type) {
			case string:
				out[k] = s
			case bool:
				out[k] = strconv.FormatBool(s)
			case float64:
				out[k] = strconv.FormatFloat(s, 'f', -1, 64)
			case int:
				out[k] = strconv.Itoa(s)
			case json.Number:
				out[k] = s.String()
			default:
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

// describe renders an option value for an action text.
func describe(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}
