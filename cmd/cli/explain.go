package cli

import (
	"errors"
	"fmt"
	"net/http"
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
