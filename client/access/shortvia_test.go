package access

import (
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
)

// A VIA is shortened by its structure, never mid-word.
func TestShortVia(t *testing.T) {
	long := "direct; universal through All Users; universal through support"
	for _, c := range []struct {
		width int
		want  string
	}{
		{100, long},
		{50, "direct; universal (All Users); universal (support)"},
		{30, "direct; universal"},
		{12, "direct +1"},
		{3, "direct"},
	} {
		if got := ShortVia(long, c.width); got != c.want {
			t.Errorf("width %d: got %q, want %q", c.width, got, c.want)
		}
	}
	if got := ShortVia("universal through All Users", 21); got != "universal (All Users)" {
		t.Errorf("got %q", got)
	}
	if got := ShortVia("universal through All Users", 20); got != "universal" {
		t.Errorf("got %q", got)
	}
	if got := ShortVia("inherited from app:/Finance/Reports", 25); got != "inherited (app:/Finance/Reports)" && got != "inherited" {
		t.Errorf("got %q", got)
	}
	if got := ShortVia("member of support; inherited from app:/Finance", 20); got != "member; inherited" {
		t.Errorf("got %q", got)
	}
	// the group a user is a member of is named before universal access
	// loses its groups: it is what sets this user apart
	member := "member of viewer; universal through All Users; universal through support"
	for _, c := range []struct {
		width int
		want  string
	}{
		{60, "member (viewer); universal (All Users); universal (support)"},
		{26, "member (viewer); universal"},
		{24, "group viewer; universal"},
		{20, "member; universal"},
	} {
		if got := ShortVia(member, c.width); got != c.want {
			t.Errorf("width %d: got %q, want %q", c.width, got, c.want)
		}
	}
	if got := ShortVia("universal through All Users; inherited from app:/Finance", 30); got != "universal; folder app:/Finance" {
		t.Errorf("got %q", got)
	}
	for _, w := range []int{10, 20, 40} {
		got := ShortVia(long, w)
		if runewidth.StringWidth(got) > w && !strings.HasPrefix(long, got) && got != "direct" {
			t.Errorf("width %d: %q", w, got)
		}
	}
}
