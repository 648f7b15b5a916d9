package ratebudget

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"
)

// Config is the budget orgctl keeps to. Start from DefaultConfig.
type Config struct {
	Points  int            // budget per window (300)
	Window  time.Duration  // sliding window (60s)
	Block   time.Duration  // block length assumed after a 429 without Retry-After (60s)
	Reserve int            // points left unused for other tools (0)
	MaxWait time.Duration  // give up waiting after this (10m); 0 means never wait
	Costs   map[string]int // per-family overrides, e.g. {"usage": 5}
}

// DefaultConfig is the service's published budget with no reserve.
func DefaultConfig() Config {
	return Config{
		Points:  300,
		Window:  60 * time.Second,
		Block:   60 * time.Second,
		Reserve: 0,
		MaxWait: 10 * time.Minute,
	}
}

// UnknownCost prices a family the service's documentation does not list; it
// is the highest listed price so that an unlisted family never overdraws.
const UnknownCost = 10

// defaultCosts is the service's price list by family (path segment under
// /api/v2). A slice rather than a map: a map literal is built at start-up by
// every orgctl command, and fifteen entries are searched as fast as hashed.
var defaultCosts = []struct {
	family string
	points int
}{
	{"apps", 2},
	{"folders", 2},
	{"users", 2},
	{"access_requests", 5},
	{"app_themes", 5},
	{"environments", 5},
	{"groups", 5},
	{"resources", 5},
	{"resource_configurations", 5},
	{"source_control", 5},
	{"spaces", 5},
	{"sso", 5},
	{"user_attributes", 5},
	{"user_invites", 5},
	{"permissions", 10},
}

// listedCost is fam's price on the service's list, if it is listed.
func listedCost(fam string) (int, bool) {
	for _, c := range defaultCosts {
		if c.family == fam {
			return c.points, true
		}
	}
	return 0, false
}

// familyAlias folds path segments and singular spellings of family names
// into the family whose price they pay.
func familyAlias(name string) (string, bool) {
	switch name {
	case "role_permissions":
		return "permissions", true
	case "environment":
		return "environments", true
	case "user_invite":
		return "user_invites", true
	case "access_request":
		return "access_requests", true
	}
	return "", false
}

func normalizeFamily(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	name = strings.ReplaceAll(name, " ", "_")
	name = strings.ReplaceAll(name, "-", "_")
	if a, ok := familyAlias(name); ok {
		return a
	}
	return name
}

// Family names the endpoint family of an API path relative to /api/v2
// ("/users/u_1" -> "users", "/role_permissions/roles" -> "permissions"),
// as the service routes it: by the first segment exactly as sent, so
// "/Users" or "/api/v1/users" is no family's path and pays UnknownCost,
// as a server that answers it charges. Query strings and fragments are
// ignored; a full URL is reduced to its path under /api/v2. The root path
// has family "".
func Family(path string) string {
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	if i := strings.Index(path, "://"); i >= 0 {
		path = path[i+3:]
		if j := strings.IndexByte(path, '/'); j >= 0 {
			path = path[j:]
		} else {
			path = ""
		}
		if rest, ok := strings.CutPrefix(path, "/api/v2"); ok && (rest == "" || rest[0] == '/') {
			path = rest
		}
	}
	// Only the first segment is looked at: splitting the whole path would
	// allocate, and Family runs for every request priced.
	first, _ := nextSegment(path)
	if first == "role_permissions" {
		return "permissions" // the service prices role permissions as permissions
	}
	return first
}

// nextSegment is path's first non-empty segment between slashes, and what
// follows it.
func nextSegment(path string) (seg, rest string) {
	seg, rest, _ = strings.Cut(strings.TrimLeft(path, "/"), "/")
	return seg, rest
}

// ListPrice is the service's own price of a request to path: its price
// list, or UnknownCost for a family it does not list. The sandbox charges
// it; orgctl paces by Config.Cost, which budget.costs may override.
func ListPrice(path string) int { return Config{}.Cost(path) }

// Cost prices a request to path in points: the override in c.Costs for its
// family if any, else the service's price list, else UnknownCost.
func (c Config) Cost(path string) int {
	return c.familyCost(Family(path))
}

func (c Config) familyCost(fam string) int {
	if v, ok := c.Costs[fam]; ok && v >= 0 {
		return v
	}
	for k, v := range c.Costs {
		if v >= 0 && normalizeFamily(k) == fam {
			return v
		}
	}
	if v, ok := listedCost(fam); ok {
		return v
	}
	return UnknownCost
}

// CostTable is the full effective price list by family: every listed family
// plus every overridden one.
func (c Config) CostTable() map[string]int {
	t := make(map[string]int, len(defaultCosts)+len(c.Costs))
	for _, listed := range defaultCosts {
		t[listed.family] = c.familyCost(listed.family)
	}
	for k := range c.Costs {
		fam := normalizeFamily(k)
		t[fam] = c.familyCost(fam)
	}
	return t
}

// Key is the budget key for a host and token: the host made file-name safe
// plus a short hash of the token, so the token itself never reaches disk.
func Key(host, token string) string {
	sum := sha256.Sum256([]byte("orgctl-ratebudget\x00" + token))
	return safeHost(host) + "-" + hex.EncodeToString(sum[:6])
}

func safeHost(host string) string {
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	if i := strings.IndexByte(host, '/'); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 { // userinfo may hold secrets
		host = host[i+1:]
	}
	host = strings.ToLower(host)
	var b strings.Builder
	for _, r := range host {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := strings.Trim(b.String(), ".")
	if len(s) > 100 {
		s = s[:100]
	}
	if s == "" {
		s = "default"
	}
	return s
}
