package cmd

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
)

// testKeyring is an in-memory tokenStore standing in for the OS keyring.
type testKeyring struct {
	mu    sync.Mutex
	items map[string]string
	err   error // returned by every call when set
	calls int
}

func (k *testKeyring) Get(p string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.calls++
	if k.err != nil {
		return "", k.err
	}
	t, ok := k.items[p]
	if !ok {
		return "", credentials.ErrNotFound
	}
	return t, nil
}

func (k *testKeyring) Set(p, t string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.calls++
	if k.err != nil {
		return k.err
	}
	if k.items == nil {
		k.items = map[string]string{}
	}
	k.items[p] = t
	return nil
}

func (k *testKeyring) Delete(p string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.calls++
	if k.err != nil {
		return k.err
	}
	delete(k.items, p)
	return nil
}

// isolate points every orgctl directory and variable at a fresh temp dir.
func isolate(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	for _, k := range []string{"ORGCTL_TOKEN", "ORGCTL_BASE_URL", "ORGCTL_PROFILE", "ORGCTL_TOKEN_STORE", "ORGCTL_OUTPUT"} {
		t.Setenv(k, "")
	}
	return dir
}

type testIO struct{ out, err bytes.Buffer }

func testFactory(t *testing.T, kr cli.TokenStore, stdin string) (*cli.Factory, *testIO) {
	t.Helper()
	var tio testIO
	f := cli.NewFactory("test")
	f.Families = families.Called
	f.IO = &output.IO{In: strings.NewReader(stdin), Out: &tio.out, Err: &tio.err}
	f.Tokens.Keyring = kr
	f.Tokens.File = credentials.File{Dir: settings.TokenFileDir()}
	return f, &tio
}

func resolveTestToken(t *testing.T, f *cli.Factory) (string, string, error) {
	t.Helper()
	cfg, err := f.Config()
	if err != nil {
		t.Fatal(err)
	}
	return cli.ResolveToken(cfg, f.Tokens)
}

func TestTokenResolutionOrder(t *testing.T) {
	isolate(t)
	kr := &testKeyring{items: map[string]string{"default": "tok_keyring"}}
	f, _ := testFactory(t, kr, "")
	if err := f.Tokens.File.Set("default", "tok_file"); err != nil {
		t.Fatal(err)
	}

	t.Setenv("ORGCTL_TOKEN", "tok_env")
	if tok, src, err := resolveTestToken(t, f); err != nil || tok != "tok_env" || src != cli.SourceEnv {
		t.Errorf("with ORGCTL_TOKEN: %q %q %v", tok, src, err)
	}
	if kr.calls != 0 {
		t.Errorf("keyring consulted %d times although ORGCTL_TOKEN was set", kr.calls)
	}

	t.Setenv("ORGCTL_TOKEN", "")
	if tok, src, err := resolveTestToken(t, f); err != nil || tok != "tok_keyring" || src != cli.SourceKeyring {
		t.Errorf("keyring: %q %q %v", tok, src, err)
	}

	delete(kr.items, "default")
	if tok, src, err := resolveTestToken(t, f); err != nil || tok != "tok_file" || src != cli.SourceFile {
		t.Errorf("file: %q %q %v", tok, src, err)
	}

	f.Tokens.File.Delete("default")
	_, _, err := resolveTestToken(t, f)
	var ae *cli.AuthError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "orgctl auth login") || !strings.Contains(err.Error(), "ORGCTL_TOKEN") {
		t.Errorf("nothing stored: err = %v, want an AuthError saying how to log in", err)
	}
}

func TestTokenStoreFileSkipsKeyring(t *testing.T) {
	isolate(t)
	kr := &testKeyring{items: map[string]string{"default": "tok_keyring"}}
	f, _ := testFactory(t, kr, "")
	f.Tokens.File.Set("default", "tok_file")
	if err := settings.SaveProfile("default", map[string]any{"token_store": "file", "base_url": "https://acme.example.com"}, true); err != nil {
		t.Fatal(err)
	}
	tok, src, err := resolveTestToken(t, f)
	if err != nil || tok != "tok_file" || src != cli.SourceFile {
		t.Errorf("got %q %q %v, want the file token", tok, src, err)
	}
	if kr.calls != 0 {
		t.Errorf("keyring consulted %d times with token_store=file", kr.calls)
	}
}

func TestKeyringFailureSaysWhatToDo(t *testing.T) {
	isolate(t)
	kr := &testKeyring{err: &credentials.KeyringError{Op: "read", Err: errors.New("org.freedesktop.secrets was not provided")}}
	f, _ := testFactory(t, kr, "")
	settings.SaveProfile("default", map[string]any{"token_store": "keyring", "base_url": "https://acme.example.com"}, true)
	_, _, err := resolveTestToken(t, f)
	var ae *cli.AuthError
	var ke *credentials.KeyringError
	if !errors.As(err, &ae) || !errors.As(err, &ke) {
		t.Fatalf("err = %T %v, want an AuthError wrapping the KeyringError", err, err)
	}
	for _, want := range []string{"ORGCTL_TOKEN", "--insecure-storage", "org.freedesktop.secrets"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}

	// Without a recorded store, a broken keyring does not hide a file token.
	isolate(t)
	f, _ = testFactory(t, kr, "")
	f.Tokens.File.Set("default", "tok_file")
	if tok, src, err := resolveTestToken(t, f); err != nil || tok != "tok_file" || src != cli.SourceFile {
		t.Errorf("got %q %q %v, want the file token", tok, src, err)
	}
}

func TestRealKeyringWithoutBusFailsFastAndClearly(t *testing.T) {
	if os.Getenv("ORGCTL_KEYRING_TEST") == "1" {
		t.Skip("the real-keyring run has a session bus")
	}
	dir := isolate(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(dir, "empty"))
	os.Mkdir(filepath.Join(dir, "empty"), 0o700)
	f, _ := testFactory(t, credentials.Keyring{Timeout: 50 * time.Millisecond}, "")
	settings.SaveProfile("default", map[string]any{"token_store": "keyring", "base_url": "https://acme.example.com"}, true)
	_, _, err := resolveTestToken(t, f)
	if err == nil || !strings.Contains(err.Error(), "no D-Bus session bus") || !strings.Contains(err.Error(), "ORGCTL_TOKEN") {
		t.Errorf("err = %v", err)
	}
}

func sandboxServer(t *testing.T) (*sandbox.Server, string) {
	t.Helper()
	return sandboxWith(t, sandbox.Options{})
}

// sandboxWith is sandboxServer with options.
func sandboxWith(t *testing.T, opts sandbox.Options) (*sandbox.Server, string) {
	t.Helper()
	api := sandbox.New(opts)
	hs := httptest.NewServer(api)
	t.Cleanup(hs.Close)
	return api, hs.URL
}

func TestLoginKeyringUnavailableStoresNothing(t *testing.T) {
	isolate(t)
	api, url := sandboxServer(t)
	kr := &testKeyring{err: &credentials.KeyringError{Op: "write", Err: errors.New("no D-Bus session bus")}}
	f, tio := testFactory(t, kr, api.AdminToken()+"\n")
	err := execute(context.Background(), f, []string{"auth", "login", "--with-token", "--base-url", url}, nil)
	if err == nil {
		t.Fatal("login succeeded without a keyring")
	}
	for _, want := range []string{"ORGCTL_TOKEN", "--insecure-storage"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if _, err := f.Tokens.File.Get("default"); !errors.Is(err, credentials.ErrNotFound) {
		t.Errorf("a token file was written: %v (no silent plain-text fallback)", err)
	}
	if _, err := os.Stat(settings.ConfigPath()); !os.IsNotExist(err) {
		t.Errorf("config written although nothing was stored: %v", err)
	}
	if strings.Contains(tio.out.String()+tio.err.String(), api.AdminToken()) {
		t.Error("the token was printed")
	}
}

func TestLoginInsecureStorageThenStatusAndLogout(t *testing.T) {
	isolate(t)
	api, url := sandboxServer(t)
	tok := api.AdminToken()
	kr := &testKeyring{}
	f, tio := testFactory(t, kr, tok+"\n")
	if err := execute(context.Background(), f, []string{"auth", "login", "--with-token", "--insecure-storage", "--base-url", url, "--profile", "ci"}, nil); err != nil {
		t.Fatal(err)
	}
	if kr.calls != 0 {
		t.Errorf("keyring used %d times with --insecure-storage", kr.calls)
	}
	fi, err := os.Stat(filepath.Join(settings.TokenFileDir(), "ci"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", fi, err)
	}
	cfgBytes, _ := os.ReadFile(settings.ConfigPath())
	if !strings.Contains(string(cfgBytes), "token_store: file") || strings.Contains(string(cfgBytes), tok) {
		t.Errorf("config = %s", cfgBytes)
	}
	if strings.Contains(tio.out.String()+tio.err.String(), tok) {
		t.Error("login printed the token")
	}

	f, tio = testFactory(t, kr, "")
	if err := execute(context.Background(), f, []string{"auth", "status", "--profile", "ci", "-o", "json"}, nil); err != nil {
		t.Fatal(err)
	}
	out := tio.out.String()
	if !strings.Contains(out, `"token_source":"file"`) || !strings.Contains(out, `"token_last4":"`+tok[len(tok)-4:]+`"`) || strings.Contains(out, tok) {
		t.Errorf("status = %s", out)
	}

	f, _ = testFactory(t, kr, "")
	if err := execute(context.Background(), f, []string{"auth", "logout", "--profile", "ci"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Tokens.File.Get("ci"); !errors.Is(err, credentials.ErrNotFound) {
		t.Errorf("token file survived logout: %v", err)
	}
}

func TestLoginRejectedTokenStoresNothing(t *testing.T) {
	isolate(t)
	_, url := sandboxServer(t)
	kr := &testKeyring{}
	f, _ := testFactory(t, kr, "tok_not_valid\n")
	err := execute(context.Background(), f, []string{"auth", "login", "--with-token", "--base-url", url}, nil)
	var ae *cli.AuthError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "nothing was stored") {
		t.Fatalf("err = %v", err)
	}
	if len(kr.items) != 0 {
		t.Errorf("keyring holds %v", kr.items)
	}
}
