package sandbox

import (
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/changes"
)

// The demo org is where `orgctl resources audit` is tried and tested, so it must exercise every announced
// change, each with the status its announced dates give it.
func TestDemoOrgExercisesEveryResourceChange(t *testing.T) {
	s := New(Options{})
	tok := s.AdminToken()
	list := send(t, s, tok, "GET", "/api/v2/resources", nil)
	var rs []changes.Resource
	for _, it := range list.body["data"].([]any) {
		id := it.(map[string]any)["id"].(string)
		one := send(t, s, tok, "GET", "/api/v2/resources/"+id, nil)
		d := one.body["data"].(map[string]any)
		opts, _ := d["options"].(map[string]any)
		rs = append(rs, changes.Resource{ID: id, Name: d["display_name"].(string), Type: d["type"].(string), Options: opts})
	}
	got := map[string]map[string]bool{} // change -> statuses
	for _, f := range changes.Audit(rs, time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)) {
		if got[f.Change] == nil {
			got[f.Change] = map[string]bool{}
		}
		got[f.Change][f.Status] = true
	}
	want := map[string][]string{
		changes.ChangeTSQLConnector:    {changes.StatusDeprecated},
		changes.ChangeTSQLWindowsAuth:  {changes.StatusDeprecated},
		changes.ChangeTSQLODBCParams:   {changes.StatusBreaking},
		changes.ChangeColumnarDB:       {changes.StatusDeprecated},
		changes.ChangeDataGovernance:   {changes.StatusDeprecated},
		changes.ChangeDocumentDBServer: {changes.StatusRemoved, changes.StatusCheck},
		changes.ChangeCustomAuthLibs:   {changes.StatusCheck},
		changes.ChangeFreePlanEmail:    {changes.StatusCheck},
	}
	for change, statuses := range want {
		for _, st := range statuses {
			if !got[change][st] {
				t.Errorf("demo org gives no %q finding for %s (got %v)", st, change, got[change])
			}
		}
	}
	// A resource saved before the allowlist keeps its params, but saving it again is refused, as on the service.
	r := send(t, s, tok, "PATCH", "/api/v2/resources/payroll-mssql-winauth", map[string]any{"operations": []any{
		map[string]any{"op": "replace", "path": "/options/connector_version", "value": "3.0"}}})
	if r.status != 400 || message(r) != `Unsupported ODBC connection string parameter "Encrypt". Only a fixed set of ODBC attributes may be supplied via connection params.` {
		t.Errorf("PATCH of a resource with disallowed params: %d %q", r.status, message(r))
	}
}

// The published resourceId is "the uuid or name for the resource", for DELETE as for GET and PATCH.
func TestDeleteResourceByName(t *testing.T) {
	s := New(Options{})
	tok := s.AdminToken()
	if r := send(t, s, tok, "DELETE", "/api/v2/resources/warehouse-jdbc", nil); r.status != 204 {
		t.Fatalf("DELETE by name: %d %q", r.status, message(r))
	}
	if r := send(t, s, tok, "GET", "/api/v2/resources/warehouse-jdbc", nil); r.status != 404 {
		t.Errorf("GET after DELETE: %d", r.status)
	}
	if r := send(t, s, tok, "DELETE", "/api/v2/resources/warehouse-jdbc", nil); r.status != 404 {
		t.Errorf("second DELETE: %d", r.status)
	}
}
