package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/settings"
)

// spaceBaseURL looks a Space's domain up through the current profile.
func spaceBaseURL(ctx context.Context, f *cli.Factory, cfg *settings.Config, name string) (string, error) {
	conn, err := f.Connection()
	if err != nil {
		return "", fmt.Errorf("--space looks the space up through the current profile: %w", err)
	}
	t := conn.Target
	resp, err := conn.Client.Do(ctx, client.Request{Method: http.MethodGet, Path: "/spaces", Scope: "Spaces > Read"})
	if err != nil {
		return "", cli.Explain(cfg, err)
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
	return "", &cli.NotFoundError{Err: fmt.Errorf("no space %q in this organization (spaces: %s)", name, strings.Join(names, ", "))}
}
