package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/settings"
)

func Explain(cfg *settings.Config, err error) error {
	var ae *client.APIError
	if !errors.As(err, &ae) {
		return explainWait(cfg, err)
	}
	profile := "default"
	if cfg != nil {
		profile = cfg.Profile
	}
	switch ae.StatusCode {
	case http.StatusUnauthorized:
		if os.Getenv("ORGCTL_TOKEN") != "" {
			ae.Hint = "The token in ORGCTL_TOKEN was rejected: check it, or unset it to use the stored login."
		} else {
			ae.Hint = fmt.Sprintf("Log in again with `orgctl auth login --profile %s`, or set ORGCTL_TOKEN.", profile)
		}
	case http.StatusForbidden:
		if ae.Scope != "" {
			ae.Hint = fmt.Sprintf("Create a token with the %q scope (Settings > API) and log in with it.", ae.Scope)
		}
	}
	if h := spaceHint(cfg, ae); h != "" {
		ae.Hint = strings.TrimSpace(ae.Hint + "\n" + h)
	}
	return ae
}

// spaceHint explains the Space token rule when a space profile is refused.
func spaceHint(cfg *settings.Config, ae *client.APIError) string {
	if cfg == nil || (ae.StatusCode != http.StatusUnauthorized && ae.StatusCode != http.StatusForbidden) {
		return ""
	}
	space := cfg.Space
	if space == "" {
		return ""
	}
	return fmt.Sprintf("Profile %q targets the space %q. A token created on the primary organization works on a space "+
		"only if the admin who created it is also an admin of that space; otherwise create a token in the space "+
		"(its Settings > API) and log in with `orgctl auth login --profile %s --base-url <space URL>`.", cfg.Profile, space, cfg.Profile)
}

// UnreachableError is a request that got no answer at all: the host of the
// profile's base URL refused, timed out or could not be found.
type UnreachableError struct {
	Host, Profile string
	Err           *client.TransportError
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach %s (profile %q): %s %s: %v\n"+
		"Is the host or port right? Check the profile's base_url with `orgctl config list`, and run `orgctl doctor` to test the connection and the login.",
		e.Host, e.Profile, e.Err.Method, e.Err.Path, e.Err.Cause)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// ExplainUnreachable names the host and profile of a request that got no
// answer, and what to do next; other errors pass as they are.
func ExplainUnreachable(cfg *settings.Config, err error) error {
	var te *client.TransportError
	var ue *UnreachableError
	if cfg == nil || !errors.As(err, &te) || errors.As(err, &ue) || errors.Is(err, context.Canceled) {
		return err
	}
	host := cfg.BaseURL
	if u, perr := url.Parse(cfg.BaseURL); perr == nil && u.Host != "" {
		host = u.Host
	}
	if cfg.Sandbox {
		host = "the --sandbox org"
	}
	if err == error(te) {
		return &UnreachableError{Host: host, Profile: cfg.Profile, Err: te}
	}
	// The transport error is wrapped in context ("... succeeded, but the
	// follow-up failed: ..."): keep it, and add the next step.
	return fmt.Errorf("%w\n%s", err, "Is "+host+" (profile \""+cfg.Profile+"\") right? Run `orgctl doctor` to test the connection and the login.")
}
