package cli_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/settings"
)

// The hints follow the configuration a Factory loads: where the token
// came from, the profile's name, and whether the profile targets a space.
func TestExplainHints(t *testing.T) {
	clitest.Isolate(t)
	f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
	cfg, err := f.Config()
	if err != nil {
		t.Fatal(err)
	}
	e401 := func() error { return &client.APIError{StatusCode: 401, Method: "GET", Path: "/users"} }

	t.Setenv("ORGCTL_TOKEN", "tok")
	if err := cli.Explain(cfg, e401()); !strings.Contains(err.Error(), "token rejected (HTTP 401)\nThe token in ORGCTL_TOKEN was rejected: check it, or unset it to use the stored login.") {
		t.Errorf("401 with ORGCTL_TOKEN: %q", err)
	}
	t.Setenv("ORGCTL_TOKEN", "")
	if err := cli.Explain(cfg, e401()); !strings.HasSuffix(err.Error(), "\nLog in again with `orgctl auth login --profile default`, or set ORGCTL_TOKEN.") {
		t.Errorf("401 without ORGCTL_TOKEN: %q", err)
	}
	if err := cli.Explain(nil, e401()); !strings.Contains(err.Error(), "--profile default") {
		t.Errorf("401 without a config: %q", err)
	}
	err = cli.Explain(cfg, &client.APIError{StatusCode: 403, Scope: "Groups > Write"})
	if !strings.HasSuffix(err.Error(), "\nCreate a token with the \"Groups > Write\" scope (Settings > API) and log in with it.") {
		t.Errorf("403 with a scope: %q", err)
	}
	if err := cli.Explain(cfg, &client.APIError{StatusCode: 403}); strings.Contains(err.Error(), "\n") {
		t.Errorf("403 without a scope has a hint: %q", err)
	}
	if err := cli.Explain(cfg, &client.APIError{StatusCode: 500, Method: "GET", Path: "/x"}); strings.Contains(err.Error(), "\n") {
		t.Errorf("500 has a hint: %q", err)
	}
	plain := errors.New("dial tcp: refused")
	if err := cli.Explain(cfg, plain); err != plain {
		t.Errorf("a non-API error was changed: %v", err)
	}

	// A profile that targets a space adds the space token rule to 401 and 403.
	if err := settings.SaveProfile("eng", map[string]any{"base_url": "https://eng.example.com", "space": "eng"}, false); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ORGCTL_PROFILE", "eng")
	f, _ = clitest.Factory(t, &clitest.Keyring{}, "")
	spaceCfg, err := f.Config()
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []int{401, 403} {
		err := cli.Explain(spaceCfg, &client.APIError{StatusCode: code, Scope: "Users > Read"})
		msg := err.Error()
		if !strings.Contains(msg, `Profile "eng" targets the space "eng".`) || !strings.Contains(msg, "orgctl auth login --profile eng --base-url <space URL>") {
			t.Errorf("%d on a space profile: %q", code, msg)
		}
		if code == 401 && !strings.Contains(msg, "Log in again with `orgctl auth login --profile eng`") {
			t.Errorf("401 on a space profile lost the login hint: %q", msg)
		}
	}
	if err := cli.Explain(spaceCfg, &client.APIError{StatusCode: 404, Method: "GET", Path: "/x"}); strings.Contains(err.Error(), "space") {
		t.Errorf("404 on a space profile: %q", err)
	}
}
