package cli

import "testing"

// The rows left spend what the plan priced them at, unless this run's
// rows have cost more each: then the pace seen so far is what the ETA
// must wait the budget out for.
func TestPointsLeftFollowsWhatRowsReallyCost(t *testing.T) {
	conn := &Connection{spent: &spentMeter{}}
	conn.spent.points.Store(40) // spent before the job started: not the rows'
	before := 40
	for _, tc := range []struct {
		name                       string
		spent, points, total, done int
		earlier, want              int
	}{
		{name: "nothing done yet: the plan's figure", spent: 40, points: 270, total: 27, done: 0, want: 270},
		{name: "rows cost what the plan said", spent: 140, points: 270, total: 27, done: 10, want: 170},
		{name: "rows cost twice the plan's price", spent: 240, points: 135, total: 27, done: 10, want: 340},
		{name: "rows cost less: the plan's figure holds", spent: 60, points: 270, total: 27, done: 10, want: 170},
		{name: "rows an earlier run did are not this run's pace", spent: 240, points: 270, total: 27, done: 15, earlier: 5, want: 240},
	} {
		conn.spent.points.Store(int64(tc.spent))
		if got := pointsLeft(conn, before, tc.points, tc.total, tc.done, tc.earlier); got != tc.want {
			t.Errorf("%s: pointsLeft = %d, want %d", tc.name, got, tc.want)
		}
	}
}
