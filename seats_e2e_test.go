package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/sandbox"
)

// seatsRig is a sandbox of 30 users whose sign-ins are spread over 400
// days (every tenth never) plus the empty org's admin, who never signed
// in, behind a counter of the requests orgctl sends. An instance that
// publishes POST /users/{userId}/logout (4.0) is what logout decides:
// where the sandbox's own description lacks it, the rig publishes and
// answers it (end the sessions of a user the sandbox has), so both
// kinds of instance can be tried.
type seatsRig struct {
	api    *sandbox.Server
	rig    *budgetRig
	mu     sync.Mutex
	counts map[string]int // "METHOD /path" -> requests
}

var logoutRE = regexp.MustCompile(`^/api/v2/users/([^/]+)/logout$`)

func newSeatsRig(t *testing.T, publishLogout bool) *seatsRig {
	t.Helper()
	r := &seatsRig{api: sandbox.New(sandbox.Options{Empty: true, Users: 30, Points: 1 << 20}), counts: map[string]int{}}
	spec := httptest.NewRecorder()
	r.api.ServeHTTP(spec, httptest.NewRequest(http.MethodGet, "/api/v2/spec", nil))
	var doc map[string]any
	if err := json.Unmarshal(spec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	paths, _ := doc["paths"].(map[string]any)
	_, own := paths["/users/{userId}/logout"]
	if publishLogout {
		paths["/users/{userId}/logout"] = map[string]any{"post": map[string]any{"tags": []any{"Users"}}}
	} else {
		delete(paths, "/users/{userId}/logout")
	}
	specBody, _ := json.Marshal(doc)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.counts[req.Method+" "+req.URL.Path]++
		r.mu.Unlock()
		if req.Method == http.MethodGet && req.URL.Path == "/api/v2/spec" {
			w.Header().Set("Content-Type", "application/json")
			w.Write(specBody)
			return
		}
		if m := logoutRE.FindStringSubmatch(req.URL.Path); m != nil && req.Method == http.MethodPost && !own {
			if !publishLogout {
				http.Error(w, `{"success":false,"message":"Not found"}`, http.StatusNotFound)
				return
			}
			get := httptest.NewRecorder()
			probe := httptest.NewRequest(http.MethodGet, "/api/v2/users/"+m[1], nil)
			probe.Header.Set("Authorization", req.Header.Get("Authorization"))
			r.api.ServeHTTP(get, probe)
			if get.Code != http.StatusOK {
				w.WriteHeader(get.Code)
				w.Write(get.Body.Bytes())
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"success":true,"data":{"sso_logout":false}}`))
			return
		}
		r.api.ServeHTTP(w, req)
	}))
	t.Cleanup(hs.Close)
	dir := t.TempDir()
	bin := filepath.Join(dir, "orgctl")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"), "DBUS_SESSION_BUS_ADDRESS=", "NO_COLOR=1",
		"ORGCTL_BASE_URL="+hs.URL, "ORGCTL_TOKEN="+r.api.AdminToken(), "ORGCTL_BUDGET_POINTS=1000000")
	r.rig = &budgetRig{api: r.api, url: hs.URL, bin: bin, env: env, home: dir}
	return r
}

// writes are the requests sent since the last call that may change
// something, by "METHOD /path".
func (r *seatsRig) writes() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]int{}
	for k, n := range r.counts {
		if !strings.HasPrefix(k, "GET ") {
			out[k] = n
		}
	}
	r.counts = map[string]int{}
	return out
}

type seatsUser struct {
	ID         string  `json:"id"`
	Email      string  `json:"email"`
	Active     bool    `json:"active"`
	Admin      bool    `json:"is_admin"`
	LastActive *string `json:"last_active"`
}

// users reads the sandbox's users directly, not through orgctl.
func (r *seatsRig) users(t *testing.T) []seatsUser {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/api/v2/users", nil)
	req.Header.Set("Authorization", "Bearer "+r.api.AdminToken())
	r.api.ServeHTTP(rec, req)
	var env struct{ Data []seatsUser }
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatal(err)
	}
	return env.Data
}

// staleNonAdmins are the active non-admins last seen more than days ago
// or never, worked out here from the users' own last_active.
func staleNonAdmins(t *testing.T, us []seatsUser, days int) map[string]bool {
	out := map[string]bool{}
	for _, u := range us {
		if !u.Active || u.Admin {
			continue
		}
		if u.LastActive == nil {
			out[u.ID] = true
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, *u.LastActive)
		if err != nil {
			t.Fatal(err)
		}
		if time.Since(at) > time.Duration(days)*24*time.Hour {
			out[u.ID] = true
		}
	}
	return out
}

func TestReclaimDisablesInactiveAndEndsSessionsOnce(t *testing.T) {
	r := newSeatsRig(t, true)
	before := r.users(t)
	want := staleNonAdmins(t, before, 90)
	if len(want) < 10 {
		t.Fatalf("only %d stale users in the rig: %v", len(want), want)
	}

	// --dry-run sends no write and states its points
	_, stderr, code := r.rig.run("users", "reclaim", "--days", "90", "--dry-run")
	if code != 0 || !regexp.MustCompile(`(?m)^Cost: \d+ requests, \d+ points`).MatchString(stderr) {
		t.Fatalf("dry run: exit %d\n%s", code, stderr)
	}
	if w := r.writes(); len(w) > 0 {
		t.Fatalf("dry run sent writes: %v", w)
	}

	// --max refuses, naming the limit, and sends nothing
	_, stderr, code = r.rig.run("users", "reclaim", "--days", "1", "--max", "3", "--yes")
	if code != 2 || !strings.Contains(stderr, "more than --max 3") {
		t.Fatalf("--max 3: exit %d\n%s", code, stderr)
	}
	if w := r.writes(); len(w) > 0 {
		t.Fatalf("--max sent writes: %v", w)
	}

	// the run disables exactly the stale non-admins and ends each one's sessions once
	_, stderr, code = r.rig.run("users", "reclaim", "--days", "90", "--yes")
	if code != 0 {
		t.Fatalf("reclaim: exit %d\n%s", code, stderr)
	}
	got := r.writes()
	wantWrites := map[string]int{}
	for id := range want {
		wantWrites["DELETE /api/v2/users/"+id] = 1
		wantWrites["POST /api/v2/users/"+id+"/logout"] = 1
	}
	if !equalCounts(got, wantWrites) {
		t.Errorf("writes:\n%v\nwant:\n%v", keys(got), keys(wantWrites))
	}
	if !strings.Contains(stderr, "Kept: admin@sandbox.example (an admin") {
		t.Errorf("the admin is not named as kept:\n%s", stderr)
	}
	after := map[string]seatsUser{}
	for _, u := range r.users(t) {
		after[u.ID] = u
	}
	for _, u := range before {
		if a := after[u.ID]; a.Active != (u.Active && !want[u.ID]) {
			t.Errorf("%s: active %v after, %v before (reclaimed: %v)", u.Email, a.Active, u.Active, want[u.ID])
		}
	}

	// a rerun sends nothing
	_, stderr, code = r.rig.run("users", "reclaim", "--days", "90", "--yes")
	if code != 0 || !strings.Contains(stderr, "Nothing to reclaim") {
		t.Fatalf("rerun: exit %d\n%s", code, stderr)
	}
	if w := r.writes(); len(w) > 0 {
		t.Fatalf("rerun sent writes: %v", w)
	}
}

// An instance that does not publish logout (the 3.334 release) gets none:
// reclaim says so once and only disables.
func TestReclaimWithoutLogoutOnlyDisables(t *testing.T) {
	r := newSeatsRig(t, false)
	want := staleNonAdmins(t, r.users(t), 90)
	_, stderr, code := r.rig.run("users", "reclaim", "--days", "90", "--yes")
	if code != 0 || strings.Count(stderr, "does not publish POST /users/{userId}/logout") != 1 {
		t.Fatalf("reclaim: exit %d\n%s", code, stderr)
	}
	got := r.writes()
	wantWrites := map[string]int{}
	for id := range want {
		wantWrites["DELETE /api/v2/users/"+id] = 1
	}
	if !equalCounts(got, wantWrites) {
		t.Errorf("writes:\n%v\nwant:\n%v", keys(got), keys(wantWrites))
	}
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func keys(m map[string]int) string {
	var out []string
	for k, v := range m {
		out = append(out, k+" x"+strings.Repeat("I", v))
	}
	sort.Strings(out)
	var b bytes.Buffer
	for _, s := range out {
		b.WriteString("  " + s + "\n")
	}
	return b.String()
}
