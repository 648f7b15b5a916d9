package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// sleeps records the waits a client makes instead of making them.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return ctx.Err()
}

func (s *sleeps) list() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

func busy(retryAfter string, okFrom int) func(int, http.ResponseWriter, *http.Request) {
	return func(n int, w http.ResponseWriter, r *http.Request) {
		if okFrom > 0 && n >= okFrom {
			answer(200, `{"success":true,"data":{"ok":true}}`)(n, w, r)
			return
		}
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		answer(503, `{"success":false,"message":"busy"}`)(n, w, r)
	}
}

func waitingClient(t *testing.T, base string, maxWait time.Duration, notified *[]Wait) (*Client, *sleeps) {
	t.Helper()
	c := newClient(t, base, func(o *Options) {
		o.MaxWait = maxWait
		o.RetryWaitMin, o.RetryWaitMax = 250*time.Millisecond, 4*time.Second
		o.Notify = func(w Wait) { *notified = append(*notified, w) }
	})
	s := &sleeps{}
	c.retry.sleepUntil = s.sleep
	return c, s
}

// A Retry-After longer than the wait allowed ends the request at once.
func TestRetryAfterPastMaxWaitGivesUp(t *testing.T) {
	srv := serve(t, busy("10", 0))
	var told []Wait
	c, s := waitingClient(t, srv.URL, 2*time.Second, &told)
	_, err := get(t, c, "/users")
	var we *WaitError
	if !errors.As(err, &we) || we.RetryAfter != 10*time.Second || we.MaxWait != 2*time.Second || we.StatusCode != 503 {
		t.Fatalf("err = %T %v, want a WaitError naming Retry-After 10s and the 2s limit", err, err)
	}
	if !strings.Contains(err.Error(), "Retry-After") || !strings.Contains(err.Error(), "10s") {
		t.Errorf("message %q", err)
	}
	if srv.count() != 1 || len(s.list()) != 0 || len(told) != 0 {
		t.Errorf("%d requests, waits %v, notices %v; want 1 request and no wait", srv.count(), s.list(), told)
	}
}

// Retry-After waits add up against the limit; each over a second is announced.
func TestRetryAfterWaitsAddUpAndAreAnnounced(t *testing.T) {
	srv := serve(t, busy("2", 0))
	var told []Wait
	c, s := waitingClient(t, srv.URL, 5*time.Second, &told)
	c.retry.retryMax = 5
	_, err := get(t, c, "/users")
	var we *WaitError
	if !errors.As(err, &we) || we.Waited != 4*time.Second {
		t.Fatalf("err = %v, want a WaitError after waiting 4s", err)
	}
	if got := s.list(); len(got) != 2 || got[0] != 2*time.Second || got[1] != 2*time.Second {
		t.Errorf("waits %v, want [2s 2s]", got)
	}
	if srv.count() != 3 {
		t.Errorf("%d requests, want 3", srv.count())
	}
	if len(told) != 2 || told[0].RetryAfter != 2*time.Second || told[0].StatusCode != 503 || told[0].Attempt != 2 || told[0].Attempts != 6 || told[0].Path != "/users" {
		t.Errorf("notices %+v", told)
	}
}

// The client's own backoff is cut to what the limit leaves: with no wait
// allowed, retries follow at once.
func TestBackoffFitsMaxWait(t *testing.T) {
	srv := serve(t, busy("", 0))
	var told []Wait
	c, s := waitingClient(t, srv.URL, 0, &told)
	_, err := get(t, c, "/users")
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 503 {
		t.Fatalf("err = %v, want the 503", err)
	}
	for _, d := range s.list() {
		if d != 0 {
			t.Errorf("waited %s with no wait allowed", d)
		}
	}
	if srv.count() != 3 || len(told) != 0 {
		t.Errorf("%d requests, notices %v", srv.count(), told)
	}
}

func TestRetryAfterWithinMaxWaitIsHonoured(t *testing.T) {
	srv := serve(t, busy("3", 2))
	var told []Wait
	c, s := waitingClient(t, srv.URL, time.Minute, &told)
	resp, err := get(t, c, "/users")
	if err != nil || string(resp.Data) != `{"ok":true}` {
		t.Fatalf("%v %v", resp, err)
	}
	if got := s.list(); len(got) != 1 || got[0] != 3*time.Second {
		t.Errorf("waits %v, want [3s]", got)
	}
	if len(told) != 1 || told[0].Duration != 3*time.Second {
		t.Errorf("notices %+v", told)
	}
}

// A write that never left, interrupted while waiting to be resent, is not
// an unknown outcome.
func TestInterruptedWaitBeforeResendIsNotUnknown(t *testing.T) {
	c := newClient(t, closedPort(t), func(o *Options) { o.MaxWait = time.Minute })
	ctx, cancel := context.WithCancel(context.Background())
	c.retry.sleepUntil = func(context.Context, time.Duration) error { cancel(); return context.Canceled }
	_, err := c.Do(ctx, Request{Method: http.MethodPost, Path: "/users", Body: []byte(`{}`)})
	var ou *OutcomeUnknownError
	if err == nil || errors.As(err, &ou) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %T %v, want a cancelled request that is not an unknown outcome", err, err)
	}
}
