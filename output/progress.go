package output

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// ProgressStats is where a long job stands.
type ProgressStats struct {
	Done, Total int
	Failed      int
	Unknown     int
	// Earlier rows were finished by an earlier run: they count as done but
	// not toward the rate.
	Earlier int
	// Points and PointsTotal are the budget points spent and to spend in
	// all (0: not shown).
	Points, PointsTotal int
	// ETA is the time left as the budget sees it; ETAKnown false shows
	// none. A server slower than the budget makes the ETA the observed
	// pace's instead.
	ETA      time.Duration
	ETAKnown bool
	// ResumeAt, when set, is when the budget lets the next request go:
	// the job is waiting for it.
	ResumeAt time.Time
}

// Progress shows a long job's progress on stderr: on a terminal a bar
// redrawn in place a few times a second; elsewhere (a pipe, CI logs) one
// plain line every Every, which keeps logs short and still shows life.
type Progress struct {
	W     io.Writer
	TTY   bool
	Every time.Duration // plain lines; 0 means 10 s
	// Noun names what is counted ("rows").
	Noun  string
	Stats func() ProgressStats

	mu    sync.Mutex
	shown bool // a bar is on the screen's last line
	start time.Time
	stop  chan struct{}
	done  chan struct{}
}

// redraw is how often the terminal bar is drawn.
const redraw = 200 * time.Millisecond

// Start begins drawing.
func (p *Progress) Start() {
	p.start = time.Now()
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	every := p.Every
	if every <= 0 {
		every = 10 * time.Second
	}
	if p.TTY {
		every = redraw
	}
	go func() {
		defer close(p.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.draw()
			}
		}
	}()
}

// Stop ends drawing and clears the bar.
func (p *Progress) Stop() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	<-p.done
	p.stop = nil
	p.mu.Lock()
	p.clear()
	p.mu.Unlock()
}

// Pause clears the bar while fn writes to the terminal, then redraws it,
// so lines printed during a job do not land on the bar.
func (p *Progress) Pause(fn func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	wasShown := p.shown
	p.clear()
	fn()
	if wasShown {
		p.drawLocked()
	}
}

func (p *Progress) clear() {
	if p.shown {
		fmt.Fprint(p.W, "\r\x1b[K")
		p.shown = false
	}
}

func (p *Progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drawLocked()
}

func (p *Progress) drawLocked() {
	s := p.Stats()
	if p.TTY {
		fmt.Fprint(p.W, "\r\x1b[K"+p.bar(s))
		p.shown = true
		return
	}
	fmt.Fprintln(p.W, "orgctl: "+p.line(s))
}

func (p *Progress) noun() string {
	if p.Noun == "" {
		return "rows"
	}
	return p.Noun
}

// rate is rows per second finished by this run.
func (p *Progress) rate(s ProgressStats) float64 {
	el := time.Since(p.start).Seconds()
	if el <= 0 {
		return 0
	}
	return float64(s.Done-s.Earlier) / el
}

func (p *Progress) bar(s ProgressStats) string {
	const width = 24
	fill := 0
	if s.Total > 0 {
		fill = min(width, s.Done*width/s.Total)
	}
	var b strings.Builder
	b.WriteString("[" + strings.Repeat("#", fill) + strings.Repeat("-", width-fill) + "] ")
	fmt.Fprintf(&b, "%d/%d %s", s.Done, s.Total, p.noun())
	if s.Failed > 0 {
		fmt.Fprintf(&b, "  %d failed", s.Failed)
	}
	if s.Unknown > 0 {
		fmt.Fprintf(&b, "  %d unknown", s.Unknown)
	}
	fmt.Fprintf(&b, "  %.1f/s", p.rate(s))
	if s.PointsTotal > 0 {
		fmt.Fprintf(&b, "  %d/%d points", s.Points, s.PointsTotal)
	}
	if eta, ok := p.eta(s); ok {
		fmt.Fprintf(&b, "  ETA %s", Duration(eta))
	}
	if !s.ResumeAt.IsZero() {
		fmt.Fprintf(&b, "  waiting for the budget, resuming at %s", s.ResumeAt.Format("15:04:05"))
	}
	return b.String()
}

// eta is the slower of the budget's ETA and the pace observed so far
// (once there is one to observe): the budget alone says 0s against a
// server that takes seconds to answer.
func (p *Progress) eta(s ProgressStats) (time.Duration, bool) {
	eta, ok := s.ETA, s.ETAKnown
	if r := p.rate(s); r > 0 && time.Since(p.start) >= 2*time.Second && s.Total > s.Done {
		observed := time.Duration(float64(s.Total-s.Done) / r * float64(time.Second))
		eta, ok = max(eta, observed), true
	}
	return eta, ok
}

func (p *Progress) line(s ProgressStats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%d %s done", s.Done, s.Total, p.noun())
	if s.Failed > 0 {
		fmt.Fprintf(&b, ", %d failed", s.Failed)
	}
	if s.Unknown > 0 {
		fmt.Fprintf(&b, ", %d unknown", s.Unknown)
	}
	fmt.Fprintf(&b, ", %.1f %s/s", p.rate(s), p.noun())
	if s.PointsTotal > 0 {
		fmt.Fprintf(&b, ", %d of %d points", s.Points, s.PointsTotal)
	}
	if eta, ok := p.eta(s); ok {
		fmt.Fprintf(&b, ", about %s left", Duration(eta))
	}
	if !s.ResumeAt.IsZero() {
		fmt.Fprintf(&b, "; waiting for the budget, resuming at %s", s.ResumeAt.Format("15:04:05"))
	}
	return b.String()
}

// Duration is a short human duration: 45s, 3m05s, 1h02m.
func Duration(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	}
	return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
}
