package sandbox

import (
	"fmt"
	"net/url"
	"sort"
	"testing"
)

// published skips a test of an operation the routes (client/spec) do not
// publish: the sandbox answers only what its description has.
func published(t *testing.T, method, path string) {
	t.Helper()
	if rt, _ := matchRoute(method, path); rt == nil {
		t.Skipf("%s %s is not in the sandbox's description", method, path)
	}
}

func names(t *testing.T, r reply, field string) []string {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("status %d: %v", r.status, r.body)
	}
	data, _ := r.body["data"].([]any)
	var out []string
	for _, it := range data {
		out = append(out, fmt.Sprint(it.(map[string]any)[field]))
	}
	sort.Strings(out)
	return out
}

func resourceID(t *testing.T, s *Server, name string) string {
	t.Helper()
	r := send(t, s, s.AdminToken(), "GET", "/api/v2/resources", nil)
	for _, it := range r.body["data"].([]any) {
		if m := it.(map[string]any); m["display_name"] == name {
			return fmt.Sprint(m["id"])
		}
	}
	t.Fatalf("no resource %q", name)
	return ""
}

// The demo apps use the demo resources: using_resource lists an app once
// however many of its queries use the resource, and only those apps.
func TestAppsUsingResource(t *testing.T) {
	s := New(Options{})
	if rt, _ := matchRoute("GET", "/apps"); rt.QueryValue("using_resource") == nil {
		t.Skip("GET /apps takes no using_resource in the sandbox's description")
	}
	tok := s.AdminToken()
	for res, want := range map[string]string{
		"legacy-mssql":    "[Customer Lookup Refund Console]",
		"reporting-mssql": "[Refund Console]",
		"archive-mongodb": "[]",
	} {
		r := send(t, s, tok, "GET", "/api/v2/apps?using_resource="+resourceID(t, s, res), nil)
		if got := fmt.Sprint(names(t, r, "name")); got != want {
			t.Errorf("apps using %s: %s, want %s", res, got, want)
		}
		for _, it := range r.body["data"].([]any) {
			if _, leaked := it.(map[string]any)[appUses]; leaked {
				t.Errorf("the hidden %s field is in the answer", appUses)
			}
		}
	}
	r := send(t, s, tok, "GET", "/api/v2/apps?name_contains="+url.QueryEscape("CONSOLE"), nil)
	if got := fmt.Sprint(names(t, r, "name")); got != "[Refund Console]" {
		t.Errorf("name_contains CONSOLE: %s", got)
	}
	r = send(t, s, tok, "GET", "/api/v2/resources?name_contains=mssql", nil)
	if got := len(names(t, r, "display_name")); got != 5 {
		t.Errorf("resources whose name contains mssql: %d, want 5", got)
	}
}

func TestLogoutUser(t *testing.T) {
	s := New(Options{})
	published(t, "POST", "/users/user_1/logout")
	tok := s.AdminToken()
	u := send(t, s, tok, "GET", "/api/v2/users?email=dev.lee@sandbox.example", nil).body["data"].([]any)[0].(map[string]any)
	r := send(t, s, tok, "POST", "/api/v2/users/"+u["id"].(string)+"/logout", map[string]any{})
	if r.status != 200 || r.body["data"].(map[string]any)["sso_logout"] != false {
		t.Fatalf("logout: %d %v", r.status, r.body)
	}
	r = send(t, s, tok, "POST", "/api/v2/users/"+u["id"].(string)+"/logout", map[string]any{"sso_logout": true})
	if w, _ := r.body["data"].(map[string]any)["warning"].(string); r.status != 200 || w == "" {
		t.Errorf("SSO logout without an end-session URL: %d %v, want a warning", r.status, r.body)
	}
	if r := send(t, s, tok, "POST", "/api/v2/users/user_00000000000000000000000000000fff/logout", map[string]any{}); r.status != 404 {
		t.Errorf("unknown user: %d, want 404", r.status)
	}
}

func TestBranchesAndToolscript(t *testing.T) {
	s := New(Options{})
	published(t, "POST", "/source_control/branches")
	tok := s.AdminToken()
	r := send(t, s, tok, "POST", "/api/v2/source_control/branches", map[string]any{"branch_name": "fix-header"})
	if r.status != 200 || r.body["data"].(map[string]any)["branch_name"] != "fix-header" {
		t.Fatalf("create: %d %v", r.status, r.body)
	}
	if r := send(t, s, tok, "POST", "/api/v2/source_control/branches", map[string]any{"branch_name": "fix-header"}); r.status != 409 {
		t.Errorf("the same name again: %d, want 409", r.status)
	}
	r = send(t, s, tok, "POST", "/api/v2/source_control/branches/reset", map[string]any{"branch_name": "fix-header"})
	if r.status != 200 || r.body["data"].(map[string]any)["status"] != "reset" {
		t.Errorf("reset: %d %v", r.status, r.body)
	}
	r = send(t, s, tok, "POST", "/api/v2/source_control/branches/reset", map[string]any{"branch_name": "fix-header"})
	if r.body["data"].(map[string]any)["status"] != "already_synced" {
		t.Errorf("second reset: %v", r.body)
	}
	if r := send(t, s, tok, "POST", "/api/v2/source_control/branches/reset", map[string]any{"branch_name": "nope"}); r.status != 404 {
		t.Errorf("reset of an unknown branch: %d, want 404", r.status)
	}

	published(t, "POST", "/apps/toolscript/validate")
	r = send(t, s, tok, "POST", "/api/v2/apps/toolscript/validate", map[string]any{"toolscript": []any{
		map[string]any{"path": "main.ts", "contents": "const a = { b: [1, \"]\"] }\n"},
		map[string]any{"path": "bad.ts", "contents": "fn(\n  x: [1, 2}\n"},
	}})
	d := r.body["data"].(map[string]any)
	diags, _ := d["diagnostics"].([]any)
	if d["valid"] != false || len(diags) != 1 {
		t.Fatalf("validate: %v", d)
	}
	if dg := diags[0].(map[string]any); dg["filename"] != "bad.ts" || dg["fromLoc"].(map[string]any)["line"] != float64(2) {
		t.Errorf("diagnostic %v, want bad.ts line 2", dg)
	}
}

func TestCodeExecutorAndWorkflowPatch(t *testing.T) {
	s := New(Options{})
	published(t, "PUT", "/organization/code_executor_settings")
	tok := s.AdminToken()
	if r := send(t, s, tok, "GET", "/api/v2/organization/code_executor_settings", nil); r.body["data"].(map[string]any)["circuitBreakerEnabled"] != false {
		t.Errorf("defaults: %v", r.body)
	}
	body := map[string]any{"memoryLimitMbs": 1024, "maxConcurrentProcesses": 10, "circuitBreakerEnabled": true}
	if r := send(t, s, tok, "PUT", "/api/v2/organization/code_executor_settings", body); r.status != 200 {
		t.Fatalf("put: %d %v", r.status, r.body)
	}
	if r := send(t, s, tok, "GET", "/api/v2/organization/code_executor_settings", nil); r.body["data"].(map[string]any)["memoryLimitMbs"] != float64(1024) {
		t.Errorf("after put: %v", r.body)
	}

	published(t, "PATCH", "/workflows/00000000-0000-4000-8000-000000000000")
	w := send(t, s, tok, "GET", "/api/v2/workflows", nil).body["data"].([]any)[0].(map[string]any)
	r := send(t, s, tok, "PATCH", "/api/v2/workflows/"+w["id"].(string), map[string]any{"code_executor_memory_limit_mbs": 512})
	if r.status != 200 || r.body["data"].(map[string]any)["code_executor_memory_limit_mbs"] != float64(512) {
		t.Errorf("patch: %d %v", r.status, r.body)
	}
}
