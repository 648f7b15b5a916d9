package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"users", "user", 1}, {"grups", "groups", 1},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	cands := []string{"timeout", "token", "template", "max_wait"}
	if got := Nearest("timout", cands, Typo(6)); got != "timeout" {
		t.Errorf("timout: %q", got)
	}
	if got := Nearest("zzzzzzzz", cands, Typo(8)); got != "" {
		t.Errorf("zzzzzzzz: %q, want nothing", got)
	}
	// Among equally near candidates the first given wins.
	if got := Nearest("ab", []string{"bb", "aa"}, 1); got != "bb" {
		t.Errorf("tie: %q, want bb", got)
	}
	if got := Nearest("x", nil, 5); got != "" {
		t.Errorf("no candidates: %q", got)
	}
}
