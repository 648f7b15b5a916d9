package completions

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/orgctl/orgctl/output/atomicfile"
	"github.com/orgctl/orgctl/output/fsguard"
)

// DefaultTTL is how long a fetched list serves completions without asking
// the API again.
const DefaultTTL = 60 * time.Second

// Item is one listed object reduced to the few string fields completions
// show (ids, names, emails): never a whole API object, so no secrets.
type Item map[string]string

// Entry is one cached list.
type Entry struct {
	// Origin is the API the list came from; a list of another org (same
	// profile name, different base URL) is never offered.
	Origin    string    `json:"origin"`
	FetchedAt time.Time `json:"fetched_at"`
	Items     []Item    `json:"items"`
}

// Cache stores lists as <Dir>/<profile>/<list>.json (files 0600, dirs 0700).
type Cache struct {
	Dir string
	// TTL is how long an entry is fresh; zero or less: never fresh, so every
	// completion tries a fetch and falls back to the stored list.
	TTL time.Duration
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

func (c *Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Fresh reports whether e may be used without fetching.
func (c *Cache) Fresh(e *Entry) bool {
	if e == nil || c.TTL <= 0 {
		return false
	}
	age := c.now().Sub(e.FetchedAt)
	return age >= 0 && age < c.TTL
}

// safeName keeps profile and list names from escaping Dir.
func safeName(s string) error {
	if s == "" || s == "." || s == ".." || strings.ContainsAny(s, `/\`+"\x00") {
		return fmt.Errorf("completions: unusable cache name %q", s)
	}
	return nil
}

func (c *Cache) path(profile, list string) (string, error) {
	if c.Dir == "" {
		return "", errors.New("completions: no cache directory")
	}
	if err := safeName(profile); err != nil {
		return "", err
	}
	if err := safeName(list); err != nil {
		return "", err
	}
	return filepath.Join(c.Dir, profile, list+".json"), nil
}

// Read returns the stored list, or nil when there is none (or it is
// unreadable, which only costs a fetch).
func (c *Cache) Read(profile, list string) *Entry {
	p, err := c.path(profile, list)
	if err != nil {
		return nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var e Entry
	if json.Unmarshal(b, &e) != nil {
		return nil
	}
	return &e
}

// Write stores a list atomically: a concurrent completion reads the old or
// the new file, never half of one.
func (c *Cache) Write(profile, list string, e Entry) error {
	p, err := c.path(profile, list)
	if err != nil {
		return err
	}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	dir := filepath.Dir(p)
	if err := fsguard.MkdirAll(dir); err != nil {
		return err
	}
	return atomicfile.Write(p, b, 0o600)
}

// Forget deletes the list in every profile: after orgctl changed it, no
// profile that may point at the same org completes from the old list.
func (c *Cache) Forget(list string) error {
	if c.Dir == "" || safeName(list) != nil {
		return nil
	}
	profiles, err := os.ReadDir(c.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var errs []error
	for _, d := range profiles {
		if !d.IsDir() {
			continue
		}
		err := os.Remove(filepath.Join(c.Dir, d.Name(), list+".json"))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
