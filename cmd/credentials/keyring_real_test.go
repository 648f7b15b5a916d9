package credentials_test

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/credentials/keyringtest"
)

func TestRealKeyringRoundTrip(t *testing.T) {
	keyringtest.Need(t)
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
	if got, ok := keyringtest.Lookup(t, profile); !ok || got != "tok_roundtrip_1234" {
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
	if _, ok := keyringtest.Lookup(t, profile); ok {
		t.Error("secret-tool still finds the item after Delete")
	}
	if err := k.Delete(profile); err != nil {
		t.Errorf("Delete of a missing item = %v, want nil", err)
	}
}
