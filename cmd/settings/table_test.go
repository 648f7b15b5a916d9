package settings

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSettingParse(t *testing.T) {
	get := func(key string) Setting {
		s, ok := Lookup(key)
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
	if _, ok := Lookup("budget.costs"); !ok {
		t.Error("budget.costs itself should be known")
	}
	if _, ok := Lookup("budget.pints"); ok {
		t.Error("a misspelled key matched a setting")
	}
	if got := get("budget.window").Env(); got != "ORGCTL_BUDGET_WINDOW" {
		t.Errorf("Env = %s", got)
	}
}

// Two rows for one key would let the first shadow the second's rules.
func TestSettingsHaveOneRowPerKey(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range table {
		if seen[s.Key] {
			t.Errorf("setting %q has more than one row", s.Key)
		}
		seen[s.Key] = true
	}
}

// Every setting of the table that the config file or a flag can set
// reaches the typed Config: a value other than its default, given through
// its environment variable, changes what Load returns.
func TestEverySettingReachesTheConfig(t *testing.T) {
	isolate(t)
	load := func() Config {
		t.Helper()
		c, err := NewSources().Load(LoadOptions{NewProfile: true})
		if err != nil {
			t.Fatal(err)
		}
		c.file = nil
		return *c
	}
	base := load()
	for _, s := range table {
		if s.EnvOnly && s.Key != "columns" {
			continue // read where it is used: the token, the terminal's width
		}
		key, value := s.Key, ""
		switch s.Type {
		case TypeBool:
			value = "true"
		case TypeInt:
			value = "7"
		case TypeDuration:
			value = "7s"
		case TypeEnum:
			for _, e := range s.Enum {
				if e != s.Default {
					value = e
					break
				}
			}
		case TypeURL:
			value = s.Schemes[0] + "://acme.example.com"
		default:
			value = "sample"
		}
		if s.Family {
			key += ".users"
		}
		t.Run(key, func(t *testing.T) {
			t.Setenv(Setting{Key: key}.Env(), value)
			if got := load(); reflect.DeepEqual(got, base) {
				t.Errorf("%s=%s left the Config as it was", Setting{Key: key}.Env(), value)
			}
		})
	}
}

// isolate points every orgctl directory at a fresh temp dir and clears
// the variables a developer's shell may set.
func isolate(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", dir+"/config")
	t.Setenv("XDG_STATE_HOME", dir+"/state")
	t.Setenv("XDG_CACHE_HOME", dir+"/cache")
	for _, s := range table {
		t.Setenv(s.Env(), "")
	}
}
