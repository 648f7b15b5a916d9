package settings

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// The table writes the budget's and the printer's defaults as literals
// (a computed table would be init work before every command); this holds
// them to their owners.
func TestTableDefaultsAreTheirOwners(t *testing.T) {
	b := ratebudget.DefaultConfig()
	ints := map[string]int{"budget.points": b.Points, "budget.reserve": b.Reserve}
	for k, want := range ints {
		if DefaultOf(k) != strconv.Itoa(want) {
			t.Errorf("%s defaults to %s, the budget to %d", k, DefaultOf(k), want)
		}
	}
	durs := map[string]time.Duration{"budget.window": b.Window, "budget.block": b.Block, "max_wait": b.MaxWait}
	for k, want := range durs {
		if DefaultDuration(k) != want {
			t.Errorf("%s defaults to %s, the budget to %s", k, DefaultOf(k), want)
		}
	}
	s, _ := Lookup("output")
	if !slices.Equal(s.Enum, append(slices.Clip(output.Formats), "markdown")) || s.Default != output.Formats[0] {
		t.Errorf("output setting %v (default %s), printer formats %v", s.Enum, s.Default, output.Formats)
	}
}
