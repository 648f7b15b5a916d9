package ratebudget

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// The scripts that measure points (.ci/points-*.sh) price a --debug log
// with .ci/price.awk; its list must be this package's, or their figures
// measure against another price list than the one orgctl paces by.
func TestPriceAwkHasTheServicePriceList(t *testing.T) {
	b, err := os.ReadFile("../.ci/price.awk")
	if err != nil {
		t.Fatal(err)
	}
	costs := map[string]int{}
	for _, m := range regexp.MustCompile(`cost\["(\w+)"\] = (\d+)`).FindAllStringSubmatch(string(b), -1) {
		costs[m[1]], _ = strconv.Atoi(m[2])
	}
	if len(costs) != len(defaultCosts) {
		t.Errorf("price.awk lists %d families, the price list %d", len(costs), len(defaultCosts))
	}
	for fam, want := range defaultCosts {
		if costs[fam] != want {
			t.Errorf("price.awk prices %s at %d, the price list at %d", fam, costs[fam], want)
		}
	}
	aliases := map[string]string{}
	for _, m := range regexp.MustCompile(`alias\["(\w+)"\] = "(\w+)"`).FindAllStringSubmatch(string(b), -1) {
		aliases[m[1]] = m[2]
	}
	for from, to := range familyAliases {
		if aliases[from] != to {
			t.Errorf("price.awk maps %s to %q, the price list to %q", from, aliases[from], to)
		}
	}
	if m := regexp.MustCompile(`unknown = (\d+)`).FindStringSubmatch(string(b)); m == nil || m[1] != strconv.Itoa(UnknownCost) {
		t.Errorf("price.awk prices an unlisted family at %v, the price list at %d", m, UnknownCost)
	}
}
