package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-cleanhttp"

	"github.com/orgctl/orgctl/output/hugepage"
	"github.com/orgctl/orgctl/output/jsonscan"
	"github.com/orgctl/orgctl/output/redact"
)

// Pacer is the point budget as the client sees it.
type Pacer interface {
	// Acquire reserves the cost of one request to path (relative to
	// /api/v2), waiting for room. Its error ends the command.
	Acquire(ctx context.Context, path string) (Ticket, error)
	// Blocked records a 429 so that every process waits out the block.
	Blocked(retryAfter time.Duration) error
}

// Ticket is one reservation.
type Ticket interface {
	// Done settles it: reached=false refunds a request that provably never
	// reached the server; otherwise the charge is dated now.
	Done(reached bool)
}

// PacerError carries a Pacer's refusal through the HTTP stack untouched.
type PacerError struct{ Err error }

func (e *PacerError) Error() string { return e.Err.Error() }
func (e *PacerError) Unwrap() error { return e.Err }

// notSentError marks a failure before the request's headers were written:
// retrying it is safe for any method, and its points are refunded.
type notSentError struct{ err error }

func (e *notSentError) Error() string { return e.err.Error() }
func (e *notSentError) Unwrap() error { return e.err }

func defaultTransport(idle int) http.RoundTripper {
	t := cleanhttp.DefaultPooledTransport()
	t.ResponseHeaderTimeout = 0 // the per-attempt timeout covers it
	if idle > 0 {
		t.MaxIdleConnsPerHost = idle
	}
	return t
}

// changesNothing reports a request whose outcome is never in doubt: a
// read (GET, HEAD, OPTIONS), or a POST that only reads (POST
// /permissions/listObjects needs a read scope). Interrupted or unanswered,
// it is simply not done. A PUT or DELETE is safe to send again, but
// unanswered it may have been applied: its outcome is unknown.
func changesNothing(r Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	return strings.HasSuffix(r.Scope, "> Read") || strings.HasSuffix(r.Scope, ":read")
}

func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
		return true
	}
	return false
}

// checkRetry retries idempotent requests on transport errors and 5xx, and
// any request that provably never left this machine. POST and PATCH are
// never resent once they may have reached the server.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	method, _ := ctx.Value(methodKey{}).(string)
	if err != nil {
		var pe *PacerError
		if errors.As(err, &pe) {
			return false, err
		}
		var ns *notSentError
		if errors.As(err, &ns) {
			return true, nil
		}
		return idempotent(method), nil
	}
	if resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented {
		return idempotent(method), nil
	}
	return false, nil
}

// jitter is "full jitter" exponential backoff: it spreads retries of
// parallel CI jobs instead of synchronising them. A server's Retry-After
// is applied on top of it by retryPolicy.
func jitter(min, max time.Duration, attempt int) time.Duration {
	ceil := min << uint(attempt)
	if ceil > max || ceil <= 0 {
		ceil = max
	}
	return min/2 + time.Duration(rand.Int64N(int64(ceil)))
}

// parseRetryAfter reads seconds or an HTTP date; 0 when absent or invalid,
// at most maxRetryAfter.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if s < 0 {
			return 0
		}
		return min(time.Duration(min(s, int64(maxRetryAfter/time.Second)))*time.Second, maxRetryAfter)
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return min(t.Sub(now), maxRetryAfter)
	}
	return 0
}

// paceTransport charges every attempt to the budget before it is sent. A
// 429 is charged, told to the pacer as a block (every process then waits
// it out), and handed back to the retry loop, which resends it
// (retryPolicy.check): a 429 was not processed, so that is safe for any
// method, and the next attempt's Acquire waits for the block's end.
type paceTransport struct {
	next  http.RoundTripper
	pacer Pacer
	base  string // URL path prefix up to /api/v2
}

// maxBlockedResends is how often one request is resent after a 429.
const maxBlockedResends = 5

func (t *paceTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ticket, err := t.pacer.Acquire(req.Context(), strings.TrimPrefix(req.URL.Path, t.base))
	if err != nil {
		return nil, &PacerError{err}
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		var ns *notSentError
		ticket.Done(!errors.As(err, &ns))
		return nil, err
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		ticket.Done(true)
		if err := t.pacer.Blocked(parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())); err != nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			return nil, &PacerError{err}
		}
		return resp, nil
	}
	// The charge is dated when the response has been read in full.
	resp.Body = &settleOnClose{ReadCloser: resp.Body, ticket: ticket}
	return resp, nil
}

type settleOnClose struct {
	io.ReadCloser
	ticket Ticket
	done   atomic.Bool
}

func (s *settleOnClose) Close() error {
	err := s.ReadCloser.Close()
	if s.done.CompareAndSwap(false, true) {
		s.ticket.Done(true)
	}
	return err
}

// sendTransport marks failures before the request's headers were written
// (refused connection, DNS): safe to resend for any method, and refundable.
// It sits on the network transport only: other transports fire no traces,
// and an error from them must be taken as "may have arrived".
type sendTransport struct{ next http.RoundTripper }

func (t *sendTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var wrote atomic.Bool
	traced := req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		WroteHeaders: func() { wrote.Store(true) },
	}))
	resp, err := t.next.RoundTrip(traced)
	if err != nil && !wrote.Load() {
		return nil, &notSentError{err}
	}
	return resp, err
}

// bufferTransport reads each answer in full inside the retry loop, so a
// connection cut mid-body is a transport error that GET/PUT/DELETE retry.
// The answer is read once into a buffer sized from Content-Length, and that
// buffer is the only copy: Client.Do decodes the envelope in place. A large
// success is checked (and its data rendered, see Request.Render) while it
// arrives, so that the work is done when its last byte is in.
type bufferTransport struct {
	next http.RoundTripper
	// render, when set, reads a large success's data as it arrives
	// (Request.Render).
	render func(*jsonscan.Reader) any
}

func (t *bufferTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	var b []byte
	var env *Response
	if resp.StatusCode/100 == 2 && resp.ContentLength <= maxPresize && (resp.ContentLength >= checkWhileArriving || resp.ContentLength < 0) {
		b, env, err = readEnvelope(resp.Body, resp.ContentLength, t.render)
	} else {
		b, err = readAnswer(resp.Body, resp.ContentLength)
	}
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading the answer (HTTP %d): %w", resp.StatusCode, err)
	}
	resp.Body = &bufferedBody{Reader: bytes.NewReader(b), b: b, envelope: env}
	resp.ContentLength = int64(len(b))
	return resp, nil
}

// bufferedBody is an answer already read; Client.Do takes its bytes as they
// are instead of copying them out, and its envelope when it was decoded on
// the way in.
type bufferedBody struct {
	*bytes.Reader
	b        []byte
	envelope *Response
}

func (*bufferedBody) Close() error { return nil }

// answerBytes returns the whole body: the buffer itself when bufferTransport
// read it.
func answerBytes(body io.Reader) ([]byte, error) {
	if bb, ok := body.(*bufferedBody); ok {
		return bb.b, nil
	}
	return io.ReadAll(body)
}

// envelopeOf is a 2xx answer's envelope: the one decoded as it arrived, or
// decoded now.
func envelopeOf(body io.Reader, b []byte) (*Response, error) {
	if bb, ok := body.(*bufferedBody); ok && bb.envelope != nil {
		return bb.envelope, nil
	}
	return decodeEnvelope(b)
}

// maxPresize bounds how far a Content-Length is trusted before the bytes
// arrive; a larger answer still arrives, growing the buffer as it comes.
const maxPresize = 256 << 20

// checkWhileArriving is the answer size from which checking it while it
// arrives pays for the goroutine and the hand-offs.
const checkWhileArriving = 256 << 10

// answerBuffer is an empty buffer for an answer of size bytes, plus the one
// spare byte that lets the final read report the end without growing it.
func answerBuffer(size int64) []byte {
	if size+1 >= hugepage.Worth {
		return hugepage.Alloc(int(size + 1))
	}
	return make([]byte, 0, max(size+1, 512))
}

// readEnvelope reads an answer into one buffer, as readAnswer does, while
// this goroutine decodes its envelope from the bytes already in, rendering
// its data with render when set. It returns the envelope when the whole
// answer decodes, nil when it does not (Client.Do then says why, as it does
// for answers decoded after the fact). A known size (at most maxPresize)
// sizes the buffer; an unknown one (-1, a chunked or compressed answer)
// is read up to checkWhileArriving first, and only a longer answer is
// decoded as it arrives, in a buffer that grows by copying: what the
// decoder has seen stays valid, since a grown buffer holds the same bytes
// at the same offsets and the old one stays as long as anything points
// into it.
func readEnvelope(body io.Reader, size int64, render func(*jsonscan.Reader) any) ([]byte, *Response, error) {
	var buf []byte
	if size >= 0 {
		buf = answerBuffer(size)
	} else {
		buf = make([]byte, 0, checkWhileArriving)
		for len(buf) < cap(buf) {
			m, err := body.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+m]
			if err == io.EOF {
				return buf, nil, nil // small: decoded after the fact
			}
			if err != nil {
				return buf, nil, err
			}
		}
	}
	var in atomic.Pointer[[]byte] // the bytes in so far
	in.Store(&buf)
	arrived := make(chan struct{}, 1) // more bytes are in; never blocks the reader
	finished := make(chan struct{})
	var readErr error
	go func() {
		defer close(finished)
		b := buf
		for {
			if len(b) == cap(b) {
				if size >= 0 {
					readErr = errors.New("the answer is longer than its Content-Length")
					return
				}
				b = grown(b)
			}
			m, err := body.Read(b[len(b):cap(b)])
			b = b[:len(b)+m]
			now := b
			in.Store(&now)
			select {
			case arrived <- struct{}{}:
			default:
			}
			if err == io.EOF {
				return
			}
			if err != nil {
				readErr = err
				return
			}
		}
	}()
	r := &jsonscan.Reader{Data: buf[:0]}
	r.Arriving = func() bool {
		select {
		case <-finished:
			return false
		default:
			return true
		}
	}
	r.More = func() bool {
		for {
			if b := *in.Load(); len(b) > len(r.Data) {
				r.Data = b
				return true
			}
			select {
			case <-arrived:
			case <-finished:
				if len(*in.Load()) == len(r.Data) {
					return false
				}
			}
		}
	}
	env, err := scanEnvelope(r, render)
	<-finished
	b := *in.Load()
	if readErr != nil || err != nil {
		return b, nil, readErr
	}
	return b, env, nil
}

// grown is b copied into a buffer with room for more. A small answer's
// buffer grows as append grows it. From checkWhileArriving on, the first
// growth reserves 64 MiB, of which only what is written takes memory, and
// later ones quadruple, so that few bytes of a large answer are ever copied
// and few old buffers linger.
func grown(b []byte) []byte {
	if cap(b) < checkWhileArriving {
		return append(b, 0)[:len(b)]
	}
	return append(hugepage.Alloc(max(firstGrowth, 4*cap(b))), b...)
}

var firstGrowth = 64 << 20

// readAnswer reads r to the end into one buffer. With a known size it is
// allocated once; otherwise it grows as grown says.
func readAnswer(r io.Reader, size int64) ([]byte, error) {
	if size < 0 || size > maxPresize {
		size = 0
	}
	b := answerBuffer(size)
	for {
		if len(b) == cap(b) {
			b = grown(b)
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// timeoutTransport bounds one attempt, from sending to the end of the body,
// without counting time spent waiting for budget above it.
type timeoutTransport struct {
	next    http.RoundTripper
	timeout time.Duration
}

func (t *timeoutTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %s: %w", t.timeout, err)
		}
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// debugTransport logs method, URL, status and timing. It never prints
// headers or bodies: the Authorization header and minted tokens stay out.
type debugTransport struct {
	next http.RoundTripper
	w    io.Writer
}

func (t *debugTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	auth := "none"
	if req.Header.Get("Authorization") != "" {
		auth = "Bearer [redacted]"
	}
	fmt.Fprintf(t.w, "> %s %s (Authorization: %s)\n", req.Method, redact.URL(req.URL.String()), auth)
	resp, err := t.next.RoundTrip(req)
	d := time.Since(start).Round(time.Millisecond)
	if err != nil {
		fmt.Fprintf(t.w, "< %s %s failed after %s: %v\n", req.Method, redact.URL(req.URL.String()), d, err)
		return nil, err
	}
	fmt.Fprintf(t.w, "< %s %s %s in %s\n", req.Method, redact.URL(req.URL.String()), resp.Status, d)
	return resp, nil
}
