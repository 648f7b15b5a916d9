package cli

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/settings"
)

func TestControlChar(t *testing.T) {
	for in, want := range map[string]string{
		"tok\r\nX-Injected: 1": "CR",
		"tok\n":                "LF",
		"a\tb":                 "TAB",
		"\x1b]52;c;x\a":        "ESC",
		"a\x7f":                "DEL",
		"a\u0085b":             "U+0085",
		"a\x9bb":               "byte 0x9B",
		"\x00":                 "NUL",
		"\x01":                 "U+0001",
	} {
		if got, bad := ControlChar(in); !bad || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, bad, want)
		}
	}
	for _, ok := range []string{"", "tok_abc-123", "https://acme.example.com/x", "Café ünïcode ✓"} {
		if got, bad := ControlChar(ok); bad {
			t.Errorf("%q: found %q", ok, got)
		}
	}
}

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

func TestResolveTargetRefusesABaseURLWithControlCharacters(t *testing.T) {
	t.Setenv("ORGCTL_TOKEN", "good_token")
	t.Setenv("ORGCTL_BASE_URL", "https://acme.example.com\r\nX: 1")
	cfg := &settings.Config{Profile: "default", BaseURL: os.Getenv("ORGCTL_BASE_URL")}
	_, err := ResolveTarget(cfg, TokenStores{Keyring: oneToken{}, File: oneToken{}}, nil)
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "the base URL from ORGCTL_BASE_URL holds a control character (CR)") {
		t.Errorf("err = %v", err)
	}
}
