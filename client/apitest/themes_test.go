package apitest

import "testing"

func TestThemeCreateNeedsOnlyNameAndThemeAndRefusesDuplicates(t *testing.T) {
	s := New(Options{})
	tok := s.MintToken("", "admin@sandbox.example", "app_themes:write")
	r := send(t, s, tok, "POST", "/api/v2/app_themes", map[string]any{"name": "Brand", "theme": map[string]any{"primary": "#fff"}})
	if r.status != 200 {
		t.Fatalf("create: got %d %q", r.status, message(r))
	}
	if r := send(t, s, tok, "POST", "/api/v2/app_themes", map[string]any{"name": "Brand", "theme": map[string]any{}}); r.status != 409 {
		t.Fatalf("duplicate name: got %d, want 409", r.status)
	}
	if r := send(t, s, tok, "POST", "/api/v2/app_themes", map[string]any{"name": "NoTheme"}); r.status != 400 {
		t.Fatalf("missing theme: got %d, want 400", r.status)
	}
}

func TestThemePutUpdatesByIDOrCreates(t *testing.T) {
	s := New(Options{})
	tok := s.MintToken("", "admin@sandbox.example", "app_themes:write")
	before := len(send(t, s, tok, "GET", "/api/v2/app_themes", nil).body["data"].([]any))
	r := send(t, s, tok, "PUT", "/api/v2/app_themes", map[string]any{"id": 1, "name": "Renamed", "theme": map[string]any{"primary": "#000"}})
	if r.status != 200 {
		t.Fatalf("update: got %d %q", r.status, message(r))
	}
	got := send(t, s, tok, "GET", "/api/v2/app_themes/1", nil).body["data"].(map[string]any)
	if got["name"] != "Renamed" || got["theme"].(map[string]any)["primary"] != "#000" {
		t.Fatalf("theme 1 after PUT: %v", got)
	}
	if r := send(t, s, tok, "PUT", "/api/v2/app_themes", map[string]any{"name": "Fresh", "theme": map[string]any{}}); r.status != 201 {
		t.Fatalf("PUT of a new theme: got %d, want 201", r.status)
	}
	if after := len(send(t, s, tok, "GET", "/api/v2/app_themes", nil).body["data"].([]any)); after != before+1 {
		t.Fatalf("themes: %d -> %d, want one more", before, after)
	}
}
