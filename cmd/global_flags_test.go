package cmd

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
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

// The packages below cmd run their commands under clitest's root, which
// must carry the same global flags as the real one.
func TestClitestRootHasTheGlobalFlags(t *testing.T) {
	describe := func(fs *pflag.FlagSet) map[string]string {
		m := map[string]string{}
		fs.VisitAll(func(fl *pflag.Flag) {
			m[fl.Name] = fmt.Sprintf("-%s %s %q %q %q", fl.Shorthand, fl.Value.Type(), fl.DefValue, fl.NoOptDefVal, fl.Usage)
		})
		return m
	}
	real := describe(newRoot(cli.NewFactory("test"), allFamilies).PersistentFlags())
	test := describe(clitest.Root(cli.NewFactory("test")).PersistentFlags())
	if !maps.Equal(real, test) {
		t.Errorf("clitest.Root's global flags differ from the root's:\n root: %q\n test: %q", real, test)
	}
}
