package cli

import (
	"errors"
	"fmt"
	"net/http"
	"os"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/settings"
)

// TokenStore is where a profile's token lives (the keyring or a 0600 file).
type TokenStore interface {
	Get(profile string) (string, error)
	Set(profile, token string) error
	Delete(profile string) error
}

// TokenStores are the two places a login can be kept.
type TokenStores struct {
	Keyring TokenStore
	File    TokenStore
}

// Token sources, as `auth status` names them.
const (
	SourceEnv     = "ORGCTL_TOKEN"
	SourceKeyring = "keyring"
	SourceFile    = "file"
	SourceSandbox = "sandbox"
)

// ResolveToken finds the profile's token: ORGCTL_TOKEN > keyring > the
// explicit insecure file. A token that holds a control character is
// refused (exit 2), naming where it came from.
func ResolveToken(cfg *settings.Config, stores TokenStores) (token, source string, err error) {
	token, source, err = findToken(cfg, stores)
	if err != nil {
		return "", "", err
	}
	what, fix := tokenWhere(source, cfg.Profile, settings.TokenFileDir())
	if err := CheckTokenText(token, what, fix); err != nil {
		return "", "", err
	}
	return token, source, nil
}

func findToken(cfg *settings.Config, stores TokenStores) (token, source string, err error) {
	if t := os.Getenv("ORGCTL_TOKEN"); t != "" {
		return t, SourceEnv, nil
	}
	store := cfg.TokenStore
	var keyringErr error
	if store != SourceFile {
		t, err := stores.Keyring.Get(cfg.Profile)
		if err == nil {
			return t, SourceKeyring, nil
		}
		if !errors.Is(err, credentials.ErrNotFound) {
			keyringErr = err
		}
	}
	t, err := stores.File.Get(cfg.Profile)
	if err == nil {
		return t, SourceFile, nil
	}
	if !errors.Is(err, credentials.ErrNotFound) {
		return "", "", err
	}
	if keyringErr != nil && store == SourceKeyring {
		return "", "", &AuthError{keyringErr}
	}
	return "", "", &AuthError{fmt.Errorf("not logged in (profile %q): run `orgctl auth login --profile %s`, or set ORGCTL_TOKEN and ORGCTL_BASE_URL", cfg.Profile, cfg.Profile)}
}

// ResolveTarget is where the selected profile's requests go: the sandbox,
// or the configured base URL with the profile's token.
func ResolveTarget(cfg *settings.Config, stores TokenStores, transport http.RoundTripper) (*Target, error) {
	if cfg.Sandbox {
		return SandboxTarget(cfg)
	}
	base := cfg.BaseURL
	if _, err := client.ValidateBaseURL(base, cfg.InsecureHTTP); err != nil {
		return nil, err
	}
	tok, src, err := ResolveToken(cfg, stores)
	if err != nil {
		return nil, err
	}
	return &Target{BaseURL: base, Token: tok, Source: src, Transport: transport}, nil
}
