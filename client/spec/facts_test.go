package spec

import (
	"slices"
	"strings"
	"testing"
)

// The tables are generated from the 4.0 description (152 operations) with POST /apps added from
// the service's documentation; these are facts of that description, so a regeneration from the
// wrong file, or one that drops a kind of fact, fails here.
func TestTablesCarryTheFourZeroDescription(t *testing.T) {
	described, unpublished := 0, 0
	for _, op := range Operations() {
		switch {
		case op.Unpublished:
			unpublished++
		case !op.Dropped:
			described++
		}
	}
	if described != 152 || unpublished != 1 || Version != "4.0.0" || OlderVersion != "2.12.0" {
		t.Errorf("%d described + %d unpublished operations at %s/%s, want 152 + 1 at 4.0.0/2.12.0", described, unpublished, Version, OlderVersion)
	}
	if n := len(Scopes()); n != 43 || !slices.IsSorted(Scopes()) {
		t.Errorf("%d scopes (sorted: %v), want 43 sorted", n, slices.IsSorted(Scopes()))
	}
	if len(ResourceTypes) != 87 {
		t.Errorf("%d resource types, want 87", len(ResourceTypes))
	}
	for _, typ := range []string{"anthropic", "awsBedrock", "mcp", "kafka", "sqs", "clickhouse", "serviceNow", "mssql"} {
		if !IsResourceType(typ) {
			t.Errorf("%s is not a resource type", typ)
		}
	}
	if IsResourceType("MCP") {
		t.Error("resource types are case-sensitive")
	}
}

func TestOperationFacts(t *testing.T) {
	users := Find("GET", "/users")
	if users.Scope != "users:read" || users.ScopeName != "Users > Read" || users.ScopeText() != "users:read (Users > Read)" {
		t.Errorf("GET /users scope %q %q %q", users.Scope, users.ScopeName, users.ScopeText())
	}
	if users.PlanText() != "Enterprise" || !users.Paginated || users.Since != "2.12.0" {
		t.Errorf("GET /users: plan %q paginated %v since %q", users.PlanText(), users.Paginated, users.Since)
	}
	attrs := Find("GET", "/user_attributes")
	if attrs.PlanText() != "Business" || !slices.Equal(attrs.Plans(), []string{"Business", "Enterprise"}) {
		t.Errorf("GET /user_attributes plans %v", attrs.Plans())
	}
	logout := Find("POST", "/users/{id}/logout")
	if logout == nil || logout.Since != "4.0.0" || logout.Scope != "users:write" || logout.ScopeName != "Users > Write" || logout.PlanText() != "" {
		t.Fatalf("POST /users/{id}/logout: %+v", logout)
	}
	inv := Find("POST", "/organization/invalidate_sessions")
	if !slices.Equal(inv.AnyScope(), []string{"organization:write", "users:write"}) || !strings.Contains(inv.ScopeText(), " or ") {
		t.Errorf("invalidate_sessions scopes %v %q", inv.AnyScope(), inv.ScopeText())
	}
	if q := Find("GET", "/apps").QueryValue("using_resource"); q == nil || q.Since != "4.0.0" {
		t.Errorf("GET /apps using_resource: %+v", q)
	}
	if q := Find("GET", "/users").QueryValue("email"); q == nil || q.Since != "" {
		t.Errorf("GET /users email is in 2.12: %+v", q)
	}
	if b := Find("POST", "/users").BodyValue("seat_type"); b == nil || len(b.Enum) == 0 || b.Since != "4.0.0" {
		t.Errorf("POST /users seat_type: %+v", b)
	}
	if n := Find("GET", "/source_control/releases/apps/{}").Notes(); n != nil {
		t.Errorf("notes %v", n)
	}
	if n := Find("GET", "/app_themes").Notes(); !slices.Equal(n, []string{"Available for classic apps only"}) {
		t.Errorf("GET /app_themes notes %v", n)
	}
	if v := Find("GET", "/apps/{}").Since; v != "2.4.0" {
		t.Errorf("GET /apps/{id} since %q; the 2.12 description says 2.4.0", v)
	}
}

func TestDeprecatedOperationsNameTheirAlternates(t *testing.T) {
	old := Find("GET", "/source_control/releases/apps/{appUuid}")
	alt := old.Alternates()
	if !old.Deprecated || len(alt) != 1 || alt[0].Path != "/source_control/releases/{elementUuid}" || alt[0].Deprecated {
		t.Fatalf("deprecated %v, alternates %v", old.Deprecated, alt)
	}
	back := alt[0].Alternates()
	if len(back) != 1 || back[0] != old {
		t.Errorf("the replacement's alternates %v, want the deprecated one", back)
	}
	deprecated := 0
	for _, op := range Operations() {
		if op.Deprecated {
			deprecated++
			m, p, _ := strings.Cut(op.Alternate, " ")
			if Find(m, p) == nil {
				t.Errorf("%s %s: alternate %q is no operation", op.Method, op.Path, op.Alternate)
			}
		}
	}
	if deprecated != 4 {
		t.Errorf("%d deprecated operations, want the 4 per-app release ones", deprecated)
	}
}

func TestCreateAppIsDocumentedNotDescribed(t *testing.T) {
	op := Find("POST", "/apps")
	if op == nil || !op.Unpublished || op.Scope != "apps:write" || op.BodyValue("name") == nil || !op.BodyValue("name").Required || op.Example == "" {
		t.Fatalf("POST /apps: %+v", op)
	}
}

func TestVersionText(t *testing.T) {
	if got := VersionText("2.12.0"); got != "2.12.0 (the 3.334 release)" {
		t.Errorf("VersionText(2.12.0) = %q", got)
	}
	if got := VersionText("9.9.9"); got != "9.9.9" {
		t.Errorf("VersionText(9.9.9) = %q", got)
	}
}
