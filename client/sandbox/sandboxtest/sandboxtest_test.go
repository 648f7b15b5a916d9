package sandboxtest_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
)

func status(t *testing.T, s *sandbox.Server, tok, method, path string) int {
	t.Helper()
	req := httptest.NewRequest(method, "http://sandbox.test/api/v2"+path, strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+tok)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec.Code
}

func TestMintTokenGrantsExactlyTheScopes(t *testing.T) {
	s := sandbox.New(sandbox.Options{})
	tok, err := sandboxtest.MintToken(s, "groups:read")
	if err != nil {
		t.Fatal(err)
	}
	if got := status(t, s, tok, http.MethodGet, "/groups"); got != 200 {
		t.Errorf("GET /groups with groups:read: %d", got)
	}
	if got := status(t, s, tok, http.MethodGet, "/users"); got != 403 {
		t.Errorf("GET /users without users:read: %d, want 403", got)
	}
	if _, err := sandboxtest.MintToken(s, "groups:raed"); err == nil || !strings.Contains(err.Error(), "groups:raed") {
		t.Errorf("an unknown scope must be an error naming it, got %v", err)
	}
}

func TestMintTokenReportsARefusal(t *testing.T) {
	s := sandbox.New(sandbox.Options{Points: 5}) // POST /access_tokens costs 10
	if _, err := sandboxtest.MintToken(s, "users:read"); err == nil || !strings.Contains(err.Error(), "429") {
		t.Fatalf("over budget: err = %v, want the 429", err)
	}
}

func TestSharedDirIsBesideTheModuleRoot(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	if err := os.MkdirAll(filepath.Join(repo, "client", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(repo, "client", "x"))
	if _, err := sandboxtest.SharedDir(); err == nil || !strings.Contains(err.Error(), "absent") {
		t.Fatalf("without ../shared: err = %v", err)
	}
	if err := os.Mkdir(filepath.Join(root, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := sandboxtest.SharedDir()
	if err != nil || filepath.Clean(got) != filepath.Join(root, "shared") {
		t.Fatalf("SharedDir() = %q, %v; want %s", got, err, filepath.Join(root, "shared"))
	}
}

func TestLoadCassettesFiltersByPrefix(t *testing.T) {
	all := sandboxtest.LoadCassettes(t)
	users := sandboxtest.LoadCassettes(t, "TestAccUser")
	if len(users) == 0 || len(users) >= len(all) {
		t.Fatalf("%d cassettes in all, %d TestAccUser*", len(all), len(users))
	}
	for i, c := range users {
		if !strings.HasPrefix(c.Name, "TestAccUser") || len(c.Interactions) == 0 {
			t.Errorf("cassette %q with %d interactions", c.Name, len(c.Interactions))
		}
		if i > 0 && users[i-1].Name >= c.Name {
			t.Errorf("not sorted: %q before %q", users[i-1].Name, c.Name)
		}
	}
	in := users[0].Interactions[0]
	if in.Request.Method == "" || !strings.Contains(in.Request.URL, "/api/v2/") || in.Response.Code == 0 {
		t.Errorf("first interaction not decoded: %+v", in)
	}
}
