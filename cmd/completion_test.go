package cmd

import (
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
)

// The flags of hand-written commands that complete object names exist
// (that their kinds exist is the engine's test).
func TestCommandFlagKindsExist(t *testing.T) {
	root := newRoot(cli.NewFactory("test"), allFamilies)
	for _, fk := range engine.CommandFlagKinds {
		c, _, err := root.Find(strings.Fields(fk.Path))
		if err != nil || c == root {
			t.Errorf("commandFlagKinds: no command %q", fk.Path)
			continue
		}
		if c.Flags().Lookup(fk.Flag) == nil {
			t.Errorf("commandFlagKinds: %q has no --%s (kind %s)", fk.Path, fk.Flag, fk.Kind)
		}
	}
}
