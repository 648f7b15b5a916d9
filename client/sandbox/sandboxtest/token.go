package sandboxtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
)

// Sandbox is what MintToken needs of a sandbox (*sandbox.Server has both): its handler and the
// all-scope admin token it was seeded with.
type Sandbox interface {
	http.Handler
	AdminToken() string
}

// MintToken creates a primary-org token with exactly these scopes the way a user would: the admin
// POSTs /api/v2/access_tokens, served in-process through the handler. Like any request it costs
// budget points and appears in the sandbox's request log.
func MintToken(s Sandbox, scopes ...string) (string, error) {
	return mint(s, "", scopes)
}

// MintSpaceToken creates a token of the Space named space, minted by the
// primary org's admin, who is an admin of the sandbox's Spaces too.
func MintSpaceToken(s Sandbox, space string, scopes ...string) (string, error) {
	return mint(s, "/space/"+space, scopes)
}

func mint(s Sandbox, prefix string, scopes []string) (string, error) {
	body, err := json.Marshal(map[string]any{"label": "sandboxtest", "scopes": append([]string{}, scopes...)})
	if err != nil {
		return "", err
	}
	req := httptest.NewRequest(http.MethodPost, "http://sandbox.test"+prefix+"/api/v2/access_tokens", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.AdminToken())
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	var out struct {
		Message string `json:"message"`
		Data    struct {
			AccessToken string   `json:"access_token"`
			Scopes      []string `json:"scopes"`
		} `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || rec.Code != http.StatusOK {
		return "", fmt.Errorf("mint token: POST /access_tokens answered %d %s", rec.Code, rec.Body.Bytes())
	}
	// The API drops unknown scopes silently; a test asking for one has a typo.
	want := slices.Sorted(slices.Values(scopes))
	got := slices.Sorted(slices.Values(out.Data.Scopes))
	if !slices.Equal(want, got) || out.Data.AccessToken == "" {
		return "", fmt.Errorf("mint token: asked for scopes %v, the sandbox granted %v", want, got)
	}
	return out.Data.AccessToken, nil
}
