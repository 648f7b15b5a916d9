package engine_test

import (
	"testing"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families"
)

// Every command that only reads offers --json with the fields it knows.
func TestEveryReadingCommandOffersJSONFields(t *testing.T) {
	n := 0
	for _, g := range families.All() {
		var walk func(g engine.Group, path string)
		walk = func(g engine.Group, path string) {
			for i := range g.Ops {
				op := g.Ops[i]
				if op.Columns == nil {
					op.Columns = g.Columns
				}
				if !op.Reads() {
					continue
				}
				n++
				if len(op.JSONFields()) == 0 {
					t.Errorf("%s %s: no --json fields (%s %s)", path, op.Use, op.Method, op.Path)
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
