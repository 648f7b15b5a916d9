package redisstore

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/logging"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// loadSrc returns the server's TIME (seconds, microseconds), the version
// and the state, all read in one atomic step.
const loadSrc = `local t = redis.call('TIME')
local h = redis.call('HMGET', KEYS[1], 'v', 's')
return {t[1], t[2], h[1], h[2]}`

// saveSrc writes ARGV[2] if the version is still ARGV[1] (” for none),
// then keeps the hash ARGV[3] ms; 1 if saved, 0 if someone saved first.
const saveSrc = `local v = redis.call('HGET', KEYS[1], 'v')
if (v or '') ~= ARGV[1] then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('HSET', KEYS[1], 's', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`

// KeyPrefix starts every key this package writes.
const KeyPrefix = "orgctl:budget:"

// Store is a Redis server holding ledgers. It is safe for concurrent use.
type Store struct {
	c          *redis.Client
	name       string
	load, save *redis.Script
}

var quietOnce sync.Once

// Open returns the store at rawURL, redis://[user:password@]host:port/db or
// rediss:// for TLS. It does not connect: the first Load does, so a command
// that never needs the budget never waits for Redis. tlsConfig, if not nil,
// replaces the TLS settings of a rediss:// URL (a private CA in tests).
func Open(rawURL string, tlsConfig *tls.Config) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return nil, fmt.Errorf("%q is not a Redis URL: want redis://[user:password@]host:port/db, or rediss:// for TLS", Redact(rawURL))
	}
	opt, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("Redis URL %s: %v", Redact(rawURL), err)
	}
	if tlsConfig != nil && opt.TLSConfig != nil {
		tc := tlsConfig.Clone()
		if tc.ServerName == "" {
			tc.ServerName = opt.TLSConfig.ServerName
		}
		opt.TLSConfig = tc
	}
	// One attempt per call: a budget store that does not answer must fail
	// the command in seconds, and a resent save could apply twice.
	opt.MaxRetries = -1
	opt.DialerRetries = 1
	if opt.DialTimeout == 0 {
		opt.DialTimeout = 2 * time.Second
	}
	if opt.ReadTimeout == 0 {
		opt.ReadTimeout = 2 * time.Second
	}
	if opt.WriteTimeout == 0 {
		opt.WriteTimeout = 2 * time.Second
	}
	if opt.PoolSize == 0 {
		opt.PoolSize = 2 // a ledger sends one command at a time
	}
	// Each orgctl process opens a fresh connection: skip the handshake
	// extras (HELLO 3, CLIENT SETINFO, maintenance notifications).
	opt.Protocol = 2
	opt.DisableIdentity = true
	opt.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	// go-redis logs dial failures to stderr; orgctl reports them itself.
	quietOnce.Do(func() { redis.SetLogger(&logging.VoidLogger{}) })
	return &Store{
		c:    redis.NewClient(opt),
		name: Redact(rawURL),
		load: redis.NewScript(loadSrc),
		save: redis.NewScript(saveSrc),
	}, nil
}

// Redact hides a URL's password, for messages.
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// String is the URL with its password hidden.
func (s *Store) String() string { return s.name }

// Close closes the connections.
func (s *Store) Close() error { return s.c.Close() }

func redisKey(key string) string {
	// The braces are a hash tag: a proxy or cluster keeps one ledger's
	// key in one slot, should it ever become several keys.
	return KeyPrefix + "{" + key + "}"
}

// Load returns key's state and version and the server's clock.
func (s *Store) Load(ctx context.Context, key string) (data []byte, version string, now time.Time, err error) {
	r, err := s.load.Run(ctx, s.c, []string{redisKey(key)}).Slice()
	if err != nil {
		return nil, "", time.Time{}, err
	}
	if len(r) != 4 {
		return nil, "", time.Time{}, fmt.Errorf("load script answered %d values, want 4", len(r))
	}
	sec, err1 := strconv.ParseInt(str(r[0]), 10, 64)
	usec, err2 := strconv.ParseInt(str(r[1]), 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return nil, "", time.Time{}, fmt.Errorf("TIME answered %v: %w", r[:2], err)
	}
	now = time.Unix(sec, usec*1000)
	version = str(r[2])
	if r[3] != nil {
		data = []byte(str(r[3]))
	}
	return data, version, now, nil
}

// Save stores data under key if its version is still version.
func (s *Store) Save(ctx context.Context, key, version string, data []byte, idle time.Duration) (bool, error) {
	ms := max(idle.Milliseconds(), 1)
	n, err := s.save.Run(ctx, s.c, []string{redisKey(key)}, version, data, ms).Int64()
	if err != nil {
		return false, err
	}
	return n == 1, nil
}

func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	case int64:
		return strconv.FormatInt(v, 10)
	}
	return ""
}
