package resources

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/changes"
	"github.com/orgctl/orgctl/client/spec"
)

// The audit reads single resources only for optionTypes; this pins that set to the types whose findings
// changes.Audit actually derives from options, so a change there cannot silently go unread (or cost
// reads for nothing).
func TestOptionTypesAreExactlyTheOptionDependentTypes(t *testing.T) {
	asOf := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	variants := []map[string]any{
		{"connector_version": "1.0", "windows_auth": true, "params_from_connection_string": map[string]any{"Encrypt": "yes"}},
		{"connector_version": "3.0", "windows_auth": false},
		{"server_version": "3.4"},
		{"server_version": "4.4"},
		{"custom_auth": true},
		{"custom_auth": false, "authentication_type": "oauth2"},
	}
	for _, typ := range spec.Find("GET", "/resources").QueryValue("resource_type").Enum {
		base := changes.Audit([]changes.Resource{{ID: "r", Name: "r", Type: typ}}, asOf)
		depends := false
		for _, opts := range variants {
			got := changes.Audit([]changes.Resource{{ID: "r", Name: "r", Type: typ, Options: opts}}, asOf)
			if !reflect.DeepEqual(got, base) {
				depends = true
			}
		}
		if depends != optionTypes(typ) {
			t.Errorf("type %s: findings depend on options = %v, but optionTypes says %v", typ, depends, optionTypes(typ))
		}
	}
}

func TestDeadlineText(t *testing.T) {
	days := func(n int) *int { return &n }
	for _, tc := range []struct {
		f    changes.Finding
		want string
	}{
		{changes.Finding{Deadline: "2026-Q4", DaysLeft: days(40)}, "2026-Q4, begins in 40 days"},
		{changes.Finding{Deadline: "2026-Q4", DaysLeft: days(-61), Status: changes.StatusBreaking}, "under way (2026-Q4, began 61 days ago)"},
		{changes.Finding{Deadline: "2026-Q3", DaysLeft: days(-62), Status: changes.StatusRemoved}, "2026-Q3, began 62 days ago"},
		{changes.Finding{Deadline: "2026-Q3", DaysLeft: days(-106), Status: changes.StatusRemoved}, "2026-Q3, ended 14 days ago"},
		{changes.Finding{Deadline: "2026-Q4", DaysLeft: days(-92), Status: changes.StatusRemoved}, "2026-Q4, ended today"},
		{changes.Finding{Deadline: "2026-08-24", DaysLeft: days(-51)}, "2026-08-24, 51 days ago"},
		{changes.Finding{Deadline: "2027-01-01", DaysLeft: days(1)}, "2027-01-01, in 1 day"},
		{changes.Finding{Deadline: "2027-01-01", DaysLeft: days(-1)}, "2027-01-01, 1 day ago"},
		{changes.Finding{Deadline: "2027-01-01", DaysLeft: days(0)}, "2027-01-01, today"},
		{changes.Finding{}, "in effect now"},
	} {
		if got := deadlineText(tc.f); got != tc.want {
			t.Errorf("deadlineText(%+v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

// The terminal report wraps each action under its finding, inside the width.
func TestWriteAuditReportWrapsActions(t *testing.T) {
	days := 40
	fd := changes.Finding{ResourceID: "r1", ResourceName: "legacy", Type: "mssql", Change: "tsql-connector-v1-v2-removed",
		Status: changes.StatusDeprecated, Deadline: "2026-Q4", DaysLeft: &days,
		Action: "Move the resource to connector 3.0 in its settings before the removal, then test every query that uses it."}
	var b strings.Builder
	if err := writeAuditReport(&b, []auditFinding{{Finding: fd}}, time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC), 50); err != nil {
		t.Fatal(err)
	}
	var action []string
	for _, line := range strings.Split(b.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "      "); ok {
			if len(line) > 50 {
				t.Errorf("line wider than 50 columns: %q", line)
			}
			action = append(action, rest)
		}
	}
	if len(action) < 2 || strings.Join(action, " ") != fd.Action {
		t.Errorf("action lines %q, want %q wrapped\n%s", action, fd.Action, b.String())
	}
	if !strings.Contains(b.String(), "  legacy (mssql, r1)  tsql-connector-v1-v2-removed\n    2026-Q4, begins in 40 days\n") {
		t.Errorf("report:\n%s", b.String())
	}
}

// A finding's heading wider than the terminal breaks between its parts,
// and inside a part between words, never mid-word.
func TestWrapPartsAtWords(t *testing.T) {
	got := wrapParts([]string{"payroll-mssql-winauth (mssql, 5a4d000d-0000-4000-8000-00000000000b)", "tsql-odbc-params-rejected",
		"under way (2026-Q4, began 61 days ago)"}, 50, 2)
	want := []string{"payroll-mssql-winauth (mssql,", "5a4d000d-0000-4000-8000-00000000000b)", "tsql-odbc-params-rejected", "under way (2026-Q4, began 61 days ago)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("wrapParts = %q, want %q", got, want)
	}
	if got := wrapParts([]string{"a (b, c)", "d", "e, in 1 day"}, 78, 2); !reflect.DeepEqual(got, []string{"a (b, c)  d  e, in 1 day"}) {
		t.Errorf("wrapParts of a short heading = %q", got)
	}
}

// Each finding names the apps that use its resource, and says so when none
// does; a finding whose apps the instance cannot say names none.
func TestWriteAuditReportNamesApps(t *testing.T) {
	fd := changes.Finding{ResourceID: "r1", ResourceName: "legacy", Type: "mssql", Change: "c", Status: changes.StatusRemoved, Action: "Act."}
	var b strings.Builder
	findings := []auditFinding{
		{Finding: fd, Apps: []appRef{{ID: "a1", Name: "Customer Lookup"}, {ID: "a2", Name: "Refund Console"}}},
		{Finding: fd, Apps: []appRef{}},
		{Finding: fd},
	}
	if err := writeAuditReport(&b, findings, time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC), 80); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Count(out, "      used by Customer Lookup, Refund Console\n") != 1 || strings.Count(out, "      used by no app\n") != 1 || strings.Count(out, "used by") != 2 {
		t.Errorf("report:\n%s", out)
	}
	if got := appNames(map[string]any{"apps": []any{map[string]any{"name": "A"}, map[string]any{"name": "B"}}}); got != "A, B" {
		t.Errorf("APPS cell %q", got)
	}
}
