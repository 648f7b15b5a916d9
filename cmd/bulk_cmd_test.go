package cmd

import (
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families"
)

func TestEveryWriteTakesFrom(t *testing.T) {
	root := newRoot(cli.NewFactory("test"), allFamilies)
	n := 0
	for _, g := range families.All() {
		var walk func(prefix string, g engine.Group)
		walk = func(prefix string, g engine.Group) {
			for i := range g.Ops {
				op := &g.Ops[i]
				op.Siblings = g.Ops
				path := prefix + " " + g.Name + " " + strings.Fields(op.Use)[0]
				c, _, err := root.Find(strings.Fields(path))
				if err != nil {
					t.Fatal(err)
				}
				has := c.Flags().Lookup("from") != nil
				if has != op.Writes() {
					t.Errorf("%s: --from %v, writes %v", path, has, op.Writes())
				}
				if op.Writes() {
					n++
				}
				if onExists := c.Flags().Lookup("on-exists") != nil; onExists != (op.Exists != nil) {
					t.Errorf("%s: --on-exists offered %v, Exists declared %v", path, onExists, op.Exists != nil)
				}
				if ex := op.Exists; ex != nil && ex.Check == nil {
					if _, ok := kinds.ByName[ex.Kind]; !ok {
						t.Errorf("%s: no resolve kind %q to look existing ones up in", path, ex.Kind)
					}
					if op.Sibling(ex.Update) == nil && ex.Update != "" {
						t.Errorf("%s: no sibling %q for --on-exists update", path, ex.Update)
					}
				}
			}
			for _, s := range g.Groups {
				walk(strings.TrimSpace(prefix+" "+g.Name), s)
			}
		}
		walk("", g)
	}
	if n < 70 {
		t.Errorf("only %d write commands take --from", n)
	}
}
