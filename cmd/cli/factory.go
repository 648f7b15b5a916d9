package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/url"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// Factory hands commands their three dependencies, each made on first use:
// IO streams, the configuration, and the API client. A command that needs
// no token never reads the config or opens the keyring.
type Factory struct {
	IO *output.IO
	// VersionOf says orgctl's version when first asked (nil: the one
	// NewFactory was given): reading the build info costs every run
	// start-up time that only a request's User-Agent needs.
	VersionOf func() string
	version   string

	Sources *settings.Sources
	cfg     *settings.Config
	cfgErr  error
	conn    *Connection
	connOK  bool
	connEr  error

	// Tokens are where logins are kept; tests replace them.
	Tokens TokenStores
	// Transport replaces the network for every client (tests).
	Transport http.RoundTripper
	// OnChange is told the budget family of every successful mutation.
	OnChange func(family string)
	// NewProfile lets the selected profile be one the config file does not
	// define yet: the command creates it (auth login).
	NewProfile bool
	// Families lists the budget families orgctl's commands call, for the
	// config check of budget.costs keys.
	Families func() []string
	// ConfigWarn prints the config check's warnings (nil: on IO).
	ConfigWarn func(string)
	// Context is the run's: a signal cancels it, and Config stops
	// waiting for the config file then (nil: never).
	Context context.Context
	// Prompter asks the person at the terminal (nil: on IO; see Ask).
	Prompter Prompter

	published *publishedRun // the instance's API description, once asked for
}

// Version is orgctl's version, for the User-Agent and reports.
func (f *Factory) Version() string {
	if f.VersionOf != nil {
		return f.VersionOf()
	}
	return f.version
}

// NewFactory returns a factory on the process's real streams.
func NewFactory(version string) *Factory {
	return &Factory{
		IO:      output.System(),
		version: version,
		Sources: settings.NewSources(),
		Tokens:  TokenStores{Keyring: credentials.Keyring{}, File: credentials.File{Dir: settings.TokenFileDir()}},
	}
}

// Config reads the config file once.
func (f *Factory) Config() (*settings.Config, error) {
	if f.cfg == nil && f.cfgErr == nil {
		warn := f.ConfigWarn
		if warn == nil {
			warn = func(msg string) { f.IO.Warn("%s", msg) }
		}
		f.cfg, f.cfgErr = f.loadConfig(settings.LoadOptions{Warn: warn, NewProfile: f.NewProfile, Families: f.Families})
	}
	return f.cfg, f.cfgErr
}

// LoadedConfig is the configuration Config read, or nil when the run has
// not read it (or could not): Main explains errors with it, without
// reading the file for a run that never needed it.
func (f *Factory) LoadedConfig() *settings.Config { return f.cfg }

// loadConfig loads the config, or returns the context's error as soon as a
// signal cancels it: reading a config file (on a slow or hung mount) and
// parsing it cannot be interrupted, and Ctrl-C must not wait for them.
func (f *Factory) loadConfig(o settings.LoadOptions) (*settings.Config, error) {
	if f.Context == nil {
		return f.Sources.Load(o)
	}
	type loaded struct {
		cfg *settings.Config
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		cfg, err := f.Sources.Load(o)
		done <- loaded{cfg, err}
	}()
	select {
	case l := <-done:
		return l.cfg, l.err
	case <-f.Context.Done():
		return nil, f.Context.Err()
	}
}

// Client returns the API client of the selected profile, paced by its
// budget ledger.
func (f *Factory) Client() (*client.Client, error) {
	conn, err := f.Connection()
	if err != nil {
		return nil, err
	}
	return conn.Client, nil
}

// Connection is what Client is made of: where requests go, with which
// token, and the ledger that paces them. The dry run prices with the ledger.
type Connection struct {
	Target *Target
	Ledger *ratebudget.Ledger
	Client *client.Client
	spent  *spentMeter
}

// Spent is what this connection's requests have cost so far: the
// requests that may have reached the server (a refunded one did not) and
// the points charged for them. A dry run states it beside what the real
// run would send, since its reads cost points too.
func (c *Connection) Spent() (requests, points int) {
	if c == nil || c.spent == nil {
		return 0, 0
	}
	return int(c.spent.requests.Load()), int(c.spent.points.Load())
}

func (f *Factory) Connection() (*Connection, error) {
	if f.connOK || f.connEr != nil {
		return f.conn, f.connEr
	}
	f.conn, f.connEr = f.connect()
	f.connOK = f.connEr == nil
	return f.conn, f.connEr
}

func (f *Factory) connect() (*Connection, error) {
	return f.ConnectWith(ConnectOptions{})
}

// ConnectOptions change how a connection paces: a bulk job shows budget
// waits in its progress, and stops waiting (not sending) when interrupted.
type ConnectOptions struct {
	Notify    func(ratebudget.Wait) // nil: announce each wait on stderr
	Pacer     func(client.Pacer) client.Pacer
	IdleConns int
}

func (f *Factory) ConnectWith(o ConnectOptions) (*Connection, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, err
	}
	t, err := ResolveTarget(cfg, f.Tokens, f.Transport)
	if err != nil {
		return nil, err
	}
	notify := o.Notify
	if notify == nil {
		notify = WaitAnnouncer(f.IO)
	}
	l, err := OpenLedgerWith(cfg, t, cfg.Budget, f.IO, ratebudget.WithNotify(notify))
	if err != nil {
		return nil, err
	}
	meter := &spentMeter{}
	var pacer client.Pacer = LedgerPacer{Ledger: l, meter: meter}
	if o.Pacer != nil {
		pacer = o.Pacer(pacer)
	}
	cl, err := NewClient(cfg, t, pacer, f.Version(), f.IO.Err, o.IdleConns)
	if err != nil {
		return nil, err
	}
	return &Connection{Target: t, Ledger: l, Client: cl, spent: meter}, nil
}

// Target is where requests go and with which token.
type Target struct {
	BaseURL   string
	Token     string
	Source    string
	Transport http.RoundTripper
}

// Account names who the target's requests act as, for the journals of
// jobs: a token belongs to one organization or Space, so two tokens may be
// two orgs behind the same URL (a sandbox started anew, a Space moved),
// and a job's journal must never be replayed on another org. It is a
// one-way digest: journals are plain files, and the token is never written
// anywhere but the store the user chose.
func (t *Target) Account() string {
	h := sha256.New()
	for _, part := range []string{"orgctl account 1", t.BaseURL, t.Token} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// JobTarget is what a job's id takes of where it runs: the URL and the
// account, so the same command on the same file against another org is
// another job.
func (t *Target) JobTarget() string { return t.BaseURL + "\x00" + t.Account() }

// NewClient builds a client for a target; pacer may be nil (unpaced);
// idleConns 0 keeps the client's default pool.
func NewClient(cfg *settings.Config, t *Target, pacer client.Pacer, version string, stderr io.Writer, idleConns int) (*client.Client, error) {
	var debug io.Writer
	if cfg.Debug {
		debug = stderr
	}
	return client.New(client.Options{
		BaseURL:      t.BaseURL,
		Token:        t.Token,
		UserAgent:    "orgctl/" + version,
		Timeout:      cfg.Timeout,
		MaxWait:      cfg.MaxWait,
		Notify:       announceServerWait(stderr),
		Debug:        debug,
		Pacer:        pacer,
		Transport:    t.Transport,
		InsecureHTTP: cfg.InsecureHTTP,
		IdleConns:    idleConns,
	})
}

func hostOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	return u.Host + u.Path
}

// Quiet says whether --quiet (or ORGCTL_QUIET, or the file) is set.
func (f *Factory) Quiet() bool {
	cfg, err := f.Config()
	return err == nil && cfg.Quiet
}

// JobConnection is a connection for a job of many requests (a bulk job,
// apply): its budget waits show in the job's progress bar while one is
// drawn, and as a line of their own (once for all its workers) before the
// job starts, in a dry run and when piped, so that no wait is silent; a wait for budget ends when stop is done (the
// requests in flight still get their answers), and the pool keeps a
// connection for each request in flight.
func (f *Factory) JobConnection(stop context.Context, parallel int) (*Connection, error) {
	return f.ConnectWith(ConnectOptions{
		Notify:    OnceAnnouncer(WaitAnnouncer(f.IO)),
		Pacer:     func(p client.Pacer) client.Pacer { return &bulk.Pacer{Next: p, Stop: stop} },
		IdleConns: parallel + 2,
	})
}

// ShowProgress starts JobProgress's display and returns what stops it
// (nothing to stop with --quiet).
func (f *Factory) ShowProgress(conn *Connection, noun string, total, points, requests int, progress func() (done, failed, unknown, earlier int)) (stop func()) {
	prog := f.JobProgress(conn, noun, total, points, requests, progress)
	if prog == nil {
		return func() {}
	}
	prog.Start()
	return prog.Stop
}

// pointsLeft is what the rows left will spend: the plan's share of points
// for them, or, when this run's rows have spent more each (reads the plan
// priced lower, names looked up on the way, retries), that pace. The
// plan's figure alone made an ETA that ran out a window early.
func pointsLeft(conn *Connection, spentBefore, points, total, done, earlier int) int {
	left := points * (total - done) / total
	if n := done - earlier; n > 0 {
		_, spent := conn.Spent()
		left = max(left, (spent-spentBefore)*(total-done)/n)
	}
	return left
}

// JobProgress is the progress display of a job: rows (noun, "rows" when
// empty) done of total, failures and unknowns from progress, and an ETA:
// the least time the budget as it stands needs for the points the rows
// left still spend (requests of points in all); while the budget holds
// the requests back it says until when. nil with --quiet.
func (f *Factory) JobProgress(conn *Connection, noun string, total, points, requests int, progress func() (done, failed, unknown, earlier int)) *output.Progress {
	if f.Quiet() {
		return nil
	}
	each := 1
	if requests > 0 {
		each = max(1, (points+requests-1)/requests)
	}
	_, spentBefore := conn.Spent()
	return &output.Progress{IO: f.IO, Noun: noun, Stats: func() output.ProgressStats {
		done, failed, unknown, earlier := progress()
		s := output.ProgressStats{Done: done, Total: total, Failed: failed, Unknown: unknown, Earlier: earlier}
		if total == 0 || done >= total {
			return s
		}
		conn.BudgetETA(&s, pointsLeft(conn, spentBefore, points, total, done, earlier), each)
		return s
	}}
}

// BudgetETA sets s's ETA to the least time the budget as it stands needs
// for left points in requests of each points (at least one such request),
// and, while the budget holds the next request back, until when: the one
// rule for every progress display. s is left as it was when the ledger
// cannot be read.
func (c *Connection) BudgetETA(s *output.ProgressStats, left, each int) {
	st, err := c.Ledger.Status()
	if err != nil {
		return
	}
	each = max(1, each)
	s.ETA, s.ETAKnown = st.TimeFor(max(each, left)), true
	if at, held := st.HeldUntil(each); held {
		s.ResumeAt = at
		s.ETA = max(s.ETA, st.TimeFor(each)) // what is left cannot end before it starts
	}
}
