// Package credentials stores API tokens: in the OS keyring (go-keyring,
// service "orgctl", one item per profile) or, only when the user asked for
// it, in a 0600 file. Every keyring call is bounded by a timeout and skipped
// when no session bus exists, and failures say what to do instead. There is
// never a silent plain-text fallback.
//
// It knows nothing of the API, cobra or output formats.
package credentials

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/orgctl/orgctl/cmd/internal/ctlchar"
	"github.com/orgctl/orgctl/output/atomicfile"
	"github.com/orgctl/orgctl/output/fsguard"
)

// Service is the keyring service name; the profile is the item's user.
const Service = "orgctl"

// ErrNotFound means the store holds no token for the profile.
var ErrNotFound = errors.New("no stored token")

// DefaultTimeout bounds one keyring call: a locked keyring can block forever.
const DefaultTimeout = 3 * time.Second

// ValidProfile reports whether name is usable as a profile (and file) name:
// a letter or digit, then letters, digits, '.', '_' or '-', at most 64.
// (No regexp: compiling one at init costs every orgctl start.)
func ValidProfile(name string) error {
	ok := len(name) > 0 && len(name) <= 64
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		ok = alnum || i > 0 && (c == '.' || c == '_' || c == '-')
	}
	if !ok {
		control := ""
		if c, bad := ctlchar.Find(name); bad {
			control = "it holds a control character (" + c + "); "
		}
		return fmt.Errorf("invalid profile name %q: %suse letters, digits, '.', '_' or '-' (at most 64)", name, control)
	}
	return nil
}

// KeyringError explains why the keyring could not be used and what to do.
type KeyringError struct {
	Op  string
	Err error
}

func (e *KeyringError) Error() string {
	return fmt.Sprintf("OS keyring unavailable (%s: %v).\n"+
		"Use ORGCTL_TOKEN for this shell or CI job, or log in with --insecure-storage to keep the token in a file readable only by you (0600).",
		e.Op, e.Err)
}

func (e *KeyringError) Unwrap() error { return e.Err }

// Keyring is the OS keyring.
type Keyring struct {
	Timeout time.Duration
}

// Get returns the profile's token, ErrNotFound, or a *KeyringError.
func (k Keyring) Get(profile string) (string, error) {
	return bounded(k, "read", func() (string, error) { return keyring.Get(Service, profile) })
}

// Set stores the profile's token.
func (k Keyring) Set(profile, token string) error {
	_, err := bounded(k, "write", func() (struct{}, error) { return struct{}{}, keyring.Set(Service, profile, token) })
	return err
}

// Delete removes the profile's token; a missing item is not an error.
func (k Keyring) Delete(profile string) error {
	_, err := bounded(k, "delete", func() (struct{}, error) { return struct{}{}, keyring.Delete(Service, profile) })
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// bounded runs one keyring call under the timeout. The result travels on
// the channel only, so an abandoned call cannot race with the caller.
func bounded[T any](k Keyring, op string, fn func() (T, error)) (T, error) {
	var zero T
	if err := sessionBus(); err != nil {
		return zero, &KeyringError{Op: op, Err: err}
	}
	timeout := k.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		if errors.Is(r.err, keyring.ErrNotFound) {
			return zero, ErrNotFound
		}
		if r.err != nil {
			return zero, &KeyringError{Op: op, Err: r.err}
		}
		return r.v, nil
	case <-time.After(timeout):
		// The goroutine is abandoned; the process is short-lived.
		return zero, &KeyringError{Op: op, Err: fmt.Errorf("no answer within %s (is the keyring locked?)", timeout)}
	}
}

// sessionBus makes sure a D-Bus session bus exists before go-keyring is
// called: without one, godbus would spawn dbus-launch (and a keyring daemon)
// on every call and leave them running.
func sessionBus() error {
	if runtime.GOOS != "linux" && runtime.GOOS != "freebsd" && runtime.GOOS != "openbsd" {
		return nil
	}
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return nil
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		sock := filepath.Join(dir, "bus")
		if fi, err := os.Stat(sock); err == nil && fi.Mode()&os.ModeSocket != 0 {
			os.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+sock)
			return nil
		}
	}
	return errors.New("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus does not exist)")
}

// File keeps tokens in Dir/<profile>, mode 0600, in a 0700 directory. It is
// used only when the user chose --insecure-storage.
type File struct {
	Dir string
}

// Path is the file that holds profile's token.
func (f File) Path(profile string) (string, error) { return f.path(profile) }

func (f File) path(profile string) (string, error) {
	if err := ValidProfile(profile); err != nil {
		return "", err
	}
	return filepath.Join(f.Dir, profile), nil
}

// Get returns the profile's token or ErrNotFound.
func (f File) Get(profile string) (string, error) {
	p, err := f.path(profile)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", err
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", ErrNotFound
	}
	return tok, nil
}

// Set writes the token atomically with mode 0600.
func (f File) Set(profile, token string) error {
	p, err := f.path(profile)
	if err != nil {
		return err
	}
	if err := fsguard.MkdirAll(f.Dir); err != nil {
		return err
	}
	return atomicfile.Write(p, []byte(token+"\n"), 0o600)
}

// Delete removes the profile's file; a missing file is not an error.
func (f File) Delete(profile string) error {
	p, err := f.path(profile)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
