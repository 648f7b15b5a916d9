package published

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// The 2.12 description, as the 3.334 release serves it, lacks the 4.0 operations and parameters.
func TestCheckAgainstTheOlderRelease(t *testing.T) {
	d := description(t, "openapi.json")
	if d.Version != "2.12.0" || len(d.Ops) != 144 {
		t.Fatalf("2.12: version %q, %d operations", d.Version, len(d.Ops))
	}
	err := Check(d, "POST", "/users/{id}/logout", nil)
	var np *NotPublishedError
	if !errors.As(err, &np) || np.Since != "4.0.0" || np.Version != "2.12.0" || np.Path != "/users/{userId}/logout" {
		t.Fatalf("logout on 2.12: %v", err)
	}
	for _, want := range []string{"POST /api/v2/users/{userId}/logout", "2.12.0 (the 3.334 release)", "4.0.0 (the 4.0 release) first has it", "nothing was sent"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	err = Check(d, "GET", "/apps", []string{"limit", "using_resource"})
	if !errors.As(err, &np) || np.Param != "limit" || np.Since != "4.0.0" {
		t.Errorf("GET /apps?limit on 2.12: %v", err)
	}
	for _, ok := range []struct {
		method, path string
		query        []string
	}{
		{"GET", "/users", []string{"email", "limit"}},
		{"DELETE", "/groups/{groupId}/members/{userId}", nil}, // 2.12 names the parameter userSid
		{"GET", "/access_tokens/{accessTokenId}", nil},        // 2.12 writes it :accessTokenId
		{"POST", "/apps", nil},                                // no description lists it
		{"GET", "/users", []string{"not_a_known_parameter"}},  // nothing orgctl knows to say
	} {
		if err := Check(d, ok.method, ok.path, ok.query); err != nil {
			t.Errorf("%s %s %v: %v", ok.method, ok.path, ok.query, err)
		}
	}
}

func TestCheckAgainstFourZero(t *testing.T) {
	d := description(t, "openapi-4.0.yaml")
	if d.Version != "4.0.0" || len(d.Ops) != 152 {
		t.Fatalf("4.0: version %q, %d operations", d.Version, len(d.Ops))
	}
	if err := Check(d, "POST", "/users/{userId}/logout", nil); err != nil {
		t.Error(err)
	}
	if err := Check(d, "GET", "/apps", []string{"using_resource", "name_contains"}); err != nil {
		t.Error(err)
	}
}

func TestNoDescriptionLetsEverythingThrough(t *testing.T) {
	if err := Check(nil, "POST", "/users/{userId}/logout", nil); err != nil {
		t.Error(err)
	}
	if _, err := Parse([]byte(`{"success":false,"message":"Not found"}`)); !errors.Is(err, ErrNotADescription) {
		t.Errorf("an error body parsed as a description: %v", err)
	}
}

func TestParseYAMLWithParameterRefs(t *testing.T) {
	d, err := Parse([]byte("info: {version: 9.1.0}\npaths:\n  /things:\n    get:\n      parameters:\n      - $ref: '#/components/parameters/Q'\n" +
		"components:\n  parameters:\n    Q: {in: query, name: q}\n"))
	if err != nil || d.Version != "9.1.0" || !d.HasQuery("GET", "/things/", "q") || d.Has("POST", "/things") {
		t.Fatalf("%+v %v", d, err)
	}
}

func TestCacheReadsOncePerTTL(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	c := &Cache{Dir: t.TempDir(), Now: func() time.Time { return now }}
	reads := 0
	fetch := func(context.Context) ([]byte, error) {
		reads++
		return []byte(`{"info":{"version":"2.12.0"},"paths":{"/users":{"get":{}}}}`), nil
	}
	ctx := context.Background()
	for range 3 {
		r, err := c.Get(ctx, "default", "https://a.example", fetch)
		if err != nil || r.Version() != "2.12.0" {
			t.Fatalf("%+v %v", r, err)
		}
	}
	if reads != 1 {
		t.Errorf("%d reads within a day, want 1", reads)
	}
	// Another base URL or profile is another instance.
	if _, err := c.Get(ctx, "default", "https://b.example", fetch); err != nil || reads != 2 {
		t.Errorf("reads %d, %v", reads, err)
	}
	now = now.Add(TTL)
	r, _ := c.Get(ctx, "default", "https://a.example", fetch)
	if reads != 3 || r.Cached {
		t.Errorf("after a day: reads %d, cached %v", reads, r.Cached)
	}
	files, _ := filepath.Glob(filepath.Join(c.Dir, "*.json"))
	if len(files) != 2 {
		t.Errorf("%d cache files, want one per profile and base URL", len(files))
	}
}

func TestCacheKeepsNoDescriptionButNotAFailure(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
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
	boom := errors.New("connection refused")
	fail := func(context.Context) ([]byte, error) { reads++; return nil, boom }
	for range 2 {
		if _, err := c.Get(ctx, "q", "https://x.example", fail); !errors.Is(err, boom) {
			t.Fatalf("err %v", err)
		}
	}
	if reads != 3 {
		t.Errorf("a failed read was cached (%d reads)", reads)
	}
}
