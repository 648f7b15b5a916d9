package doctor

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestClockCheck(t *testing.T) {
	server := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	date := server.Format(http.TimeFormat)
	for _, tc := range []struct {
		local  time.Time
		status string
		says   string
	}{
		{server.Add(900 * time.Millisecond), checkOK, "within 30s"},
		{server.Add(-29 * time.Second), checkOK, "within 30s"},
		{server.Add(95 * time.Second), checkFail, "1m35s ahead of the server's"},
		{server.Add(-2 * time.Hour), checkFail, "2h0m0s behind the server's"},
	} {
		c := clockCheck(date, tc.local)
		if c.Status != tc.status || !strings.Contains(c.Detail, tc.says) {
			t.Errorf("local %s: %s %q, want %s saying %q", tc.local.Sub(server), c.Status, c.Detail, tc.status, tc.says)
		}
		if c.Status == checkFail && !strings.Contains(c.Hint, "sync the clock") {
			t.Errorf("skew without a hint: %+v", c)
		}
	}
	if c := clockCheck("", server); c.Status != checkSkip {
		t.Errorf("no Date: %+v", c)
	}
	if c := clockCheck("yesterday", server); c.Status != checkSkip {
		t.Errorf("bad Date: %+v", c)
	}
}
