package client

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/orgctl/orgctl/output/redact"
)

// maxRedirects bounds a chain of same-origin redirects of one GET.
const maxRedirects = 5

// RedirectError is a redirect the client did not follow: to another origin
// (the token would go with it), from https to http (it would go in clear
// text), of a request other than GET (net/http would replay a POST as a GET
// and report the GET's answer), or one too many.
type RedirectError struct {
	Method, Path string
	StatusCode   int
	// Location is where the server pointed, resolved and without user info;
	// empty when the answer named no valid place.
	Location string
	// Why names the rule that stopped it.
	Why string
}

func (e *RedirectError) Error() string { return e.Method + " " + e.Path + ": " + e.answer() }

// answer says what came back and why it was not followed.
func (e *RedirectError) answer() string {
	to := e.Location
	if to == "" {
		to = "no valid Location"
	}
	return fmt.Sprintf("the server answered HTTP %d, a redirect to %s; not followed: %s", e.StatusCode, to, e.Why)
}

// redirectCause is a RedirectError inside an OutcomeUnknownError, which
// already names the method and path.
type redirectCause struct{ e *RedirectError }

func (c redirectCause) Error() string { return c.e.answer() }
func (c redirectCause) Unwrap() error { return c.e }

// redirectRule says why a redirect from one request to the next must not be
// followed, or "" when it may be.
func redirectRule(method string, from, to *url.URL, hops int) string {
	switch {
	case from.Scheme == "https" && to.Scheme != "https":
		return "it leads from https to " + to.Scheme + ", where the token would travel unencrypted"
	case !sameOrigin(from, to):
		return "it leads to another origin (scheme, host or port), and the token is only sent to the configured one"
	case method != http.MethodGet && method != http.MethodHead:
		return "only reads are followed; the server may already have acted on the " + method
	case hops > maxRedirects:
		return fmt.Sprintf("more than %d redirects in a row", maxRedirects)
	}
	return ""
}

// checkRedirect is the http.Client's redirect policy: a redirect that must
// not be followed comes back as the 3xx answer itself, which Client.Do turns
// into a *RedirectError (or, for a write, an unknown outcome).
func checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0]
	if redirectRule(first.Method, via[len(via)-1].URL, req.URL, len(via)) != "" {
		return http.ErrUseLastResponse
	}
	return nil
}

// isRedirect reports whether an answer is one net/http would follow.
func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// redirectError describes a redirect answer that was not followed.
func redirectError(r Request, resp *http.Response, sent *url.URL) *RedirectError {
	e := &RedirectError{Method: r.Method, Path: r.Path, StatusCode: resp.StatusCode}
	from := sent
	if resp.Request != nil && resp.Request.URL != nil {
		from = resp.Request.URL
	}
	loc := resp.Header.Get("Location")
	to, err := from.Parse(loc)
	if loc == "" || err != nil {
		e.Why = "the answer names no valid place to go"
		return e
	}
	e.Location = redact.URL(to.String())
	hops := 1 // requests sent so far, as len(via) counts them in checkRedirect
	if resp.Request != nil {
		for p := resp.Request.Response; p != nil && p.Request != nil; p = p.Request.Response {
			hops++
		}
	}
	e.Why = redirectRule(r.Method, from, to, hops)
	if e.Why == "" {
		e.Why = "net/http did not follow it"
	}
	return e
}

// sameOrigin compares scheme, host and port, a missing port being the
// scheme's default.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}
