package cli_test

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

func resolveToken(t *testing.T, f *cli.Factory) (string, string, error) {
	t.Helper()
	cfg, err := f.Config()
	if err != nil {
		t.Fatal(err)
	}
	return cli.ResolveToken(cfg, f.Tokens)
}

func TestTokenResolutionOrder(t *testing.T) {
	clitest.Isolate(t)
	kr := &clitest.Keyring{Items: map[string]string{"default": "tok_keyring"}}
	f, _ := clitest.Factory(t, kr, "")
	if err := f.Tokens.File.Set("default", "tok_file"); err != nil {
		t.Fatal(err)
	}

	t.Setenv("ORGCTL_TOKEN", "tok_env")
	if tok, src, err := resolveToken(t, f); err != nil || tok != "tok_env" || src != cli.SourceEnv {
		t.Errorf("with ORGCTL_TOKEN: %q %q %v", tok, src, err)
	}
	if kr.Calls != 0 {
		t.Errorf("keyring consulted %d times although ORGCTL_TOKEN was set", kr.Calls)
	}

	t.Setenv("ORGCTL_TOKEN", "")
	if tok, src, err := resolveToken(t, f); err != nil || tok != "tok_keyring" || src != cli.SourceKeyring {
		t.Errorf("keyring: %q %q %v", tok, src, err)
	}

	delete(kr.Items, "default")
	if tok, src, err := resolveToken(t, f); err != nil || tok != "tok_file" || src != cli.SourceFile {
		t.Errorf("file: %q %q %v", tok, src, err)
	}

	f.Tokens.File.Delete("default")
	_, _, err := resolveToken(t, f)
	var ae *cli.AuthError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "orgctl auth login") || !strings.Contains(err.Error(), "ORGCTL_TOKEN") {
		t.Errorf("nothing stored: err = %v, want an AuthError saying how to log in", err)
	}
}

func TestTokenStoreFileSkipsKeyring(t *testing.T) {
	clitest.Isolate(t)
	kr := &clitest.Keyring{Items: map[string]string{"default": "tok_keyring"}}
	f, _ := clitest.Factory(t, kr, "")
	f.Tokens.File.Set("default", "tok_file")
	if err := settings.SaveProfile("default", map[string]any{"token_store": "file", "base_url": "https://acme.example.com"}, true); err != nil {
		t.Fatal(err)
	}
	tok, src, err := resolveToken(t, f)
	if err != nil || tok != "tok_file" || src != cli.SourceFile {
		t.Errorf("got %q %q %v, want the file token", tok, src, err)
	}
	if kr.Calls != 0 {
		t.Errorf("keyring consulted %d times with token_store=file", kr.Calls)
	}
}

func TestKeyringFailureSaysWhatToDo(t *testing.T) {
	clitest.Isolate(t)
	kr := &clitest.Keyring{Err: &credentials.KeyringError{Op: "read", Err: errors.New("org.freedesktop.secrets was not provided")}}
	f, _ := clitest.Factory(t, kr, "")
	settings.SaveProfile("default", map[string]any{"token_store": "keyring", "base_url": "https://acme.example.com"}, true)
	_, _, err := resolveToken(t, f)
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
	clitest.Isolate(t)
	f, _ = clitest.Factory(t, kr, "")
	f.Tokens.File.Set("default", "tok_file")
	if tok, src, err := resolveToken(t, f); err != nil || tok != "tok_file" || src != cli.SourceFile {
		t.Errorf("got %q %q %v, want the file token", tok, src, err)
	}
}

func TestRealKeyringWithoutBusFailsFastAndClearly(t *testing.T) {
	if os.Getenv("ORGCTL_KEYRING_TEST") == "1" {
		t.Skip("the real-keyring run has a session bus")
	}
	dir := clitest.Isolate(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(dir, "empty"))
	os.Mkdir(filepath.Join(dir, "empty"), 0o700)
	f, _ := clitest.Factory(t, credentials.Keyring{Timeout: 50 * time.Millisecond}, "")
	settings.SaveProfile("default", map[string]any{"token_store": "keyring", "base_url": "https://acme.example.com"}, true)
	_, _, err := resolveToken(t, f)
	if err == nil || !strings.Contains(err.Error(), "no D-Bus session bus") || !strings.Contains(err.Error(), "ORGCTL_TOKEN") {
		t.Errorf("err = %v", err)
	}
}

func configOf(t *testing.T) *settings.Config {
	t.Helper()
	f, _ := clitest.Factory(t, &clitest.Keyring{}, "")
	cfg, err := f.Config()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestBudgetConfig(t *testing.T) {
	clitest.Isolate(t)
	for _, k := range []string{"ORGCTL_BUDGET_POINTS", "ORGCTL_BUDGET_WINDOW", "ORGCTL_BUDGET_BLOCK", "ORGCTL_BUDGET_RESERVE", "ORGCTL_MAX_WAIT", "ORGCTL_BUDGET_COSTS_USERS"} {
		t.Setenv(k, "")
	}
	got, _ := json.Marshal(configOf(t).Budget)
	want, _ := json.Marshal(ratebudget.DefaultConfig())
	if string(got) != string(want) {
		t.Errorf("defaults = %s, want %s", got, want)
	}

	t.Setenv("ORGCTL_BUDGET_POINTS", "100")
	t.Setenv("ORGCTL_BUDGET_WINDOW", "30s")
	t.Setenv("ORGCTL_BUDGET_BLOCK", "90s")
	t.Setenv("ORGCTL_BUDGET_RESERVE", "20")
	t.Setenv("ORGCTL_MAX_WAIT", "1m")
	t.Setenv("ORGCTL_BUDGET_COSTS_USERS", "7")
	if err := settings.SaveProfile("default", map[string]any{"budget": map[string]any{"costs": map[string]any{"groups": 9, "reports": 3}}}, true); err != nil {
		t.Fatal(err)
	}
	b := configOf(t).Budget
	if b.Points != 100 || b.Window != 30*time.Second || b.Block != 90*time.Second || b.Reserve != 20 || b.MaxWait != time.Minute {
		t.Errorf("overrides = %+v", b)
	}
	if b.Cost("/users") != 7 || b.Cost("/groups/1") != 9 || b.Cost("/reports") != 3 || b.Cost("/folders") != ratebudget.DefaultConfig().Cost("/folders") {
		t.Errorf("costs = %v: users %d groups %d reports %d", b.Costs, b.Cost("/users"), b.Cost("/groups/1"), b.Cost("/reports"))
	}
}

func TestWaitAnnouncer(t *testing.T) {
	var buf strings.Builder
	io1 := &output.IO{Err: &buf}
	until := time.Date(2026, 1, 2, 15, 4, 5, 0, time.Local)
	cli.WaitAnnouncer(io1)(ratebudget.Wait{Duration: 2500 * time.Millisecond, Until: until, Reason: ratebudget.ReasonWindowFull, Used: 299, Limit: 300})
	cli.WaitAnnouncer(io1)(ratebudget.Wait{Duration: 60 * time.Second, Until: until, Reason: ratebudget.ReasonBlocked})
	want := "orgctl: rate budget: waiting 2.5s (299 of 300 points used); resuming at 15:04:05\n" +
		"orgctl: rate budget: waiting 1m0s (the server blocked this token); resuming at 15:04:05\n"
	if buf.String() != want {
		t.Errorf("piped announcements:\n%q\nwant\n%q", buf.String(), want)
	}

	// On a terminal a countdown redraws one line and clears it when the wait is over.
	r, w := io.Pipe()
	defer r.Close()
	cli.WaitAnnouncer(&output.IO{Err: w, ErrTTY: true})(ratebudget.Wait{Duration: time.Second, Until: time.Now().Add(-time.Second), Reason: ratebudget.ReasonWindowFull})
	got := make([]byte, 4)
	if _, err := io.ReadFull(r, got); err != nil || string(got) != "\r\x1b[K" {
		t.Errorf("terminal countdown after the wait wrote %q (%v), want the line cleared", got, err)
	}

	// A wait that ends early (the request went ahead, or was interrupted)
	// stops its countdown: the line is cleared and nothing more is drawn,
	// though the hour it counted to is far off.
	r2, w2 := io.Pipe()
	ended := make(chan struct{})
	cli.WaitAnnouncer(&output.IO{Err: w2, ErrTTY: true})(ratebudget.Wait{Duration: time.Hour, Until: time.Now().Add(time.Hour), Reason: ratebudget.ReasonWindowFull, Ended: ended})
	line := make([]byte, len("\r\x1b[Korgctl: rate budget:"))
	if _, err := io.ReadFull(r2, line); err != nil || !strings.HasSuffix(string(line), "orgctl: rate budget:") {
		t.Fatalf("countdown drew %q (%v)", line, err)
	}
	close(ended)
	if _, err := readUntil(r2, "\r\x1b[K"); err != nil {
		t.Fatal(err)
	}
	// A countdown still going redraws within a second: wait past that.
	drew := make(chan []byte, 1)
	go func() {
		b := make([]byte, 64)
		n, _ := r2.Read(b)
		drew <- b[:n]
	}()
	select {
	case b := <-drew:
		t.Errorf("the countdown went on after its wait ended: %q", b)
	case <-time.After(1500 * time.Millisecond):
	}
	w2.Close()
}

// readUntil reads r until what it read ends with suffix.
func readUntil(r io.Reader, suffix string) (string, error) {
	var b strings.Builder
	c := make([]byte, 1)
	for !strings.HasSuffix(b.String(), suffix) {
		if _, err := r.Read(c); err != nil {
			return b.String(), err
		}
		b.Write(c)
	}
	return b.String(), nil
}
