package redisstore

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/orgctl/orgctl/ratebudget/redisstore/redistest"
)

func open(t *testing.T, srv *redistest.Server) *Store {
	t.Helper()
	st, err := Open(srv.URL, srv.TLSConfig)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Save writes only over the version it was given, so two processes that
// loaded the same state cannot both save; the hash expires when idle.
func TestSaveOnlyOverTheLoadedVersion(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	st := open(t, srv)
	ctx := context.Background()
	data, v0, now, err := st.Load(ctx, "host-abc")
	if err != nil || data != nil || v0 != "" {
		t.Fatalf("empty store: %q %q %v", data, v0, err)
	}
	if d := time.Since(now); d < -time.Second || d > time.Second {
		t.Fatalf("store time %v is %v from this machine's (same machine)", now, d)
	}
	if ok, err := st.Save(ctx, "host-abc", v0, []byte("first"), time.Minute); !ok || err != nil {
		t.Fatalf("first save: %v %v", ok, err)
	}
	if ok, err := st.Save(ctx, "host-abc", v0, []byte("second, over a stale version"), time.Minute); ok || err != nil {
		t.Fatalf("save over a stale version: %v %v, want refused", ok, err)
	}
	data, v1, _, err := st.Load(ctx, "host-abc")
	if err != nil || string(data) != "first" || v1 == v0 {
		t.Fatalf("after save: %q %q %v", data, v1, err)
	}
	if ok, err := st.Save(ctx, "host-abc", v1, []byte("third"), 1500*time.Millisecond); !ok || err != nil {
		t.Fatalf("save over the current version: %v %v", ok, err)
	}
	c := srv.Client(t)
	key := "orgctl:budget:{host-abc}"
	if ttl, err := redis.Int64(c.Do("PTTL", key)); err != nil || ttl <= 0 || ttl > 1500 {
		t.Fatalf("PTTL %v ms (%v), want the idle time just given", ttl, err)
	}
	if h, err := redis.StringMap(c.Do("HGETALL", key)); err != nil || h["s"] != "third" {
		t.Fatalf("hash = %v (%v)", h, err)
	}
	if data, _, _, _ := st.Load(ctx, "other-key"); data != nil {
		t.Fatalf("another key sees %q", data)
	}
}

// The scripts run by EVALSHA; a server that lost its script cache (a
// restart, SCRIPT FLUSH) gets them again by EVAL, transparently.
func TestScriptsSurviveAFlushedScriptCache(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	st := open(t, srv)
	ctx := context.Background()
	if _, _, _, err := st.Load(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Client(t).Do("SCRIPT", "FLUSH"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save(ctx, "k", "", []byte("x"), time.Minute); err != nil {
		t.Fatalf("save after SCRIPT FLUSH: %v", err)
	}
	if data, _, _, err := st.Load(ctx, "k"); err != nil || string(data) != "x" {
		t.Fatalf("load after SCRIPT FLUSH: %q %v", data, err)
	}
}

func TestPasswordIsRequiredAndHidden(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{Password: "pa55-word"})
	ctx := context.Background()
	if _, _, _, err := open(t, srv).Load(ctx, "k"); err != nil {
		t.Fatalf("with the password: %v", err)
	}
	bad, err := Open(strings.Replace(srv.URL, "pa55-word", "wrong-pw", 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	_, _, _, err = bad.Load(ctx, "k")
	if err == nil || strings.Contains(err.Error(), "wrong-pw") {
		t.Fatalf("wrong password: %v", err)
	}
	if s := bad.String(); strings.Contains(s, "wrong-pw") || !strings.Contains(s, srv.Addr) {
		t.Fatalf("String() = %q, want the address without the password", s)
	}
	none, err := Open("redis://"+srv.Addr+"/0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer none.Close()
	if _, _, _, err := none.Load(ctx, "k"); err == nil || !strings.Contains(err.Error(), "NOAUTH") {
		t.Fatalf("no password: %v, want NOAUTH", err)
	}
}

// rediss:// with an ACL user: the certificate is verified, the user's
// password is checked, and plain redis:// cannot talk to the TLS port.
func TestTLSWithACLUser(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{TLS: true, User: "budget", Password: "tls-pw"})
	ctx := context.Background()
	st := open(t, srv)
	if ok, err := st.Save(ctx, "k", "", []byte("over tls"), time.Minute); !ok || err != nil {
		t.Fatalf("save over TLS: %v %v", ok, err)
	}
	if data, _, _, err := st.Load(ctx, "k"); err != nil || string(data) != "over tls" {
		t.Fatalf("load over TLS: %q %v", data, err)
	}
	untrusted, err := Open(srv.URL, nil) // system roots do not know the test CA
	if err != nil {
		t.Fatal(err)
	}
	defer untrusted.Close()
	if _, _, _, err := untrusted.Load(ctx, "k"); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("unknown CA: %v, want a certificate error", err)
	}
	plain, err := Open(strings.Replace(srv.URL, "rediss://", "redis://", 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if _, _, _, err := plain.Load(ctx, "k"); err == nil {
		t.Fatal("plain redis:// talked to a TLS-only server")
	}
	if _, _, _, err := st.Load(ctx, "elsewhere"); err != nil {
		t.Fatalf("a key under orgctl:budget: must be allowed: %v", err)
	}
	if _, err := srv.Client(t).Do("SET", "other:key", "x"); err == nil {
		t.Fatal("the ACL user may write outside orgctl:budget:*; the test's ACL is too wide")
	}
}

func TestOpenRejectsWhatIsNotARedisURL(t *testing.T) {
	for _, u := range []string{"file", "", "http://host:6379", "redis://", "unix:///tmp/redis.sock", "localhost:6379", "rediss://:hunter2@/0"} {
		_, err := Open(u, nil)
		if err == nil {
			t.Errorf("Open(%q) accepted it", u)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Open(%q) error shows the password: %v", u, err)
		}
	}
	st, err := Open("rediss://user:hunter2@redis.example:6380/3", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if got := st.String(); got != "rediss://user:xxxxx@redis.example:6380/3" {
		t.Errorf("String() = %q", got)
	}
}

// An unreachable store answers with an error within the dial timeout, not
// after retries.
func TestUnreachableStoreFailsFast(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	srv.Stop()
	st := open(t, srv)
	start := time.Now()
	_, _, _, err := st.Load(context.Background(), "k")
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("err = %v, want connection refused", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("took %v to fail", d)
	}
}

// A server that restarted closed the pooled connection: the next load
// notices on it, runs on a new connection, and the save after it works.
func TestLoadAfterARestartUsesANewConnection(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	st := open(t, srv)
	ctx := context.Background()
	if _, _, _, err := st.Load(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	srv.Restart()
	data, v, _, err := st.Load(ctx, "k")
	if err != nil || data != nil || v != "" {
		t.Fatalf("load after a restart: %q %q %v, want the empty state", data, v, err)
	}
	if ok, err := st.Save(ctx, "k", v, []byte("x"), time.Minute); !ok || err != nil {
		t.Fatalf("save after a restart: %v %v", ok, err)
	}
}

// Cancelling the context ends a command whose reply has not come, rather
// than waiting for the connection's timeout.
func TestCancelEndsAWaitForTheReply(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // a server that takes commands and never answers
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go io.Copy(io.Discard, c)
		}
	}()
	st, err := Open("redis://"+ln.Addr().String()+"/0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, _, _, err := st.Load(ctx, "k"); !errors.Is(err, context.Canceled) {
		t.Fatalf("load cancelled while waiting: %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := st.Save(ctx, "k", "", []byte("x"), time.Minute); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("save past its deadline: %v, want context.DeadlineExceeded", err)
	}
}
