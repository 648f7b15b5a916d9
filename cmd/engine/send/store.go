package send

import (
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/completions"
	"github.com/orgctl/orgctl/ratebudget"
)

// CompletionCache is where completion lists and name lookups' lists are
// kept, fresh for ttl.
func CompletionCache(ttl time.Duration) *completions.Cache {
	return &completions.Cache{Dir: filepath.Join(settings.CacheDir(), "completions"), TTL: ttl}
}

// Origin is the API a profile's cached lists came from.
func Origin(cfg *settings.Config) string {
	if cfg.Sandbox {
		return cli.SandboxBaseURL
	}
	return strings.TrimRight(cfg.BaseURL, "/")
}

// NameStore keeps a resolver's lists in the completion cache, beside the
// completion lists and forgotten with them when orgctl changes the family:
// a second command within the TTL looks a name up without a request.
// served, when set, is told each kind whose list came from the cache.
func NameStore(cfg *settings.Config, served *sync.Map) resolve.Store {
	return nameStore{cache: CompletionCache(cfg.CompletionCacheTTL), profile: cfg.Profile, origin: Origin(cfg), served: served}
}

type nameStore struct {
	cache   *completions.Cache
	profile string
	origin  string
	served  *sync.Map // kinds whose list came from the cache
}

// NameList is the cache list of a kind's names, which completion fills too.
func NameList(kind string) string {
	k, _ := kinds.Lookup(kind)
	return "names-" + ratebudget.Family(k.List)
}

func (s nameStore) Load(kind string) ([]map[string]string, bool) {
	e := s.cache.Read(s.profile, NameList(kind))
	if e == nil || e.Origin != s.origin || !s.cache.Fresh(e) {
		return nil, false
	}
	items := make([]map[string]string, len(e.Items))
	for i, it := range e.Items {
		items[i] = it
	}
	if s.served != nil {
		s.served.Store(kind, true)
	}
	return items, true
}

func (s nameStore) Save(kind string, items []map[string]string) {
	if s.cache.TTL <= 0 {
		return
	}
	entry := completions.Entry{Origin: s.origin, FetchedAt: time.Now(), Items: make([]completions.Item, len(items))}
	for i, it := range items {
		entry.Items[i] = it
	}
	_ = s.cache.Write(s.profile, NameList(kind), entry)
}
