package cli

import "testing"

func TestVersionBefore(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"2.12.0", "4.0.0", true}, {"4.0.0", "2.12.0", false}, {"4.0.0", "4.0.0", false},
		{"2.9.0", "2.12.0", true}, {"4.0", "4.0.1", true}, {"4.1.0", "4.0.9", false},
	} {
		if got := VersionBefore(c.a, c.b); got != c.want {
			t.Errorf("VersionBefore(%s, %s) = %v", c.a, c.b, got)
		}
	}
}
