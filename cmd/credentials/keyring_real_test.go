package credentials_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/cmd/credentials"
)

// These tests talk to the real Secret Service. .ci/keyring-tests.sh runs
// them inside a private D-Bus session with an unlocked gnome-keyring.
func needRealKeyring(t *testing.T) {
	t.Helper()
	if os.Getenv("ORGCTL_KEYRING_TEST") != "1" {
		t.Skip("real OS keyring not requested: run .ci/keyring-tests.sh (sets ORGCTL_KEYRING_TEST=1 inside a D-Bus session with gnome-keyring)")
	}
	if _, err := exec.LookPath("secret-tool"); err != nil {
		t.Fatal("secret-tool not found (install libsecret-tools): it checks what orgctl stored")
	}
}

// secretTool looks the item up the way go-keyring stores it on Linux:
// attributes "service" and "username".
func secretTool(t *testing.T, profile string) (string, bool) {
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

func TestRealKeyringRoundTrip(t *testing.T) {
	needRealKeyring(t)
	profile := fmt.Sprintf("orgctl-test-%d", os.Getpid())
	k := credentials.Keyring{Timeout: 10 * time.Second}
	t.Cleanup(func() { k.Delete(profile) })

	if _, err := k.Get(profile); !errors.Is(err, credentials.ErrNotFound) {
		t.Fatalf("Get before Set = %v, want ErrNotFound", err)
	}
	if err := k.Set(profile, "tok_roundtrip_1234"); err != nil {
		t.Fatalf("Set: %v", err)
	}
	if got, err := k.Get(profile); err != nil || got != "tok_roundtrip_1234" {
		t.Fatalf("Get = %q, %v", got, err)
	}
	if got, ok := secretTool(t, profile); !ok || got != "tok_roundtrip_1234" {
		t.Errorf("secret-tool sees %q (found=%v)", got, ok)
	}
	if err := k.Set(profile, "tok_replaced_5678"); err != nil {
		t.Fatal(err)
	}
	if got, _ := k.Get(profile); got != "tok_replaced_5678" {
		t.Errorf("after overwrite Get = %q", got)
	}
	if err := k.Delete(profile); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := k.Get(profile); !errors.Is(err, credentials.ErrNotFound) {
		t.Errorf("Get after Delete = %v", err)
	}
	if _, ok := secretTool(t, profile); ok {
		t.Error("secret-tool still finds the item after Delete")
	}
	if err := k.Delete(profile); err != nil {
		t.Errorf("Delete of a missing item = %v, want nil", err)
	}
}
