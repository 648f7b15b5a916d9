package kinds

import "testing"

func TestLevelRankOrdersTheAccessLevels(t *testing.T) {
	for level, want := range map[string]int{"none": 0, "use": 1, "edit": 2, "own": 3, "": 0, "OWN": 0, "admin": 0} {
		if got := LevelRank(level); got != want {
			t.Errorf("LevelRank(%q) = %d, want %d", level, got, want)
		}
	}
	for i, l := range AccessLevels {
		if LevelRank(l) != i {
			t.Errorf("AccessLevels[%d] = %q ranks %d", i, l, LevelRank(l))
		}
	}
}
