package cmd

import (
	"io"
	"net/http"
	"net/url"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// Factory hands commands their three dependencies, each made on first use:
// IO streams, the configuration, and the API client. A command that needs
// no token never reads the config or opens the keyring.
type Factory struct {
	IO      *output.IO
	Version string

	src    *settings.Sources
	cfg    *settings.Config
	cfgErr error
	conn   *connection
	connOK bool
	connEr error

	// tokens are where logins are kept; tests replace them.
	tokens tokenStores
	// transport replaces the network for every client (tests).
	transport http.RoundTripper
	// onChange is told the budget family of every successful mutation.
	onChange func(family string)
	// newProfile lets the selected profile be one the config file does not
	// define yet: the command creates it (auth login).
	newProfile bool
	// configWarn prints the config check's warnings (nil: on IO).
	configWarn func(string)
}

// NewFactory returns a factory on the process's real streams.
func NewFactory(version string) *Factory {
	return &Factory{
		IO:      output.System(),
		Version: version,
		src:     settings.NewSources(),
		tokens:  tokenStores{keyring: credentials.Keyring{}, file: credentials.File{Dir: settings.TokenFileDir()}},
	}
}

// Config reads the config file once.
func (f *Factory) Config() (*settings.Config, error) {
	if f.cfg == nil && f.cfgErr == nil {
		warn := f.configWarn
		if warn == nil {
			warn = func(msg string) { f.IO.Warn("%s", msg) }
		}
		f.cfg, f.cfgErr = f.src.Load(settings.LoadOptions{Warn: warn, NewProfile: f.newProfile, Families: calledFamilies})
	}
	return f.cfg, f.cfgErr
}

// Client returns the API client of the selected profile, paced by its
// budget ledger.
func (f *Factory) Client() (*client.Client, error) {
	conn, err := f.connection()
	if err != nil {
		return nil, err
	}
	return conn.client, nil
}

// connection is what Client is made of: where requests go, with which
// token, and the ledger that paces them. The dry run prices with the ledger.
type connection struct {
	target *apiTarget
	ledger *ratebudget.Ledger
	client *client.Client
}

func (f *Factory) connection() (*connection, error) {
	if f.connOK || f.connEr != nil {
		return f.conn, f.connEr
	}
	f.conn, f.connEr = f.connect()
	f.connOK = f.connEr == nil
	return f.conn, f.connEr
}

func (f *Factory) connect() (*connection, error) {
	return f.connectWith(connectOptions{})
}

// connectOptions change how a connection paces: a bulk job shows budget
// waits in its progress, and stops waiting (not sending) when interrupted.
type connectOptions struct {
	notify    func(ratebudget.Wait) // nil: announce each wait on stderr
	pacer     func(client.Pacer) client.Pacer
	idleConns int
}

func (f *Factory) connectWith(o connectOptions) (*connection, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, err
	}
	t, err := resolveTarget(cfg, f.tokens, f.transport)
	if err != nil {
		return nil, err
	}
	notify := o.notify
	if notify == nil {
		notify = waitAnnouncer(f.IO)
	}
	l, err := openLedgerWith(cfg, t, cfg.Budget, f.IO, ratebudget.WithNotify(notify))
	if err != nil {
		return nil, err
	}
	var pacer client.Pacer = ledgerPacer{l}
	if o.pacer != nil {
		pacer = o.pacer(pacer)
	}
	cl, err := newClient(cfg, t, pacer, f.Version, f.IO.Err, o.idleConns)
	if err != nil {
		return nil, err
	}
	return &connection{target: t, ledger: l, client: cl}, nil
}

// useConnection makes c the connection every later request goes through.
func (f *Factory) useConnection(c *connection) {
	f.conn, f.connOK, f.connEr = c, true, nil
}

// apiTarget is where requests go and with which token.
type apiTarget struct {
	BaseURL   string
	Token     string
	Source    string
	Transport http.RoundTripper
}

// newClient builds a client for a target; pacer may be nil (unpaced);
// idleConns 0 keeps the client's default pool.
func newClient(cfg *settings.Config, t *apiTarget, pacer client.Pacer, version string, stderr io.Writer, idleConns int) (*client.Client, error) {
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
