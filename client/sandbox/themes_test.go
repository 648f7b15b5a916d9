package sandbox

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

func TestRolePatchMergesPlainFields(t *testing.T) {
	s := New(Options{})
	tok := s.MintToken("", "admin@sandbox.example", "permissions:write")
	r := send(t, s, tok, "PATCH", "/api/v2/role_permissions/roles/5a4d0008-0000-4000-8000-000000000001", map[string]any{"description": "Deploys"})
	if r.status != 200 || r.body["description"] != "Deploys" || r.body["name"] != "Release Manager" {
		t.Fatalf("PATCH role: got %d %v, want the role with only its description changed", r.status, r.body)
	}
}

func TestRoleGrantsAreStoredAndFoundBySubject(t *testing.T) {
	s := New(Options{})
	tok := s.MintToken("", "admin@sandbox.example", "permissions:write")
	r := send(t, s, tok, "POST", "/api/v2/role_permissions/role_grants", map[string]any{
		"role_id": "5a4d0008-0000-4000-8000-000000000001", "subject_type": "group", "subject_id": "2"})
	if r.status != 201 {
		t.Fatalf("create grant: got %d %q", r.status, message(r))
	}
	got := send(t, s, tok, "GET", "/api/v2/role_permissions/role_grants/group/2", nil).body["data"].([]any)
	if len(got) != 1 || got[0].(map[string]any)["role_id"] != "5a4d0008-0000-4000-8000-000000000001" {
		t.Fatalf("grants of group 2: %v", got)
	}
	if n := len(send(t, s, tok, "GET", "/api/v2/role_permissions/role_grants/group/3", nil).body["data"].([]any)); n != 0 {
		t.Fatalf("grants of group 3: %d, want 0", n)
	}
	r = send(t, s, tok, "POST", "/api/v2/role_permissions/role_grants", map[string]any{
		"role_id": "5a4d0008-0000-4000-8000-0000000000ff", "subject_type": "group", "subject_id": "2"})
	if r.status != 404 {
		t.Fatalf("grant of an unknown role: got %d, want 404", r.status)
	}
}

func TestSourceControlConfigIsUnwrappedAndCreateRefusesOverwrite(t *testing.T) {
	s := New(Options{})
	tok := s.MintToken("", "admin@sandbox.example", "source_control:write")
	cfg := map[string]any{"provider": "GitLab", "org": "acme", "repo": "apps", "default_branch": "main",
		"config": map[string]any{"project_id": 7, "url": "https://gitlab.com", "project_access_token": "t"}}
	if r := send(t, s, tok, "POST", "/api/v2/source_control/config", map[string]any{"config": cfg}); r.status != 409 {
		t.Fatalf("POST over the demo config: got %d, want 409", r.status)
	}
	if r := send(t, s, tok, "PUT", "/api/v2/source_control/config", map[string]any{"config": cfg}); r.status != 200 {
		t.Fatalf("PUT: got %d %q", r.status, message(r))
	}
	got := send(t, s, tok, "GET", "/api/v2/source_control/config", nil).body["data"].(map[string]any)
	if got["provider"] != "GitLab" || got["default_branch"] != "main" || got["config"].(map[string]any)["url"] != "https://gitlab.com" {
		t.Fatalf("stored config: %v", got)
	}
}

func TestGroupPutKeepsMemberEmailsAndSSOSetReplaces(t *testing.T) {
	s := New(Options{})
	tok := s.MintToken("", "admin@sandbox.example", "groups:write", "spaces:write")
	r := send(t, s, tok, "PUT", "/api/v2/groups/2", map[string]any{"name": "Editors",
		"members": []any{map[string]any{"id": "user_0000000000000000005a4d0000000002", "is_group_admin": false}}})
	m := r.body["data"].(map[string]any)["members"].([]any)[0].(map[string]any)
	if r.status != 200 || m["email"] != "priya.ops@sandbox.example" {
		t.Fatalf("PUT group: got %d, member %v; want the member's email filled in", r.status, m)
	}
	google := map[string]any{"config_type": "google", "google_client_id": "c", "google_client_secret": "s", "disable_email_password_login": false}
	send(t, s, tok, "POST", "/api/v2/sso/config", map[string]any{"data": google})
	got := send(t, s, tok, "GET", "/api/v2/sso/config", nil).body["data"].(map[string]any)
	if len(got) != len(google) || got["config_type"] != "google" {
		t.Fatalf("SSO after set: %v, want exactly the google configuration", got)
	}
}
