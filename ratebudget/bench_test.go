package ratebudget

import (
	"context"
	"testing"
	"time"

	"github.com/orgctl/orgctl/ratebudget/redisstore/redistest"
)

// BenchmarkAcquireDone measures the per-request overhead (one Acquire and
// its Done) on each store: a real file in a fresh directory, and a Redis
// server on loopback. "full-window" keeps the ledger at its worst steady
// state: 300 points per 60s spent as 150 two-point requests, one every
// 400ms of fake time, so each call reads and writes 150 live entries without
// waiting. "real-clock" uses the real clock (Redis's TIME for Redis) with a
// budget too large to wait on.
//
//	go test -run '^$' -bench AcquireDone ./ratebudget/
func BenchmarkAcquireDone(b *testing.B) {
	kinds := []func(b *testing.B) *storeKind{
		func(*testing.B) *storeKind { return &storeKind{name: "file"} },
		func(b *testing.B) *storeKind { return redisKind(b, redistest.Options{}) },
	}
	for i, name := range []string{"file", "redis"} {
		b.Run(name, func(b *testing.B) { benchmarkAcquireDone(b, kinds[i](b)) })
	}
}

func benchmarkAcquireDone(b *testing.B, k *storeKind) {
	ctx := context.Background()
	b.Run("full-window", func(b *testing.B) {
		clk := newFakeClock()
		l := k.open(b, k.place(b), DefaultConfig(), clk)
		for range 150 {
			acquire(b, l, "/apps").Done(true)
			clk.Advance(400 * time.Millisecond)
		}
		b.ResetTimer()
		for b.Loop() {
			tk, err := l.Acquire(ctx, "/users/u_1")
			if err != nil {
				b.Fatal(err)
			}
			tk.Done(true)
			clk.Advance(400 * time.Millisecond)
		}
		if n := len(clk.Sleeps()); n != 0 {
			b.Fatalf("benchmark waited %d times", n)
		}
	})
	b.Run("real-clock", func(b *testing.B) {
		cfg := DefaultConfig()
		cfg.Points, cfg.Window = 1<<30, 50*time.Millisecond
		l, err := k.openErr(k.place(b), cfg)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			tk, err := l.Acquire(ctx, "/users/u_1")
			if err != nil {
				b.Fatal(err)
			}
			tk.Done(true)
		}
	})
}
