package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/spf13/viper"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/output"
)

// tokenStore is where a profile's token lives (the keyring or a 0600 file).
type tokenStore interface {
	Get(profile string) (string, error)
	Set(profile, token string) error
	Delete(profile string) error
}

// Factory hands commands their dependencies lazily: a command that needs no
// token never reads the config or opens the keyring.
type Factory struct {
	IO      *output.IO
	Version string

	v      *viper.Viper
	cfg    *Config
	cfgErr error

	Keyring tokenStore
	Files   tokenStore

	// Transport replaces the network for every client (tests, --sandbox).
	Transport http.RoundTripper
	// OnChange is told the budget family of every successful mutation.
	OnChange func(family string)
}

// NewFactory returns a factory on the process's real streams.
func NewFactory(version string) *Factory {
	return &Factory{
		IO:      output.System(),
		Version: version,
		v:       newViper(),
		Keyring: credentials.Keyring{},
		Files:   credentials.File{Dir: tokenFileDir()},
	}
}

func newViper() *viper.Viper {
	v := viper.New()
	v.SetEnvPrefix("ORGCTL")
	v.SetEnvKeyReplacer(stringsReplacer)
	v.AutomaticEnv()
	v.SetDefault("output", "table")
	v.SetDefault("timeout", 30*time.Second)
	v.SetDefault("max_wait", 10*time.Minute)
	return v
}

// Config reads the config file once.
func (f *Factory) Config() (*Config, error) {
	if f.cfg == nil && f.cfgErr == nil {
		f.cfg, f.cfgErr = loadConfig(f.v)
	}
	return f.cfg, f.cfgErr
}

// Printer builds the output printer from -o, --jq and --template.
func (f *Factory) Printer() (*output.Printer, error) {
	opts := output.Options{
		Format:   f.v.GetString("output"),
		JQ:       f.v.GetString("jq"),
		Template: f.v.GetString("template"),
	}
	if err := opts.Validate(); err != nil {
		return nil, &UsageError{err}
	}
	return &output.Printer{IO: f.IO, Opts: opts}, nil
}

// Token sources, as `auth status` names them.
const (
	sourceEnv     = "ORGCTL_TOKEN"
	sourceKeyring = "keyring"
	sourceFile    = "file"
	sourceSandbox = "sandbox"
)

// resolveToken finds the profile's token: ORGCTL_TOKEN > keyring > the
// explicit insecure file.
func (f *Factory) resolveToken(cfg *Config) (token, source string, err error) {
	if t := os.Getenv("ORGCTL_TOKEN"); t != "" {
		return t, sourceEnv, nil
	}
	store := cfg.v.GetString("token_store")
	var keyringErr error
	if store != sourceFile {
		t, err := f.Keyring.Get(cfg.Profile)
		if err == nil {
			return t, sourceKeyring, nil
		}
		if !errors.Is(err, credentials.ErrNotFound) {
			keyringErr = err
		}
	}
	t, err := f.Files.Get(cfg.Profile)
	if err == nil {
		return t, sourceFile, nil
	}
	if !errors.Is(err, credentials.ErrNotFound) {
		return "", "", err
	}
	if keyringErr != nil && store == sourceKeyring {
		return "", "", &AuthError{keyringErr}
	}
	return "", "", &AuthError{fmt.Errorf("not logged in (profile %q): run `orgctl auth login --profile %s`, or set ORGCTL_TOKEN and ORGCTL_BASE_URL", cfg.Profile, cfg.Profile)}
}

// apiTarget is where requests go and with which token.
type apiTarget struct {
	BaseURL   string
	Token     string
	Source    string
	Transport http.RoundTripper
}

func (f *Factory) target(cfg *Config) (*apiTarget, error) {
	if cfg.v.GetBool("sandbox") {
		return f.sandboxTarget()
	}
	base := cfg.v.GetString("base_url")
	if _, err := client.ValidateBaseURL(base, cfg.v.GetBool("insecure_http")); err != nil {
		return nil, err
	}
	tok, src, err := f.resolveToken(cfg)
	if err != nil {
		return nil, err
	}
	return &apiTarget{BaseURL: base, Token: tok, Source: src, Transport: f.Transport}, nil
}

// Client returns an API client for the selected profile.
func (f *Factory) Client() (*client.Client, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, err
	}
	t, err := f.target(cfg)
	if err != nil {
		return nil, err
	}
	return f.clientFor(cfg, t, true)
}

func (f *Factory) clientFor(cfg *Config, t *apiTarget, paced bool) (*client.Client, error) {
	var debug io.Writer
	if cfg.v.GetBool("debug") {
		debug = f.IO.Err
	}
	var pacer client.Pacer
	if paced {
		p, err := f.pacer(cfg, t)
		if err != nil {
			return nil, err
		}
		pacer = p
	}
	return client.New(client.Options{
		BaseURL:      t.BaseURL,
		Token:        t.Token,
		UserAgent:    "orgctl/" + f.Version,
		Timeout:      cfg.v.GetDuration("timeout"),
		Debug:        debug,
		Pacer:        pacer,
		Transport:    t.Transport,
		InsecureHTTP: cfg.v.GetBool("insecure_http"),
	})
}

func hostOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	return u.Host + u.Path
}

// ctx is the context commands run under.
func ctx() context.Context { return context.Background() }
