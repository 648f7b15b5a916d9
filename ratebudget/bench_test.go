package ratebudget

import (
	"context"
	"testing"
	"time"
)

// BenchmarkAcquireDone measures the per-request overhead on a real file in a
// fresh directory. "full-window" keeps the ledger at its worst steady state:
// 300 points per 60s spent as 150 two-point requests, one every 400ms of
// fake time, so each call reads and writes 150 live entries without waiting.
// "real-clock" uses the wall clock with a budget too large to wait on.
func BenchmarkAcquireDone(b *testing.B) {
	ctx := context.Background()
	b.Run("full-window", func(b *testing.B) {
		clk := newFakeClock()
		l := openTest(b, b.TempDir(), DefaultConfig(), clk)
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
		l, err := Open(b.TempDir(), "bench", cfg)
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
