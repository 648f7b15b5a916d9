package families

import (
	"strings"
	"testing"
)

// The root lists families in the registry's order and cobra finds them by
// name or alias, so the table is sorted and no word names two families.
func TestRegistryIsSortedAndUnambiguous(t *testing.T) {
	seen := map[string]string{}
	for i, fm := range List() {
		if i > 0 && strings.Compare(List()[i-1].Name, fm.Name) >= 0 {
			t.Errorf("%s comes after %s: the registry must be sorted by name", fm.Name, List()[i-1].Name)
		}
		if fm.build == nil || fm.short == "" {
			t.Errorf("%s: no build function or short help", fm.Name)
		}
		for _, w := range append([]string{fm.Name}, fm.Aliases...) {
			if other, dup := seen[w]; dup {
				t.Errorf("%q names both %s and %s", w, other, fm.Name)
			}
			seen[w] = fm.Name
		}
	}
}
