package ratebudget

import (
	"testing"
	"time"
)

func TestStatusTimeFor(t *testing.T) {
	now := time.Now()
	st := Status{Points: 300, Window: 6 * time.Second}
	for _, tc := range []struct {
		name   string
		free   int
		next   time.Time
		block  time.Time
		points int
		want   time.Duration
	}{
		{"fresh budget, 1200 points", 300, time.Time{}, time.Time{}, 1200, 18 * time.Second},
		{"fits in what is free", 300, time.Time{}, time.Time{}, 200, 0},
		{"window full, points back in 5s", 0, now.Add(5 * time.Second), time.Time{}, 600, 11 * time.Second},
		{"blocked for 3s", 0, time.Time{}, now.Add(3 * time.Second), 300, 3 * time.Second},
	} {
		s := st
		s.Free, s.NextFree, s.BlockedUntil = tc.free, tc.next, tc.block
		got := s.TimeFor(tc.points)
		if d := got - tc.want; d > 50*time.Millisecond || d < -50*time.Millisecond {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
