package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"
)

type reply struct {
	status int
	body   map[string]any
	header http.Header
}

func send(t *testing.T, h http.Handler, tok, method, path string, body any) reply {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, "http://sandbox.test"+path, rd)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	r := reply{status: rec.Code, header: rec.Header()}
	if rec.Body.Len() > 0 {
		if err := json.Unmarshal(rec.Body.Bytes(), &r.body); err != nil {
			t.Fatalf("%s %s: body is not JSON: %q", method, path, rec.Body.String())
		}
	}
	return r
}

func message(r reply) string { s, _ := r.body["message"].(string); return s }

func TestUnauthenticated(t *testing.T) {
	s := New(Options{})
	for name, tok := range map[string]string{"missing": "", "unknown": "retool_nope"} {
		r := send(t, s, tok, "GET", "/api/v2/users", nil)
		if r.status != 401 || r.body["success"] != false || message(r) == "" {
			t.Errorf("%s token: got %d %v, want 401 with a message", name, r.status, r.body)
		}
	}
}

func TestMissingScopeNamesReadScope(t *testing.T) {
	s := New(Options{})
	tok := s.MintToken("", "reader@sandbox.example", "groups:read")
	r := send(t, s, tok, "GET", "/api/v2/users", nil)
	want := `Forbidden: API token is missing one of "users:read"`
	if r.status != 403 || message(r) != want {
		t.Fatalf("got %d %q, want 403 %q", r.status, message(r), want)
	}
	r = send(t, s, tok, "POST", "/api/v2/groups", map[string]any{"name": "x"})
	if r.status != 403 || !strings.Contains(message(r), `"groups:write"`) {
		t.Fatalf("write with read scope: got %d %q", r.status, message(r))
	}
	if r := send(t, s, s.MintToken("", "w@sandbox.example", "users:write"), "GET", "/api/v2/users", nil); r.status != 200 {
		t.Fatalf("users:write should imply users:read, got %d %q", r.status, message(r))
	}
}

func TestMintedTokenHasExactlyItsScopesAndValueShownOnce(t *testing.T) {
	s := New(Options{})
	r := send(t, s, s.AdminToken(), "POST", "/api/v2/access_tokens",
		map[string]any{"label": "ci", "description": "for CI", "scopes": []string{"folders:read", "not:a:scope"}})
	if r.status != 200 {
		t.Fatalf("create token: %d %v", r.status, r.body)
	}
	data := r.body["data"].(map[string]any)
	value, _ := data["access_token"].(string)
	if value == "" || data["last4"] != value[len(value)-4:] {
		t.Fatalf("created token must carry its value and last4: %v", data)
	}
	if fmt.Sprint(data["scopes"]) != "[folders:read]" {
		t.Fatalf("unknown scopes must be dropped, got %v", data["scopes"])
	}
	if r := send(t, s, value, "GET", "/api/v2/folders", nil); r.status != 200 {
		t.Fatalf("minted token on its scope: %d", r.status)
	}
	for _, p := range []string{"/api/v2/users", "/api/v2/groups"} {
		if r := send(t, s, value, "GET", p, nil); r.status != 403 {
			t.Fatalf("minted token outside its scope %s: %d", p, r.status)
		}
	}
	if r := send(t, s, value, "POST", "/api/v2/folders", map[string]any{"name": "x", "folder_type": "app"}); r.status != 403 {
		t.Fatalf("read scope must not write: %d", r.status)
	}
	id := data["id"].(string)
	for _, p := range []string{"/api/v2/access_tokens", "/api/v2/access_tokens/" + id} {
		r := send(t, s, s.AdminToken(), "GET", p, nil)
		raw, _ := json.Marshal(r.body)
		if r.status != 200 || strings.Contains(string(raw), value) || strings.Contains(string(raw), "access_token\"") {
			t.Fatalf("%s must not reveal the value: %d %s", p, r.status, raw)
		}
		if !strings.Contains(string(raw), `"last4":"`+value[len(value)-4:]) {
			t.Fatalf("%s should show last4: %s", p, raw)
		}
	}
	nonAdmin := s.MintToken("", "dev.lee@sandbox.example", "access_tokens:read")
	if r := send(t, s, nonAdmin, "POST", "/api/v2/access_tokens", map[string]any{"label": "xx", "scopes": []string{}}); r.status != 403 {
		t.Fatalf("non-admin token creation: %d", r.status)
	}
}

func TestSpaceTokenRule(t *testing.T) {
	s := New(Options{})
	s.MintToken("ops", "ops.admin@sandbox.example", "users:read") // creates space-less org data; not a real space
	engTok := s.MintToken("eng", "eng.lead@sandbox.example", "users:read")

	if r := send(t, s, engTok, "GET", "/space/eng/api/v2/users", nil); r.status != 200 {
		t.Errorf("space token on its own space: %d %q", r.status, message(r))
	}
	if r := send(t, s, engTok, "GET", "/api/v2/users", nil); r.status != 401 {
		t.Errorf("space token on the primary org: %d", r.status)
	}
	// A second space created through the API.
	if r := send(t, s, s.AdminToken(), "POST", "/api/v2/spaces", map[string]any{"name": "data", "domain": "data"}); r.status != 200 {
		t.Fatalf("create space: %d %q", r.status, message(r))
	}
	if r := send(t, s, engTok, "GET", "/space/data/api/v2/users", nil); r.status != 401 {
		t.Errorf("space token on another space: %d", r.status)
	}
	// Primary token whose owner is a primary admin and admin of eng (seeded): accepted.
	if r := send(t, s, s.AdminToken(), "GET", "/space/eng/api/v2/users", nil); r.status != 200 {
		t.Errorf("primary admin token on a space it administers: %d %q", r.status, message(r))
	}
	// Creator of the new space became its admin.
	if r := send(t, s, s.AdminToken(), "GET", "/space/data/api/v2/users", nil); r.status != 200 {
		t.Errorf("creator of a space should be its admin: %d %q", r.status, message(r))
	}
	// Primary admin who is not an admin of eng: 403 explaining the rule.
	ops := s.MintToken("", "priya.ops@sandbox.example", "users:read")
	r := send(t, s, ops, "GET", "/space/eng/api/v2/users", nil)
	if r.status != 403 || !strings.Contains(message(r), "not an admin of space \"eng\"") {
		t.Errorf("primary token without space admin: %d %q", r.status, message(r))
	}
	if r := send(t, s, ops, "GET", "/api/v2/users", nil); r.status != 200 {
		t.Errorf("the same token on the primary org: %d", r.status)
	}
	s.SetSpaceAdmin("eng", "priya.ops@sandbox.example", true)
	if r := send(t, s, ops, "GET", "/space/eng/api/v2/users", nil); r.status != 200 {
		t.Errorf("after SetSpaceAdmin: %d %q", r.status, message(r))
	}
	// Space admin but not a primary-org admin: still refused.
	dev := s.MintToken("", "dev.lee@sandbox.example", "users:read")
	s.SetSpaceAdmin("eng", "dev.lee@sandbox.example", true)
	if r := send(t, s, dev, "GET", "/space/eng/api/v2/users", nil); r.status != 403 {
		t.Errorf("non-admin creator: %d", r.status)
	}
	// Spaces keep their own data.
	r = send(t, s, engTok, "GET", "/space/eng/api/v2/users?email=eng.lead@sandbox.example", nil)
	if n := len(r.body["data"].([]any)); n != 1 {
		t.Errorf("eng lead in eng: %d", n)
	}
	r = send(t, s, s.AdminToken(), "GET", "/api/v2/users?email=eng.lead@sandbox.example", nil)
	if n := len(r.body["data"].([]any)); n != 0 {
		t.Errorf("eng lead must not be in the primary org: %d", n)
	}
	r = send(t, s, s.AdminToken(), "GET", "/api/v2/spaces", nil)
	for _, sp := range r.body["data"].([]any) {
		m := sp.(map[string]any)
		if m["domain"] != "sandbox.test/space/"+m["name"].(string) {
			t.Errorf("space domain %v", m["domain"])
		}
	}
}

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestBudgetBlocksThenRecovers(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := New(Options{Now: clk.now})
	tok := s.AdminToken()
	// Groups cost 5: 60 calls use the 300 points.
	for i := 0; i < 60; i++ {
		if r := send(t, s, tok, "GET", "/api/v2/groups", nil); r.status != 200 {
			t.Fatalf("call %d within budget: %d", i, r.status)
		}
		clk.advance(100 * time.Millisecond)
	}
	r := send(t, s, tok, "GET", "/api/v2/folders", nil)
	if r.status != 429 || !strings.HasPrefix(message(r), "Rate limit exceeded") || r.header.Get("Retry-After") != "60" {
		t.Fatalf("over budget: %d %q Retry-After=%q", r.status, message(r), r.header.Get("Retry-After"))
	}
	s.ResetRequests()
	clk.advance(59 * time.Second) // the window has slid past every charge, but the block holds
	r = send(t, s, tok, "POST", "/api/v2/folders", map[string]any{"name": "blocked", "folder_type": "app"})
	if r.status != 429 || r.header.Get("Retry-After") != "1" {
		t.Fatalf("during block: %d Retry-After=%q", r.status, r.header.Get("Retry-After"))
	}
	clk.advance(time.Second)
	r = send(t, s, tok, "GET", "/api/v2/folders", nil)
	if r.status != 200 {
		t.Fatalf("after the block: %d", r.status)
	}
	for _, f := range r.body["data"].([]any) {
		if f.(map[string]any)["name"] == "blocked" {
			t.Fatal("a blocked call must not be processed")
		}
	}
	if got := len(s.Requests()); got != 2 {
		t.Fatalf("Requests() after reset: %d, want 2", got)
	}
}

func TestBudgetSlidingWindowAndCosts(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := New(Options{Now: clk.now, Points: 20, Window: 10 * time.Second, Block: 5 * time.Second})
	tok := s.AdminToken()
	send(t, s, tok, "GET", "/api/v2/role_permissions/roles", nil) // 10
	clk.advance(6 * time.Second)
	send(t, s, tok, "GET", "/api/v2/groups", nil) // 5
	send(t, s, tok, "GET", "/api/v2/users", nil)  // 2
	send(t, s, tok, "GET", "/api/v2/users", nil)  // 2 -> 19
	if r := send(t, s, tok, "GET", "/api/v2/users", nil); r.status != 429 {
		t.Fatalf("21 points in the window must be refused, got %d", r.status)
	}
	clk.advance(5 * time.Second) // block over; the 10-point call left the window
	if r := send(t, s, tok, "GET", "/api/v2/role_permissions/roles", nil); r.status != 200 {
		t.Fatalf("after the block and slide: %d", r.status)
	}
}

func TestValidationNamesTheField(t *testing.T) {
	s := New(Options{})
	tok := s.AdminToken()
	cases := []struct {
		method, path string
		body         any
		field        string
	}{
		{"POST", "/api/v2/users", map[string]any{"first_name": "A", "last_name": "B"}, `"email"`},
		{"POST", "/api/v2/users", map[string]any{"email": "x@example.com", "first_name": "A", "last_name": "B", "user_type": "robot"}, `"user_type"`},
		{"POST", "/api/v2/folders", map[string]any{"name": "x", "folder_type": "app", "parent_folder_id": "bogus"}, `"parent_folder_id"`},
		{"POST", "/api/v2/environments", map[string]any{"name": "qa", "color": "red"}, `"color"`},
		{"PATCH", "/api/v2/users/user_0000000000000000005a4d0000000001", map[string]any{"operations": []any{map[string]any{"op": "move", "path": "/first_name"}}}, `"operations[0].op"`},
		{"POST", "/api/v2/groups", map[string]any{"name": "g", "universal_app_access": "root"}, `"universal_app_access"`},
	}
	for _, c := range cases {
		r := send(t, s, tok, c.method, c.path, c.body)
		if r.status != 400 || r.body["success"] != false || !strings.Contains(message(r), c.field) {
			t.Errorf("%s %s: got %d %q, want 400 naming %s", c.method, c.path, r.status, message(r), c.field)
		}
	}
	if r := send(t, s, tok, "GET", "/api/v2/users/user_doesnotexist", nil); r.status != 404 {
		t.Errorf("unknown id: %d", r.status)
	}
	if r := send(t, s, tok, "GET", "/api/v2/users?limit=0", nil); r.status != 400 || !strings.Contains(message(r), `"limit"`) {
		t.Errorf("limit=0: %d %q", r.status, message(r))
	}
}

func TestPaginationWalksEveryItemOnce(t *testing.T) {
	s := New(Options{})
	tok := s.AdminToken()
	for i := 0; i < 7; i++ {
		send(t, s, tok, "POST", "/api/v2/users", map[string]any{"email": fmt.Sprintf("p%d@example.com", i), "first_name": "P", "last_name": "Q"})
	}
	all := send(t, s, tok, "GET", "/api/v2/users", nil)
	want := len(all.body["data"].([]any))
	if all.body["has_more"] != false || all.body["next_token"] != nil || int(all.body["total_count"].(float64)) != want || want < 12 {
		t.Fatalf("no limit must return everything: %v items, %v", want, all.body["total_count"])
	}
	seen := map[string]int{}
	next, pages := "", 0
	for {
		q := "/api/v2/users?limit=5"
		if next != "" {
			q += "&next_token=" + next
		}
		r := send(t, s, tok, "GET", q, nil)
		pages++
		for _, u := range r.body["data"].([]any) {
			seen[u.(map[string]any)["id"].(string)]++
		}
		if r.body["has_more"] != true {
			if r.body["next_token"] != nil {
				t.Fatal("last page must have next_token null")
			}
			break
		}
		next = r.body["next_token"].(string)
	}
	if len(seen) != want || pages != (want+4)/5 {
		t.Fatalf("walk saw %d distinct in %d pages, want %d", len(seen), pages, want)
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("%s seen %d times", id, n)
		}
	}
	if r := send(t, s, tok, "GET", "/api/v2/users?limit=5&next_token=garbage", nil); r.status != 400 {
		t.Fatalf("bad next_token: %d", r.status)
	}
}

func TestWindowsAuthMSSQLAllowlist(t *testing.T) {
	s := New(Options{})
	tok := s.AdminToken()
	bad := map[string]any{"type": "mssql", "display_name": "bad", "options": map[string]any{
		"connector_version": "3.0", "windows_auth": true,
		"params_from_connection_string": map[string]any{"ApplicationIntent": "ReadOnly", "TrustServerCertificate": "yes"}}}
	r := send(t, s, tok, "POST", "/api/v2/resources", bad)
	want := `Unsupported ODBC connection string parameter "TrustServerCertificate". Only a fixed set of ODBC attributes may be supplied via connection params.`
	if r.status != 400 || message(r) != want {
		t.Fatalf("got %d %q", r.status, message(r))
	}
	good := map[string]any{"type": "mssql", "display_name": "good", "options": map[string]any{
		"connector_version": "2.0", "windows_auth": true,
		"params_from_connection_string": map[string]any{"Packet Size": "4096", "wsid": "x"}}}
	r = send(t, s, tok, "POST", "/api/v2/resources", good)
	if r.status != 200 {
		t.Fatalf("allowed keys: %d %q", r.status, message(r))
	}
	id := r.body["data"].(map[string]any)["id"].(string)
	r = send(t, s, tok, "PATCH", "/api/v2/resources/"+id, map[string]any{"operations": []any{
		map[string]any{"op": "replace", "path": "/options/params_from_connection_string", "value": map[string]any{"Server": "evil"}}}})
	if r.status != 400 || !strings.Contains(message(r), `"Server"`) {
		t.Fatalf("patch to a disallowed key: %d %q", r.status, message(r))
	}
	r = send(t, s, tok, "PATCH", "/api/v2/resources/"+id, map[string]any{"operations": []any{
		map[string]any{"op": "replace", "path": "/options/connector_version", "value": "3.0"}}})
	if r.status != 200 || r.body["data"].(map[string]any)["options"].(map[string]any)["connector_version"] != "3.0" {
		t.Fatalf("upgrade connector: %d %v", r.status, r.body)
	}
	// Without Windows auth the params are not restricted.
	sql := map[string]any{"type": "mssql", "display_name": "sqlauth", "options": map[string]any{
		"windows_auth": false, "params_from_connection_string": map[string]any{"Encrypt": "yes"}}}
	if r := send(t, s, tok, "POST", "/api/v2/resources", sql); r.status != 200 {
		t.Fatalf("non-windows-auth: %d %q", r.status, message(r))
	}
}

func TestDemoOrgCoversEveryFamily(t *testing.T) {
	s := New(Options{})
	tok := s.AdminToken()
	for _, p := range []string{"/users", "/groups", "/folders", "/apps", "/app_themes", "/environments",
		"/resources", "/resource_configurations", "/configuration_variables", "/user_attributes",
		"/access_requests", "/user_invites", "/role_permissions/roles", "/workflows", "/spaces",
		"/custom_component_libraries", "/observability/config", "/access_tokens"} {
		r := send(t, s, tok, "GET", "/api/v2"+p, nil)
		if r.status != 200 || len(r.body["data"].([]any)) == 0 {
			t.Errorf("%s: %d with %v items", p, r.status, r.body["data"])
		}
	}
	for _, p := range []string{"/sso/config", "/source_control/config", "/source_control/settings", "/source_control/manifests", "/organization"} {
		if r := send(t, s, tok, "GET", "/api/v2"+p, nil); r.status != 200 {
			t.Errorf("%s: %d", p, r.status)
		}
	}
	r := send(t, s, tok, "GET", "/api/v2/resources", nil)
	types := map[string]int{}
	for _, it := range r.body["data"].([]any) {
		types[it.(map[string]any)["type"].(string)]++
	}
	for _, ty := range []string{"vertica", "bigid", "mongodb", "restapi", "postgresql"} {
		if types[ty] == 0 {
			t.Errorf("demo has no %s resource", ty)
		}
	}
	if types["mssql"] < 3 {
		t.Errorf("demo has %d mssql resources", types["mssql"])
	}
	e := New(Options{Empty: true})
	r = send(t, e, e.AdminToken(), "GET", "/api/v2/users", nil)
	if len(r.body["data"].([]any)) != 1 {
		t.Errorf("empty org users: %v", r.body["data"])
	}
	a, _ := New(Options{}).MarshalState()
	b, _ := New(Options{}).MarshalState()
	if len(a) != len(b) {
		t.Errorf("demo state is not deterministic in shape: %d vs %d bytes", len(a), len(b))
	}
}

func TestStateRoundTrip(t *testing.T) {
	s := New(Options{})
	tok := s.AdminToken()
	send(t, s, tok, "POST", "/api/v2/folders", map[string]any{"name": "kept", "folder_type": "app"})
	raw, err := s.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	s2 := New(Options{Empty: true})
	if err := s2.UnmarshalState(raw); err != nil {
		t.Fatal(err)
	}
	if s2.AdminToken() != tok {
		t.Fatal("admin token lost")
	}
	r := send(t, s2, tok, "POST", "/api/v2/folders", map[string]any{"name": "next", "folder_type": "app"})
	r1 := send(t, s, tok, "POST", "/api/v2/folders", map[string]any{"name": "next", "folder_type": "app"})
	if r.body["data"].(map[string]any)["id"] != r1.body["data"].(map[string]any)["id"] {
		t.Fatal("id counters were not carried over")
	}
}

func TestRequestLogKeepsTheMostRecent(t *testing.T) {
	s := New(Options{RequestLog: 3, Points: 1 << 30})
	tok := s.AdminToken()
	for i := 1; i <= 7; i++ {
		send(t, s, tok, "GET", fmt.Sprintf("/api/v2/users?limit=%d", i), nil)
	}
	var got []string
	for _, r := range s.Requests() {
		got = append(got, r.Query)
	}
	if fmt.Sprint(got) != "[limit=5 limit=6 limit=7]" {
		t.Fatalf("Requests() = %v, want the last three, oldest first", got)
	}
	s.ResetRequests()
	send(t, s, tok, "GET", "/api/v2/users?limit=8", nil)
	if r := s.Requests(); len(r) != 1 || r[0].Query != "limit=8" {
		t.Fatalf("after reset: %v", r)
	}

	off := New(Options{RequestLog: -1})
	send(t, off, "", "GET", "/api/v2/users", nil)
	if n := len(off.Requests()); n != 0 {
		t.Fatalf("RequestLog -1 kept %d requests", n)
	}
}

func TestRequestLogIsBoundedByDefault(t *testing.T) {
	s := New(Options{})
	req := httptest.NewRequest("GET", "http://sandbox.test/not-the-api", nil)
	for i := 0; i < DefaultRequestLog+50; i++ {
		s.ServeHTTP(httptest.NewRecorder(), req)
	}
	if n := len(s.Requests()); n != DefaultRequestLog {
		t.Fatalf("after %d requests the log holds %d, want %d", DefaultRequestLog+50, n, DefaultRequestLog)
	}
}

func emails(t *testing.T, s *Server) []string {
	t.Helper()
	r := send(t, s, s.AdminToken(), "GET", "/api/v2/users", nil)
	var out []string
	for _, u := range r.body["data"].([]any) {
		out = append(out, u.(map[string]any)["email"].(string))
	}
	return out
}

func TestLoadUsersAreSeededDeterministically(t *testing.T) {
	got := emails(t, New(Options{Empty: true, Users: 3}))
	want := "[admin@sandbox.example user000001@load.example user000002@load.example user000003@load.example]"
	if fmt.Sprint(got) != want {
		t.Fatalf("empty org with 3 load users: %v", got)
	}
	demo := len(emails(t, New(Options{})))
	if n := len(emails(t, New(Options{Users: 5}))); n != demo+5 {
		t.Fatalf("demo org with 5 load users has %d users, want %d", n, demo+5)
	}
	s := New(Options{Empty: true, Users: 2})
	r := send(t, s, s.AdminToken(), "POST", "/api/v2/users", map[string]any{"email": "user000002@load.example", "first_name": "A", "last_name": "B"})
	if r.status != 409 {
		t.Fatalf("creating a seeded user's email again: %d, want 409", r.status)
	}
}

// Seeding is linear: 100,000 users take about ten times as long as 10,000 (the ratio is printed).
// Run: go test -run '^$' -bench LoadUsers ./client/sandbox
func BenchmarkLoadUsers(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				New(Options{Empty: true, Users: n})
			}
		})
	}
}

func TestLatencyDelaysTheAnswerNotTheEffect(t *testing.T) {
	s := New(Options{Latency: time.Hour})
	hs := httptest.NewServer(s)
	defer hs.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "POST", hs.URL+"/api/v2/folders", strings.NewReader(`{"name":"in-flight","folder_type":"app"}`))
		req.Header.Set("Authorization", "Bearer "+s.AdminToken())
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	for len(s.Requests()) == 0 { // served (and logged) at arrival
		select {
		case err := <-done:
			t.Fatalf("the answer came before the latency: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	if r := s.Requests()[0]; r.Status != 200 {
		t.Fatalf("the request was not processed at arrival: %+v", r)
	}
	cancel() // the client gives up mid-request
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("client error %v, want context.Canceled", err)
	}

	quick := New(Options{Latency: 30 * time.Millisecond})
	start := time.Now()
	if r := send(t, quick, quick.AdminToken(), "GET", "/api/v2/users", nil); r.status != 200 {
		t.Fatal(r.status)
	}
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Fatalf("answered after %v, before the 30ms latency", d)
	}
}

// A page of users costs about the same in a large org as in a small one: only the page is copied.
// Run: go test -run '^$' -bench UsersPage ./client/sandbox
func BenchmarkUsersPage(b *testing.B) {
	for _, n := range []int{100, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s := New(Options{Empty: true, Users: n, Points: 1 << 30})
			req := httptest.NewRequest("GET", "http://sandbox.test/api/v2/users?limit=100", nil)
			req.Header.Set("Authorization", "Bearer "+s.AdminToken())
			for b.Loop() {
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatal(rec.Code)
				}
			}
		})
	}
}

func TestCreateGroupStoresMembersWithEmails(t *testing.T) {
	s := New(Options{})
	tok := s.AdminToken()
	users := send(t, s, tok, "GET", "/api/v2/users?email=dev.lee@sandbox.example", nil)
	dev := users.body["data"].([]any)[0].(map[string]any)
	r := send(t, s, tok, "POST", "/api/v2/groups", map[string]any{"name": "platform",
		"members": []any{map[string]any{"id": dev["id"], "is_group_admin": true}}})
	if r.status != 200 {
		t.Fatalf("POST /groups: %d %v", r.status, r.body)
	}
	id := r.body["data"].(map[string]any)["id"]
	g := send(t, s, tok, "GET", fmt.Sprintf("/api/v2/groups/%v", id), nil)
	members, _ := g.body["data"].(map[string]any)["members"].([]any)
	if len(members) != 1 {
		t.Fatalf("members = %v, want dev.lee", members)
	}
	m := members[0].(map[string]any)
	if m["id"] != dev["id"] || m["email"] != "dev.lee@sandbox.example" || m["is_group_admin"] != true {
		t.Errorf("member = %v, want dev.lee's id and email, group admin", m)
	}
	r = send(t, s, tok, "POST", "/api/v2/groups", map[string]any{"name": "ghosts",
		"members": []any{map[string]any{"id": "user_0000", "is_group_admin": false}}})
	if r.status != 404 {
		t.Errorf("POST /groups with an unknown member: %d, want 404", r.status)
	}
}

// The live API sends `&`, `<` and `>` unescaped and ends a body at its closing
// brace; so must the sandbox, answers and saved state alike.
func TestJSONAsTheLiveAPIEncodesIt(t *testing.T) {
	s := New(Options{Empty: true})
	if r := send(t, s, s.AdminToken(), "POST", "/api/v2/groups", map[string]any{"name": "R&D <core>"}); r.status != 200 {
		t.Fatalf("create group: %d %v", r.status, r.body)
	}
	req := httptest.NewRequest("GET", "http://sandbox.test/api/v2/groups", nil)
	req.Header.Set("Authorization", "Bearer "+s.AdminToken())
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	body := rec.Body.String()
	if !strings.Contains(body, `"name":"R&D <core>"`) || strings.Contains(body, `\u00`) {
		t.Errorf("body escapes HTML: %s", body)
	}
	if !strings.HasSuffix(body, "}") {
		t.Errorf("body ends %q, want the closing brace as recorded", body[len(body)-3:])
	}
	st, err := s.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(st, []byte(`"R&D <core>"`)) {
		t.Error("saved state escapes HTML")
	}
}

// Drafts and Trash exist only for users who have signed in (last_active set), as on the live API,
// where a user who never signed in has none. Only the demo's admin signed in through the API's
// own path; the sign-ins of the rest are made-up history, which adds no folder, so a load org of
// thousands adds no folder a user.
func TestPersonalFoldersOnlyForSignedInUsers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   Options
		drafts []string
	}{
		{"demo", Options{}, []string{"(1) Sandbox Admin's Drafts"}},
		{"load", Options{Empty: true, Users: 2000}, nil},
	} {
		s := New(tc.opts)
		users := send(t, s, s.AdminToken(), "GET", "/api/v2/users", nil).body["data"].([]any)
		signedIn := map[string]bool{}
		for _, u := range users {
			m := u.(map[string]any)
			if m["last_active"] != nil {
				signedIn[fmt.Sprintf("(%v) %v %v's Drafts", m["legacy_id"], m["first_name"], m["last_name"])] = true
			}
		}
		folders := send(t, s, s.AdminToken(), "GET", "/api/v2/folders", nil).body["data"].([]any)
		var drafts []string
		personalRoot, parentless := "", 0
		for _, f := range folders {
			m := f.(map[string]any)
			if m["parent_folder_id"] == nil && m["folder_type"] == "app" {
				parentless++
				if m["name"] == "personalRoot" {
					personalRoot = fmt.Sprint(m["id"])
				}
			}
		}
		for _, f := range folders { // listed by id as text: a Drafts (app_12) before personalRoot (app_3)
			m := f.(map[string]any)
			name := fmt.Sprint(m["name"])
			if strings.HasSuffix(name, "'s Drafts") {
				drafts = append(drafts, name)
				if fmt.Sprint(m["parent_folder_id"]) != personalRoot || !signedIn[name] {
					t.Errorf("%s: %s under %v; signed in: %v", tc.name, name, m["parent_folder_id"], signedIn[name])
				}
			}
		}
		if personalRoot == "" || parentless != 2 {
			t.Errorf("%s: %d parentless app folders, personalRoot %q; want root and personalRoot", tc.name, parentless, personalRoot)
		}
		if fmt.Sprint(drafts) != fmt.Sprint(tc.drafts) {
			t.Errorf("%s: drafts %q, signed in %v; want %q", tc.name, drafts, signedIn, tc.drafts)
		}
	}
}

// Writes the API does not allow are refused as the sandbox refuses others: a status and
// {"success":false,"message"}, nothing changed. Other groups and folders change as before.
func TestBuiltInGroupsAndSystemFoldersRefuseChange(t *testing.T) {
	s := New(Options{})
	tok := s.AdminToken()
	groupID := func(name string) string {
		for _, g := range send(t, s, tok, "GET", "/api/v2/groups", nil).body["data"].([]any) {
			if m := g.(map[string]any); m["name"] == name {
				return fmt.Sprint(m["id"])
			}
		}
		t.Fatalf("no group %q", name)
		return ""
	}
	rename := map[string]any{"operations": []any{map[string]any{"op": "replace", "path": "/name", "value": "x"}}}
	for _, tc := range []struct {
		method, path string
		body         any
		want         string
	}{
		{"DELETE", "/groups/" + groupID("admin"), nil, `Group "admin" is built in and cannot be deleted`},
		{"DELETE", "/groups/" + groupID("All Users"), nil, `Group "All Users" is built in and cannot be deleted`},
		{"PATCH", "/groups/" + groupID("All Users"), rename, `Group "All Users" is built in and cannot be renamed`},
		{"PUT", "/groups/" + groupID("admin"), map[string]any{"name": "admins"}, `Group "admin" is built in and cannot be renamed`},
		{"PATCH", "/folders/app_1", rename, `System folder "app_1" cannot be changed`},
		{"PATCH", "/folders/app_12", map[string]any{"operations": []any{map[string]any{"op": "replace", "path": "/parent_folder_id", "value": "app_7"}}}, `System folder "app_12" cannot be changed`},
		{"DELETE", "/folders/app_3", nil, `System folder "app_3" cannot be deleted`},
	} {
		r := send(t, s, tok, tc.method, "/api/v2"+tc.path, tc.body)
		if r.status != 422 || r.body["success"] != false || message(r) != tc.want {
			t.Errorf("%s %s: %d %v, want 422 %q", tc.method, tc.path, r.status, r.body, tc.want)
		}
	}
	if groupID("admin") == "" || groupID("All Users") == "" {
		t.Fatal("a refused write changed the groups")
	}
	// What is allowed stays allowed: a built-in group's access, another group's name and deletion.
	access := map[string]any{"operations": []any{map[string]any{"op": "replace", "path": "/universal_app_access", "value": "use"}}}
	if r := send(t, s, tok, "PATCH", "/api/v2/groups/"+groupID("All Users"), access); r.status != 200 {
		t.Errorf("All Users' access: %d %v", r.status, r.body)
	}
	if r := send(t, s, tok, "PATCH", "/api/v2/groups/"+groupID("support"), rename); r.status != 200 {
		t.Errorf("rename support: %d %v", r.status, r.body)
	}
	if r := send(t, s, tok, "DELETE", "/api/v2/groups/"+groupID("x"), nil); r.status != 204 {
		t.Errorf("delete support (now x): %d %v", r.status, r.body)
	}
	if r := send(t, s, tok, "PATCH", "/api/v2/folders/app_7", rename); r.status != 200 {
		t.Errorf("rename Operations: %d %v", r.status, r.body)
	}
}

// GET /folders lists by id as text, as the recorded live API does (app_1, app_10, app_2, ...),
// so a client that needs a parent before its children must not count on the order.
func TestFoldersListedByIDAsText(t *testing.T) {
	s := New(Options{Folders: 12})
	folders := send(t, s, s.AdminToken(), "GET", "/api/v2/folders", nil).body["data"].([]any)
	var ids []string
	for _, f := range folders {
		ids = append(ids, fmt.Sprint(f.(map[string]any)["id"]))
	}
	if !sort.StringsAreSorted(ids) {
		t.Errorf("folders not listed by id as text: %v", ids)
	}
	if len(ids) < 3 || ids[0] != "app_1" || ids[1] != "app_11" {
		t.Errorf("folders begin %v, want app_1, app_11, ...: by text, not by number", ids[:min(3, len(ids))])
	}
	r := send(t, s, s.AdminToken(), "GET", "/api/v2/folders?limit=2", nil)
	page := r.body["data"].([]any)
	if fmt.Sprint(page[1].(map[string]any)["id"]) != ids[1] {
		t.Errorf("a page follows another order: %v", page)
	}
}

// A created user is in All Users at once, as on the service: the group
// that holds everyone, in the demo org and an empty one alike.
func TestFirstdayCreatedUserJoinsAllUsers(t *testing.T) {
	for _, empty := range []bool{false, true} {
		s := New(Options{Empty: empty})
		tok := s.AdminToken()
		r := send(t, s, tok, "POST", "/api/v2/users", map[string]any{"email": "new.hire@sandbox.example",
			"first_name": "New", "last_name": "Hire"})
		if r.status != 200 {
			t.Fatalf("POST /users: %d %v", r.status, r.body)
		}
		id := r.body["data"].(map[string]any)["id"]
		groups := send(t, s, tok, "GET", "/api/v2/groups", nil)
		var in []string
		for _, g := range groups.body["data"].([]any) {
			g := g.(map[string]any)
			members, _ := g["members"].([]any)
			for _, m := range members {
				m := m.(map[string]any)
				if m["id"] == id {
					in = append(in, fmt.Sprint(g["name"]))
					if m["email"] != "new.hire@sandbox.example" || m["is_group_admin"] != false {
						t.Errorf("empty=%v: member entry %v", empty, m)
					}
				}
			}
		}
		if len(in) != 1 || in[0] != "All Users" {
			t.Errorf("empty=%v: the new user is in %v, want [All Users]", empty, in)
		}
	}
}
