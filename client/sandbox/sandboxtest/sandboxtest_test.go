package sandboxtest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
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

// skipRecorder is a test whose Skipf is recorded; it ends the goroutine
// as the real one does.
type skipRecorder struct {
	testing.TB
	skipped string
}

func (r *skipRecorder) Helper() {}

func (r *skipRecorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// sharedFile calls SharedFile as a test would, and returns the path and
// the skip message ("" when it did not skip).
func sharedFile(t *testing.T, elem ...string) (path, skipped string) {
	r := &skipRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		path = sandboxtest.SharedFile(r, elem...)
	}()
	<-done
	return path, r.skipped
}

func TestSharedFileSaysWhatItSkipsFor(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	// no go.mod above: the module root cannot be found
	if _, msg := sharedFile(t, "api", "openapi.json"); !strings.Contains(msg, filepath.Join("shared", "api", "openapi.json")) || !strings.Contains(msg, "go.mod") {
		t.Errorf("without a module root: skip message %q, want the file and why", msg)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// no ../shared
	if _, msg := sharedFile(t, "api", "openapi.json"); !strings.Contains(msg, filepath.Join("shared", "api", "openapi.json")) || !strings.Contains(msg, "absent") {
		t.Errorf("without ../shared: skip message %q, want the file and why", msg)
	}
	// ../shared without the file
	if err := os.MkdirAll(filepath.Join(root, "shared", "api"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, msg := sharedFile(t, "api", "openapi.json"); !strings.Contains(msg, filepath.Join(root, "shared", "api", "openapi.json")) {
		t.Errorf("without the file: skip message %q, want its path", msg)
	}
	// present: no skip, its path
	if err := os.WriteFile(filepath.Join(root, "shared", "api", "openapi.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, msg := sharedFile(t, "api", "openapi.json"); msg != "" || filepath.Clean(p) != filepath.Join(root, "shared", "api", "openapi.json") {
		t.Errorf("with the file: %q, skipped %q", p, msg)
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
