package engine_test

import (
	"testing"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

// Every operation that writes takes --from, and --on-exists exactly when it
// declares how to tell that a row's object is already there.
func TestEveryWriteTakesFrom(t *testing.T) {
	f := familytest.Factory(t)
	n := 0
	var walk func(path string, g engine.Group, c *cobra.Command)
	walk = func(path string, g engine.Group, gc *cobra.Command) {
		for _, op := range g.Placed() {
			verb := op.Name()
			c, _, err := gc.Find([]string{verb})
			if err != nil || c == gc {
				t.Fatalf("%s %s: no command (%v)", path, verb, err)
			}
			at := path + " " + verb
			has := c.Flags().Lookup("from") != nil
			if has != op.Writes() {
				t.Errorf("%s: --from %v, writes %v", at, has, op.Writes())
			}
			if op.Writes() {
				n++
			}
			if onExists := c.Flags().Lookup("on-exists") != nil; onExists != (op.Bulk.Exists != nil) {
				t.Errorf("%s: --on-exists offered %v, Exists declared %v", at, onExists, op.Bulk.Exists != nil)
			}
			if ex := op.Bulk.Exists; ex != nil && ex.Check == nil {
				if _, ok := kinds.Lookup(ex.Kind); !ok {
					t.Errorf("%s: no resolve kind %q to look existing ones up in", at, ex.Kind)
				}
				if op.Sibling(ex.Update) == nil && ex.Update != "" {
					t.Errorf("%s: no sibling %q for --on-exists update", at, ex.Update)
				}
			}
		}
		for _, s := range g.Groups {
			sc, _, err := gc.Find([]string{s.Name})
			if err != nil || sc == gc {
				t.Fatalf("%s %s: no command (%v)", path, s.Name, err)
			}
			walk(path+" "+s.Name, s, sc)
		}
	}
	for _, g := range families.All() {
		walk(g.Name, g, g.Command(f))
	}
	if n < 70 {
		t.Errorf("only %d write commands take --from", n)
	}
}
