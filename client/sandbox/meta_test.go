package sandbox

import (
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
