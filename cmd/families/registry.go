package families

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/ratebudget"
)

// Family is an API family as the root lists it. Its commands are
// declared by build, which runs only for the family a command line names
// (and for help and completion, which look at the whole tree): declaring
// every operation of every family costs more than a short command's run.
type Family struct {
	Name    string
	Aliases []string
	short   string
	build   func() engine.Group
}

// Group is the family's full declaration.
func (fm Family) Group() engine.Group {
	g := fm.build()
	g.Name, g.Aliases, g.Short = fm.Name, fm.Aliases, fm.short
	return g
}

// Stub is the family's command before its subcommands are built: enough
// for the root's help and for cobra to find it by name or alias.
func (fm Family) Stub() *cobra.Command {
	return engine.Group{Name: fm.Name, Aliases: fm.Aliases, Short: fm.short}.Stub()
}

// registry holds every API family, sorted by name for a stable help page;
// each family file adds itself in init, so adding a family touches no
// shared file.
var registry []Family

// List is every family, sorted by name, without building any.
func List() []Family { return registry }

func register(name string, aliases []string, short string, build func() engine.Group) {
	fm := Family{name, aliases, short, build}
	i, _ := slices.BinarySearchFunc(registry, name, func(e Family, n string) int { return strings.Compare(e.Name, n) })
	registry = slices.Insert(registry, i, fm)
}

// Called are the budget families of every operation's path.
func Called() []string {
	var out []string
	var walk func(gs []engine.Group)
	walk = func(gs []engine.Group) {
		for _, g := range gs {
			for _, op := range g.Ops {
				out = append(out, ratebudget.Family(op.Path))
			}
			walk(g.Groups)
		}
	}
	walk(All())
	return out
}

// All returns every family's full declaration, sorted by name.
func All() []engine.Group {
	gs := make([]engine.Group, 0, len(registry))
	for _, fm := range registry {
		gs = append(gs, fm.Group())
	}
	return gs
}
