package cmd

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestSettingParse(t *testing.T) {
	get := func(key string) Setting {
		s, ok := lookupSetting(key)
		if !ok {
			t.Fatalf("no setting %q", key)
		}
		return s
	}
	for _, tc := range []struct {
		key, text string
		want      any
	}{
		{"timeout", "45s", 45 * time.Second},
		{"max_wait", "0s", time.Duration(0)},
		{"budget.points", " 120 ", int64(120)},
		{"budget.reserve", "0", int64(0)},
		{"budget.costs.users", "3", int64(3)},
		{"output", "yaml", "yaml"},
		{"debug", "true", true},
		{"base_url", "https://acme.example.com", "https://acme.example.com"},
	} {
		got, err := get(tc.key).Parse(tc.text)
		if err != nil || got != tc.want {
			t.Errorf("%s %q: got %v, %v; want %v", tc.key, tc.text, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ key, text, says string }{
		{"timeout", "abc", "a positive duration"},
		{"timeout", "-5s", "a positive duration"},
		{"timeout", "0s", "a positive duration"},
		{"budget.points", "lots", "a whole number"},
		{"budget.points", "0", "at least 1"},
		{"budget.costs.users", "x", "a whole number"},
		{"output", "xml", "one of table, json, yaml"},
		{"debug", "maybe", "true or false"},
		{"base_url", "acme.example.com", "a URL"},
		{"base_url", "https://ada:secret@acme.example.com", "user info"},
		{"sandbox_org", "full", "one of demo, empty"},
	} {
		_, err := get(tc.key).Parse(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s %q: err %v, want one saying %q", tc.key, tc.text, err, tc.says)
		}
	}
	if _, ok := lookupSetting("budget.costs"); !ok {
		t.Error("budget.costs itself should be known")
	}
	if _, ok := lookupSetting("budget.pints"); ok {
		t.Error("a misspelled key matched a setting")
	}
	if got := get("budget.window").Env(); got != "ORGCTL_BUDGET_WINDOW" {
		t.Errorf("Env = %s", got)
	}
}

// Every global flag is a setting, so it can come from the file and the
// environment and is documented by the same table.
func TestGlobalFlagsAreSettings(t *testing.T) {
	root := NewRootCmd(NewFactory("test"))
	root.PersistentFlags().VisitAll(func(fl *pflag.Flag) {
		key := strings.ReplaceAll(fl.Name, "-", "_")
		s, ok := lookupSetting(key)
		if !ok {
			t.Errorf("global flag --%s has no setting %q", fl.Name, key)
			return
		}
		if s.Flag != fl.Name {
			t.Errorf("setting %q names flag %q, want %q", key, s.Flag, fl.Name)
		}
	})
}

// Two rows for one key would let the first shadow the second's rules.
func TestSettingsHaveOneRowPerKey(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range settings {
		if seen[s.Key] {
			t.Errorf("setting %q has more than one row", s.Key)
		}
		seen[s.Key] = true
	}
}
