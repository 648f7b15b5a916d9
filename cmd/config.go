package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/spf13/viper"
	yaml "go.yaml.in/yaml/v3"

	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/output/atomicfile"
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

func writeConfigFile(m map[string]any) error {
	b, err := yaml.Marshal(m)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(configDir(), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(configPath(), b, 0o600)
}

func profilesOf(m map[string]any) map[string]any {
	p, _ := m["profiles"].(map[string]any)
	return p
}

// loadConfig merges the config file into v (which already has flags, env
// and defaults bound) for the selected profile.
func loadConfig(v *viper.Viper) (*Config, error) {
	file, err := readConfigFile()
	if err != nil {
		return nil, err
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
	if p, ok := profilesOf(file)[name].(map[string]any); ok {
		if err := v.MergeConfigMap(p); err != nil {
			return nil, err
		}
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

// saveProfile sets keys of a profile and writes the file.
func saveProfile(name string, set map[string]any, makeDefault bool) error {
	file, err := readConfigFile()
	if err != nil {
		return err
	}
	profiles := profilesOf(file)
	if profiles == nil {
		profiles = map[string]any{}
		file["profiles"] = profiles
	}
	p, _ := profiles[name].(map[string]any)
	if p == nil {
		p = map[string]any{}
		profiles[name] = p
	}
	for k, v := range set {
		if v == nil {
			delete(p, k)
		} else {
			p[k] = v
		}
	}
	if makeDefault || file["profile"] == nil {
		file["profile"] = name
	}
	return writeConfigFile(file)
}

func deleteProfile(name string) error {
	file, err := readConfigFile()
	if err != nil {
		return err
	}
	delete(profilesOf(file), name)
	if file["profile"] == name {
		delete(file, "profile")
	}
	return writeConfigFile(file)
}
