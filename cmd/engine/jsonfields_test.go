package engine_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

// Every command that only reads offers --json with the fields it knows.
func TestEveryReadingCommandOffersJSONFields(t *testing.T) {
	f := familytest.Factory(t)
	n := 0
	for _, g := range families.All() {
		var walk func(g engine.Group, path string)
		walk = func(g engine.Group, path string) {
			for _, op := range g.Placed() {
				if !op.Reads() {
					continue
				}
				n++
				// --json given empty lists the fields the command offers.
				c := engine.Command(op, f)
				var out bytes.Buffer
				c.SetOut(&out)
				if err := c.Flags().Set("json", ""); err != nil {
					t.Fatalf("%s %s: %v", path, op.Use, err)
				}
				if _, err := engine.JSONSelection(c); err == nil || strings.TrimSpace(out.String()) == "" {
					t.Errorf("%s %s: no --json fields (%s %s): %v", path, op.Use, op.Method, op.Path, err)
				}
			}
			for _, sub := range g.Groups {
				walk(sub, path+" "+sub.Name)
			}
		}
		walk(g, g.Name)
	}
	if n < 40 {
		t.Errorf("only %d reading commands found", n)
	}
}
