package families

import (
	"slices"
	"strings"
	"sync"

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

// IsNamed reports whether word is the family's name or one of its aliases,
// as cobra finds its command.
func (fm Family) IsNamed(word string) bool {
	return fm.Name == word || slices.Contains(fm.Aliases, word)
}

// Stub is the family's command before its subcommands are built: enough
// for the root's help and for cobra to find it by name or alias.
func (fm Family) Stub() *cobra.Command {
	return engine.Group{Name: fm.Name, Aliases: fm.Aliases, Short: fm.short}.Stub()
}

// registry holds every API family; each family file adds itself in init,
// so adding a family touches no shared file. It is sorted by name, for a
// stable help page, once on first use rather than kept sorted by every
// insertion while the program starts.
var (
	registry     []Family
	sortRegistry = sync.OnceFunc(func() {
		slices.SortFunc(registry, func(a, b Family) int { return strings.Compare(a.Name, b.Name) })
	})
)

// List is every family, sorted by name, without building any.
func List() []Family {
	sortRegistry()
	return registry
}

func register(name string, aliases []string, short string, build func() engine.Group) {
	registry = append(registry, Family{name, aliases, short, build})
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
	fams := List()
	gs := make([]engine.Group, 0, len(fams))
	for _, fm := range fams {
		gs = append(gs, fm.Group())
	}
	return gs
}
