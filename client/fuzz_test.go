package client

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// FuzzParseRetryAfter reads any Retry-After header: the wait is never
// negative nor past the cap, and whole seconds mean exactly that.
func FuzzParseRetryAfter(f *testing.F) {
	for _, seed := range []string{"", "0", "12", " 3 ", "-5", "soon", "1e3", "+7", "0x10",
		"Fri, 07 Nov 2025 12:00:30 GMT", "Fri, 07 Nov 2025 11:59:00 GMT", "Friday, 07-Nov-25 12:00:30 GMT",
		"Fri Nov  7 12:00:30 2025", "9223372036854775807", "99999999999999999999999", "Fri, 07 Nov 9999 12:00:00 GMT"} {
		f.Add(seed)
	}
	now := time.Date(2025, 11, 7, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		d := parseRetryAfter(v, now)
		if d < 0 || d > maxRetryAfter {
			t.Fatalf("parseRetryAfter(%q) = %s, outside [0, %s]", v, d, maxRetryAfter)
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && n >= 0 && n < int64(maxRetryAfter/time.Second) {
			if d != time.Duration(n)*time.Second {
				t.Fatalf("parseRetryAfter(%q) = %s, want %ds", v, d, n)
			}
		}
	})
}

// FuzzDecodeError reads any failed answer: the message printed is never
// empty, holds nothing a terminal would act on (escape sequences, bidi
// overrides), stays short, and Retry-After stays within its bounds.
func FuzzDecodeError(f *testing.F) {
	for _, seed := range []struct {
		status int
		body   string
		retry  string
	}{
		{404, `{"success":false,"message":"no such user"}`, ""},
		{409, `{"success":false,"message":"a user with this email exists"}`, ""},
		{429, `{"success":false,"message":"rate limited"}`, "30"},
		{503, `<html><body>down</body></html>`, "Fri, 07 Nov 2025 12:00:30 GMT"},
		{500, `internal error`, ""},
		{400, `{"success":false,"message":"\u001b]0;pwned\u0007\u001b[2J gone"}`, ""},
		{400, "plain \x1b[31mred\x1b[0m text\r\nsecond line", ""},
		{403, `{"success":false,"message":"Users \u003e Write \u202egnissim"}`, ""},
		{502, `{"message":null}`, "-1"},
		{500, `{"success":false,"message":""}`, ""},
		{418, "", ""},
		{0, "\xff\xfe", "x"},
	} {
		f.Add(seed.status, []byte(seed.body), seed.retry)
	}
	f.Fuzz(func(t *testing.T, status int, body []byte, retry string) {
		resp := &http.Response{StatusCode: status, Header: http.Header{}}
		resp.Header.Set("Retry-After", retry)
		e := decodeError(Request{Method: "POST", Path: "/users"}, resp, body)
		if e.RetryAfter < 0 || e.RetryAfter > maxRetryAfter {
			t.Fatalf("RetryAfter %s", e.RetryAfter)
		}
		if e.StatusCode != status {
			t.Fatalf("status %d, want %d", e.StatusCode, status)
		}
		if utf8.RuneCountInString(e.Message) > maxMessageRunes+1 {
			t.Fatalf("message of %d runes kept", utf8.RuneCountInString(e.Message))
		}
		checkPrintable(t, e.Message)
		if msg := e.Error(); msg == "" {
			t.Fatal("empty error text")
		}
	})
}

// checkPrintable fails on text a terminal would interpret rather than show.
func checkPrintable(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("message %q is not valid UTF-8", s)
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
			t.Fatalf("message %q holds %U", s, r)
		}
	}
}
