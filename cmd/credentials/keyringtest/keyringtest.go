// Package keyringtest is for tests that use the real OS keyring, which
// .ci/keyring-tests.sh provides inside a private D-Bus session with an
// unlocked gnome-keyring. It is imported by tests only.
package keyringtest

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/credentials"
)

// Need skips the test unless the real keyring was asked for.
func Need(t testing.TB) {
	t.Helper()
	if os.Getenv("ORGCTL_KEYRING_TEST") != "1" {
		t.Skip("real OS keyring not requested: run .ci/keyring-tests.sh (sets ORGCTL_KEYRING_TEST=1 inside a D-Bus session with gnome-keyring)")
	}
	if _, err := exec.LookPath("secret-tool"); err != nil {
		t.Fatal("secret-tool not found (install libsecret-tools): it checks what orgctl stored")
	}
}

// Lookup finds a profile's item the way go-keyring stores it on Linux
// (attributes "service" and "username"), with secret-tool, independently
// of orgctl.
func Lookup(t testing.TB, profile string) (string, bool) {
	t.Helper()
	out, err := exec.Command("secret-tool", "lookup", "service", credentials.Service, "username", profile).Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return "", false
	}
	if err != nil {
		t.Fatalf("secret-tool: %v", err)
	}
	return strings.TrimSpace(string(out)), true
}
