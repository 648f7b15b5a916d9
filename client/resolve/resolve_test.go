package resolve

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
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
	o, err := r.One(ctx, kinds.Of("users"), "ADMIN@sandbox.example")
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
	if _, err := r.ID(ctx, kinds.Of("users"), "ana.viewer@sandbox.example"); err != nil || len(d.sent) != 3 {
		t.Errorf("a lower-case key: %v, sent %q, want one request", err, d.sent)
	}
	// The same key again costs nothing.
	if _, err := r.ID(ctx, kinds.Of("users"), "ADMIN@sandbox.example"); err != nil || len(d.sent) != 3 {
		t.Errorf("second lookup: %v, sent %q", err, d.sent)
	}
}

func TestIDsAreUsedWithoutARequest(t *testing.T) {
	r, d := sandboxResolver(t)
	for kind, id := range map[string]string{
		"users": "user_0000000000000000005a4d0000000004", "groups": "6", "folders": "app_7",
		"apps": "5a4d0006-0000-4000-8000-000000000001", "themes": "1",
	} {
		got, err := r.ID(context.Background(), kinds.Of(kind), id)
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
		id, err := r.ID(ctx, kinds.Of(tc.kind), tc.name)
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
	all, err := r.All(ctx, kinds.Of("folders"))
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
	id, err := r.ID(ctx, kinds.Of("folders"), "app:/archive")
	if err != nil || id != "app_2" {
		t.Errorf("app:/archive -> %q, %v", id, err)
	}
}

func TestNoMatchAndAmbiguity(t *testing.T) {
	r, _ := sandboxResolver(t)
	_, err := r.ID(context.Background(), kinds.Of("groups"), "no such group")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), `no group named "no such group"`) {
		t.Errorf("err = %v", err)
	}
	objs := []Object{{ID: "1", Key: "dup"}, {ID: "2", Key: "dup", Labels: []string{"x"}}}
	k := kinds.Kind{Name: "groups", Key: "name"}
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
	if _, err := r1.ID(context.Background(), kinds.Of("groups"), "support"); err != nil {
		t.Fatal(err)
	}
	for _, it := range st["groups"] {
		for k := range it {
			if k != "id" && k != "key" && k != protectedItem {
				t.Errorf("stored field %q: only ids, keys, labels and what is built in may be kept", k)
			}
		}
	}
	r2 := New(d1)
	r2.Store = st
	before := len(d1.sent)
	if id, err := r2.ID(context.Background(), kinds.Of("groups"), "support"); err != nil || id != "6" {
		t.Errorf("from the store: %q, %v", id, err)
	}
	if len(d1.sent) != before {
		t.Error("a stored list was fetched again")
	}
	// What the org cannot do without is known from the stored list too.
	for name, want := range map[string]bool{"admin": true, "All Users": true, "support": false} {
		o, err := r2.One(context.Background(), kinds.Of("groups"), name)
		if err != nil || (o.Protected != "") != want {
			t.Errorf("stored group %s: protected %q, want %v (%v)", name, o.Protected, want, err)
		}
	}
}

func TestPlanNamesTheRequest(t *testing.T) {
	r, d := sandboxResolver(t)
	if p := r.Plan(kinds.Of("users"), "user_abc"); p != nil {
		t.Errorf("an id planned %+v", p)
	}
	p := r.Plan(kinds.Of("users"), "ada@example.com")
	if p == nil || p.Request.Path != "/users" || p.Request.Query.Get("email") != "ada@example.com" {
		t.Errorf("plan %+v", p)
	}
	if len(d.sent) != 0 {
		t.Error("Plan sent a request")
	}
}

// answerDoer answers each GET path with a recorded data array.
type answerDoer map[string]json.RawMessage

func (d answerDoer) Do(_ context.Context, r client.Request) (*client.Response, error) {
	data, ok := d[r.Path]
	if !ok {
		return nil, errors.New("no recorded answer for " + r.Path)
	}
	return &client.Response{Data: data}, nil
}

// A live org's folders, as recorded: the root and personalRoot both have
// no parent, yet each path names one folder, so app:/ is the root and a
// user's Drafts is found outside it; completion's items keep both.
func TestRecordedFoldersResolveOnePathEach(t *testing.T) {
	var data json.RawMessage
	for _, c := range sandboxtest.LoadCassettes(t, "TestAccFoldersDataSource") {
		for _, in := range c.Interactions {
			if data == nil && in.Request.Method == "GET" && strings.HasSuffix(in.Request.URL, "/api/v2/folders") {
				var env struct{ Data json.RawMessage }
				if err := json.Unmarshal([]byte(in.Response.Body), &env); err != nil {
					t.Fatal(err)
				}
				data = env.Data
			}
		}
	}
	if data == nil {
		t.Skip("skipping: the recording holds no GET /folders answer")
	}
	r := New(answerDoer{"/folders": data})
	folders := kinds.Of("folders")
	for path, want := range map[string]string{"app:/": "app_1", "app:~/": "app_3", "app:~/(1) Luke Wright's Drafts": "app_7",
		"app:/archive": "app_2", "file:/": "file_6"} {
		o, err := r.One(context.Background(), folders, path)
		if err != nil || o.ID != want {
			t.Errorf("%s -> %q, %v; want %s", path, o.ID, err, want)
		}
	}
	if _, err := r.One(context.Background(), folders, "app:/(1) Luke Wright's Drafts"); !errors.As(err, new(*NotFoundError)) {
		t.Errorf("a user's Drafts is found under the root: %v", err)
	}
	items, err := ListItems(folders, data)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, it := range items {
		if keys[it["key"]] {
			t.Errorf("completion offers %q twice", it["key"])
		}
		keys[it["key"]] = true
	}
	if !keys["app:/"] || !keys["app:~/"] {
		t.Errorf("completion lacks the root or personalRoot: %v", keys)
	}
}

// gateDoer holds every request until open is closed, counting them.
type gateDoer struct {
	countingDoer
	open chan struct{}
}

func (d *gateDoer) Do(ctx context.Context, r client.Request) (*client.Response, error) {
	d.mu.Lock()
	d.sent = append(d.sent, r.Method+" "+r.Path+"?"+r.Query.Encode())
	d.mu.Unlock()
	<-d.open
	return d.c.Do(ctx, r)
}

// Workers that ask for the same name while its lookup is in flight wait
// for that answer: one request, not one per worker.
func TestOneLookupPerNameWhateverTheWorkers(t *testing.T) {
	_, cd := sandboxResolver(t)
	d := &gateDoer{countingDoer: countingDoer{c: cd.c}, open: make(chan struct{})}
	r := New(d)
	var started, done sync.WaitGroup
	ids := make([]string, 8)
	for i := range ids {
		started.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			started.Done()
			ids[i], _ = r.ID(context.Background(), kinds.Of("users"), "dev.lee@sandbox.example")
		}()
	}
	started.Wait()
	close(d.open)
	done.Wait()
	if len(d.sent) != 1 {
		t.Errorf("sent %q, want one lookup", d.sent)
	}
	for _, id := range ids {
		if id != ids[0] || !strings.HasPrefix(id, "user_") {
			t.Errorf("ids %q", ids)
		}
	}
}

func TestNamesMatchExactlyElseByCaseWhenOneDoes(t *testing.T) {
	r, _ := sandboxResolver(t)
	ctx := context.Background()
	g := kinds.Of("groups")
	o, err := r.One(ctx, g, "Support")
	if err != nil || o.Key != "support" {
		t.Fatalf("Support: %+v, %v; want the group support", o, err)
	}
	// The API takes a name beside one that differs only in case: an exact
	// name is that group, and a name matching both only by case is neither.
	r = New(nil)
	r.Seed(g, json.RawMessage(`[{"id":6,"name":"support"},{"id":7,"name":"Support"},{"id":8,"name":"ops"}]`))
	if o, err := r.One(ctx, g, "Support"); err != nil || o.ID != "7" {
		t.Errorf("Support beside support: %+v, %v; want the exact one, 7", o, err)
	}
	var amb *AmbiguousError
	if _, err := r.One(ctx, g, "SUPPORT"); !errors.As(err, &amb) || len(amb.Matches) != 2 {
		t.Errorf("SUPPORT: %v; want both groups named so but for case", err)
	}
	if o, err := r.One(ctx, g, "OPS"); err != nil || o.ID != "8" {
		t.Errorf("OPS: %+v, %v; want ops", o, err)
	}
}
