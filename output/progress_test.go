package output

import (
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"
)

// The line fits the terminal: parts give way in order (the rate, the long
// wait sentence, the points, the bar narrowing then going, the ETA), and
// the last column stays free.
func TestProgressFitsTheWidth(t *testing.T) {
	at := time.Date(2026, 11, 26, 7, 14, 10, 0, time.Local)
	p := &Progress{}
	p.start = time.Now().Add(-10 * time.Second)
	stats := []ProgressStats{
		{Done: 29, Total: 40, Points: 58, PointsTotal: 80, ETA: time.Minute, ETAKnown: true, ResumeAt: at},
		{Done: 29000, Total: 40000, Failed: 120, Unknown: 3, Points: 58000, PointsTotal: 80000, ETA: 3 * time.Hour, ETAKnown: true, ResumeAt: at},
		{Done: 1, Total: 4},
	}
	for _, s := range stats {
		for _, w := range []int{200, 120, 100, 80, 60, 40, 30, 20} {
			line := p.fitBar(s, w)
			if got := runewidth.StringWidth(line); got > w-1 {
				t.Errorf("width %d: %d columns: %q", w, got, line)
			}
			if !strings.Contains(line, "/") {
				t.Errorf("width %d: the count is gone: %q", w, line)
			}
		}
	}
	s := stats[0]
	full := p.fitBar(s, 200)
	if !strings.HasPrefix(full, "[#################-------] 29/40 rows  2.9/s  58/80 points  ETA 1m00s  waiting for the budget, resuming at 07:14:10") {
		t.Errorf("wide: %q", full)
	}
	// at 80 columns (the line took 102): the rate goes first, then the
	// wait is said short
	if got, want := p.fitBar(s, 80), "[#############------] 29/40 rows  58/80 points  ETA 1m00s  paced until 07:14:10"; got != want {
		t.Errorf("80:\n got %q\nwant %q", got, want)
	}
	if got := p.fitBar(s, 80); strings.Contains(got, "/s") || !strings.Contains(got, "paced until 07:14:10") || !strings.Contains(got, "ETA 1m00s") {
		t.Errorf("80: %q", got)
	}
	if got := p.fitBar(s, 40); !strings.Contains(got, "paced until 07:14:10") {
		t.Errorf("40 keeps the count and until when: %q", got)
	}
}

// Across a budget wait the rows stand still: the ETA is the budget's
// estimate of the points left, not the pace seen across the pause (which
// climbed from 6m02s to 23m03s while the wait ended in a minute).
func TestProgressETAIgnoresThePaceAcrossAWait(t *testing.T) {
	p := &Progress{}
	p.start = time.Now().Add(-5 * time.Minute) // 10 rows done early, then a long wait
	at := time.Now().Add(time.Minute)
	s := ProgressStats{Done: 10, Total: 40, ETA: 90 * time.Second, ETAKnown: true, ResumeAt: at}
	if eta, _ := p.eta(s); eta != 90*time.Second {
		t.Errorf("waiting: ETA %s, want the budget's 1m30s", Duration(eta))
	}
	s.ResumeAt = time.Time{}
	if eta, _ := p.eta(s); eta != 90*time.Second {
		t.Errorf("just resumed: ETA %s, want the budget's 1m30s", Duration(eta))
	}
	// a resumed job whose earlier run did most rows: those are no pace either
	q := &Progress{}
	q.start = time.Now().Add(-3 * time.Second)
	if eta, _ := q.eta(ProgressStats{Done: 30, Earlier: 29, Total: 40, ETA: 20 * time.Second, ETAKnown: true}); eta < 20*time.Second || eta > 40*time.Second {
		t.Errorf("resumed: ETA %s, want about 30s (1 row in 3 s, 10 left)", Duration(eta))
	}
}

// Anything written to the terminal's streams while the bar is shown clears
// the bar first: no result lands on it ("…resuming at 06:52:01✓").
func TestOutputClearsTheBarFirst(t *testing.T) {
	var screen syncBuffer
	bar := &barSlot{}
	io := &IO{Out: &terminalWriter{w: &screen, bar: bar}, Err: &terminalWriter{w: &screen, bar: bar}, errRaw: &screen,
		OutTTY: true, ErrTTY: true, bar: bar, Width: 80}
	p := &Progress{IO: io, Stats: func() ProgressStats { return ProgressStats{Done: 1, Total: 4} }}
	p.Start()
	screen.waitFor(func(s string) bool { return strings.Contains(s, "rows") })
	if !io.ProgressShown() {
		t.Error("ProgressShown is false while the bar is drawn")
	}
	io.Out.Write([]byte("✓ Created group support\n"))
	io.Success("Added %s", "ana")
	p.Stop()
	if io.ProgressShown() {
		t.Error("ProgressShown after Stop")
	}
	s := screen.String()
	for _, line := range []string{"✓ Created group support\n", "✓ Added ana\n"} {
		i := strings.Index(s, line)
		if i < 0 {
			t.Fatalf("%q not written: %q", line, s)
		}
		// what stands before it on its line is nothing, or a cleared bar
		before := s[strings.LastIndex(s[:i], "\n")+1 : i]
		if before != "" && !strings.HasSuffix(before, "\r\x1b[K") {
			t.Errorf("%q written on the bar: %q", line, s)
		}
	}
	last := s[strings.LastIndex(s, "\n")+1:]
	if strings.Contains(last[strings.LastIndex(last, "\r\x1b[K")+1:], "rows") {
		t.Errorf("Stop left the bar: %q", s)
	}
}

// Before anything was measured the line shows no rate and no ETA: the
// budget's 0 says only that it holds nothing back. A total that will
// grow says so, and shows no ETA for part of a job.
func TestProgressShowsNoGuessBeforeTheFirstMeasurement(t *testing.T) {
	p := &Progress{Stats: func() ProgressStats { return ProgressStats{} }}
	p.start = time.Now()
	bar := p.fitBar(ProgressStats{Done: 0, Total: 25, ETA: 0, ETAKnown: true}, 0)
	if strings.Contains(bar, "ETA") || strings.Contains(bar, "/s") {
		t.Errorf("nothing measured yet: %q", bar)
	}
	if line := p.line(ProgressStats{Done: 0, Total: 25, ETAKnown: true}); strings.Contains(line, "left") || strings.Contains(line, "/s") {
		t.Errorf("plain line: %q", line)
	}
	// the budget needs time: that is measured, and shown
	if bar := p.fitBar(ProgressStats{Done: 0, Total: 25, ETA: 30 * time.Second, ETAKnown: true}, 0); !strings.Contains(bar, "ETA 30s") {
		t.Errorf("the budget's wait: %q", bar)
	}
	bar = p.fitBar(ProgressStats{Done: 3, Total: 9, More: true, ETA: 30 * time.Second, ETAKnown: true}, 0)
	if !strings.Contains(bar, " 3/9+ reads") && !strings.Contains(bar, " 3/9+ rows") || strings.Contains(bar, "ETA") {
		t.Errorf("a total still growing: %q", bar)
	}
}
