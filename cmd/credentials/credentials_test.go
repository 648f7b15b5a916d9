package credentials

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFileStoreRoundTripAndModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cfg", "tokens")
	f := File{Dir: dir}
	if _, err := f.Get("default"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get on empty store = %v, want ErrNotFound", err)
	}
	if err := f.Set("default", "tok_abc123"); err != nil {
		t.Fatal(err)
	}
	got, err := f.Get("default")
	if err != nil || got != "tok_abc123" {
		t.Fatalf("Get = %q, %v", got, err)
	}
	fi, err := os.Stat(filepath.Join(dir, "default"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode = %v, want 0600", fi.Mode().Perm())
	}
	di, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("token dir mode = %v, want 0700", di.Mode().Perm())
	}
	// Overwrite keeps the mode and leaves no temp files behind.
	if err := f.Set("default", "tok_new"); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.Get("default"); got != "tok_new" {
		t.Errorf("after overwrite Get = %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("dir holds %d entries, want just the token file", len(entries))
	}
	if err := f.Delete("default"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Get("default"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get after Delete = %v", err)
	}
	if err := f.Delete("default"); err != nil {
		t.Errorf("second Delete = %v, want nil", err)
	}
}

func TestFileStoreTreatsBlankAsMissing(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "p"), []byte("  \n"), 0o600)
	if _, err := (File{Dir: dir}).Get("p"); !errors.Is(err, ErrNotFound) {
		t.Errorf("blank file: %v, want ErrNotFound", err)
	}
}

func TestFileStoreRejectsPathLikeProfiles(t *testing.T) {
	f := File{Dir: t.TempDir()}
	for _, p := range []string{"../x", "a/b", "", ".hidden", strings.Repeat("a", 65)} {
		if err := f.Set(p, "t"); err == nil {
			t.Errorf("Set(%q) accepted a bad profile name", p)
		}
	}
	for _, p := range []string{"default", "eng-prod", "a.b_c", "A1"} {
		if err := ValidProfile(p); err != nil {
			t.Errorf("ValidProfile(%q) = %v", p, err)
		}
	}
}

// noBus makes sure no session bus can be found, and puts a fake
// dbus-launch first on PATH that leaves a marker if anything runs it.
func noBus(t *testing.T) (marker string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(dir, "run"))
	os.Mkdir(filepath.Join(dir, "run"), 0o700)
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	marker = filepath.Join(dir, "dbus-launch-ran")
	script := "#!/bin/sh\ntouch '" + marker + "'\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "dbus-launch"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return marker
}

func TestKeyringWithoutSessionBus(t *testing.T) {
	if os.Getenv("ORGCTL_KEYRING_TEST") == "1" {
		t.Skip("the real-keyring run has a session bus")
	}
	marker := noBus(t)
	k := Keyring{Timeout: time.Second}
	checks := map[string]func() error{
		"get":    func() error { _, err := k.Get("default"); return err },
		"set":    func() error { return k.Set("default", "tok") },
		"delete": func() error { return k.Delete("default") },
	}
	for op, call := range checks {
		err := call()
		var ke *KeyringError
		if !errors.As(err, &ke) {
			t.Fatalf("%s: err = %T %v, want *KeyringError", op, err, err)
		}
		msg := err.Error()
		for _, want := range []string{"no D-Bus session bus", "ORGCTL_TOKEN", "--insecure-storage"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: error %q does not mention %q", op, msg, want)
			}
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("go-keyring was called without a session bus (dbus-launch ran)")
	}
}

func TestKeyringFindsBusInRuntimeDir(t *testing.T) {
	noBus(t)
	dir, err := os.MkdirTemp("", "rt") // short path: unix socket names are limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("XDG_RUNTIME_DIR", dir)
	l, err := net.Listen("unix", filepath.Join(dir, "bus"))
	if err != nil {
		t.Skip("cannot create a unix socket:", err)
	}
	defer l.Close()
	if err := sessionBus(); err != nil {
		t.Fatalf("sessionBus with $XDG_RUNTIME_DIR/bus = %v", err)
	}
	if got := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); got != "unix:path="+filepath.Join(dir, "bus") {
		t.Errorf("DBUS_SESSION_BUS_ADDRESS = %q", got)
	}
}

// silentBus is a D-Bus "daemon" that accepts connections and never says a
// word, like a wedged session bus or a keyring waiting on an unlock prompt.
// Accepted connections stay open for the life of the test binary: a call
// abandoned at the timeout must stay blocked, or it would retry after the
// environment is restored and make godbus autolaunch a real bus.
func silentBus(t *testing.T) {
	t.Helper()
	dir, err := os.MkdirTemp("", "bus")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "bus")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip("cannot create a unix socket:", err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			silentConns = append(silentConns, c)
		}
	}()
	t.Cleanup(func() {
		l.Close()
		os.RemoveAll(dir)
	})
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+sock)
}

// silentConns keeps the silent bus's connections referenced (and open).
var silentConns []net.Conn

func TestKeyringTimeout(t *testing.T) {
	if os.Getenv("ORGCTL_KEYRING_TEST") == "1" {
		t.Skip("the real-keyring run has a working bus")
	}
	if os.Getenv("ORGCTL_SILENT_BUS_CHILD") != "1" {
		// The abandoned call keeps godbus's process-wide session-bus lock
		// for good, so the test runs in a process of its own.
		c := exec.Command(os.Args[0], "-test.run=^TestKeyringTimeout$", "-test.count=1", "-test.v")
		c.Env = append(os.Environ(), "ORGCTL_SILENT_BUS_CHILD=1")
		out, err := c.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestKeyringTimeout") {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	silentBus(t)
	k := Keyring{Timeout: 50 * time.Millisecond}
	_, err := k.Get("default")
	var ke *KeyringError
	if !errors.As(err, &ke) {
		t.Fatalf("err = %T %v, want *KeyringError", err, err)
	}
	if ke.Op != "read" || !strings.Contains(err.Error(), "no answer within 50ms") || !strings.Contains(err.Error(), "ORGCTL_TOKEN") {
		t.Errorf("err = %v", err)
	}
	if err := k.Set("default", "tok"); !errors.As(err, &ke) || ke.Op != "write" {
		t.Errorf("Set err = %v", err)
	}
}

func TestKeyringBrokenBus(t *testing.T) {
	if os.Getenv("ORGCTL_KEYRING_TEST") == "1" {
		t.Skip("the real-keyring run has a working bus")
	}
	dir := t.TempDir()
	// A socket path that exists as a plain file: connecting fails at once.
	bogus := filepath.Join(dir, "bus")
	os.WriteFile(bogus, nil, 0o600)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+bogus)
	_, err := Keyring{Timeout: 5 * time.Second}.Get("default")
	var ke *KeyringError
	if !errors.As(err, &ke) || errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %T %v, want a *KeyringError (not ErrNotFound)", err, err)
	}
	if strings.Contains(err.Error(), "no answer within") {
		t.Errorf("a refused connection was reported as a timeout: %v", err)
	}
}
