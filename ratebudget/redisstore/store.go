package redisstore

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/orgctl/orgctl/output/redact"
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
	url        string
	opts       []redis.DialOption
	name       string
	load, save *redis.Script

	mu     sync.Mutex
	idle   redis.Conn // a ledger sends one command at a time: one is enough
	closed bool
}

// timeout bounds each dial, write and read: a budget store that does not
// answer must fail the command in seconds.
const timeout = 2 * time.Second

// Open returns the store at rawURL, redis://[user:password@]host:port/db or
// rediss:// for TLS. It does not connect: the first Load does, so a command
// that never needs the budget never waits for Redis. tlsConfig, if not nil,
// replaces the TLS settings of a rediss:// URL (a private CA in tests).
func Open(rawURL string, tlsConfig *tls.Config) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return nil, fmt.Errorf("%q is not a Redis URL: want redis://[user:password@]host:port/db, or rediss:// for TLS", redact.URL(rawURL))
	}
	if db := strings.TrimPrefix(u.Path, "/"); db != "" {
		if n, err := strconv.Atoi(db); err != nil || n < 0 {
			return nil, fmt.Errorf("Redis URL %s: the path must be a database number, not %q", redact.URL(rawURL), db)
		}
	}
	if u.RawQuery != "" {
		return nil, fmt.Errorf("Redis URL %s: options after ? are not supported", redact.URL(rawURL))
	}
	opts := []redis.DialOption{
		redis.DialConnectTimeout(timeout), redis.DialReadTimeout(timeout), redis.DialWriteTimeout(timeout),
	}
	if tlsConfig != nil && u.Scheme == "rediss" {
		opts = append(opts, redis.DialTLSConfig(tlsConfig))
	}
	return &Store{
		url:  rawURL,
		opts: opts,
		name: redact.URL(rawURL),
		load: redis.NewScript(1, loadSrc),
		save: redis.NewScript(1, saveSrc),
	}, nil
}

// String is the URL with its password hidden.
func (s *Store) String() string { return s.name }

// Close closes the connections.
func (s *Store) Close() error {
	s.mu.Lock()
	c := s.idle
	s.idle, s.closed = nil, true
	s.mu.Unlock()
	if c != nil {
		return c.Close()
	}
	return nil
}

// conn returns the idle connection, or a new one; reused says which.
func (s *Store) conn(ctx context.Context) (c redis.Conn, reused bool, err error) {
	s.mu.Lock()
	c, s.idle = s.idle, nil
	s.mu.Unlock()
	if c != nil {
		return c, true, nil
	}
	c, err = s.dial(ctx)
	return c, false, err
}

func (s *Store) dial(ctx context.Context) (redis.Conn, error) {
	return redis.DialURLContext(ctx, s.url, s.opts...)
}

// release keeps c for the next command, unless it failed or one is kept
// already.
func (s *Store) release(c redis.Conn) {
	s.mu.Lock()
	if c.Err() == nil && s.idle == nil && !s.closed {
		s.idle, c = c, nil
	}
	s.mu.Unlock()
	if c != nil {
		c.Close()
	}
}

// do runs a script on c. Cancelling ctx closes c, which ends a wait for the
// reply at once; otherwise the connection's timeouts bound it. (redigo's
// own DoContext waits in a second goroutine per command, which made each
// budget update about 40% slower.)
func do(ctx context.Context, c redis.Conn, sc *redis.Script, keysAndArgs ...any) (any, error) {
	stop := context.AfterFunc(ctx, func() { c.Close() })
	v, err := sc.Do(c, keysAndArgs...)
	if !stop() && err != nil {
		return nil, ctx.Err() // the error is the closing's
	}
	return v, err
}

func redisKey(key string) string {
	// The braces are a hash tag: a proxy or cluster keeps one ledger's
	// key in one slot, should it ever become several keys.
	return KeyPrefix + "{" + key + "}"
}

// run runs a script. The server may have closed the idle connection since
// its last use (a restart, an idle timeout): a read-only script that fails
// on it for any reason but the server's own answer runs once more on a new
// connection. A save is never resent: one resent after its reply was lost
// could record a reservation twice.
func (s *Store) run(ctx context.Context, sc *redis.Script, readOnly bool, keysAndArgs ...any) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, reused, err := s.conn(ctx)
	if err != nil {
		return nil, err
	}
	v, err := do(ctx, c, sc, keysAndArgs...)
	s.release(c)
	var answer redis.Error
	if err == nil || !readOnly || !reused || ctx.Err() != nil || errors.As(err, &answer) {
		return v, err
	}
	if c, err = s.dial(ctx); err != nil {
		return nil, err
	}
	v, err = do(ctx, c, sc, keysAndArgs...)
	s.release(c)
	return v, err
}

// Load returns key's state and version and the server's clock.
func (s *Store) Load(ctx context.Context, key string) (data []byte, version string, now time.Time, err error) {
	r, err := redis.Values(s.run(ctx, s.load, true, redisKey(key)))
	if err != nil {
		return nil, "", time.Time{}, err
	}
	if len(r) != 4 {
		return nil, "", time.Time{}, fmt.Errorf("load script answered %d values, want 4", len(r))
	}
	sec, err1 := redis.Int64(r[0], nil)
	usec, err2 := redis.Int64(r[1], nil)
	if err := errors.Join(err1, err2); err != nil {
		return nil, "", time.Time{}, fmt.Errorf("TIME answered %q: %w", r[:2], err)
	}
	now = time.Unix(sec, usec*1000)
	if r[2] != nil {
		version, _ = redis.String(r[2], nil)
	}
	if r[3] != nil {
		data, _ = redis.Bytes(r[3], nil)
	}
	return data, version, now, nil
}

// Save stores data under key if its version is still version.
func (s *Store) Save(ctx context.Context, key, version string, data []byte, idle time.Duration) (bool, error) {
	ms := max(idle.Milliseconds(), 1)
	n, err := redis.Int64(s.run(ctx, s.save, false, redisKey(key), version, data, ms))
	if err != nil {
		return false, err
	}
	return n == 1, nil
}
