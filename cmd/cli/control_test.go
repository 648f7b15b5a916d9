package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/settings"
)

type oneToken struct{ tok string }

func (o oneToken) Get(string) (string, error) {
	if o.tok == "" {
		return "", credentials.ErrNotFound
	}
	return o.tok, nil
}
func (oneToken) Set(string, string) error { return nil }
func (oneToken) Delete(string) error      { return nil }

// A token with a control character is bad input (exit 2) naming where it
// came from, and the message never holds the token.
func TestResolveTokenRefusesControlCharacters(t *testing.T) {
	secret := "s3cr3t-part"
	cfg := &settings.Config{Profile: "prod"}
	for _, tc := range []struct {
		env, keyring, file string
		want               string
	}{
		{env: secret + "\r\nX-Injected: 1", want: "the token in ORGCTL_TOKEN holds a control character (CR)"},
		{keyring: secret + "\x1b[2J", want: `the token stored in the OS keyring for profile "prod" holds a control character (ESC)`},
		{file: secret + "\x00", want: `the token file of profile "prod"`},
	} {
		t.Setenv("ORGCTL_TOKEN", tc.env)
		_, _, err := ResolveToken(cfg, TokenStores{Keyring: oneToken{tc.keyring}, File: oneToken{tc.file}})
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want a usage error saying %q", err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("the message shows the token: %v", err)
		}
	}
	t.Setenv("ORGCTL_TOKEN", "good_token")
	if tok, src, err := ResolveToken(cfg, TokenStores{Keyring: oneToken{}, File: oneToken{}}); err != nil || tok != "good_token" || src != SourceEnv {
		t.Errorf("a good token: %q %q %v", tok, src, err)
	}
}

// A base URL given to login (--base-url, not a setting) is checked here;
// one from the environment or the file is checked with the settings.
func TestCheckBaseURLText(t *testing.T) {
	err := CheckBaseURLText("https://acme.example.com\r\nX: 1", "--base-url")
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "the base URL from --base-url holds a control character (CR)") {
		t.Errorf("err = %v", err)
	}
	if err := CheckBaseURLText("https://acme.example.com", "--base-url"); err != nil {
		t.Errorf("a good URL: %v", err)
	}
}
