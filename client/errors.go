package client

import (
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// maxMessageRunes bounds a server's message as printed: a hostile or
// broken server could otherwise fill the terminal.
const maxMessageRunes = 500

// serverText makes a server's words safe to print on a terminal: control
// and invisible characters (escape sequences, bidi overrides) are shown as
// \uXXXX instead of acting, line breaks become spaces, invalid UTF-8 becomes
// U+FFFD, and the text is cut at maxMessageRunes.
func serverText(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
			clean = false
			break
		}
	}
	if clean && utf8.RuneCountInString(s) <= maxMessageRunes {
		return s
	}
	var b strings.Builder
	n := 0 // runes written: the cut is of what is shown, escapes included
	for _, r := range s {
		shown := string(r) // an invalid byte arrives here as U+FFFD
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			shown = " "
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029':
			shown = fmt.Sprintf("\\u%04x", r)
		}
		if n+utf8.RuneCountInString(shown) > maxMessageRunes {
			b.WriteString("…")
			break
		}
		n += utf8.RuneCountInString(shown)
		b.WriteString(shown)
	}
	return b.String()
}

// APIError is a non-2xx answer from the API.
type APIError struct {
	StatusCode int
	// Message is the server's own words from {"success":false,"message":...}.
	Message string
	Method  string
	Path    string
	// Scope is the scope the operation needs, as the docs spell it
	// ("Users > Write"); empty when unknown.
	Scope string
	// RetryAfter is the server's Retry-After, when it sent one.
	RetryAfter time.Duration
	// Hint tells the user what to do next; commands may add to it.
	Hint string
}

func (e *APIError) Error() string {
	var b strings.Builder
	switch e.StatusCode {
	case http.StatusUnauthorized:
		b.WriteString("token rejected (HTTP 401)")
	case http.StatusForbidden:
		if e.Scope != "" {
			fmt.Fprintf(&b, "missing scope: this command needs a token with the %q scope (HTTP 403)", e.Scope)
		} else {
			b.WriteString("forbidden (HTTP 403)")
		}
	case http.StatusNotFound:
		fmt.Fprintf(&b, "not found: %s %s (HTTP 404)", e.Method, e.Path)
	case http.StatusTooManyRequests:
		b.WriteString("rate limited by the server (HTTP 429)")
	default:
		fmt.Fprintf(&b, "%s %s failed (HTTP %d)", e.Method, e.Path, e.StatusCode)
	}
	if e.Message != "" {
		fmt.Fprintf(&b, ": %s", e.Message)
	}
	if e.Hint != "" {
		b.WriteString("\n")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// OutcomeUnknownError reports a non-idempotent request (POST, PATCH) that
// may have reached the server but whose result could not be confirmed. It is
// never retried automatically: retrying could create or change twice.
type OutcomeUnknownError struct {
	Method, Path string
	Cause        error
}

func (e *OutcomeUnknownError) Error() string {
	return fmt.Sprintf("outcome unknown: %s %s may have been applied, but no answer confirmed it (%v).\n"+
		"Check the current state (for example with the matching list or get command) before running it again.",
		e.Method, e.Path, e.Cause)
}

func (e *OutcomeUnknownError) Unwrap() error { return e.Cause }

// TransportError is a request that failed without an API answer and is safe
// to report as a plain failure: it never reached the server, or it is
// idempotent and retries were exhausted.
type TransportError struct {
	Method, Path string
	Cause        error
}

func (e *TransportError) Error() string {
	return fmt.Sprintf("%s %s: %v", e.Method, e.Path, e.Cause)
}

func (e *TransportError) Unwrap() error { return e.Cause }

// ConfigError is a client setting that makes any request pointless (a bad
// base URL, plain http to a remote host). It is caught before sending.
type ConfigError struct{ Msg string }

func (e *ConfigError) Error() string { return e.Msg }
