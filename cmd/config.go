package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	yaml "go.yaml.in/yaml/v3"

	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/internal/suggest"
)

// Directories follow the XDG base directory spec.
func configDir() string { return xdgDir("XDG_CONFIG_HOME", ".config") }
func stateDir() string  { return xdgDir("XDG_STATE_HOME", ".local/state") }
func cacheDir() string  { return xdgDir("XDG_CACHE_HOME", ".cache") }

func xdgDir(env, fallback string) string {
	if d := os.Getenv(env); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "orgctl")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = os.TempDir()
	}
	return filepath.Join(home, fallback, "orgctl")
}

func configPath() string { return filepath.Join(configDir(), "config.yaml") }

// tokenFileDir holds --insecure-storage tokens.
func tokenFileDir() string { return filepath.Join(configDir(), "tokens") }

// Config is the merged configuration of one run: flags > ORGCTL_* > the
// selected profile in the config file > the file's top level > defaults.
type Config struct {
	v       *viper.Viper
	Profile string
	file    map[string]any
}

// configFile is the YAML on disk. Profiles keep their names' case, which
// viper would fold, so the file is read and written with yaml directly.
func readConfigFile() (map[string]any, error) {
	b, err := os.ReadFile(configPath())
	if errors.Is(err, os.ErrNotExist) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	if err := yaml.Unmarshal(b, &m); err != nil {
		return nil, &UsageError{fmt.Errorf("config file %s is not valid YAML: %v", configPath(), err)}
	}
	return m, nil
}

func profilesOf(m map[string]any) map[string]any {
	p, _ := m["profiles"].(map[string]any)
	return p
}

// loadConfig merges the config file into v (which already has flags, env
// and defaults bound) for the selected profile, then checks every setting
// (see checkConfig); flags may be nil, warn receives one line per problem
// that does not stop the run. newProfile lets the profile be one the file
// does not define yet.
func loadConfig(v *viper.Viper, flags *pflag.FlagSet, warn func(string), newProfile bool) (*Config, error) {
	doc, err := loadConfigDoc()
	if err != nil {
		return nil, err
	}
	file := map[string]any{}
	if err := doc.doc.Decode(&file); err != nil {
		return nil, &UsageError{fmt.Errorf("config file %s: %v", doc.path, err)}
	}
	top := map[string]any{}
	for k, val := range file {
		if k != "profiles" {
			top[k] = val
		}
	}
	if err := v.MergeConfigMap(top); err != nil {
		return nil, err
	}
	name := v.GetString("profile")
	if name == "" {
		name = "default"
	}
	if err := credentials.ValidProfile(name); err != nil {
		return nil, &UsageError{err}
	}
	p, ok := profilesOf(file)[name].(map[string]any)
	if ok {
		if err := v.MergeConfigMap(p); err != nil {
			return nil, err
		}
	} else if name != "default" && !newProfile {
		return nil, unknownProfile(name, file)
	}
	if err := checkConfig(v, flags, doc, name, warn); err != nil {
		return nil, err
	}
	return &Config{v: v, Profile: name, file: file}, nil
}

// ProfileSettings are what the file records for a profile.
func (c *Config) profileMap(name string) map[string]any {
	p, _ := profilesOf(c.file)[name].(map[string]any)
	return p
}

// HasProfile reports whether the config file defines the profile.
func (c *Config) HasProfile(name string) bool { return c.profileMap(name) != nil }

// ProfileNames lists the profiles in the config file, sorted.
func ProfileNames() []string {
	file, err := readConfigFile()
	if err != nil {
		return nil
	}
	var names []string
	for n := range profilesOf(file) {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// saveProfile sets keys of a profile and writes the file, keeping its
// comments and order.
func saveProfile(name string, set map[string]any, makeDefault bool) error {
	d, err := loadConfigDoc()
	if err != nil {
		return err
	}
	for _, k := range sortedKeys(set) {
		if set[k] == nil {
			d.Unset(name, k)
		} else if err := d.Set(name, k, set[k]); err != nil {
			return err
		}
	}
	if _, has := d.Get("", "profile"); makeDefault || !has {
		if err := d.Set("", "profile", name); err != nil {
			return err
		}
	}
	return d.Save()
}

func deleteProfile(name string) error {
	d, err := loadConfigDoc()
	if err != nil {
		return err
	}
	d.DeleteProfile(name)
	if n, ok := d.Get("", "profile"); ok && n.Value == name {
		d.Unset("", "profile")
	}
	return d.Save()
}

// unknownProfile names a profile the config file does not define, the ones
// it does, and the nearest, so a typo is not taken for a fresh start.
func unknownProfile(name string, file map[string]any) error {
	var names []string
	for n := range profilesOf(file) {
		names = append(names, n)
	}
	sort.Strings(names)
	msg := fmt.Sprintf("unknown profile %q", name)
	if near := suggest.Nearest(name, names, suggest.Typo(len(name))); near != "" {
		msg += fmt.Sprintf(": did you mean %s?", near)
	}
	if len(names) == 0 {
		msg += fmt.Sprintf("\nNo profiles are defined yet (%s): create it with `orgctl auth login --profile %s`.", configPath(), name)
	} else {
		msg += fmt.Sprintf("\nProfiles in %s: %s.", configPath(), strings.Join(names, ", "))
		msg += fmt.Sprintf("\nPass --profile with one of them, or create this one with `orgctl auth login --profile %s`.", name)
	}
	return &UsageError{errors.New(msg)}
}
