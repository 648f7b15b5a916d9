package sandboxtest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Replay serves one recorded answer (code and body) to any request, on
// loopback for the test, and returns its URL.
func Replay(t testing.TB, code int, body string) string {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(code)
		io.WriteString(w, body)
	}))
	t.Cleanup(hs.Close)
	return hs.URL
}
