package published

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/orgctl/orgctl/output/atomicfile"
)

// TTL is how long a read description is trusted: an instance changes its
// API version only when it is upgraded, and a day bounds how long orgctl
// can be wrong after that, at one read (10 points) a day per account.
const TTL = 24 * time.Hour

// NoneTTL is how long an instance's answer that it serves no description
// is trusted: shorter, as an instance that starts serving one is then
// checked again within the hour, at one read an hour.
const NoneTTL = time.Hour

// ErrNotServed is what a Fetch returns when the instance serves no
// description (404, or an answer that is none): such an instance is used
// as it always was, and that finding is cached too, so it is not asked
// again within the TTL.
var ErrNotServed = errors.New("the instance serves no API description")

// Fetch reads the instance's description body (GET /api/v2/spec), through
// the client so that it is priced and paced like any other request.
type Fetch func(ctx context.Context) ([]byte, error)

// Cache keeps each account's description under Dir
// ($XDG_CACHE_HOME/orgctl/published), one file per account: who the
// requests act as at a base URL (cli.Target.Account), so another token,
// org or URL is read on its own.
type Cache struct {
	Dir     string
	TTL     time.Duration    // 0: the package's TTL
	NoneTTL time.Duration    // 0: the package's NoneTTL
	Now     func() time.Time // nil: time.Now
}

// entry is one cached reading. Version is the version the instance
// reported (empty when it served none): a reading of another version
// replaces it, so what is kept always names the version it describes.
type entry struct {
	BaseURL   string       `json:"base_url"`
	FetchedAt time.Time    `json:"fetched_at"`
	Served    bool         `json:"served"`
	Version   string       `json:"version,omitempty"`
	Desc      *Description `json:"description,omitempty"`
}

func (c *Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Cache) ttl(served bool) time.Duration {
	if !served {
		return cmp.Or(c.NoneTTL, NoneTTL)
	}
	return cmp.Or(c.TTL, TTL)
}

// file is the cache file of an account at a base URL: hashed, so neither
// becomes a path.
func (c *Cache) file(account, baseURL string) string {
	sum := sha256.Sum256([]byte(account + "\x00" + baseURL))
	return filepath.Join(c.Dir, hex.EncodeToString(sum[:12])+".json")
}

// Reading is what is known of an instance's description.
type Reading struct {
	// Desc is nil when the instance serves none.
	Desc      *Description
	FetchedAt time.Time
	// Cached says it came from the cache (no request was sent).
	Cached bool
}

// Version is the instance's API version; "" when it serves no description.
func (r Reading) Version() string {
	if r.Desc == nil {
		return ""
	}
	return r.Desc.Version
}

// Get is the account's description: from the cache when it is younger than
// the TTL (NoneTTL for an instance that serves none), else read once with
// fetch and cached. A fetch that fails for another reason than
// ErrNotServed (network, budget) is returned, and nothing is cached.
func (c *Cache) Get(ctx context.Context, account, baseURL string, fetch Fetch) (Reading, error) {
	if r, ok := c.Cached(account, baseURL); ok {
		return r, nil
	}
	return c.Refresh(ctx, account, baseURL, fetch)
}

// Cached is the account's cached description, if one is young enough.
func (c *Cache) Cached(account, baseURL string) (Reading, bool) {
	b, err := os.ReadFile(c.file(account, baseURL))
	if err != nil {
		return Reading{}, false
	}
	var e entry
	if json.Unmarshal(b, &e) != nil || e.BaseURL != baseURL || (e.Served && e.Desc == nil) {
		return Reading{}, false
	}
	if age := c.now().Sub(e.FetchedAt); age < 0 || age >= c.ttl(e.Served) {
		return Reading{}, false
	}
	r := Reading{FetchedAt: e.FetchedAt, Cached: true}
	if e.Served {
		r.Desc = e.Desc
	}
	return r, true
}

// Refresh reads the description with fetch whatever the cache holds, and
// caches it. A cache that cannot be written is no error: the reading is
// still right, it is only read again next time.
func (c *Cache) Refresh(ctx context.Context, account, baseURL string, fetch Fetch) (Reading, error) {
	body, err := fetch(ctx)
	var d *Description
	switch {
	case errors.Is(err, ErrNotServed):
	case err != nil:
		return Reading{}, err
	default:
		if d, err = Parse(body); err != nil {
			d = nil
		}
	}
	r := Reading{Desc: d, FetchedAt: c.now()}
	e := entry{BaseURL: baseURL, FetchedAt: r.FetchedAt, Served: d != nil, Desc: d}
	if d != nil {
		e.Version = d.Version
	}
	if b, err := json.Marshal(e); err == nil && os.MkdirAll(c.Dir, 0o700) == nil {
		_ = atomicfile.Write(c.file(account, baseURL), b, 0o600)
	}
	return r, nil
}
