package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/settings"
)

func TestExplainRejectedTokenAndScope(t *testing.T) {
	cfg := &settings.Config{Profile: "prod"}
	t.Setenv("ORGCTL_TOKEN", "")
	err := Explain(cfg, &client.APIError{StatusCode: 401, Method: "GET", Path: "/users"})
	if !strings.HasSuffix(err.Error(), "\nLog in again with `orgctl auth login --profile prod`, or set ORGCTL_TOKEN.") {
		t.Errorf("stored login rejected: %q", err)
	}
	t.Setenv("ORGCTL_TOKEN", "tok")
	err = Explain(nil, &client.APIError{StatusCode: 401, Method: "GET", Path: "/users"})
	if !strings.HasSuffix(err.Error(), "\nThe token in ORGCTL_TOKEN was rejected: check it, or unset it to use the stored login.") {
		t.Errorf("ORGCTL_TOKEN rejected: %q", err)
	}
	err = Explain(cfg, &client.APIError{StatusCode: 403, Scope: "Groups > Write"})
	if !strings.Contains(err.Error(), `Create a token with the "Groups > Write" scope`) {
		t.Errorf("missing scope: %q", err)
	}
	for _, code := range []int{404, 500} {
		if err := Explain(cfg, &client.APIError{StatusCode: code, Method: "GET", Path: "/x"}); strings.Contains(err.Error(), "\n") {
			t.Errorf("%d has a hint: %q", code, err)
		}
	}
	plain := errors.New("something")
	if err := Explain(cfg, plain); err != plain {
		t.Errorf("a plain error was changed: %v", err)
	}
	if Explain(cfg, nil) != nil {
		t.Error("nil became an error")
	}
}

// The hint goes on the API error wherever it is wrapped, and the context
// around it stays; explaining twice says it once.
func TestExplainKeepsContextAndSaysItOnce(t *testing.T) {
	t.Setenv("ORGCTL_TOKEN", "tok")
	cfg := &settings.Config{Profile: "eng", Space: "eng"}
	wrapped := fmt.Errorf("groups/ops.yaml: reading the live org: %w", &client.APIError{StatusCode: 401, Method: "GET", Path: "/groups"})
	once := Explain(cfg, wrapped).Error()
	if !strings.HasPrefix(once, "groups/ops.yaml: reading the live org: ") || !strings.Contains(once, "ORGCTL_TOKEN was rejected") || !strings.Contains(once, `targets the space "eng"`) {
		t.Errorf("explained: %q", once)
	}
	if twice := Explain(cfg, Explain(cfg, wrapped)).Error(); twice != once {
		t.Errorf("explained twice:\n%q\nonce:\n%q", twice, once)
	}
	wait := Explain(cfg, &client.WaitError{Method: "GET", Path: "/users", MaxWait: time.Minute})
	if got := Explain(cfg, wait).Error(); strings.Count(got, "Waits are bounded by --max-wait (1m0s here") != 1 {
		t.Errorf("wait explained twice: %q", got)
	}
}

// An error met through another profile's connection is explained for it.
func TestExplainProfileError(t *testing.T) {
	t.Setenv("ORGCTL_TOKEN", "")
	run := &settings.Config{Profile: "eng"}
	lookup := &settings.Config{Profile: "default"}
	err := Explain(run, fmt.Errorf("looking the Space up: %w", &ProfileError{Config: lookup, Err: &client.APIError{StatusCode: 401}}))
	if !strings.Contains(err.Error(), "--profile default`") {
		t.Errorf("hint for the wrong profile: %q", err)
	}
}

func TestExplainUnreachableNamesWhereTheURLCameFrom(t *testing.T) {
	refused := &client.TransportError{Method: "GET", Path: "/users", Cause: syscall.ECONNREFUSED}
	t.Setenv("ORGCTL_BASE_URL", "http://127.0.0.1:1")
	cfg := &settings.Config{Profile: "work", BaseURL: "http://127.0.0.1:1"}
	got := Explain(cfg, refused).Error()
	if !strings.HasPrefix(got, `cannot reach 127.0.0.1:1 (profile "work", base URL from ORGCTL_BASE_URL): GET /users: connection refused`) ||
		!strings.Contains(got, "Check ORGCTL_BASE_URL") {
		t.Errorf("from the variable: %q", got)
	}
	var ue *UnreachableError
	if !errors.As(Explain(cfg, refused), &ue) || !errors.Is(Explain(cfg, refused), syscall.ECONNREFUSED) {
		t.Error("the typed error and its cause are lost")
	}

	// From the profile in the file.
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("ORGCTL_BASE_URL", "")
	t.Setenv("ORGCTL_PROFILE", "work")
	if err := os.MkdirAll(filepath.Join(dir, "orgctl"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings.ConfigPath(), []byte("profiles:\n  work:\n    base_url: http://127.0.0.1:2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := settings.NewSources().Load(settings.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got = Explain(cfg, refused).Error()
	want := "base URL from profile work's base_url in " + settings.ConfigPath()
	if !strings.Contains(got, want) || strings.Contains(got, "ORGCTL_BASE_URL") {
		t.Errorf("from the file: %q, want %q", got, want)
	}
	// Wrapped in context: the context stays, and the next step follows.
	wrapped := fmt.Errorf("POST /groups succeeded, but the follow-up request failed: %w", refused)
	got = Explain(cfg, wrapped).Error()
	if !strings.HasPrefix(got, wrapped.Error()+"\nIs 127.0.0.1:2 (profile \"work\", base URL from profile work's") {
		t.Errorf("wrapped: %q", got)
	}
	if Explain(cfg, Explain(cfg, wrapped)).Error() != got {
		t.Error("explained twice")
	}
}
