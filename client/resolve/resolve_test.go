package resolve

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/sandbox"
)

// countingDoer sends through the real client and counts what it sends.
type countingDoer struct {
	c    *client.Client
	mu   sync.Mutex
	sent []string
}

func (d *countingDoer) Do(ctx context.Context, r client.Request) (*client.Response, error) {
	d.mu.Lock()
	d.sent = append(d.sent, r.Method+" "+r.Path+"?"+r.Query.Encode())
	d.mu.Unlock()
	return d.c.Do(ctx, r)
}

func sandboxResolver(t *testing.T) (*Resolver, *countingDoer) {
	t.Helper()
	api := sandbox.New(sandbox.Options{})
	hs := httptest.NewServer(api)
	t.Cleanup(hs.Close)
	c, err := client.New(client.Options{BaseURL: hs.URL, Token: api.AdminToken()})
	if err != nil {
		t.Fatal(err)
	}
	d := &countingDoer{c: c}
	return New(d), d
}

func TestUsersResolveByEmailWithOneFilteredRequest(t *testing.T) {
	r, d := sandboxResolver(t)
	ctx := context.Background()
	o, err := r.One(ctx, Kinds["users"], "ADMIN@sandbox.example")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(o.ID, "user_") || o.Key != "admin@sandbox.example" {
		t.Errorf("got %+v", o)
	}
	// The sandbox filters case-sensitively: the typed key, then its lower case.
	if len(d.sent) != 2 || d.sent[0] != "GET /users?email=ADMIN%40sandbox.example" || d.sent[1] != "GET /users?email=admin%40sandbox.example" {
		t.Errorf("sent %q, want the filtered list as typed, then in lower case", d.sent)
	}
	if _, err := r.ID(ctx, Kinds["users"], "ana.viewer@sandbox.example"); err != nil || len(d.sent) != 3 {
		t.Errorf("a lower-case key: %v, sent %q, want one request", err, d.sent)
	}
	// The same key again costs nothing.
	if _, err := r.ID(ctx, Kinds["users"], "ADMIN@sandbox.example"); err != nil || len(d.sent) != 3 {
		t.Errorf("second lookup: %v, sent %q", err, d.sent)
	}
}

func TestIDsAreUsedWithoutARequest(t *testing.T) {
	r, d := sandboxResolver(t)
	for kind, id := range map[string]string{
		"users": "user_0000000000000000005a4d0000000004", "groups": "6", "folders": "app_7",
		"apps": "5a4d0006-0000-4000-8000-000000000001", "themes": "1",
	} {
		got, err := r.ID(context.Background(), Kinds[kind], id)
		if err != nil || got != id {
			t.Errorf("%s %s: got %q, %v", kind, id, got, err)
		}
	}
	if len(d.sent) != 0 {
		t.Errorf("sent %q for ids", d.sent)
	}
}

func TestNamesResolveFromOneListPerKind(t *testing.T) {
	r, d := sandboxResolver(t)
	ctx := context.Background()
	for _, tc := range []struct{ kind, name string }{
		{"groups", "support"}, {"groups", "admin"}, {"apps", "Customer Lookup"},
		{"resources", "orders-postgres"}, {"environments", "production"}, {"spaces", "eng"},
	} {
		id, err := r.ID(ctx, Kinds[tc.kind], tc.name)
		if err != nil || id == "" || id == tc.name {
			t.Errorf("%s %q: got %q, %v", tc.kind, tc.name, id, err)
		}
	}
	lists := map[string]int{}
	for _, s := range d.sent {
		lists[s]++
	}
	for s, n := range lists {
		if n != 1 {
			t.Errorf("%s sent %d times, want once per kind", s, n)
		}
	}
	if len(lists) != 5 {
		t.Errorf("sent %q, want one list for each of 5 kinds", d.sent)
	}
}

func TestFoldersResolveByPath(t *testing.T) {
	r, _ := sandboxResolver(t)
	ctx := context.Background()
	all, err := r.All(ctx, Kinds["folders"])
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{}
	for _, o := range all {
		keys[o.Key] = o.ID
	}
	// personalRoot (app_3) is parentless too: the root is checked by its id.
	for _, o := range all {
		if o.ID == "app_1" && o.Key != "app:/" {
			t.Errorf("the app root's path is %q", o.Key)
		}
	}
	if keys["app:/archive"] != "app_2" || keys["resource:/"] != "resource_1" {
		t.Errorf("folder paths: %v", keys)
	}
	id, err := r.ID(ctx, Kinds["folders"], "app:/archive")
	if err != nil || id != "app_2" {
		t.Errorf("app:/archive -> %q, %v", id, err)
	}
}

func TestFolderPathEscapesSlashesAndSurvivesCycles(t *testing.T) {
	all := []map[string]any{
		{"id": "app_1", "folder_type": "app", "name": "root", "parent_folder_id": nil},
		{"id": "app_2", "folder_type": "app", "name": "A/B", "parent_folder_id": "app_1"},
		{"id": "app_3", "folder_type": "app", "name": "C", "parent_folder_id": "app_2"},
		{"id": "app_8", "folder_type": "app", "name": "x", "parent_folder_id": "app_9"},
		{"id": "app_9", "folder_type": "app", "name": "y", "parent_folder_id": "app_8"},
	}
	if got := FolderPath(all[2], all); got != `app:/A\/B/C` {
		t.Errorf("got %q", got)
	}
	if got := FolderPath(all[3], all); got == "" {
		t.Error("cycle gave no path")
	}
}

func TestNoMatchAndAmbiguity(t *testing.T) {
	r, _ := sandboxResolver(t)
	_, err := r.ID(context.Background(), Kinds["groups"], "no such group")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), `no group named "no such group"`) {
		t.Errorf("err = %v", err)
	}
	objs := []Object{{ID: "1", Key: "dup"}, {ID: "2", Key: "dup", Labels: []string{"x"}}}
	k := Kind{Name: "groups", Key: "name"}
	if m := match(k, objs, "dup"); len(m) != 2 {
		t.Fatalf("match = %v", m)
	}
	amb := &AmbiguousError{Kind: "groups", Name: "dup", Matches: objs}
	if s := amb.Error(); !strings.Contains(s, "2 groups match \"dup\"") || !strings.Contains(s, "\n  2  dup (x)") {
		t.Errorf("ambiguity message: %q", s)
	}
}

// memStore is a Store in memory, standing in for the completion cache.
type memStore map[string][]map[string]string

func (m memStore) Load(list string) ([]map[string]string, bool) { v, ok := m[list]; return v, ok }
func (m memStore) Save(list string, items []map[string]string)  { m[list] = items }

func TestStoreSavesListsAcrossResolvers(t *testing.T) {
	r1, d1 := sandboxResolver(t)
	st := memStore{}
	r1.Store = st
	if _, err := r1.ID(context.Background(), Kinds["groups"], "support"); err != nil {
		t.Fatal(err)
	}
	for _, it := range st["groups"] {
		for k := range it {
			if k != "id" && k != "key" {
				t.Errorf("stored field %q: only ids, keys and labels may be kept", k)
			}
		}
	}
	r2 := New(d1)
	r2.Store = st
	before := len(d1.sent)
	if id, err := r2.ID(context.Background(), Kinds["groups"], "support"); err != nil || id != "6" {
		t.Errorf("from the store: %q, %v", id, err)
	}
	if len(d1.sent) != before {
		t.Error("a stored list was fetched again")
	}
}

func TestPlanNamesTheRequest(t *testing.T) {
	r, d := sandboxResolver(t)
	if p := r.Plan(Kinds["users"], "user_abc"); p != nil {
		t.Errorf("an id planned %+v", p)
	}
	p := r.Plan(Kinds["users"], "ada@example.com")
	if p == nil || p.Request.Path != "/users" || p.Request.Query.Get("email") != "ada@example.com" {
		t.Errorf("plan %+v", p)
	}
	if len(d.sent) != 0 {
		t.Error("Plan sent a request")
	}
}
