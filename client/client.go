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
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/orgctl/orgctl/client/request"
	"github.com/orgctl/orgctl/output/jsonscan"
	"github.com/orgctl/orgctl/output/redact"
)

// Options configures a Client.
type Options struct {
	// BaseURL is the instance URL; "/api/v2" is appended.
	BaseURL string
	Token   string
	// UserAgent is sent as is, e.g. "orgctl/1.2.3".
	UserAgent string
	// Timeout bounds each attempt (not the time spent waiting for budget).
	Timeout time.Duration
	// Debug, when set, receives one line per request and response with the
	// Authorization header redacted.
	Debug io.Writer
	// Pacer, when set, is asked before every attempt and told about 429s.
	Pacer Pacer
	// Transport replaces the network (the in-process sandbox uses this).
	Transport http.RoundTripper
	// InsecureHTTP allows http:// to non-loopback hosts.
	InsecureHTTP bool
	// RetryMax is how often an idempotent request is retried (default 3).
	RetryMax int
	// RetryWaitMin and RetryWaitMax bound the jittered backoff.
	RetryWaitMin, RetryWaitMax time.Duration
	// IdleConns is how many connections to the API are kept alive for
	// reuse; 0 keeps one per CPU plus one. Concurrent senders need one each.
	IdleConns int
	// MaxWait bounds the time one request spends waiting between attempts:
	// the backoff is cut to fit, and a server's Retry-After that does not
	// fit ends the request with *WaitError. 0 allows no wait at all.
	MaxWait time.Duration
	// Notify, when set, is told of each wait between attempts longer than
	// a second, before it starts.
	Notify func(Wait)
}

// Client sends requests to one organization's (or space's) API.
type Client struct {
	base  *url.URL // ends in /api/v2, no trailing slash
	token string
	ua    string
	// sender is the transport chain below the retry loop: pacing, debug
	// log, attempt timeout, the network.
	sender http.RoundTripper
	debug  io.Writer
	rc     *retryablehttp.Client // the retry loop for answers read after the fact
	retry  *retryPolicy
}

// Request is one API call (declared in client/request, which knows no network).
type Request = request.Request

// Response is a decoded envelope. Data is kept exactly as received.
type Response struct {
	StatusCode int
	Header     http.Header
	Data       json.RawMessage
	// TotalCount is -1 when the API did not send one.
	TotalCount int64
	NextToken  string
	HasMore    bool
	// compact is Data as decodeEnvelope found it: checked whole, with no
	// whitespace between tokens.
	compact json.RawMessage
	// rendered is what Request.Render made of the value renderedFrom.
	rendered     any
	renderedFrom json.RawMessage
}

// Rendered returns what Request.Render made of Data, and true, when Data
// is still the value it rendered: not when the envelope's data turned out
// to be another value (a repeated key, a body that is no envelope after
// all), or Data was replaced since (joined pages, a follow-up's answer).
func (r *Response) Rendered() (any, bool) {
	if r.rendered == nil || !sameBytes(r.renderedFrom, r.Data) {
		return nil, false
	}
	return r.rendered, true
}

// sameBytes reports whether a and b are the same bytes in memory, not
// merely equal ones.
func sameBytes(a, b []byte) bool {
	return len(a) > 0 && len(a) == len(b) && &a[0] == &b[0]
}

// CompactData returns Data and true when Data is still the answer as
// checked whole and it has no whitespace between tokens: valid compact JSON
// as it stands, which a printer need not read again. A Data replaced since
// (joined pages, a follow-up's answer) does not count.
func (r *Response) CompactData() (json.RawMessage, bool) {
	return r.Data, sameBytes(r.compact, r.Data)
}

// ValidateBaseURL checks a user-supplied instance URL: https, or http only
// to loopback hosts unless insecure is set.
func ValidateBaseURL(raw string, insecure bool) (*url.URL, error) {
	if raw == "" {
		return nil, &ConfigError{"no base URL: run `orgctl auth login` (it asks for one), or set ORGCTL_BASE_URL"}
	}
	u, err := url.Parse(strings.TrimRight(raw, "/"))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, &ConfigError{fmt.Sprintf("invalid base URL %q: expected https://HOST (e.g. https://acme.example.com)", redact.URL(raw))}
	}
	if u.User != nil {
		// Never echoed: the user info is most likely a password.
		return nil, &ConfigError{fmt.Sprintf("invalid base URL %s: it carries user info (USER:PASSWORD@), which is not allowed; remove it and log in with a token", redact.URL(raw))}
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, &ConfigError{fmt.Sprintf("invalid base URL %q: no query or fragment allowed", raw)}
	}
	if u.Scheme == "http" && !insecure && !IsLoopback(u.Hostname()) {
		return nil, &ConfigError{fmt.Sprintf("refusing plain http:// to %s: the token would cross the network unencrypted; use https:// or pass --insecure-http", u.Host)}
	}
	u.Path = strings.TrimSuffix(u.Path, "/api/v2")
	return u, nil
}

// IsLoopback reports whether host names this machine.
func IsLoopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// New builds a client. It does no I/O.
func New(o Options) (*Client, error) {
	u, err := ValidateBaseURL(o.BaseURL, o.InsecureHTTP)
	if err != nil {
		return nil, err
	}
	u.Path += "/api/v2"
	var rt http.RoundTripper = o.Transport
	if rt == nil {
		rt = &sendTransport{next: defaultTransport(o.IdleConns)}
	}
	if o.Timeout > 0 {
		rt = &timeoutTransport{next: rt, timeout: o.Timeout}
	}
	if o.Debug != nil {
		rt = &debugTransport{next: rt, w: o.Debug}
	}
	if o.Pacer != nil {
		rt = &paceTransport{next: rt, pacer: o.Pacer, base: u.Path}
	}
	retryMax := o.RetryMax
	if retryMax == 0 {
		retryMax = 3
	}
	wmin, wmax := o.RetryWaitMin, o.RetryWaitMax
	if wmin == 0 {
		wmin = 250 * time.Millisecond
	}
	if wmax == 0 {
		wmax = 4 * time.Second
	}
	c := &Client{base: u, token: o.Token, ua: o.UserAgent, sender: rt, debug: o.Debug,
		retry: &retryPolicy{paced: o.Pacer != nil, retryMax: retryMax, waitMin: wmin, waitMax: wmax, maxWait: o.MaxWait, notify: o.Notify, sleepUntil: sleepCtx}}
	c.rc = c.retrying(nil)
	return c, nil
}

// retrying is the retry loop around the transports for requests whose
// answer render (nil for most) reads while it arrives. Each attempt's
// answer is read whole inside the loop (bufferTransport), so an answer cut
// short is retried like any transport failure.
func (c *Client) retrying(render func(*jsonscan.Reader) any) *retryablehttp.Client {
	p := c.retry
	rc := &retryablehttp.Client{
		HTTPClient:   &http.Client{Transport: &bufferTransport{next: c.sender, render: render}, CheckRedirect: checkRedirect},
		Logger:       nil, // its default logger would print every request to stderr
		RetryWaitMin: p.waitMin,
		RetryWaitMax: p.waitMax,
		RetryMax:     p.retryMax + maxBlockedResends, // check holds each kind of retry to its own limit
		CheckRetry:   p.check,
		Backoff:      noBackoff,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
	if w := c.debug; w != nil {
		rc.RequestLogHook = func(_ retryablehttp.Logger, r *http.Request, attempt int) {
			if attempt > 0 {
				fmt.Fprintf(w, "* retry %d of %s %s\n", attempt, r.Method, redact.URL(r.URL.String()))
			}
		}
	}
	return rc
}

// BaseURL is the API root, ending in /api/v2.
func (c *Client) BaseURL() string { return c.base.String() }

// URL is the full URL a request is sent to (for --dry-run). A path that is
// not a valid escaped path is shown as given; Do refuses to send it.
func (c *Client) URL(r Request) string {
	u, err := c.requestURL(r)
	if err != nil {
		s := c.base.String() + r.Path
		if len(r.Query) > 0 {
			s += "?" + r.Query.Encode()
		}
		return s
	}
	return u.String()
}

// requestURL joins the base URL and a request's escaped path and query.
func (c *Client) requestURL(r Request) (*url.URL, error) {
	u := *c.base
	u.RawPath = ""
	full, err := url.Parse(c.base.EscapedPath() + r.Path)
	if err != nil {
		return nil, err
	}
	if full.RawQuery != "" || full.Fragment != "" || full.Host != "" || full.Scheme != "" {
		return nil, fmt.Errorf("a path must not carry a query, fragment or host")
	}
	u.Path, u.RawPath = full.Path, full.RawPath
	if len(r.Query) > 0 {
		u.RawQuery = r.Query.Encode()
	}
	return &u, nil
}

type methodKey struct{}

// Do sends one request and decodes the envelope. Non-2xx answers become
// *APIError; failures without an answer become *TransportError or, for a
// POST/PATCH that may have arrived, *OutcomeUnknownError.
func (c *Client) Do(ctx context.Context, r Request) (*Response, error) {
	body, err := encodeBody(r.Body)
	if err != nil {
		return nil, err
	}
	ctx = context.WithValue(ctx, methodKey{}, r.Method)
	ctx = context.WithValue(ctx, attemptsKey{}, &attempts{method: r.Method, path: r.Path})
	var raw any
	if body != nil {
		raw = body
	}
	target, err := c.requestURL(r)
	if err != nil {
		// Never fall back to another endpoint (such as the API root).
		return nil, &ConfigError{fmt.Sprintf("invalid request path %q: %v", r.Path, err)}
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.Method, target.String(), raw)
	if err != nil {
		return nil, &ConfigError{fmt.Sprintf("cannot build request: %v", err)}
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		ct := r.ContentType
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	if c.ua != "" {
		req.Header.Set("User-Agent", c.ua)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	rc := c.rc
	if r.Render != nil {
		rc = c.retrying(r.Render)
	}
	resp, err := rc.Do(req)
	if err != nil {
		return nil, c.transportFailure(r, err)
	}
	defer resp.Body.Close()
	b, readErr := answerBytes(resp.Body)
	if readErr != nil {
		return nil, c.transportFailure(r, readErr)
	}
	if isRedirect(resp.StatusCode) {
		re := redirectError(r, resp, req.URL)
		if !changesNothing(r) {
			return nil, &OutcomeUnknownError{Method: r.Method, Path: r.Path, Cause: redirectCause{re}}
		}
		return nil, re
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 && r.Raw {
		return &Response{StatusCode: resp.StatusCode, Header: resp.Header, Data: b, TotalCount: -1}, nil
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		out, err := envelopeOf(resp.Body, b)
		if err != nil {
			if !changesNothing(r) {
				// A success we cannot read may still be a success.
				return nil, &OutcomeUnknownError{Method: r.Method, Path: r.Path, Cause: fmt.Errorf("the HTTP %d answer could not be read: %w", resp.StatusCode, err)}
			}
			return nil, fmt.Errorf("%s %s: %w", r.Method, r.Path, err)
		}
		out.StatusCode, out.Header = resp.StatusCode, resp.Header
		return out, nil
	}
	if !changesNothing(r) && outcomeOpen(resp.StatusCode) {
		return nil, &OutcomeUnknownError{Method: r.Method, Path: r.Path, Cause: openAnswer(r, resp, b)}
	}
	return nil, decodeError(r, resp, b)
}

// outcomeOpen reports whether an answer other than 2xx leaves open whether
// a write was applied: anything but a client error (4xx) or a server that
// says it did not take the request on (501 Not Implemented, 503 Service
// Unavailable). A 500 may come after the change was stored; a gateway's
// 502 or 504 says the origin did not answer in time, not that it did nothing.
func outcomeOpen(status int) bool {
	switch {
	case status >= 400 && status < 500, status == http.StatusNotImplemented, status == http.StatusServiceUnavailable:
		return false
	}
	return true
}

// openAnswer says what came back instead of a confirmation.
func openAnswer(r Request, resp *http.Response, b []byte) error {
	switch resp.StatusCode {
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		return fmt.Errorf("HTTP %d from a gateway", resp.StatusCode)
	}
	if msg := decodeError(r, resp, b).Message; msg != "" && msg != http.StatusText(resp.StatusCode) {
		return fmt.Errorf("HTTP %d: %s", resp.StatusCode, msg)
	}
	return fmt.Errorf("HTTP %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
}

func (c *Client) transportFailure(r Request, err error) error {
	var pe *PacerError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var we *WaitError
	if errors.As(err, &we) {
		return we
	}
	var ns *notSentError
	if errors.As(err, &ns) || changesNothing(r) {
		return &TransportError{Method: r.Method, Path: r.Path, Cause: unwrapURLError(err)}
	}
	return &OutcomeUnknownError{Method: r.Method, Path: r.Path, Cause: unwrapURLError(err)}
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func encodeBody(b any) ([]byte, error) {
	switch t := b.(type) {
	case nil:
		return nil, nil
	case []byte:
		return t, nil
	case json.RawMessage:
		return t, nil
	default:
		out, err := json.Marshal(t)
		if err != nil {
			return nil, fmt.Errorf("cannot encode request body: %w", err)
		}
		return out, nil
	}
}

func decodeError(r Request, resp *http.Response, b []byte) *APIError {
	e := &APIError{StatusCode: resp.StatusCode, Method: r.Method, Path: r.Path, Scope: r.Scope}
	var env envelope
	if json.Unmarshal(b, &env) == nil && env.Message != nil {
		e.Message = serverText(*env.Message)
	} else if s := strings.TrimSpace(string(b)); s != "" && len(s) < 300 && !strings.HasPrefix(s, "<") {
		e.Message = serverText(s)
	} else {
		e.Message = http.StatusText(resp.StatusCode)
	}
	e.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	return e
}

// Pages sends r and, while the API reports more, follows next_token,
// calling fn for every page. It is for --all; a plain list sends no limit.
func (c *Client) Pages(ctx context.Context, r Request, fn func(*Response) error) error {
	q := url.Values{}
	for k, v := range r.Query {
		q[k] = v
	}
	seen := map[string]bool{}
	for {
		r.Query = q
		resp, err := c.Do(ctx, r)
		if err != nil {
			return err
		}
		if err := fn(resp); err != nil {
			return err
		}
		if resp.NextToken == "" || !resp.HasMore {
			return nil
		}
		if seen[resp.NextToken] {
			return fmt.Errorf("%s %s: the API repeated next_token %q; stopping to avoid a loop", r.Method, r.Path, resp.NextToken)
		}
		seen[resp.NextToken] = true
		q.Set("next_token", resp.NextToken)
	}
}

var errNotList = errors.New("not a list")

// JoinArrays concatenates JSON arrays without re-encoding their elements, so
// a multi-page list prints byte for byte what the API sent.
func JoinArrays(parts []json.RawMessage) (json.RawMessage, error) {
	size := 2
	for _, p := range parts {
		size += len(p)
	}
	out := make([]byte, 1, size)
	out[0] = '['
	n := 0
	for _, p := range parts {
		p = bytes.TrimSpace(p)
		if len(p) == 0 || bytes.Equal(p, []byte("null")) {
			continue
		}
		r := &jsonscan.Reader{Data: p}
		err := errNotList
		if p[0] == '[' {
			err = r.Array(func() error {
				elem, err := r.Skip()
				if n > 0 {
					out = append(out, ',')
				}
				out = append(out, elem...)
				n++
				return err
			})
		}
		if err == nil {
			err = r.End()
		}
		if err != nil {
			return nil, fmt.Errorf("expected a list from the API, got %s", describeJSON(p))
		}
	}
	return append(out, ']'), nil
}

// describeJSON names what kind of JSON text starts p, for errors.
func describeJSON(p []byte) string {
	switch p[0] {
	case '{':
		return "an object"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return "a number"
	}
	return "something that is not a JSON list"
}
