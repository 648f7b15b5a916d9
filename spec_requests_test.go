package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// requestSpec validates every request the scripts send against the published
// OpenAPI description, so a command that builds an invalid request fails the
// suite even when the sandbox is more lenient than the spec.
type requestSpec struct {
	once    sync.Once
	router  routers.Router
	loadErr error

	mu         sync.Mutex
	checked    int
	skipped    map[string]string // "METHOD path" -> why it cannot be validated
	failures   []string
	deviations []string
}

var scriptRequests = &requestSpec{skipped: map[string]string{}}

// knownRequestDeviations are spec rules orgctl breaks on purpose: the
// operation, a fragment of the validation error, and why.
var knownRequestDeviations = []struct{ key, contains, why string }{
	{"GET /custom_component_libraries", `"libraryId" in query`, "the spec marks libraryId required on the list; a list that needs the id it lists is unusable, so orgctl sends it only with --library-id"},
	{"POST /resources", `Error at "/options": doesn't match any schema`, "the scripts create T-SQL resources with the connector version, Windows auth and ODBC params that the sandbox carries in options, since the published API has no field for them (client/apitest's doc); the published create schema knows only six types"},
	{"GET /user_tasks", `"statuses" in query has an error: value is not one of`, "the spec describes statuses as a comma-separated list but gives it a single-value enum; orgctl sends the list"},
}

func (s *requestSpec) load() error {
	s.once.Do(func() {
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(filepath.Join("..", "shared", "api", "openapi.json"))
		if err != nil {
			s.loadErr = err
			return
		}
		doc.Servers = openapi3.Servers{{URL: "http://sandbox.test/api/v2"}}
		s.router, s.loadErr = gorillamux.NewRouter(doc)
	})
	return s.loadErr
}

// observe validates one request; the body is read and put back.
func (s *requestSpec) observe(script string, r *http.Request) {
	if s.load() != nil {
		return
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	path := r.URL.EscapedPath()
	if rest, ok := strings.CutPrefix(path, "/space/"); ok {
		if _, tail, found := strings.Cut(rest, "/"); found {
			path = "/" + tail
		}
	}
	api := strings.TrimPrefix(path, "/api/v2")
	key := r.Method + " " + api
	switch {
	case r.Method == http.MethodPost && api == "/apps":
		s.skip(key, "unpublished POST /apps")
		return
	case r.Method == http.MethodGet && strings.HasPrefix(api, "/access_tokens/"):
		s.skip("GET /access_tokens/{id}", "the spec writes /access_tokens/:accessTokenId literally")
		return
	}
	target := "http://sandbox.test" + path
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	vreq := httptest.NewRequest(r.Method, target, bytes.NewReader(body))
	vreq.Header = r.Header.Clone()
	route, params, err := s.router.FindRoute(vreq)
	if err != nil && !strings.HasSuffix(path, "/") {
		// The spec spells a few paths with a trailing slash (/organization/).
		vreq = httptest.NewRequest(r.Method, strings.Replace(target, path, path+"/", 1), bytes.NewReader(body))
		vreq.Header = r.Header.Clone()
		route, params, err = s.router.FindRoute(vreq)
	}
	if err != nil {
		s.fail(script, key, r.URL.RawQuery, fmt.Errorf("no published operation: %v", err))
		return
	}
	in := &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	err = openapi3filter.ValidateRequest(context.Background(), in)
	s.mu.Lock()
	s.checked++
	s.mu.Unlock()
	if err != nil {
		s.fail(script, r.Method+" "+route.Path, r.URL.RawQuery, err)
	}
}

func (s *requestSpec) skip(key, why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skipped[key] = why
}

func (s *requestSpec) fail(script, key, query string, err error) {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	line := fmt.Sprintf("%s: %s", script, key)
	if query != "" {
		line += "?" + query
	}
	line += ": " + msg
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range knownRequestDeviations {
		if d.key == key && strings.Contains(msg, d.contains) {
			s.deviations = append(s.deviations, line+" (known: "+d.why+")")
			return
		}
	}
	s.failures = append(s.failures, line)
}

// report runs after every script: deviations are logged, failures fail.
func (s *requestSpec) report(t *testing.T) {
	if err := s.load(); err != nil {
		t.Logf("request validation skipped: the published OpenAPI description is not available (%v)", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range sortedKeys(s.skipped) {
		t.Logf("not validated: %s (%s)", k, s.skipped[k])
	}
	sort.Strings(s.deviations)
	for _, d := range s.deviations {
		t.Logf("known deviation: %s", d)
	}
	t.Logf("%d script requests validated against the published spec, %d invalid", s.checked, len(s.failures))
	sort.Strings(s.failures)
	for _, f := range s.failures {
		t.Errorf("invalid request: %s", f)
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
