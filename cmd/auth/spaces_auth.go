package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/settings"
)

// spaceProfiles picks the profile a login to a Space writes (target) and
// the one whose login looks the Space up (lookup). --profile names the
// target when that profile is new or already the Space's (the help's
// "auth login --space eng --profile eng"); a --profile of another org is
// where the lookup starts, and the target is then named after the Space.
// Neither way is any profile but the Space's own changed.
func spaceProfiles(cfg *settings.Config, space string) (target, lookup string, err error) {
	target, lookup = space, cfg.Profile
	if cfg.ProfileGiven && (!cfg.HasProfile(cfg.Profile) || settings.ProfileSetting(cfg.Profile, "space") == space) {
		target, lookup = cfg.Profile, settings.CurrentProfile()
		if lookup == target {
			lookup = "default"
		}
	}
	if cfg.HasProfile(target) && settings.ProfileSetting(target, "space") != space {
		return "", "", cli.UsageErrorf("profile %q already exists for %s, not for the Space %q: name the Space's profile with --profile NAME (a new name)",
			target, orDash(settings.ProfileSetting(target, "base_url")), space)
	}
	return target, lookup, nil
}

// spaceBaseURL looks a Space's domain up through the profile cfg.
func spaceBaseURL(ctx context.Context, f *cli.Factory, cfg *settings.Config, name string) (string, error) {
	t, err := cli.ResolveTarget(cfg, f.Tokens, f.Transport)
	if err != nil {
		return "", fmt.Errorf("--space looks the Space up through the profile %q: %w", cfg.Profile, err)
	}
	cl, err := cli.TargetClient(f, cfg, t)
	if err != nil {
		return "", err
	}
	k := kinds.Of("spaces")
	resp, err := cl.Do(ctx, client.Request{Method: http.MethodGet, Path: k.List, Scope: k.Scope})
	if err != nil {
		return "", &cli.ProfileError{Config: cfg, Err: err}
	}
	var spaces []struct {
		ID     string `json:"id"`
		Name   string `json:"name"`
		Domain string `json:"domain"`
	}
	if err := json.Unmarshal(resp.Data, &spaces); err != nil {
		return "", fmt.Errorf("unexpected GET %s answer: %w", k.List, err)
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
	return "", &cli.NotFoundError{Err: fmt.Errorf("no space %q in this organization (spaces: %s)", name, strings.Join(names, ", "))}
}
