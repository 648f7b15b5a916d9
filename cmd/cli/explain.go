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

// Explain adds what to do next to an error, once, where Main prints it:
// the hint for a rejected token or a missing scope (and the Space token
// rule on a space profile), the setting that bounds a wait given up on,
// and where the base URL of a request that got no answer came from. cfg
// is the run's configuration, nil when the run never read it. Other
// errors pass as they are.
func Explain(cfg *settings.Config, err error) error {
	if err == nil {
		return nil
	}
	var pe *ProfileError
	if errors.As(err, &pe) {
		cfg = pe.Config
	}
	var ae *client.APIError
	if errors.As(err, &ae) {
		explainAPI(cfg, ae)
		// A wrapper made with fmt.Errorf keeps the text it had when it was
		// made, without the hint: the hint then follows the whole message.
		if ae.Hint == "" || strings.Contains(err.Error(), ae.Hint) {
			return err
		}
		return &hinted{err, ae.Hint}
	}
	if werr := explainWait(cfg, err); werr != err {
		return werr
	}
	return explainUnreachable(cfg, err)
}

// ProfileError is an error met on the connection of another profile than
// the run's (auth login --space looks the Space up through one): Explain's
// hints name that profile.
type ProfileError struct {
	Config *settings.Config
	Err    error
}

func (e *ProfileError) Error() string { return e.Err.Error() }
func (e *ProfileError) Unwrap() error { return e.Err }

// RejectedTokenAdvice is what to do about a token the API rejected (HTTP
// 401), for every command that meets one: while ORGCTL_TOKEN is set it
// overrides the stored login, so logging in again cannot help.
func RejectedTokenAdvice(profile string) string {
	if os.Getenv("ORGCTL_TOKEN") != "" {
		return "The token in ORGCTL_TOKEN was rejected: check it, or unset it to use the stored login."
	}
	return fmt.Sprintf("Log in again with `orgctl auth login --profile %s`, or set ORGCTL_TOKEN.", profile)
}

// explainAPI sets the hint of an API error; a second call sets the same.
func explainAPI(cfg *settings.Config, ae *client.APIError) {
	profile := "default"
	if cfg != nil {
		profile = cfg.Profile
	}
	hint := ""
	switch ae.StatusCode {
	case http.StatusUnauthorized:
		hint = RejectedTokenAdvice(profile)
	case http.StatusForbidden:
		if ae.Scope != "" {
			hint = fmt.Sprintf("Create a token with the %q scope (Settings > API) and log in with it.", ae.Scope)
		}
	}
	if h := planHint(ae); h != "" {
		hint = strings.TrimSpace(hint + "\n" + h)
	}
	if h := spaceHint(cfg, ae); h != "" {
		hint = strings.TrimSpace(hint + "\n" + h)
	}
	if hint != "" {
		ae.Hint = hint
	}
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
// base URL refused, timed out or could not be found. Origin says where the
// base URL came from (Config.Origin), so the message points at what to fix.
type UnreachableError struct {
	Host, Profile, Origin string
	Err                   *client.TransportError
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach %s (%s): %s %s: %v\nIs the host or port right? %s, and run `orgctl doctor` to test the connection and the login.",
		e.Host, e.from(), e.Err.Method, e.Err.Path, e.Err.Cause, e.check())
}

func (e *UnreachableError) from() string {
	if e.Origin == "" {
		return fmt.Sprintf("profile %q", e.Profile)
	}
	return fmt.Sprintf("profile %q, base URL from %s", e.Profile, e.Origin)
}

func (e *UnreachableError) check() string {
	switch {
	case e.Origin == "":
		return "Check the base URL with `orgctl config list`"
	case strings.HasPrefix(e.Origin, "ORGCTL_"):
		return "Check " + e.Origin + " (or unset it to use the profile's base_url)"
	}
	return "Check " + e.Origin + " (`orgctl config list` shows it)"
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// hinted is an error with what to do next on a line of its own; Explain
// leaves an error that already has one as it is.
type hinted struct {
	err  error
	hint string
}

func (e *hinted) Error() string { return e.err.Error() + "\n" + e.hint }
func (e *hinted) Unwrap() error { return e.err }

// explainUnreachable names the host and profile of a request that got no
// answer, where its base URL came from, and what to do next.
func explainUnreachable(cfg *settings.Config, err error) error {
	var te *client.TransportError
	var ue *UnreachableError
	var h *hinted
	if cfg == nil || !errors.As(err, &te) || errors.As(err, &ue) || errors.As(err, &h) || errors.Is(err, context.Canceled) {
		return err
	}
	host := cfg.BaseURL
	if u, perr := url.Parse(cfg.BaseURL); perr == nil && u.Host != "" {
		host = u.Host
	}
	origin := cfg.Origin("base_url")
	if cfg.Sandbox {
		host, origin = "the --sandbox org", ""
	}
	if err == error(te) {
		return &UnreachableError{Host: host, Profile: cfg.Profile, Origin: origin, Err: te}
	}
	// The transport error is wrapped in context ("... succeeded, but the
	// follow-up failed: ..."): keep it, and add the next step.
	ue = &UnreachableError{Host: host, Profile: cfg.Profile, Origin: origin}
	return &hinted{err, fmt.Sprintf("Is %s (%s) right? %s, and run `orgctl doctor` to test the connection and the login.", host, ue.from(), ue.check())}
}
