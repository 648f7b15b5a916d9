package cmd

import (
	"errors"
	"fmt"
	"net/http"
	"os"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/settings"
)

// tokenStore is where a profile's token lives (the keyring or a 0600 file).
type tokenStore interface {
	Get(profile string) (string, error)
	Set(profile, token string) error
	Delete(profile string) error
}

// tokenStores are the two places a login can be kept.
type tokenStores struct {
	keyring tokenStore
	file    tokenStore
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
func resolveToken(cfg *settings.Config, stores tokenStores) (token, source string, err error) {
	if t := os.Getenv("ORGCTL_TOKEN"); t != "" {
		return t, sourceEnv, nil
	}
	store := cfg.TokenStore
	var keyringErr error
	if store != sourceFile {
		t, err := stores.keyring.Get(cfg.Profile)
		if err == nil {
			return t, sourceKeyring, nil
		}
		if !errors.Is(err, credentials.ErrNotFound) {
			keyringErr = err
		}
	}
	t, err := stores.file.Get(cfg.Profile)
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

// resolveTarget is where the selected profile's requests go: the sandbox,
// or the configured base URL with the profile's token.
func resolveTarget(cfg *settings.Config, stores tokenStores, transport http.RoundTripper) (*apiTarget, error) {
	if cfg.Sandbox {
		return sandboxTarget(cfg)
	}
	base := cfg.BaseURL
	if _, err := client.ValidateBaseURL(base, cfg.InsecureHTTP); err != nil {
		return nil, err
	}
	tok, src, err := resolveToken(cfg, stores)
	if err != nil {
		return nil, err
	}
	return &apiTarget{BaseURL: base, Token: tok, Source: src, Transport: transport}, nil
}
