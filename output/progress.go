package output

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-runewidth"
)

// ProgressStats is where a long job stands.
type ProgressStats struct {
	Done, Total int
	// More says the total counts only what is known so far: more will be
	// added (shown "9+"), and no ETA is shown for part of a job.
	More    bool
	Failed  int
	Unknown int
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

// The bar is drawn here, not with vbauerster/mpb v8 or schollz/progressbar
// v3: neither drops a line's parts in an order of importance to fit the
// width, both would draw beside, not through, the terminal filter that
// clears the bar before other output, and each would add its packages'
// init to every start (.ci/bench-startup.sh shows what a library linked
// into the floor costs).
//
// Progress shows a long job's progress on stderr: on a terminal a bar
// redrawn in place a few times a second, fitted to the terminal's width
// as it is at each redraw; elsewhere (a pipe, CI logs) one plain line
// every Every, which keeps logs short and still shows life.
//
// Given IO, the bar is drawn on IO's stderr beneath its terminal filter,
// and anything else written to IO's terminal streams while it is shown
// clears it first (the next redraw brings it back), so that no line lands
// on the bar, whoever prints it.
type Progress struct {
	IO    *IO
	W     io.Writer     // without IO: where to draw
	TTY   bool          // without IO: whether W is a terminal
	Every time.Duration // plain lines; 0 means 10 s
	// Width, when set, is the terminal's width now (without IO; 0: unknown).
	Width func() int
	// Noun names what is counted ("rows").
	Noun  string
	Stats func() ProgressStats

	mu     sync.Mutex
	shown  bool // a bar is on the screen's last line
	paused int  // Pause calls under way: no drawing
	start  time.Time
	stop   chan struct{}
	done   chan struct{}
	// pace is the rate seen since the last budget wait ended: rows done
	// across a wait say nothing of how fast the rest will go.
	paceFrom     time.Time
	paceFromDone int
	waited       bool
}

// total is the total as shown: "9+" while more will be added.
func (s ProgressStats) total() string {
	if s.More {
		return fmt.Sprintf("%d+", s.Total)
	}
	return fmt.Sprint(s.Total)
}

// redraw is how often the terminal bar is drawn.
const redraw = 200 * time.Millisecond

// Start begins drawing.
func (p *Progress) Start() {
	if p.IO != nil {
		p.W, p.TTY = p.IO.rawErr(), p.IO.ErrTTY
		if p.Width == nil {
			p.Width = p.IO.ErrWidth
		}
		p.IO.setProgress(p)
	}
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
	if p.IO != nil {
		p.IO.setProgress(nil)
	}
	p.mu.Lock()
	p.clear()
	p.mu.Unlock()
}

// Pause clears the bar while fn writes to the terminal, then redraws it,
// so lines printed during a job do not land on the bar.
func (p *Progress) Pause(fn func()) {
	p.mu.Lock()
	wasShown := p.shown
	p.clear()
	p.paused++
	p.mu.Unlock()
	fn()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused--
	if wasShown && p.paused == 0 {
		p.drawLocked()
	}
}

// clearForOutput takes the bar off the screen before other output; the
// next redraw brings it back.
func (p *Progress) clearForOutput() {
	p.mu.Lock()
	p.clear()
	p.mu.Unlock()
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
	if p.paused == 0 {
		p.drawLocked()
	}
}

func (p *Progress) drawLocked() {
	s := p.Stats()
	if p.TTY {
		width := 0
		if p.Width != nil {
			width = p.Width()
		}
		fmt.Fprint(p.W, "\r\x1b[K"+p.fitBar(s, width))
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

// barWidth is the bar's width when the terminal has room; it narrows
// to minBar before it goes.
const (
	barWidth = 24
	minBar   = 8
)

// A barLayout says which parts of the progress line are shown, from all
// of them to the fewest: each step gives up the least useful part left.
type barLayout struct {
	rate, points, eta, bar bool
	shortWait              bool
}

var barLayouts = []barLayout{
	{rate: true, points: true, eta: true, bar: true},
	{points: true, eta: true, bar: true},
	{points: true, eta: true, bar: true, shortWait: true},
	{eta: true, bar: true, shortWait: true},
	{eta: true, shortWait: true},
	{shortWait: true},
}

// fitBar is the terminal line for a terminal width columns wide (0:
// unknown, the whole line): the first layout that fits, the bar narrowed
// to fit before it is left out, and as a last resort the line cut. The
// last column stays free: a line that fills it wraps on some terminals.
func (p *Progress) fitBar(s ProgressStats, width int) string {
	// The figures once per redraw, for every layout tried: the ETA also
	// marks where the pace after a wait starts.
	t := barText{s: s, noun: p.noun(), rate: p.rate(s)}
	t.eta, t.etaKnown = p.eta(s)
	line := t.line
	if width <= 0 {
		return line(barLayouts[0], barWidth)
	}
	room := width - 1
	for _, l := range barLayouts {
		if !l.bar {
			if text := line(l, 0); runewidth.StringWidth(text) <= room {
				return text
			}
			continue
		}
		text := line(l, barWidth)
		over := runewidth.StringWidth(text) - room
		if over <= 0 {
			return text
		}
		if barWidth-over >= minBar {
			return line(l, barWidth-over)
		}
	}
	return runewidth.Truncate(line(barLayouts[len(barLayouts)-1], 0), room, "…")
}

// barText is what a redraw of the terminal line shows, whichever layout.
type barText struct {
	s        ProgressStats
	noun     string
	rate     float64
	eta      time.Duration
	etaKnown bool
}

// line is the terminal line in layout l with a bar width wide (0: none).
func (t barText) line(l barLayout, width int) string {
	s := t.s
	var b strings.Builder
	if l.bar && width > 0 {
		fill := 0
		if s.Total > 0 {
			fill = min(width, s.Done*width/s.Total)
		}
		b.WriteString("[" + strings.Repeat("#", fill) + strings.Repeat("-", width-fill) + "] ")
	}
	fmt.Fprintf(&b, "%d/%s %s", s.Done, s.total(), t.noun)
	if s.Failed > 0 {
		fmt.Fprintf(&b, "  %d failed", s.Failed)
	}
	if s.Unknown > 0 {
		fmt.Fprintf(&b, "  %d unknown", s.Unknown)
	}
	if l.rate && s.Done > s.Earlier { // no rate before this run has finished one
		fmt.Fprintf(&b, "  %.1f/s", t.rate)
	}
	if l.points && s.PointsTotal > 0 {
		fmt.Fprintf(&b, "  %d/%d points", s.Points, s.PointsTotal)
	}
	if t.etaKnown && l.eta {
		fmt.Fprintf(&b, "  ETA %s", Duration(t.eta))
	}
	if !s.ResumeAt.IsZero() {
		if l.shortWait {
			fmt.Fprintf(&b, "  paced until %s", s.ResumeAt.Format("15:04:05"))
		} else {
			fmt.Fprintf(&b, "  waiting for the budget, resuming at %s", s.ResumeAt.Format("15:04:05"))
		}
	}
	return b.String()
}

// eta is the budget's ETA, or the pace observed since the budget last held
// the job back when that is slower; none while the budget's is 0 and no
// pace has been measured (the budget alone says 0s against a
// server that takes seconds to answer). Across a wait the pace says
// nothing: rows stood still while the budget refilled, and the budget's
// own estimate of the points left is what holds.
func (p *Progress) eta(s ProgressStats) (time.Duration, bool) {
	if s.More {
		return 0, false
	}
	eta, ok := s.ETA, s.ETAKnown
	if !s.ResumeAt.IsZero() {
		p.waited, p.paceFrom = true, time.Time{}
		return eta, ok
	}
	from, base := p.paceFrom, p.paceFromDone
	if from.IsZero() {
		if p.waited { // the first look after a wait: the pace starts now
			p.paceFrom, p.paceFromDone = time.Now(), s.Done
			return eta, ok
		}
		from, base = p.start, s.Earlier
	}
	since := time.Since(from)
	if done := s.Done - base; done > 0 && since >= 2*time.Second && s.Total > s.Done {
		r := float64(done) / since.Seconds()
		observed := time.Duration(float64(s.Total-s.Done) / r * float64(time.Second))
		return max(eta, observed), true
	}
	// The budget's 0 says only that it holds nothing back: how long the
	// server takes is not measured yet, and "ETA 0s" would be a guess.
	if eta <= 0 && s.Total > s.Done {
		return 0, false
	}
	return eta, ok
}

func (p *Progress) line(s ProgressStats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%s %s done", s.Done, s.total(), p.noun())
	if s.Failed > 0 {
		fmt.Fprintf(&b, ", %d failed", s.Failed)
	}
	if s.Unknown > 0 {
		fmt.Fprintf(&b, ", %d unknown", s.Unknown)
	}
	if s.Done > s.Earlier {
		fmt.Fprintf(&b, ", %.1f %s/s", p.rate(s), p.noun())
	}
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
