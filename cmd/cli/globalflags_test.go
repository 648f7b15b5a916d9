package cli

import (
	"testing"

	"github.com/spf13/pflag"

	"github.com/orgctl/orgctl/cmd/settings"
)

// A global flag's default is its setting's, so help, the config file's
// absence and the flag agree.
func TestGlobalFlagDefaultsAreTheSettings(t *testing.T) {
	pf := pflag.NewFlagSet("orgctl", pflag.ContinueOnError)
	AddGlobalFlags(pf)
	n := 0
	for _, s := range settings.All() {
		if s.Flag == "" || s.Default == "" || s.Key == "profile" {
			continue
		}
		fl := pf.Lookup(s.Flag)
		if fl == nil {
			t.Errorf("setting %s names flag --%s, which the root lacks", s.Key, s.Flag)
			continue
		}
		want := s.Default
		if s.Type == settings.TypeDuration {
			want = settings.DefaultDuration(s.Key).String()
		}
		if fl.DefValue != want {
			t.Errorf("--%s defaults to %q, setting %s to %q", s.Flag, fl.DefValue, s.Key, want)
		}
		n++
	}
	if n < 5 {
		t.Fatalf("only %d flags compared", n)
	}
}
