package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orgctl/orgctl/output/jsonscan"
)

// recorder is an httptest server that counts requests and answers with a
// per-test handler.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []*http.Request
	body [][]byte
	n    atomic.Int32
	// arrived has a value each time a request reaches the handler (as
	// many as are not yet taken, up to its capacity).
	arrived chan struct{}
}

func serve(t *testing.T, h func(n int, w http.ResponseWriter, r *http.Request)) *recorder {
	t.Helper()
	rec := &recorder{arrived: make(chan struct{}, 64)}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, r)
		rec.body = append(rec.body, b)
		rec.mu.Unlock()
		n := int(rec.n.Add(1))
		select {
		case rec.arrived <- struct{}{}:
		default:
		}
		h(n, w, r)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (r *recorder) count() int { return int(r.n.Load()) }

func (r *recorder) request(i int) *http.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reqs[i]
}

func newClient(t *testing.T, base string, mod func(*Options)) *Client {
	t.Helper()
	o := Options{
		BaseURL:      base,
		Token:        "tok_secret_1234567890",
		UserAgent:    "orgctl/test",
		RetryMax:     2,
		RetryWaitMin: time.Millisecond,
		RetryWaitMax: 2 * time.Millisecond,
	}
	if mod != nil {
		mod(&o)
	}
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func answer(status int, body string) func(int, http.ResponseWriter, *http.Request) {
	return func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

func get(t *testing.T, c *Client, path string) (*Response, error) {
	t.Helper()
	return c.Do(context.Background(), Request{Method: http.MethodGet, Path: path})
}

func TestDoDecodesEnvelope(t *testing.T) {
	// Unknown fields, an unknown enum value and number spellings must
	// reach Data byte for byte: the client never re-encodes the API's data.
	listData := `[{"id":"u1","user_type":"robot","score":1.50,"big":12345678901234567890,"new_field":{"b":1,"a":[true,null]}} ,{"id":"u2"}]`
	objData := `{"id":"f1","folder_type":"file","ratio":1.0e2,"extra":"é\u00e9"}`
	tests := []struct {
		name      string
		status    int
		body      string
		wantData  string
		wantTotal int64
		wantNext  string
		wantMore  bool
	}{
		{"list", 200, `{"success":true,"data":` + listData + `,"total_count":42,"next_token":"abc","has_more":true}`, listData, 42, "abc", true},
		{"object", 200, `{"success":true,"data":` + objData + `}`, objData, -1, "", false},
		{"null next token", 200, `{"success":true,"data":[],"total_count":0,"next_token":null,"has_more":false}`, `[]`, 0, "", false},
		{"total count as float", 200, `{"success":true,"data":[],"total_count":3.0}`, `[]`, 3, "", false},
		{"unknown envelope fields", 200, `{"success":true,"request_id":"r1","data":{"id":"x"},"warnings":["w"]}`, `{"id":"x"}`, -1, "", false},
		{"data null", 200, `{"success":true,"data":null}`, ``, -1, "", false},
		{"no content", 204, ``, ``, -1, "", false},
		{"empty 200", 200, "  \n", ``, -1, "", false},
		{"bare array", 200, `[1,2.50,"x"]`, `[1,2.50,"x"]`, -1, "", false},
		{"bare object", 200, `{"id":"x","name":"y"}`, `{"id":"x","name":"y"}`, -1, "", false},
		{"success without data", 201, `{"success":true}`, ``, -1, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := serve(t, answer(tc.status, tc.body))
			resp, err := get(t, newClient(t, srv.URL, nil), "/users")
			if err != nil {
				t.Fatal(err)
			}
			if string(resp.Data) != tc.wantData {
				t.Errorf("Data = %s, want %s", resp.Data, tc.wantData)
			}
			if resp.TotalCount != tc.wantTotal || resp.NextToken != tc.wantNext || resp.HasMore != tc.wantMore {
				t.Errorf("got total=%d next=%q more=%v, want %d %q %v", resp.TotalCount, resp.NextToken, resp.HasMore, tc.wantTotal, tc.wantNext, tc.wantMore)
			}
			if resp.StatusCode != tc.status {
				t.Errorf("StatusCode = %d, want %d", resp.StatusCode, tc.status)
			}
		})
	}
}

func TestDoRejectsNonJSONSuccess(t *testing.T) {
	srv := serve(t, answer(200, "<html>login</html>"))
	_, err := get(t, newClient(t, srv.URL, nil), "/users")
	if err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Fatalf("err = %v, want a not-JSON error", err)
	}
}

func TestAPIErrors(t *testing.T) {
	tests := []struct {
		status int
		body   string
		scope  string
		want   []string // substrings of Error()
		msg    string
	}{
		{400, `{"success":false,"message":"email is invalid"}`, "", []string{"HTTP 400", "email is invalid"}, "email is invalid"},
		{401, `{"success":false,"message":"Invalid token"}`, "", []string{"token rejected", "Invalid token"}, "Invalid token"},
		{403, `{"success":false,"message":"Token lacks scope"}`, "Users > Write", []string{`"Users > Write"`, "HTTP 403", "Token lacks scope"}, "Token lacks scope"},
		{403, `{"success":false,"message":"nope"}`, "", []string{"forbidden (HTTP 403)", "nope"}, "nope"},
		{404, `{"success":false,"message":"User not found"}`, "", []string{"not found: GET /users/u1", "User not found"}, "User not found"},
		{409, `{"success":false,"message":"already exists"}`, "", []string{"HTTP 409", "already exists"}, "already exists"},
		{429, `{"success":false,"message":"Rate limit exceeded"}`, "", []string{"rate limited", "Rate limit exceeded"}, "Rate limit exceeded"},
		{400, `plain words`, "", []string{"plain words"}, "plain words"},
		{400, `<html><body>Bad gateway page</body></html>`, "", []string{"HTTP 400"}, "Bad Request"},
	}
	for _, tc := range tests {
		t.Run(http.StatusText(tc.status), func(t *testing.T) {
			srv := serve(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
				if tc.status == 429 {
					w.Header().Set("Retry-After", "7")
				}
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			})
			c := newClient(t, srv.URL, nil)
			_, err := c.Do(context.Background(), Request{Method: http.MethodGet, Path: "/users/u1", Scope: tc.scope})
			var ae *APIError
			if !errors.As(err, &ae) {
				t.Fatalf("err = %T %v, want *APIError", err, err)
			}
			if ae.StatusCode != tc.status || ae.Message != tc.msg || ae.Scope != tc.scope {
				t.Errorf("APIError = %+v", ae)
			}
			for _, s := range tc.want {
				if !strings.Contains(ae.Error(), s) {
					t.Errorf("Error() = %q, want it to contain %q", ae.Error(), s)
				}
			}
			if tc.status == 429 && ae.RetryAfter != 7*time.Second {
				t.Errorf("RetryAfter = %s, want 7s", ae.RetryAfter)
			}
			if srv.count() != 1 {
				t.Errorf("server saw %d requests, want 1 (4xx is never retried)", srv.count())
			}
		})
	}
}

func TestPathEscapingKeepsOneSegment(t *testing.T) {
	ids := []string{"../x", "a?b", "a/b", "..", ".", "%2F", "a#b", "ünï cødé", "a;b=c", "x y+z"}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			srv := serve(t, answer(200, `{"success":true,"data":{}}`))
			c := newClient(t, srv.URL, nil)
			for _, path := range []string{Path("users", id), Expand("/users/{userId}", map[string]string{"userId": id})} {
				if _, err := get(t, c, path); err != nil {
					t.Fatal(err)
				}
			}
			for i := 0; i < 2; i++ {
				r := srv.request(i)
				if r.URL.RawQuery != "" {
					t.Errorf("query %q leaked from id %q", r.URL.RawQuery, id)
				}
				esc := r.URL.EscapedPath()
				seg, ok := strings.CutPrefix(esc, "/api/v2/users/")
				if !ok || strings.Contains(seg, "/") || seg == "" {
					t.Fatalf("server got path %q for id %q, want /api/v2/users/<one segment>", esc, id)
				}
				got, err := url.PathUnescape(seg)
				if err != nil || got != id {
					t.Errorf("segment %q unescapes to %q (%v), want %q", seg, got, err, id)
				}
				if seg == "." || seg == ".." {
					t.Errorf("dot segment %q sent unescaped", seg)
				}
			}
		})
	}
}

func TestRetryIdempotentOn5xx(t *testing.T) {
	for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
		t.Run(method, func(t *testing.T) {
			srv := serve(t, func(n int, w http.ResponseWriter, r *http.Request) {
				if n < 3 {
					w.WriteHeader(503)
					return
				}
				io.WriteString(w, `{"success":true,"data":{"ok":true}}`)
			})
			resp, err := newClient(t, srv.URL, nil).Do(context.Background(), Request{Method: method, Path: "/x", Body: map[string]int{"a": 1}})
			if err != nil {
				t.Fatal(err)
			}
			if string(resp.Data) != `{"ok":true}` || srv.count() != 3 {
				t.Errorf("data %s after %d requests, want success after 3", resp.Data, srv.count())
			}
			// The body must be resent intact on every attempt.
			for i := range 3 {
				if got := string(srv.body[i]); got != `{"a":1}` {
					t.Errorf("attempt %d body = %q", i, got)
				}
			}
		})
	}
}

func TestRetryGivesUpWithAPIError(t *testing.T) {
	srv := serve(t, answer(500, `{"success":false,"message":"boom"}`))
	_, err := get(t, newClient(t, srv.URL, nil), "/x")
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 500 || ae.Message != "boom" {
		t.Fatalf("err = %v, want APIError 500 boom", err)
	}
	if srv.count() != 3 { // 1 + RetryMax 2
		t.Errorf("server saw %d requests, want 3", srv.count())
	}
}

func TestNotImplementedIsNotRetried(t *testing.T) {
	srv := serve(t, answer(501, `{"success":false,"message":"no"}`))
	get(t, newClient(t, srv.URL, nil), "/x")
	if srv.count() != 1 {
		t.Errorf("501 retried: %d requests", srv.count())
	}
}

// cut processes the request, then closes the connection without an answer.
func cut(w http.ResponseWriter) { panic(http.ErrAbortHandler) }

// truncate sends the headers and part of the body, then closes.
func truncate(w http.ResponseWriter) {
	w.Header().Set("Content-Length", "100")
	w.WriteHeader(200)
	io.WriteString(w, `{"success":true,"da`)
	w.(http.Flusher).Flush()
	panic(http.ErrAbortHandler)
}

func TestRetryIdempotentOnCutConnection(t *testing.T) {
	for _, how := range []struct {
		name string
		fn   func(http.ResponseWriter)
	}{{"before headers", cut}, {"mid body", truncate}} {
		for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
			t.Run(how.name+"/"+method, func(t *testing.T) {
				srv := serve(t, func(n int, w http.ResponseWriter, r *http.Request) {
					if n == 1 {
						how.fn(w)
					}
					io.WriteString(w, `{"success":true,"data":{"ok":1}}`)
				})
				resp, err := newClient(t, srv.URL, nil).Do(context.Background(), Request{Method: method, Path: "/x"})
				if err != nil {
					t.Fatal(err)
				}
				if string(resp.Data) != `{"ok":1}` || srv.count() != 2 {
					t.Errorf("data %s after %d requests, want success on the 2nd", resp.Data, srv.count())
				}
			})
		}
	}
}

func TestNonIdempotentNeverResent(t *testing.T) {
	for _, how := range []struct {
		name string
		fn   func(http.ResponseWriter)
	}{{"before headers", cut}, {"mid body", truncate}} {
		for _, method := range []string{http.MethodPost, http.MethodPatch} {
			t.Run(how.name+"/"+method, func(t *testing.T) {
				srv := serve(t, func(_ int, w http.ResponseWriter, _ *http.Request) { how.fn(w) })
				_, err := newClient(t, srv.URL, nil).Do(context.Background(), Request{Method: method, Path: "/users", Body: []byte(`{"email":"a@b.c"}`)})
				var ou *OutcomeUnknownError
				if !errors.As(err, &ou) {
					t.Fatalf("err = %T %v, want *OutcomeUnknownError", err, err)
				}
				if ou.Method != method || ou.Path != "/users" || !strings.Contains(err.Error(), "Check the current state") {
					t.Errorf("OutcomeUnknownError = %v", err)
				}
				if srv.count() != 1 {
					t.Errorf("server saw %d requests, want exactly 1", srv.count())
				}
			})
		}
	}
}

// A write answered with anything but a readable success or a definite
// refusal (4xx, 501, 503) may have been applied.
func TestNonIdempotent5xx(t *testing.T) {
	for _, tc := range []struct {
		status  int
		unknown bool
	}{{500, true}, {503, false}, {501, false}, {502, true}, {504, true}, {400, false}, {409, false}, {304, true}} {
		t.Run(http.StatusText(tc.status), func(t *testing.T) {
			srv := serve(t, answer(tc.status, `{"success":false,"message":"upstream"}`))
			_, err := newClient(t, srv.URL, nil).Do(context.Background(), Request{Method: http.MethodPost, Path: "/users", Body: map[string]string{}})
			var ou *OutcomeUnknownError
			var ae *APIError
			if tc.unknown && !errors.As(err, &ou) {
				t.Errorf("err = %T %v, want *OutcomeUnknownError", err, err)
			}
			if !tc.unknown && (!errors.As(err, &ae) || ae.StatusCode != tc.status) {
				t.Errorf("err = %T %v, want *APIError %d", err, err, tc.status)
			}
			if srv.count() != 1 {
				t.Errorf("POST sent %d times, want 1", srv.count())
			}
		})
	}
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

func TestRefusedConnectionRetriedAndRefunded(t *testing.T) {
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPatch} {
		t.Run(method, func(t *testing.T) {
			p := &fakePacer{}
			c := newClient(t, closedPort(t), func(o *Options) { o.Pacer = p })
			_, err := c.Do(context.Background(), Request{Method: method, Path: "/users", Body: []byte(`{}`)})
			var te *TransportError
			if !errors.As(err, &te) {
				t.Fatalf("err = %T %v, want *TransportError (never sent, so not outcome-unknown)", err, err)
			}
			acq, done := p.snapshot()
			if len(acq) != 3 {
				t.Errorf("Acquire called %d times, want 3 (1 + RetryMax)", len(acq))
			}
			for i, reached := range done {
				if reached {
					t.Errorf("attempt %d charged; a refused connection must be refunded", i)
				}
			}
			if len(done) != 3 {
				t.Errorf("Done called %d times, want 3", len(done))
			}
		})
	}
}

func TestRefusedConnectionWithoutPacer(t *testing.T) {
	_, err := newClient(t, closedPort(t), nil).Do(context.Background(), Request{Method: http.MethodPost, Path: "/users"})
	var te *TransportError
	if !errors.As(err, &te) {
		t.Fatalf("err = %T %v, want *TransportError", err, err)
	}
}

func TestTimeoutPerAttempt(t *testing.T) {
	hang := func(_ int, w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	// Long enough for each attempt's request to reach the server on a
	// loaded machine before the client gives up on it, so the server's
	// count is the client's attempts.
	const attempt = 250 * time.Millisecond
	t.Run("GET retried", func(t *testing.T) {
		srv := serve(t, hang)
		_, err := newClient(t, srv.URL, func(o *Options) { o.Timeout = attempt }).Do(context.Background(), Request{Method: http.MethodGet, Path: "/x"})
		var te *TransportError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), "no answer within 250ms") {
			t.Fatalf("err = %T %v", err, err)
		}
		if waitCount(srv, 3) != 3 {
			t.Errorf("server saw %d requests, want 3", srv.count())
		}
	})
	t.Run("POST not retried", func(t *testing.T) {
		srv := serve(t, hang)
		_, err := newClient(t, srv.URL, func(o *Options) { o.Timeout = attempt }).Do(context.Background(), Request{Method: http.MethodPost, Path: "/x"})
		var ou *OutcomeUnknownError
		if !errors.As(err, &ou) {
			t.Fatalf("err = %T %v", err, err)
		}
		if waitCount(srv, 1) != 1 {
			t.Errorf("server saw %d requests, want 1", srv.count())
		}
	})
}

// waitCount returns the number of requests srv saw once it has seen n:
// an attempt's handler may start after the client has given up on it, on
// a loaded machine. It waits on the arrivals themselves; the two seconds
// only keep a test that would fail from hanging.
func waitCount(srv *recorder, n int) int {
	failsafe := time.After(2 * time.Second)
	for srv.count() < n {
		select {
		case <-srv.arrived:
		case <-failsafe:
			return srv.count()
		}
	}
	return srv.count()
}

func TestPagesFollowsNextToken(t *testing.T) {
	pages := map[string]string{
		"":   `{"success":true,"data":[{"id":"a","n":1.50}],"total_count":3,"next_token":"t1","has_more":true}`,
		"t1": `{"success":true,"data":[ {"id":"b", "x":{"z":1,"a":2}} ],"total_count":3,"next_token":"t2","has_more":true}`,
		"t2": `{"success":true,"data":[{"id":"c"}],"total_count":3,"next_token":null,"has_more":false}`,
	}
	srv := serve(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, pages[r.URL.Query().Get("next_token")])
	})
	c := newClient(t, srv.URL, nil)
	var parts []json.RawMessage
	err := c.Pages(context.Background(), Request{Method: http.MethodGet, Path: "/users", Query: url.Values{"email": {"a@b.c"}}}, func(r *Response) error {
		parts = append(parts, r.Data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if srv.count() != 3 {
		t.Fatalf("%d requests, want 3", srv.count())
	}
	for i, want := range []string{"", "t1", "t2"} {
		q := srv.request(i).URL.Query()
		if q.Get("next_token") != want || q.Get("email") != "a@b.c" {
			t.Errorf("request %d query = %v, want next_token=%q and the filter kept", i, q, want)
		}
	}
	joined, err := JoinArrays(parts)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"id":"a","n":1.50},{"id":"b", "x":{"z":1,"a":2}},{"id":"c"}]`; string(joined) != want {
		t.Errorf("JoinArrays = %s, want %s", joined, want)
	}
}

func TestPagesStopsOnRepeatedToken(t *testing.T) {
	srv := serve(t, answer(200, `{"success":true,"data":[],"next_token":"same","has_more":true}`))
	err := newClient(t, srv.URL, nil).Pages(context.Background(), Request{Method: http.MethodGet, Path: "/users"}, func(*Response) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "repeated next_token") {
		t.Fatalf("err = %v", err)
	}
	if srv.count() != 2 {
		t.Errorf("%d requests, want 2", srv.count())
	}
}

func TestPagesStopsWhenHasMoreFalse(t *testing.T) {
	srv := serve(t, answer(200, `{"success":true,"data":[1],"next_token":"stale","has_more":false}`))
	calls := 0
	err := newClient(t, srv.URL, nil).Pages(context.Background(), Request{Method: http.MethodGet, Path: "/users"}, func(*Response) error { calls++; return nil })
	if err != nil || calls != 1 || srv.count() != 1 {
		t.Errorf("err=%v calls=%d requests=%d, want one page", err, calls, srv.count())
	}
}

func TestJoinArrays(t *testing.T) {
	got, err := JoinArrays([]json.RawMessage{nil, json.RawMessage(`[]`), json.RawMessage(`[1e2, "x"]`)})
	if err != nil || string(got) != `[1e2,"x"]` {
		t.Errorf("JoinArrays = %s, %v", got, err)
	}
	if _, err := JoinArrays([]json.RawMessage{json.RawMessage(`{"a":1}`)}); err == nil {
		t.Error("JoinArrays accepted an object")
	}
}

// fakePacer records what the pacing transport asks of the budget.
type fakePacer struct {
	mu         sync.Mutex
	acquired   []string
	done       []bool
	blocked    []time.Duration
	acquireErr error
	blockedErr error
}

type fakeTicket struct{ p *fakePacer }

func (t fakeTicket) Done(reached bool) {
	t.p.mu.Lock()
	defer t.p.mu.Unlock()
	t.p.done = append(t.p.done, reached)
}

func (p *fakePacer) Acquire(_ context.Context, path string) (Ticket, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.acquired = append(p.acquired, path)
	if p.acquireErr != nil {
		return nil, p.acquireErr
	}
	return fakeTicket{p}, nil
}

func (p *fakePacer) Blocked(d time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.blocked = append(p.blocked, d)
	return p.blockedErr
}

func (p *fakePacer) snapshot() ([]string, []bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.acquired...), append([]bool(nil), p.done...)
}

func TestPacing429ThenResend(t *testing.T) {
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		t.Run(method, func(t *testing.T) {
			srv := serve(t, func(n int, w http.ResponseWriter, r *http.Request) {
				if n == 1 {
					w.Header().Set("Retry-After", "7")
					w.WriteHeader(429)
					io.WriteString(w, `{"success":false,"message":"Rate limit exceeded"}`)
					return
				}
				io.WriteString(w, `{"success":true,"data":{"id":"u1"}}`)
			})
			p := &fakePacer{}
			c := newClient(t, srv.URL+"/", func(o *Options) { o.Pacer = p })
			resp, err := c.Do(context.Background(), Request{Method: method, Path: "/users/u%2F1", Body: []byte(`{"a":1}`)})
			if err != nil {
				t.Fatal(err)
			}
			if string(resp.Data) != `{"id":"u1"}` || srv.count() != 2 {
				t.Errorf("data %s after %d requests", resp.Data, srv.count())
			}
			if string(srv.body[1]) != `{"a":1}` {
				t.Errorf("resent body = %q", srv.body[1])
			}
			acq, done := p.snapshot()
			if len(acq) != 2 || acq[0] != "/users/u/1" {
				t.Errorf("Acquire paths = %q, want 2 x the path relative to /api/v2", acq)
			}
			if len(done) != 2 || !done[0] || !done[1] {
				t.Errorf("Done = %v, want [true true] (a 429 is charged; the answer is settled)", done)
			}
			if len(p.blocked) != 1 || p.blocked[0] != 7*time.Second {
				t.Errorf("Blocked = %v, want [7s]", p.blocked)
			}
		})
	}
}

func TestPacing429GivesUpAfterResends(t *testing.T) {
	srv := serve(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(429)
	})
	p := &fakePacer{}
	_, err := newClient(t, srv.URL, func(o *Options) { o.Pacer = p }).Do(context.Background(), Request{Method: http.MethodGet, Path: "/users"})
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 429 || ae.RetryAfter != time.Second {
		t.Fatalf("err = %v, want APIError 429 with Retry-After 1s", err)
	}
	// Every 429 is a block the budget must know of, the last one too:
	// other processes wait it out though this request gives up.
	if srv.count() != maxBlockedResends+1 || len(p.blocked) != maxBlockedResends+1 {
		t.Errorf("%d requests, %d blocks; want %d of each", srv.count(), len(p.blocked), maxBlockedResends+1)
	}
}

func TestPacerErrorsEndTheRequest(t *testing.T) {
	errBudget := errors.New("budget says no")
	t.Run("acquire", func(t *testing.T) {
		srv := serve(t, answer(200, `{}`))
		p := &fakePacer{acquireErr: errBudget}
		_, err := newClient(t, srv.URL, func(o *Options) { o.Pacer = p }).Do(context.Background(), Request{Method: http.MethodGet, Path: "/users"})
		if err != errBudget {
			t.Fatalf("err = %v, want the pacer's own error", err)
		}
		if srv.count() != 0 {
			t.Errorf("%d requests sent despite the refusal", srv.count())
		}
		if acq, _ := p.snapshot(); len(acq) != 1 {
			t.Errorf("Acquire retried %d times after refusing", len(acq))
		}
	})
	t.Run("blocked", func(t *testing.T) {
		srv := serve(t, answer(429, `{}`))
		p := &fakePacer{blockedErr: errBudget}
		_, err := newClient(t, srv.URL, func(o *Options) { o.Pacer = p }).Do(context.Background(), Request{Method: http.MethodPost, Path: "/users"})
		if err != errBudget {
			t.Fatalf("err = %v, want the pacer's own error", err)
		}
		if srv.count() != 1 {
			t.Errorf("%d requests, want 1", srv.count())
		}
	})
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 11, 7, 12, 0, 0, 0, time.UTC)
	tests := map[string]time.Duration{
		"":                              0,
		"12":                            12 * time.Second,
		" 3 ":                           3 * time.Second,
		"-5":                            0,
		"soon":                          0,
		"Fri, 07 Nov 2025 12:00:30 GMT": 30 * time.Second,
		"Fri, 07 Nov 2025 11:59:00 GMT": 0,
		"9223372036854775807":           maxRetryAfter,
		"99999999999999999999999":       maxRetryAfter,
		"Fri, 07 Nov 9999 12:00:00 GMT": maxRetryAfter,
	}
	for in, want := range tests {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestDebugNeverShowsToken(t *testing.T) {
	srv := serve(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			w.WriteHeader(503)
			return
		}
		io.WriteString(w, `{"success":true,"data":{}}`)
	})
	var buf bytes.Buffer
	c := newClient(t, srv.URL, func(o *Options) { o.Debug = &buf })
	if _, err := c.Do(context.Background(), Request{Method: http.MethodGet, Path: "/users", Query: url.Values{"limit": {"1"}}}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "tok_secret_1234567890") || strings.Contains(out, "7890") {
		t.Fatalf("debug output shows the token:\n%s", out)
	}
	for _, want := range []string{"> GET " + srv.URL + "/api/v2/users?limit=1", "Bearer [redacted]", "503 Service Unavailable", "200 OK in ", "* retry 1 of GET"} {
		if !strings.Contains(out, want) {
			t.Errorf("debug output lacks %q:\n%s", want, out)
		}
	}
	if got := srv.request(0).Header.Get("Authorization"); got != "Bearer tok_secret_1234567890" {
		t.Errorf("Authorization = %q", got)
	}
}

func TestHeaders(t *testing.T) {
	srv := serve(t, answer(200, `{"success":true,"data":{}}`))
	c := newClient(t, srv.URL, nil)
	if _, err := c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/users", Body: map[string]string{"email": "a@b.c"}}); err != nil {
		t.Fatal(err)
	}
	h := srv.request(0).Header
	if h.Get("User-Agent") != "orgctl/test" || h.Get("Accept") != "application/json" || h.Get("Content-Type") != "application/json" {
		t.Errorf("headers = %v", h)
	}
	if string(srv.body[0]) != `{"email":"a@b.c"}` {
		t.Errorf("body = %q", srv.body[0])
	}
	if srv.request(0).URL.Path != "/api/v2/users" {
		t.Errorf("path = %q", srv.request(0).URL.Path)
	}
}

func TestValidateBaseURL(t *testing.T) {
	tests := []struct {
		in       string
		insecure bool
		ok       bool
		path     string
	}{
		{"https://acme.example.com", false, true, ""},
		{"https://acme.example.com/", false, true, ""},
		{"https://acme.example.com/api/v2", false, true, ""},
		{"https://acme.example.com/retool/", false, true, "/retool"},
		{"http://127.0.0.1:8080", false, true, ""},
		{"http://localhost:3000", false, true, ""},
		{"http://[::1]:3000", false, true, ""},
		{"http://sandbox.localhost", false, true, ""},
		{"http://acme.example.com", false, false, ""},
		{"http://acme.example.com", true, true, ""},
		{"http://10.0.0.5", false, false, ""},
		{"", false, false, ""},
		{"acme.example.com", false, false, ""},
		{"ftp://acme.example.com", false, false, ""},
		{"https://", false, false, ""},
		{"::not a url", false, false, ""},
		{"https://user:pw@acme.example.com", false, false, ""},
		{"https://acme.example.com?x=1", false, false, ""},
	}
	for _, tc := range tests {
		u, err := ValidateBaseURL(tc.in, tc.insecure)
		if (err == nil) != tc.ok {
			t.Errorf("ValidateBaseURL(%q, %v) err = %v, want ok=%v", tc.in, tc.insecure, err, tc.ok)
			continue
		}
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Errorf("%q: err is %T, want *ConfigError", tc.in, err)
			}
			continue
		}
		if u.Path != tc.path {
			t.Errorf("ValidateBaseURL(%q).Path = %q, want %q", tc.in, u.Path, tc.path)
		}
	}
	_, err := ValidateBaseURL("http://acme.example.com", false)
	if err == nil || !strings.Contains(err.Error(), "--insecure-http") {
		t.Errorf("plain http refusal does not say how to override: %v", err)
	}
}

func TestNewRefusesBadBaseURL(t *testing.T) {
	if _, err := New(Options{BaseURL: "http://acme.example.com"}); err == nil {
		t.Error("New accepted plain http to a remote host")
	}
}

func TestURL(t *testing.T) {
	c := newClient(t, "https://acme.example.com/retool", nil)
	got := c.URL(Request{Path: Path("users", "a/b"), Query: url.Values{"limit": {"5"}}})
	if got != "https://acme.example.com/retool/api/v2/users/a%2Fb?limit=5" {
		t.Errorf("URL = %q", got)
	}
	if c.BaseURL() != "https://acme.example.com/retool/api/v2" {
		t.Errorf("BaseURL = %q", c.BaseURL())
	}
}

// A path that does not parse is refused before sending, never sent to the
// API root; URL shows it as given.
func TestInvalidPathIsNeverSentElsewhere(t *testing.T) {
	srv := serve(t, answer(200, `{"success":true,"data":[]}`))
	c := newClient(t, srv.URL, nil)
	for _, p := range []string{"/users/user_1%zz", "/folders%", "/users?x=1", "/users#top"} {
		_, err := c.Do(context.Background(), Request{Method: http.MethodDelete, Path: p})
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%s: err = %T %v, want a ConfigError", p, err, err)
		}
		if got := c.URL(Request{Path: p}); got != srv.URL+"/api/v2"+p {
			t.Errorf("URL(%s) = %s", p, got)
		}
	}
	if srv.count() != 0 {
		t.Errorf("%d requests sent", srv.count())
	}
}

// A large success is rendered while it arrives; when it is cut mid-body the
// GET is sent again and rendered anew, and only the whole answer's rendering
// comes back.
func TestLargeAnswerCutWhileRenderingIsRenderedAgain(t *testing.T) {
	var body strings.Builder
	body.WriteString(`{"success":true,"data":[`)
	n := 0
	for ; body.Len() < 2*checkWhileArriving; n++ {
		if n > 0 {
			body.WriteByte(',')
		}
		fmt.Fprintf(&body, `{"id":"user_%06d","email":"u%d@example.com"}`, n, n)
	}
	body.WriteString(`],"total_count":1}`)
	whole := body.String()
	srv := serve(t, func(k int, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(whole)))
		if k == 1 {
			w.WriteHeader(200)
			io.WriteString(w, whole[:len(whole)/2])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
		io.WriteString(w, whole)
	})
	var calls atomic.Int32
	render := func(r *jsonscan.Reader) any {
		calls.Add(1)
		count := 0
		if err := r.Array(func() error { count++; _, err := r.Skip(); return err }); err != nil {
			return nil
		}
		return count
	}
	resp, err := newClient(t, srv.URL, nil).Do(context.Background(), Request{Method: http.MethodGet, Path: "/users", Render: render})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := resp.Rendered()
	if !ok || got != n || calls.Load() != 2 || srv.count() != 2 {
		t.Fatalf("rendered %v (%v) after %d renderings and %d requests; want %d elements, rendered twice", got, ok, calls.Load(), srv.count(), n)
	}
	if !strings.HasPrefix(whole, `{"success":true,"data":`+string(resp.Data)) {
		t.Fatalf("data is not the answer's: %.80s", resp.Data)
	}
}
