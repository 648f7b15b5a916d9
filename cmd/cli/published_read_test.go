package cli_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
)

// specServer is the sandbox on loopback, answering GET /api/v2/spec with
// status instead (0: as the sandbox does), counting those requests.
func specServer(t *testing.T, status *atomic.Int32, reads *atomic.Int32) {
	t.Helper()
	api, _ := clitest.SandboxEnv(t, sandbox.Options{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v2/spec" {
			reads.Add(1)
			if s := int(status.Load()); s != 0 {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(s)
				w.Write([]byte(`{"success":false,"message":"Not found"}`))
				return
			}
		}
		api.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	t.Setenv("ORGCTL_BASE_URL", hs.URL)
}

// Each run is a new Factory, as each orgctl command is a new process: the
// second run reads the description from the cache, sending nothing.
func TestPublishedIsReadOncePerAccount(t *testing.T) {
	var status, reads atomic.Int32
	specServer(t, &status, &reads)
	for run := range 2 {
		f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
		r, err := f.Published(context.Background())
		if err != nil || r.Version() != "4.0.0" || r.Cached != (run > 0) {
			t.Fatalf("run %d: %+v %v", run, r, err)
		}
		if d, err := f.Described(context.Background()); err != nil || d == nil || !d.Has("POST", "/users/{id}/logout") {
			t.Fatalf("run %d: described %v %v", run, d, err)
		}
	}
	if n := reads.Load(); n != 1 {
		t.Errorf("GET /api/v2/spec sent %d times in two runs, want 1", n)
	}
}

// An instance that answers 404 serves no description: orgctl works as
// without one (Described is nil, no error), and the answer is cached too.
// A server error is no answer: it is said, and asked again next time.
func TestPublishedNoDescriptionIsCachedAFailureIsNot(t *testing.T) {
	var status, reads atomic.Int32
	status.Store(http.StatusInternalServerError)
	specServer(t, &status, &reads)
	ctx := context.Background()
	f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
	if _, err := f.Described(ctx); err == nil {
		t.Fatal("a 500 gave no error")
	}
	afterFailure := reads.Load()
	status.Store(http.StatusNotFound)
	for run := range 3 {
		f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
		r, err := f.Published(ctx)
		if err != nil || r.Desc != nil || r.Cached != (run > 0) {
			t.Fatalf("run %d: %+v %v", run, r, err)
		}
	}
	if n := reads.Load() - afterFailure; n != 1 {
		t.Errorf("after the failure, GET /api/v2/spec sent %d times in three runs, want 1", n)
	}
}

// An instance upgraded since this login cached its description: what the
// run has from the cache says 2.12, and FreshDescribed, which a refusal
// rests on, reads it again (one request) and caches what it serves now.
func TestFreshDescribedReadsAgainWhatCameFromTheCache(t *testing.T) {
	old, err := os.ReadFile(sandboxtest.SharedFile(t, "api", "openapi.json"))
	if err != nil {
		t.Skipf("the 2.12 description is not available: %v", err)
	}
	var serveOld atomic.Bool
	var reads atomic.Int32
	api, _ := clitest.SandboxEnv(t, sandbox.Options{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v2/spec" {
			reads.Add(1)
			if serveOld.Load() {
				w.Header().Set("Content-Type", "application/json")
				w.Write(old)
				return
			}
		}
		api.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	t.Setenv("ORGCTL_BASE_URL", hs.URL)
	ctx := context.Background()

	serveOld.Store(true)
	f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
	if r, err := f.Published(ctx); err != nil || r.Version() != "2.12.0" {
		t.Fatalf("first read: %+v %v", r, err)
	}
	// a fresh reading this run made is not read again
	if d, err := f.FreshDescribed(ctx); err != nil || d.Version != "2.12.0" || reads.Load() != 1 {
		t.Fatalf("fresh after a read: %v %v, %d reads", d, err, reads.Load())
	}

	serveOld.Store(false) // the instance is upgraded
	f, _ = clitest.Factory(t, &clitest.Keyring{}, "")
	if d, err := f.Described(ctx); err != nil || d.Version != "2.12.0" {
		t.Fatalf("cached: %v %v", d, err)
	}
	d, err := f.FreshDescribed(ctx)
	if err != nil || d.Version != "4.0.0" || reads.Load() != 2 {
		t.Fatalf("fresh: %v %v, %d reads", d, err, reads.Load())
	}
	f, _ = clitest.Factory(t, &clitest.Keyring{}, "")
	if r, err := f.Published(ctx); err != nil || !r.Cached || r.Version() != "4.0.0" {
		t.Fatalf("the next run's cache: %+v %v", r, err)
	}
}
