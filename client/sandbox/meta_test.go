package sandbox

import (
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/spec"
)

// The health check and the spec answer without a token and cost nothing:
// with the budget spent, they still answer while org requests are blocked.
func TestHealthAndSpecAreFreeAndOpen(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := New(Options{Now: clk.now, Points: 10})
	tok := s.AdminToken()
	for range 5 {
		send(t, s, tok, "GET", "/api/v2/users", nil)
	}
	if r := send(t, s, tok, "GET", "/api/v2/users", nil); r.status != 429 {
		t.Fatalf("budget not spent: %d", r.status)
	}
	if r := send(t, s, "", "GET", "/api/checkHealth", nil); r.status != 200 {
		t.Errorf("checkHealth: %d %v", r.status, r.body)
	}
	r := send(t, s, "", "GET", "/api/v2/spec", nil)
	info, _ := r.body["info"].(map[string]any)
	if r.status != 200 || info["version"] != spec.Version || spec.Version == "" {
		t.Errorf("spec: %d info %v, want version %q", r.status, info, spec.Version)
	}
	paths, _ := r.body["paths"].(map[string]any)
	if _, ok := paths["/users/{userId}"].(map[string]any)["delete"]; !ok {
		t.Errorf("spec paths lack DELETE /users/{userId}: %d paths", len(paths))
	}
	if r := send(t, s, "", "POST", "/api/checkHealth", nil); r.status != 404 {
		t.Errorf("POST checkHealth: %d, want 404", r.status)
	}
}

// As the 3.334 release (API 2.12), the sandbox describes and serves no 4.0-only operation, ignores
// 4.0-only query parameters and leaves 4.0-only fields out of its answers; as 4.0 it has them all.
func TestSandboxAnswersAsEitherVersion(t *testing.T) {
	older := New(Options{APIVersion: "2.12"})
	newer := New(Options{})
	for _, c := range []struct {
		s       *Server
		version string
		logout  bool
	}{{older, spec.OlderVersion, false}, {newer, spec.Version, true}} {
		r := send(t, c.s, "", "GET", "/api/v2/spec", nil)
		info, _ := r.body["info"].(map[string]any)
		paths, _ := r.body["paths"].(map[string]any)
		_, logout := paths["/users/{userId}/logout"]
		_, apps := paths["/apps"].(map[string]any)["post"]
		if info["version"] != c.version || logout != c.logout || apps {
			t.Errorf("%s: spec version %v, logout described %v, POST /apps described %v", c.version, info["version"], logout, apps)
		}
	}
	tok := older.AdminToken()
	users := send(t, older, tok, "GET", "/api/v2/users", nil)
	u := users.body["data"].([]any)[0].(map[string]any)
	if _, ok := u["seat_type"]; ok {
		t.Errorf("a 2.12 user has seat_type: %v", u)
	}
	id := u["id"].(string)
	if r := send(t, older, tok, "POST", "/api/v2/users/"+id+"/logout", nil); r.status != 404 {
		t.Errorf("logout on 2.12: %d, want 404", r.status)
	}
	if r := send(t, newer, newer.AdminToken(), "GET", "/api/v2/users", nil); r.status != 200 {
		t.Fatalf("GET /users on 4.0: %d", r.status)
	} else if _, ok := r.body["data"].([]any)[0].(map[string]any)["seat_type"]; !ok {
		t.Errorf("a 4.0 user lacks seat_type: %v", r.body["data"].([]any)[0])
	}
	if _, err := APIVersionOf("3.0"); err == nil || !strings.Contains(err.Error(), "3.334") {
		t.Errorf("APIVersionOf(3.0) = %v", err)
	}
}
