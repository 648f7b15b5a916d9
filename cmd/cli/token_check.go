package cli

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/settings"
)

// VerifyToken makes one cheap request: 401 rejects the token; 200 and 403
// (a valid token without the Users scope) accept it.
func VerifyToken(ctx context.Context, f *Factory, cfg *settings.Config, t *Target) (bool, error) {
	cl, err := TargetClient(f, cfg, t)
	if err != nil {
		return false, err
	}
	return CheckToken(ctx, cl)
}

// TargetClient is a client for a token not stored yet, paced by its ledger.
func TargetClient(f *Factory, cfg *settings.Config, t *Target) (*client.Client, error) {
	l, err := OpenLedger(cfg, t, f.IO)
	if err != nil {
		return nil, err
	}
	return NewClient(cfg, t, LedgerPacer{Ledger: l}, f.Version(), f.IO.Err, 0)
}

// CheckToken is verifyToken's one request.
func CheckToken(ctx context.Context, cl *client.Client) (bool, error) {
	users := kinds.Of("users")
	_, err := cl.Do(ctx, client.Request{Method: http.MethodGet, Path: users.List, Query: url.Values{"limit": {"1"}}, Scope: users.Scope})
	var ae *client.APIError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ae) && ae.StatusCode == http.StatusUnauthorized:
		return false, nil
	case errors.As(err, &ae) && ae.StatusCode == http.StatusForbidden:
		return true, nil
	}
	return false, err
}

func Last4(tok string) string {
	if len(tok) <= 4 {
		return strings.Repeat("*", len(tok))
	}
	return tok[len(tok)-4:]
}
