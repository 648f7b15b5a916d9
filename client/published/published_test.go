package published

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
)

func description(t *testing.T, name string) *Description {
	t.Helper()
	b, err := os.ReadFile(sandboxtest.SharedFile(t, "api", name))
	if err != nil {
		t.Skipf("%s is not available: %v", name, err)
	}
	d, err := Parse(b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return d
}

// The 2.12 description, as the 3.334 release serves it, lacks the 4.0
// operations and parameters, and has the rest under its own spellings.
func TestTheOlderReleaseLacksWhatFourZeroAdded(t *testing.T) {
	d := description(t, "openapi.json")
	if d.Version != "2.12.0" || len(d.Ops) != 144 {
		t.Fatalf("2.12: version %q, %d operations", d.Version, len(d.Ops))
	}
	if d.Has("POST", "/users/{id}/logout") {
		t.Error("2.12 has POST /users/{id}/logout")
	}
	if d.HasQuery("GET", "/apps", "limit") || d.HasQuery("GET", "/apps", "using_resource") {
		t.Error("2.12 has GET /apps?limit= or ?using_resource=")
	}
	if !d.HasQuery("GET", "/users", "email") {
		t.Error("2.12 lacks GET /users?email=")
	}
	for _, ok := range []struct{ method, path string }{
		{"GET", "/users"},
		{"DELETE", "/groups/{groupId}/members/{userId}"}, // 2.12 names the parameter userSid
		{"GET", "/access_tokens/{accessTokenId}"},        // 2.12 writes it :accessTokenId
	} {
		if !d.Has(ok.method, ok.path) {
			t.Errorf("2.12 lacks %s %s", ok.method, ok.path)
		}
	}
}

func TestFourZeroHasWhatItAdded(t *testing.T) {
	d := description(t, "openapi-4.0.yaml")
	if d.Version != "4.0.0" || len(d.Ops) != 152 {
		t.Fatalf("4.0: version %q, %d operations", d.Version, len(d.Ops))
	}
	if !d.Has("POST", "/users/{userId}/logout") {
		t.Error("4.0 lacks POST /users/{userId}/logout")
	}
	for _, q := range []string{"using_resource", "name_contains"} {
		if !d.HasQuery("GET", "/apps", q) {
			t.Errorf("4.0 lacks GET /apps?%s=", q)
		}
	}
}

func TestAnErrorBodyIsNoDescription(t *testing.T) {
	if _, err := Parse([]byte(`{"success":false,"message":"Not found"}`)); !errors.Is(err, ErrNotADescription) {
		t.Errorf("an error body parsed as a description: %v", err)
	}
}

// A description's operations and query parameters are read from the
// operation, from its path item and through $ref, in YAML as in JSON.
func TestParseParametersOfOperationPathAndRef(t *testing.T) {
	d, err := Parse([]byte(`
openapi: 3.0.0
info: {version: 4.0.0}
paths:
  /apps:
    get:
      parameters:
      - {name: using_resource, in: query}
      - $ref: '#/components/parameters/limit'
  /users/{userId}:
    parameters:
    - {name: userId, in: path}
    - {name: includeGroups, in: query}
    get: {}
    post: {}
components:
  parameters:
    limit: {name: limit, in: query}
`))
	if err != nil || d.Version != "4.0.0" {
		t.Fatalf("parse: %+v %v", d, err)
	}
	for _, c := range []struct {
		method, path, param string
		want                bool
	}{
		{"GET", "/apps", "using_resource", true},
		{"GET", "/apps", "limit", true},
		{"GET", "/apps", "name_contains", false},
		{"GET", "/users/:id", "includeGroups", true},
		{"POST", "/users/{x}", "includeGroups", true},
		{"GET", "/users/{x}", "userId", false},
	} {
		if got := d.HasQuery(c.method, c.path, c.param); got != c.want {
			t.Errorf("HasQuery(%s %s, %s) = %v", c.method, c.path, c.param, got)
		}
	}
	if !d.Has("POST", "/users/{id}") || d.Has("DELETE", "/users/{id}") || d.Has("GET", "/groups") {
		t.Error("Has: wrong operations")
	}
	j, err := Parse([]byte(`{"info":{"version":"2.12.0"},"paths":{"/apps":{"get":{"parameters":[]}}}}`))
	if err != nil || j.Version != "2.12.0" || !j.Has("GET", "/apps") || j.HasQuery("GET", "/apps", "using_resource") {
		t.Errorf("JSON: %+v %v", j, err)
	}
}

// The description is read once a day per account: a second read within
// the day sends nothing, another account or base URL is read on its own,
// and an entry a day old is read again.
func TestCacheReadsOncePerDayPerAccount(t *testing.T) {
	first := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	now := first
	c := &Cache{Dir: t.TempDir(), Now: func() time.Time { return now }}
	reads := 0
	fetch := func(context.Context) ([]byte, error) {
		reads++
		return []byte(`{"info":{"version":"2.12.0"},"paths":{"/users":{"get":{}}}}`), nil
	}
	ctx := context.Background()
	for i := range 3 {
		r, err := c.Get(ctx, "acct1", "https://a.example", fetch)
		if err != nil || r.Version() != "2.12.0" || r.Cached != (i > 0) || !r.FetchedAt.Equal(first) {
			t.Fatalf("read %d: %+v %v", i, r, err)
		}
		now = now.Add(time.Hour)
	}
	if reads != 1 {
		t.Errorf("%d reads within a day, want 1", reads)
	}
	if _, err := c.Get(ctx, "acct2", "https://a.example", fetch); err != nil || reads != 2 {
		t.Errorf("another account: reads %d, %v", reads, err)
	}
	if _, err := c.Get(ctx, "acct1", "https://b.example", fetch); err != nil || reads != 3 {
		t.Errorf("another base URL: reads %d, %v", reads, err)
	}
	now = now.Add(TTL - 2*time.Hour) // a day after the first read
	r, _ := c.Get(ctx, "acct1", "https://a.example", fetch)
	if reads != 4 || r.Cached {
		t.Errorf("after a day: reads %d, cached %v", reads, r.Cached)
	}
	files, _ := filepath.Glob(filepath.Join(c.Dir, "*.json"))
	if len(files) != 3 {
		t.Errorf("%d cache files, want one per account and base URL", len(files))
	}
}

// An instance that serves no description is asked again only after
// NoneTTL; a failed read is not cached at all.
func TestCacheKeepsNoDescriptionButNotAFailure(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	c := &Cache{Dir: t.TempDir(), Now: func() time.Time { return now }}
	ctx := context.Background()
	reads := 0
	none := func(context.Context) ([]byte, error) { reads++; return nil, ErrNotServed }
	for range 2 {
		r, err := c.Get(ctx, "p", "https://x.example", none)
		if err != nil || r.Desc != nil {
			t.Fatalf("%+v %v", r, err)
		}
	}
	if reads != 1 {
		t.Errorf("an instance serving none was asked %d times", reads)
	}
	now = now.Add(NoneTTL)
	if r, _ := c.Get(ctx, "p", "https://x.example", none); reads != 2 || r.Cached {
		t.Errorf("after NoneTTL: reads %d, cached %v", reads, r.Cached)
	}
	boom := errors.New("connection refused")
	fail := func(context.Context) ([]byte, error) { reads++; return nil, boom }
	for range 2 {
		if _, err := c.Get(ctx, "q", "https://x.example", fail); !errors.Is(err, boom) {
			t.Fatalf("err %v", err)
		}
	}
	if reads != 4 {
		t.Errorf("a failed read was cached (%d reads)", reads)
	}
}
