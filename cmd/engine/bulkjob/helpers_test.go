package bulkjob_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

// org is a sandbox org on loopback with a Factory on it, run from a
// directory of the test's own, so a file's messages name it as given. A
// request can be made to lose its answer, as a network does: applied by
// the sandbox with no answer back (drop), or never arriving (lose).
type org struct {
	t           *testing.T
	f           *cli.Factory  // the last run's
	out, errOut *bytes.Buffer // the last run's output
	api         *sandbox.Server
	dir         string
	keyring     *clitest.Keyring
	width       int    // > 0: stdout is a terminal this wide
	stdin       string // what each run reads on stdin

	mu      sync.Mutex
	dropped map[string]bool // "METHOD /path": applied, then the connection closed
	lost    map[string]bool // "METHOD /path": the connection closed before the sandbox sees it
}

func newOrg(t *testing.T) *org {
	t.Helper()
	clitest.Isolate(t)
	o := &org{t: t, keyring: &clitest.Keyring{}, api: sandbox.New(sandbox.Options{Points: 100000}),
		dropped: map[string]bool{}, lost: map[string]bool{}}
	hs := httptest.NewServer(http.HandlerFunc(o.serve))
	t.Cleanup(hs.Close)
	t.Setenv("ORGCTL_BASE_URL", hs.URL)
	t.Setenv("ORGCTL_TOKEN", o.api.AdminToken())
	t.Setenv("ORGCTL_OUTPUT", "table")
	t.Setenv("ORGCTL_BUDGET_POINTS", "100000")
	o.dir = t.TempDir()
	t.Chdir(o.dir)
	return o
}

func (o *org) serve(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	k := r.Method + " " + r.URL.Path
	drop, lose := o.dropped[k], o.lost[k]
	o.mu.Unlock()
	if drop {
		o.api.ServeHTTP(httptest.NewRecorder(), r)
	}
	if drop || lose {
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	o.api.ServeHTTP(w, r)
}

// drop makes every request "METHOD /path" lose its answer after the
// sandbox applied it; lose, before it arrives; heal undoes both.
func (o *org) drop(req string) { o.mu.Lock(); o.dropped[req] = true; o.mu.Unlock() }
func (o *org) lose(req string) { o.mu.Lock(); o.lost[req] = true; o.mu.Unlock() }
func (o *org) heal() {
	o.mu.Lock()
	o.dropped, o.lost = map[string]bool{}, map[string]bool{}
	o.mu.Unlock()
}

// write writes a file in the test's directory.
func (o *org) write(name, text string) string {
	o.t.Helper()
	if err := os.WriteFile(filepath.Join(o.dir, name), []byte(text), 0o600); err != nil {
		o.t.Fatal(err)
	}
	return name
}

// read is a file of the test's directory.
func (o *org) read(name string) string {
	o.t.Helper()
	b, err := os.ReadFile(filepath.Join(o.dir, name))
	if err != nil {
		o.t.Fatal(err)
	}
	return string(b)
}

// result is one command line's run: what it printed and its exit status.
type result struct {
	out, err string
	code     int
	e        error
}

// run runs the command at path ("users create") with args under the root,
// as Main runs it, its requests counted from this run on.
func (o *org) run(path string, args ...string) result {
	o.t.Helper()
	// a Factory of its own, as each process has: nothing a command line
	// read (its flags) is left for the next
	f, tio := clitest.Factory(o.t, o.keyring, o.stdin)
	o.f, o.out, o.errOut = f, &tio.Out, &tio.Err
	if o.width > 0 { // stdout a terminal of that width
		f.IO.OutTTY, f.IO.Width = true, o.width
	}
	o.api.ResetRequests()
	err := familytest.Run(o.f, append(strings.Fields(path), args...)...)
	r := result{out: o.out.String(), err: o.errOut.String(), code: cli.ExitCode(err), e: err}
	if err != nil {
		r.err += "orgctl: " + err.Error() + "\n"
	}
	return r
}

// sent are the requests of the last run, as "METHOD /path".
func (o *org) sent() []string { return clitest.Sent(o.api) }

// changes are the requests of the last run that were not reads.
func (o *org) changes() []string {
	var out []string
	for _, s := range o.sent() {
		if !strings.HasPrefix(s, "GET ") {
			out = append(out, s)
		}
	}
	return out
}

// count is how many of the last run's requests were s ("POST /api/v2/users").
func (o *org) count(s string) int {
	n := 0
	for _, r := range o.sent() {
		if r == s {
			n++
		}
	}
	return n
}

// lines are text's lines, without the last line break.
func lines(text string) []string {
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// fields are a tab-separated stdout's records, each split at its tabs.
func fields(text string) [][]string {
	var out [][]string
	for _, l := range lines(text) {
		out = append(out, strings.Split(l, "\t"))
	}
	return out
}

// bodies are the JSON bodies of the last run's requests of method and path.
func (o *org) bodies(method, path string) []map[string]any {
	o.t.Helper()
	var out []map[string]any
	for _, r := range o.api.Requests() {
		if r.Method != method || r.Path != path {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(r.Body, &m); err != nil {
			o.t.Fatalf("%s %s: body %q: %v", method, path, r.Body, err)
		}
		out = append(out, m)
	}
	return out
}
