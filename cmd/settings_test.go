package cmd

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/settings"
)

// Every global flag is a setting, so it can come from the file and the
// environment and is documented by the same table.
func TestGlobalFlagsAreSettings(t *testing.T) {
	root := newRoot(cli.NewFactory("test"), allFamilies)
	root.PersistentFlags().VisitAll(func(fl *pflag.Flag) {
		key := strings.ReplaceAll(fl.Name, "-", "_")
		s, ok := settings.Lookup(key)
		if !ok {
			t.Errorf("global flag --%s has no setting %q", fl.Name, key)
			return
		}
		if s.Flag != fl.Name {
			t.Errorf("setting %q names flag %q, want %q", key, s.Flag, fl.Name)
		}
	})
}
