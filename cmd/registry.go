package cmd

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/ratebudget"
)

// A family is an API family as the root lists it. Its commands are
// declared by build, which runs only for the family a command line names
// (and for help and completion, which look at the whole tree): declaring
// every operation of every family costs more than a short command's run.
type family struct {
	name    string
	aliases []string
	short   string
	build   func() engine.Group
}

// group is the family's full declaration.
func (fm family) group() engine.Group {
	g := fm.build()
	g.Name, g.Aliases, g.Short = fm.name, fm.aliases, fm.short
	return g
}

// shell is the family's command before its subcommands are built: enough
// for the root's help and for cobra to find it by name or alias.
func (fm family) shell() *cobra.Command {
	return engine.Group{Name: fm.name, Aliases: fm.aliases, Short: fm.short}.Shell()
}

// registry holds every API family, sorted by name for a stable help page;
// each family file adds itself in init, so adding a family touches no
// shared file.
var registry []family

func register(name string, aliases []string, short string, build func() engine.Group) {
	fm := family{name, aliases, short, build}
	i, _ := slices.BinarySearchFunc(registry, name, func(e family, n string) int { return strings.Compare(e.name, n) })
	registry = slices.Insert(registry, i, fm)
}

// calledFamilies are the budget families of every operation's path.
func calledFamilies() []string {
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
	walk(families())
	return out
}

// families returns every family's full declaration, sorted by name.
func families() []engine.Group {
	gs := make([]engine.Group, 0, len(registry))
	for _, fm := range registry {
		gs = append(gs, fm.group())
	}
	return gs
}
