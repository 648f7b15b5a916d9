package client

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// Wait is a pause between two attempts of one request, told to
// Options.Notify before it starts when it is longer than a second.
type Wait struct {
	Method, Path string
	Duration     time.Duration
	// StatusCode is the answer that led to the retry; 0 after a failure
	// without an answer.
	StatusCode int
	// RetryAfter is what the server asked for (0: the client's own backoff).
	RetryAfter time.Duration
	// Attempt is the attempt the wait leads to (2 for the first retry), of Attempts.
	Attempt, Attempts int
}

// WaitError is a retry given up because the server asked for a longer wait
// (Retry-After) than the caller allows (Options.MaxWait).
type WaitError struct {
	Method, Path string
	StatusCode   int
	RetryAfter   time.Duration
	MaxWait      time.Duration
	// Waited is how long earlier retries of the request already waited.
	Waited  time.Duration
	RetryAt time.Time
}

func (e *WaitError) Error() string {
	within := fmt.Sprintf("the %s allowed", e.MaxWait)
	if e.Waited > 0 {
		within = fmt.Sprintf("what is left of the %s allowed after waiting %s", e.MaxWait, e.Waited.Round(time.Millisecond))
	}
	return fmt.Sprintf("%s %s: the server answered HTTP %d and asked to retry after %s (Retry-After), longer than %s; gave up; retry after %s",
		e.Method, e.Path, e.StatusCode, e.RetryAfter, within, e.RetryAt.Format("15:04:05"))
}

// notifyAfter is the shortest wait worth telling the user about.
const notifyAfter = time.Second

// maxRetryAfter bounds a parsed Retry-After so that arithmetic on it cannot
// overflow; a wait this long is refused by any sensible MaxWait anyway.
const maxRetryAfter = 1000 * time.Hour

// retryPolicy decides whether to retry and makes the wait itself, bounded
// by the request's remaining MaxWait and announced: retryablehttp's Backoff
// gets neither the request's context nor a way to give up.
type retryPolicy struct {
	// paced: a pacer has recorded each 429 as a block, which the next
	// attempt waits out; without one a 429 is the answer.
	paced      bool
	retryMax   int
	waitMin    time.Duration
	waitMax    time.Duration
	maxWait    time.Duration
	notify     func(Wait)
	sleepUntil func(ctx context.Context, d time.Duration) error
}

// attempts is one Do call's retry bookkeeping, carried in its context.
type attempts struct {
	method, path string
	n            int           // retries decided so far after failures and 5xx
	blocked      int           // resends after a 429
	waited       time.Duration // time spent waiting between attempts
}

type attemptsKey struct{}

// check is the one retry loop's rule, for retryablehttp's CheckRetry:
// a 429 the pacer has recorded is resent, up to maxBlockedResends times,
// with no wait of its own (the budget holds the attempt until the block
// ends); failures and 5xx are retried by checkRetry's rule after a
// backoff, up to retryMax times.
func (p *retryPolicy) check(ctx context.Context, resp *http.Response, err error) (bool, error) {
	st, _ := ctx.Value(attemptsKey{}).(*attempts)
	if err == nil && p.paced && resp.StatusCode == http.StatusTooManyRequests && ctx.Err() == nil {
		if st == nil || st.blocked >= maxBlockedResends {
			return false, nil
		}
		st.blocked++
		return true, nil
	}
	retry, cerr := checkRetry(ctx, resp, err)
	if !retry || cerr != nil {
		return retry, cerr
	}
	if st == nil {
		return true, nil
	}
	st.n++
	if st.n > p.retryMax {
		return false, nil // retryablehttp stops here too: no wait for nothing
	}
	d := jitter(p.waitMin, p.waitMax, st.n-1)
	var asked time.Duration
	status := 0
	if resp != nil {
		status = resp.StatusCode
		if status == http.StatusServiceUnavailable {
			asked = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		}
	}
	left := max(0, p.maxWait-st.waited)
	if asked > left {
		return false, &WaitError{Method: st.method, Path: st.path, StatusCode: status, RetryAfter: asked,
			MaxWait: p.maxWait, Waited: st.waited, RetryAt: time.Now().Add(asked)}
	}
	d = min(max(d, asked), left)
	if p.notify != nil && d > notifyAfter {
		p.notify(Wait{Method: st.method, Path: st.path, Duration: d, StatusCode: status, RetryAfter: asked,
			Attempt: st.n + 1, Attempts: p.retryMax + 1})
	}
	if err := p.sleepUntil(ctx, d); err != nil {
		// Stopped before the next attempt: that one was never sent.
		return false, &notSentError{err}
	}
	st.waited += d
	return true, nil
}

// noBackoff is retryablehttp's Backoff: retryPolicy.check has already waited.
func noBackoff(_, _ time.Duration, _ int, _ *http.Response) time.Duration { return 0 }

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
