package cli

import (
	"fmt"
	"path/filepath"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output/fsguard"
)

// SandboxBaseURL is the in-process sandbox's address: a .localhost name is
// loopback by definition, and nothing listens on it; requests never leave
// the process.
const SandboxBaseURL = "http://sandbox.localhost"

func SandboxStatePath() string { return filepath.Join(settings.StateDir(), "sandbox.json") }

// sandboxOptions reads the --sandbox settings; sandbox_org only matters when the state file is
// created, since an existing org is never reseeded.
func sandboxOptions(cfg *settings.Config) (sandbox.Options, error) {
	var o sandbox.Options
	if cfg != nil {
		o.Points = cfg.SandboxPoints
		o.Window = cfg.SandboxWindow
		o.Block = cfg.SandboxBlock
		empty, err := SandboxOrgEmpty(cfg.SandboxOrg)
		if err != nil {
			return o, UsageErrorf("invalid sandbox_org (ORGCTL_SANDBOX_ORG): %v", err)
		}
		o.Empty = empty
	}
	return o, nil
}

// SandboxOrgEmpty maps an org name to Options.Empty: "demo" (or unset) seeds the demo org,
// "empty" only the primary org's admin and admin token.
func SandboxOrgEmpty(name string) (bool, error) {
	switch name {
	case "", "demo":
		return false, nil
	case "empty":
		return true, nil
	}
	return false, fmt.Errorf("%q: expected demo or empty", name)
}

// SandboxTarget points a command at the persistent local sandbox org.
func SandboxTarget(cfg *settings.Config) (*Target, error) {
	opts, err := sandboxOptions(cfg)
	if err != nil {
		return nil, err
	}
	if err := fsguard.MkdirAll(settings.StateDir()); err != nil {
		return nil, err
	}
	ft := sandbox.NewFileTransport(SandboxStatePath(), opts)
	tok, err := ft.AdminToken()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return &Target{BaseURL: SandboxBaseURL, Token: tok, Source: SourceSandbox, Transport: ft}, nil
}
