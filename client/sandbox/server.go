package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/output/lazy"
	"github.com/orgctl/orgctl/ratebudget"
)

// Options configures a Server. Zero values take the service's documented defaults.
type Options struct {
	Points int              // budget points per window; 0 -> 300
	Window time.Duration    // sliding window; 0 -> 60s
	Block  time.Duration    // block length after exceeding; 0 -> 60s
	Now    func() time.Time // nil -> time.Now
	Empty  bool             // true: no demo org, just the primary org with its admin and admin token
	Users  int              // synthetic users added to the primary org (user000001@load.example, ...)
	// Groups and Folders add synthetic groups (each with a share of the
	// synthetic users and a grant on a folder) and app folders (nested ten
	// deep, an app in each), so access reviews rehearse on an org's shape.
	Groups, Folders int
	// Latency delays every answer: the request takes effect at arrival and its answer is written
	// Latency later (sooner if the client goes away), so tests can stop a client mid-request.
	Latency time.Duration
	// RequestLog is how many of the most recent requests Requests keeps; 0 -> DefaultRequestLog,
	// negative -> none. A long-running `orgctl sandbox serve` must not grow without bound.
	RequestLog int
	// APIVersion is the API version the sandbox answers as: "" or 4.0.0
	// (spec.Version), or 2.12.0 (spec.OlderVersion), what the 3.334
	// release publishes: no 4.0-only operations or query parameters, no
	// 4.0-only answer fields, and the 2.12 outline at /api/v2/spec. See
	// APIVersionOf for the spellings accepted.
	APIVersion string
}

// APIVersionOf is the API version a sandbox can answer as, from "4.0",
// "4.0.0", "2.12" or "2.12.0" ("" is 4.0.0); an error names the choices.
func APIVersionOf(s string) (string, error) {
	for _, v := range []string{spec.Version, spec.OlderVersion} {
		if s == v || s+".0" == v || (s == "" && v == spec.Version) {
			return v, nil
		}
	}
	return "", fmt.Errorf("the sandbox answers as API version %s or %s (the %s release), not %q",
		strings.TrimSuffix(spec.Version, ".0"), strings.TrimSuffix(spec.OlderVersion, ".0"), spec.Release(spec.OlderVersion), s)
}

// DefaultRequestLog is the number of recent requests a Server keeps unless Options.RequestLog says otherwise.
const DefaultRequestLog = 10000

func (o Options) withDefaults() Options {
	if o.Points <= 0 {
		o.Points = 300
	}
	if o.Window <= 0 {
		o.Window = 60 * time.Second
	}
	if o.Block <= 0 {
		o.Block = 60 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RequestLog == 0 {
		o.RequestLog = DefaultRequestLog
	}
	if v, err := APIVersionOf(o.APIVersion); err == nil {
		o.APIVersion = v
	} else {
		panic("sandbox: " + err.Error()) // callers check user input with APIVersionOf
	}
	return o
}

// Request is one served request as the sandbox saw it.
type Request struct {
	Method string
	Path   string // as received, including any /space/{name} prefix
	Query  string
	Status int
	Body   []byte
	Space  string // "" for the primary org
	At     time.Time
}

// Server is the in-memory management API. It is safe for concurrent use; requests are serialised.
type Server struct {
	mu   sync.Mutex
	opts Options
	st   *state
	reqs requestLog
}

type obj = map[string]any

type state struct {
	Orgs   map[string]*org `json:"orgs"`
	Budget budget          `json:"budget"`
}

// org is the data of the primary organization ("") or of one space.
type org struct {
	Name        string           `json:"name"`
	Collections map[string][]obj `json:"collections"`
	Singletons  map[string]obj   `json:"singletons"`
	Tokens      []*token         `json:"tokens"`
	Seq         map[string]int   `json:"seq"`
}

type token struct {
	ID          string   `json:"id"`
	Value       string   `json:"value"`
	Label       string   `json:"label"`
	Description *string  `json:"description"`
	Scopes      []string `json:"scopes"`
	OwnerEmail  string   `json:"owner_email"`
	CreatedAt   string   `json:"created_at"`
}

// New returns a sandbox seeded with the demo organization unless opts.Empty.
func New(opts Options) *Server {
	s := &Server{opts: opts.withDefaults()}
	s.st = newState(s.opts.Empty)
	seedLoadUsers(s.st.Orgs[""], s.opts.Users)
	seedLoadAccess(s.st.Orgs[""], s.opts.Groups, s.opts.Folders)
	now := s.opts.Now()
	if !s.opts.Empty {
		seedDemoHistory(s.st.Orgs[""], now)
	}
	seedLoadHistory(s.st.Orgs[""], now, s.opts.Users, s.opts.Groups, s.opts.Folders)
	return s
}

func newState(empty bool) *state {
	st := &state{Orgs: map[string]*org{}}
	if empty {
		seedEmpty(st)
	} else {
		seedDemo(st)
	}
	return st
}

func newOrg(name string) *org {
	return &org{Name: name, Collections: map[string][]obj{}, Singletons: map[string]obj{}, Seq: map[string]int{}}
}

func (o *org) next(key string) int {
	o.Seq[key]++
	return o.Seq[key]
}

// AdminToken is the all-scope token of the primary org's admin.
func (s *Server) AdminToken() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.adminToken()
}

func (st *state) adminToken() string {
	p := st.Orgs[""]
	for _, t := range p.Tokens {
		if t.Label == adminTokenLabel {
			return t.Value
		}
	}
	return ""
}

const adminTokenLabel = "sandbox admin"

// Requests returns the most recent requests served (at most Options.RequestLog), oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reqs.list()
}

// ResetRequests forgets the served requests.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = requestLog{}
}

// requestLog is a ring of the most recent requests: memory stays fixed however long the sandbox serves.
type requestLog struct {
	ring []Request
	next int // where the next request goes once the ring is full
}

func (l *requestLog) add(r Request, max int) {
	switch {
	case max <= 0:
	case len(l.ring) < max:
		l.ring = append(l.ring, r)
	default:
		l.ring[l.next] = r
		l.next = (l.next + 1) % len(l.ring)
	}
}

func (l *requestLog) list() []Request {
	out := make([]Request, 0, len(l.ring))
	out = append(out, l.ring[l.next:]...)
	return append(out, l.ring[:l.next]...)
}

// MarshalState serialises the whole state: orgs, spaces, tokens, id counters and the budget window.
func (s *Server) MarshalState() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return encode(s.st)
}

// UnmarshalState replaces the whole state with one produced by MarshalState.
func (s *Server) UnmarshalState(b []byte) error {
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("sandbox: decode state: %w", err)
	}
	if st.Orgs[""] == nil {
		return fmt.Errorf("sandbox: state has no primary org")
	}
	for _, o := range st.Orgs {
		if o.Collections == nil {
			o.Collections = map[string][]obj{}
		}
		if o.Singletons == nil {
			o.Singletons = map[string]obj{}
		}
		if o.Seq == nil {
			o.Seq = map[string]int{}
		}
		if _, ok := o.Seq[resourceFolderSeq]; !ok {
			// Saved when every folder type shared one counter: continue past its ids.
			o.Seq[resourceFolderSeq] = o.Seq["/folders"]
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st = &st
	return nil
}

func (o *org) mint(label string, desc *string, owner string, scopes []string, now time.Time) *token {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	n := o.next("access_tokens")
	t := &token{
		ID:          uuidFor(9, n),
		Value:       "retool_" + hex.EncodeToString(b),
		Label:       label,
		Description: desc,
		Scopes:      append([]string(nil), scopes...),
		OwnerEmail:  owner,
		CreatedAt:   stamp(now),
	}
	o.Tokens = append(o.Tokens, t)
	return t
}

func (o *org) tokenByValue(v string) *token {
	for _, t := range o.Tokens {
		if t.Value == v {
			return t
		}
	}
	return nil
}

func uuidFor(seed, n int) string { return kinds.UUIDs.Mint(sandboxMark+uint32(seed), n) }

// fixedTime is when the sandbox's seeded objects were made. A function, as
// a var set by time.Date would be computed before every orgctl command.
func fixedTime() time.Time { return time.Date(2025, 11, 6, 17, 0, 11, 0, time.UTC) }

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// ServeHTTP serves /api/v2/... for the primary org and /space/{name}/api/v2/... for a space.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	now := s.opts.Now()
	status, hdr, out := s.serve(r, body, now)
	space, _, _ := splitPath(r.URL.Path)
	s.reqs.add(Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Status: status, Body: body, Space: space, At: now}, s.opts.RequestLog)
	var b []byte
	if out != nil {
		// Encoded under the lock: the answer may share maps with the state
		// that the next request changes.
		b, _ = encode(out)
	}
	s.mu.Unlock()
	if err := delay(r.Context(), s.opts.Latency); err != nil {
		return // the client is gone; nobody reads the answer
	}
	for k, v := range hdr {
		w.Header().Set(k, v)
	}
	if out == nil {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// encode writes v as the live API does: `R&D`, `<` and `>` as themselves
// (encoding/json's default HTML escaping would send `R\u0026D`) and no
// newline after the closing brace, as the recorded bodies end.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// delay waits d, or until ctx ends (then it returns ctx's error).
func delay(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func splitPath(p string) (space, apiPath string, ok bool) {
	if rest, found := strings.CutPrefix(p, "/space/"); found {
		name, tail, _ := strings.Cut(rest, "/")
		api, ok := strings.CutPrefix("/"+tail, "/api/v2")
		return name, api, ok && name != ""
	}
	api, ok := strings.CutPrefix(p, "/api/v2")
	return "", api, ok
}

func fail(status int, format string, args ...any) (int, map[string]string, any) {
	return status, nil, obj{"success": false, "message": fmt.Sprintf(format, args...)}
}

func (s *Server) serve(r *http.Request, body []byte, now time.Time) (int, map[string]string, any) {
	if status, out, ok := meta(r, s.opts.APIVersion); ok {
		return status, nil, out
	}
	space, apiPath, ok := splitPath(r.URL.Path)
	if !ok {
		return fail(404, "Not found")
	}
	o := s.st.Orgs[space]
	if o == nil {
		return fail(404, "Space %q not found", space)
	}
	rt, params := matchRoute(r.Method, apiPath)
	if rt != nil && !s.serves(&rt.Operation) {
		rt = nil // an instance of an older version has no such route
	}

	tok, status, msg := s.authenticate(o, space, r.Header.Get("Authorization"))
	if status != 0 {
		return fail(status, "%s", msg)
	}
	// A request that matches no published route pays an unlisted family's price.
	cost := ratebudget.UnknownCost
	if rt != nil {
		cost = ratebudget.ListPrice(rt.Path)
	}
	if wait, blocked := s.st.Budget.charge(now, cost, s.opts); blocked {
		secs := int(math.Ceil(wait.Seconds()))
		if secs < 1 {
			secs = 1
		}
		st, _, out := fail(429, "Rate limit exceeded. API calls are blocked for %d seconds.", secs)
		return st, map[string]string{"Retry-After": fmt.Sprint(secs)}, out
	}
	if rt == nil {
		return fail(404, "Route %s %s not found", r.Method, apiPath)
	}
	if need := rt.AnyScope(); len(need) > 0 && !hasAnyScope(tok.Scopes, need) {
		return fail(403, "Forbidden: API token is missing one of %s", quotedOr(need))
	}
	q := r.URL.Query()
	if s.older() {
		for _, v := range rt.Query {
			if v.Since == spec.Version {
				q.Del(v.Name) // an older instance ignores what it does not know
			}
		}
	}
	if v := q.Get("limit"); v != "" && rt.paginated {
		var n int
		if _, err := fmt.Sscanf(v, "%d", &n); err != nil || n < 1 || n > 100 || fmt.Sprint(n) != v {
			return fail(400, `"limit" must be an integer between 1 and 100`)
		}
	}
	if bad := unlisted(rt, params, q); bad != "" {
		return fail(400, "%s", bad)
	}
	parsed, bad := requestBody(r, rt, body)
	if bad != "" {
		return fail(400, "%s", bad)
	}
	c := &call{s: s, org: o, space: space, rt: rt, params: params, q: q, host: r.Host, tok: tok, now: now}
	if m, ok := parsed.(map[string]any); ok {
		c.body = m
	} else if parsed != nil {
		c.body = obj{}
	}
	st, out := dispatch(c)
	if s.older() && len(rt.Added) > 0 && st/100 == 2 {
		out = withoutFields(out, rt.Added)
	}
	return st, nil, out
}

// older says the sandbox answers as the older API version.
func (s *Server) older() bool { return s.opts.APIVersion == spec.OlderVersion }

// serves says whether an instance of the sandbox's API version has the operation.
func (s *Server) serves(op *spec.Operation) bool {
	if s.older() {
		return op.Since != spec.Version
	}
	return !op.Dropped
}

// withoutFields is an answer with the named fields left out of its data
// (of each item, for a list), copied so that the stored objects keep them.
func withoutFields(out any, fields []string) any {
	env, ok := out.(obj)
	if !ok {
		return out
	}
	strip := func(v any) any {
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		c := make(obj, len(m))
		for k, x := range m {
			c[k] = x
		}
		for _, f := range fields {
			delete(c, f)
		}
		return c
	}
	e := make(obj, len(env))
	for k, v := range env {
		e[k] = v
	}
	switch d := env["data"].(type) {
	case []any:
		items := make([]any, len(d))
		for i, it := range d {
			items[i] = strip(it)
		}
		e["data"] = items
	default:
		e["data"] = strip(d)
	}
	return e
}

// unlisted is the message of the 400 that refuses a path or query
// parameter outside the values the description lists for it, as the body's
// schema check refuses such a body value; "" when there is none. A query
// parameter that takes an enum may list several, comma-separated.
func unlisted(rt *route, params map[string]string, q url.Values) string {
	for i, name := range spec.PathParams(rt.Path) {
		if i < len(rt.Params) && len(rt.Params[i].Enum) > 0 && !slices.Contains(rt.Params[i].Enum, params[name]) {
			return fmt.Sprintf("Invalid path parameter %s: %q must be one of: %s", name, params[name], strings.Join(rt.Params[i].Enum, ", "))
		}
	}
	for _, v := range rt.Query {
		if len(v.Enum) == 0 {
			continue
		}
		for _, text := range q[v.Name] {
			for _, part := range strings.Split(text, ",") {
				if !slices.Contains(v.Enum, part) {
					return fmt.Sprintf("Invalid query parameter %s: %q must be one of: %s", v.Name, part, strings.Join(v.Enum, ", "))
				}
			}
		}
	}
	return ""
}

// requestBody is the request's body decoded (a form, JSON, or nil), or the
// message of the 400 that refuses it: not readable, or not what the
// route's published schema asks for.
func requestBody(r *http.Request, rt *route, body []byte) (parsed any, bad string) {
	if ct := r.Header.Get("Content-Type"); strings.HasPrefix(ct, "multipart/form-data") && r.Method == http.MethodPost {
		form, msg := formFields(ct, body)
		if msg != "" {
			return nil, "Invalid multipart body: " + msg
		}
		parsed = form
	} else if len(bytes.TrimSpace(body)) > 0 && r.Method != http.MethodGet && r.Method != http.MethodDelete {
		if err := json.Unmarshal(body, &parsed); err != nil {
			return nil, fmt.Sprintf("Request body is not valid JSON: %v", err)
		}
	}
	if rt.req != nil {
		if parsed == nil {
			parsed = obj{}
		}
		if m := rt.req.Validate(parsed, ""); m != "" {
			return nil, "Invalid request body: " + m
		}
	}
	return parsed, ""
}

// authenticate applies the space rule: a space token only works on its space; a primary-org token works
// on a space only when its owner is a primary-org admin and also an admin of that space.
func (s *Server) authenticate(o *org, space, header string) (*token, int, string) {
	v, found := strings.CutPrefix(header, "Bearer ")
	v = strings.TrimSpace(v)
	if !found || v == "" {
		return nil, 401, "Unauthorized: missing bearer token in the Authorization header"
	}
	if t := o.tokenByValue(v); t != nil {
		return t, 0, ""
	}
	if space != "" {
		if t := s.st.Orgs[""].tokenByValue(v); t != nil {
			pu := s.st.Orgs[""].userByEmail(t.OwnerEmail)
			if pu == nil || pu["is_admin"] != true {
				return nil, 403, fmt.Sprintf("Forbidden: this token was created on the primary organization by %s, who is not an organization admin; a primary-organization token works on space %q only when created by an admin of the organization who is also an admin of the space", t.OwnerEmail, space)
			}
			su := o.userByEmail(t.OwnerEmail)
			if su == nil || su["is_admin"] != true {
				return nil, 403, fmt.Sprintf("Forbidden: this token was created on the primary organization by %s, who is not an admin of space %q; a primary-organization token works on a space only when its creator is also an admin of that space", t.OwnerEmail, space)
			}
			return t, 0, ""
		}
	}
	return nil, 401, "Unauthorized: invalid API token"
}

// hasScope: write implies read for the same scope family.
// hasAnyScope says whether the token holds one of the scopes an operation accepts.
func hasAnyScope(have, need []string) bool {
	for _, n := range need {
		if hasScope(have, n) {
			return true
		}
	}
	return false
}

// quotedOr words the accepted scopes as the API's 403 does: "apps:read" or "mcp:admin".
func quotedOr(need []string) string {
	q := make([]string, len(need))
	for i, n := range need {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, " or one of ")
}

func hasScope(have []string, need string) bool {
	for _, h := range have {
		if h == need {
			return true
		}
		if base, ok := strings.CutSuffix(need, ":read"); ok && h == base+":write" {
			return true
		}
		if need == "usage" && strings.HasPrefix(h, "usage:") {
			return true
		}
	}
	return false
}

type budget struct {
	Hits         []hit     `json:"hits"`
	BlockedUntil time.Time `json:"blocked_until"`
}

type hit struct {
	At   time.Time `json:"at"`
	Cost int       `json:"cost"`
}

// charge counts cost at arrival; it reports how long the caller must wait when the call is refused.
func (b *budget) charge(now time.Time, cost int, o Options) (time.Duration, bool) {
	if now.Before(b.BlockedUntil) {
		return b.BlockedUntil.Sub(now), true
	}
	kept := b.Hits[:0]
	used := 0
	for _, h := range b.Hits {
		if now.Sub(h.At) < o.Window {
			kept = append(kept, h)
			used += h.Cost
		}
	}
	b.Hits = kept
	if used+cost > o.Points {
		b.BlockedUntil = now.Add(o.Block)
		b.Hits = nil
		return o.Block, true
	}
	b.Hits = append(b.Hits, hit{At: now, Cost: cost})
	return 0, false
}

type route struct {
	spec.Operation
	segs      []string
	req       *spec.Schema
	tmpl      any
	paginated bool
	key       string // "METHOD /path"
}

// routes are parsed on first use: orgctl links this package for --sandbox,
// and most commands never reach it.
var routes = lazy.Value[[]*route]{New: buildRoutes}

func buildRoutes() []*route {
	ops := append([]spec.Operation{}, spec.Operations()...)
	var out []*route
	for _, op := range ops {
		rt := &route{Operation: op}
		rt.Path = "/" + strings.Trim(op.Path, "/")
		rt.segs = strings.Split(strings.Trim(rt.Path, "/"), "/")
		rt.key = op.Method + " " + rt.Path
		if op.Schema != "" {
			rt.req = &spec.Schema{}
			if err := json.Unmarshal([]byte(op.Schema), rt.req); err != nil {
				panic(fmt.Sprintf("sandbox: bad schema for %s: %v", rt.key, err))
			}
		}
		if op.Example != "" {
			if err := json.Unmarshal([]byte(op.Example), &rt.tmpl); err != nil {
				panic(fmt.Sprintf("sandbox: bad template for %s: %v", rt.key, err))
			}
		}
		for _, q := range op.Query {
			if q.Name == "limit" {
				rt.paginated = true
			}
		}
		if m, ok := rt.tmpl.(map[string]any); ok {
			if _, ok := m["total_count"]; ok {
				rt.paginated = true
			}
		}
		applyOverrides(rt)
		out = append(out, rt)
	}
	// More literal segments win, so /spaces/copyElements beats /spaces/{spaceId}.
	sort.SliceStable(out, func(i, j int) bool { return literals(out[i]) > literals(out[j]) })
	return out
}

func literals(r *route) int {
	n := 0
	for _, s := range r.segs {
		if !strings.HasPrefix(s, "{") {
			n++
		}
	}
	return n
}

func matchRoute(method, p string) (*route, map[string]string) {
	segs := strings.Split(strings.Trim(p, "/"), "/")
	for _, rt := range routes.Get() {
		if rt.Method != method || len(rt.segs) != len(segs) {
			continue
		}
		params := map[string]string{}
		ok := true
		for i, s := range rt.segs {
			if strings.HasPrefix(s, "{") {
				if segs[i] == "" {
					ok = false
					break
				}
				params[strings.Trim(s, "{}")] = segs[i]
			} else if s != segs[i] {
				ok = false
				break
			}
		}
		if ok {
			return rt, params
		}
	}
	return nil, nil
}
