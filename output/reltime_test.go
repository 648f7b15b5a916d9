package output

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestRelative(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "now"},
		{400 * time.Millisecond, "now"},
		{23 * time.Second, "in 23s"},
		{23*time.Second + 600*time.Millisecond, "in 24s"},
		{-59 * time.Second, "59s ago"},
		{time.Minute, "in 1 minute"},
		{-(2*time.Minute + 59*time.Second), "2 minutes ago"},
		{-time.Hour, "1 hour ago"},
		{23 * time.Hour, "in 23 hours"},
		{-3 * 24 * time.Hour, "3 days ago"},
		{-29 * 24 * time.Hour, "29 days ago"},
		{-45 * 24 * time.Hour, "1 month ago"},
		{-364 * 24 * time.Hour, "12 months ago"},
		{-382 * 24 * time.Hour, "1 year ago"},
		{3 * 365 * 24 * time.Hour, "in 3 years"},
	} {
		if got := Relative(now.Add(tc.d), now); got != tc.want {
			t.Errorf("Relative(now%+v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestParseTimeTakesOnlyTimestamps(t *testing.T) {
	for s, ok := range map[string]bool{
		"2025-11-06T17:00:11.000Z":  true,
		"2025-11-06T17:00:11Z":      true,
		"2025-11-06T17:00:11+02:00": true,
		"2025-11-06":                false,
		"Europe/Berlin":             false,
		"example":                   false,
		"2025-11-06 17:00:11":       false,
		"":                          false,
	} {
		if _, got := ParseTime(s); got != ok {
			t.Errorf("ParseTime(%q) ok = %v, want %v", s, got, ok)
		}
	}
}

func TestTerminalTableShowsTimesRelative(t *testing.T) {
	now := time.Now()
	data := []byte(`[{"id":"a","created_at":"` + now.Add(-72*time.Hour-time.Minute).UTC().Format(time.RFC3339Nano) + `","tz":"UTC"},{"id":"b","created_at":"never"}]`)
	cols := []Column{{Header: "ID", Field: "id"}, {Header: "CREATED", Field: "created_at"}, {Header: "TZ", Field: "tz"}}
	var tty, piped bytes.Buffer
	(&Printer{IO: &IO{Out: &tty, OutTTY: true}}).Print(data, cols)
	(&Printer{IO: &IO{Out: &piped}}).Print(data, cols)
	if want := "ID  CREATED     TZ\na   3 days ago  UTC\nb   never\n"; tty.String() != want {
		t.Errorf("terminal:\n%q\nwant\n%q", tty.String(), want)
	}
	if want := now.Add(-72*time.Hour - time.Minute).UTC().Format(time.RFC3339Nano); !strings.Contains(piped.String(), "a\t"+want+"\tUTC\n") {
		t.Errorf("piped keeps RFC 3339:\n%s", piped.String())
	}
}
