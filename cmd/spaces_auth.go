package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/settings"
)

// spaceBaseURL looks a Space's domain up through the current profile.
func spaceBaseURL(ctx context.Context, f *Factory, cfg *settings.Config, name string) (string, error) {
	conn, err := f.connection()
	if err != nil {
		return "", fmt.Errorf("--space looks the space up through the current profile: %w", err)
	}
	t := conn.target
	resp, err := conn.client.Do(ctx, client.Request{Method: http.MethodGet, Path: "/spaces", Scope: "Spaces > Read"})
	if err != nil {
		return "", explain(cfg, err)
	}
	var spaces []struct {
		ID     string `json:"id"`
		Name   string `json:"name"`
		Domain string `json:"domain"`
	}
	if err := json.Unmarshal(resp.Data, &spaces); err != nil {
		return "", fmt.Errorf("unexpected GET /spaces answer: %w", err)
	}
	var names []string
	for _, s := range spaces {
		if s.Name == name || s.ID == name || s.Domain == name {
			if s.Domain == "" {
				return "", fmt.Errorf("space %q has no domain", name)
			}
			scheme := "https"
			if u, err := url.Parse(t.BaseURL); err == nil && u.Scheme != "" {
				scheme = u.Scheme
			}
			if strings.Contains(s.Domain, "://") {
				return s.Domain, nil
			}
			return scheme + "://" + s.Domain, nil
		}
		names = append(names, s.Name)
	}
	return "", &NotFoundError{fmt.Errorf("no space %q in this organization (spaces: %s)", name, strings.Join(names, ", "))}
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
