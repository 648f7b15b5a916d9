// Package redisstore keeps orgctl's rate-budget ledgers in Redis, so that
// orgctl processes on any number of machines using one token draw from one
// budget (ratebudget.Store). It knows Redis, keys and time; the arithmetic
// of points stays in ratebudget.
//
// # Layout
//
// A ledger is one hash, orgctl:budget:{<key>}, where <key> is
// ratebudget.Key: the API host and a hash of the token, never the token.
// Field "s" holds the state encoded exactly as in the file ledger's slots,
// field "v" a version that every save increments. The hash expires when no
// process has written it for longer than anything in it can count (the
// idle time the ledger passes to Save), so idle budgets leave nothing behind.
// The ledger reads a state it cannot decode as the whole budget spent, so a
// future format must use a new key prefix rather than share this one.
//
// # One update: load, compute, save if unchanged
//
// Two Lua scripts, run with EVALSHA (EVAL when the server has not cached
// them yet): load returns the server's TIME with the state and its version;
// save writes a new state only if the version is still the one loaded, and
// otherwise saves nothing, so the ledger loads and computes again. Each
// script is atomic, and the version check makes load, compute and save one
// atomic update without a lock that a killed holder could keep. The
// ledger's algorithm therefore exists once, in Go, for files and Redis
// alike, instead of a second time in Lua; the price is two round trips per
// update instead of one (well under a millisecond on a local network), and
// a third and fourth in the rare case another process saved in between.
// A save is never resent: one resent after a lost reply could record a
// reservation twice. Only a load, which writes nothing, is run again on a
// new connection when the idle one turns out to be closed.
//
// # Time comes from the Redis server
//
// Machines' clocks differ by seconds or more, and the ledger compares times
// written by different machines: a charge dated by a machine whose clock is
// 2 s behind would expire 2 s early for everyone and let the fleet overdraw
// the window, and one 2 s ahead would be dated in the future. So every "now"
// is the TIME of the Redis server, read inside the script in the same
// atomic step as the state; machines only sleep for durations computed from
// it, which do not depend on their own clock's setting. Times shown to
// people are converted to the local clock.
//
// # Versions and deployment
//
// The scripts use TIME, HMGET, HGET, HSET, HINCRBY and PEXPIRE and never
// write after reading TIME, so they are valid with or without replication
// of scripts by effects (the default from Redis 5, the only mode from 7).
// Redis 5 or later is supported; tests run against the installed
// redis-server (7.0.15 when this was written). Use a single Redis or the
// primary of a replicated one (not Redis Cluster). The ACL user needs
// ~orgctl:budget:* and +eval +evalsha +time +hmget +hget +hset +hincrby
// +pexpire. rediss:// verifies the server against the system roots, which
// SSL_CERT_FILE or SSL_CERT_DIR can point at a private CA.
//
// It must not import net/http, cobra, or orgctl's cmd, client, output or
// ratebudget packages: it satisfies ratebudget.Store with plain types, so
// ratebudget never links the Redis client on the file-only path, and
// ratebudget's own tests can run every ledger test against Redis too.
package redisstore
