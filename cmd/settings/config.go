package settings

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	yaml "go.yaml.in/yaml/v3"

	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/internal/suggest"
	"github.com/orgctl/orgctl/completions"
	"github.com/orgctl/orgctl/output/yamlvalue"
	"github.com/orgctl/orgctl/ratebudget"
)

// Directories follow the XDG base directory spec.

// ConfigDir holds config.yaml and --insecure-storage tokens.
func ConfigDir() string { return xdgDir("XDG_CONFIG_HOME", ".config") }

// StateDir holds the budget ledger, bulk jobs and the sandbox's org.
func StateDir() string { return xdgDir("XDG_STATE_HOME", ".local/state") }

// CacheDir holds completion and name lists.
func CacheDir() string { return xdgDir("XDG_CACHE_HOME", ".cache") }

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

// ConfigPath is the config file.
func ConfigPath() string { return filepath.Join(ConfigDir(), "config.yaml") }

// TokenFileDir holds --insecure-storage tokens.
func TokenFileDir() string { return filepath.Join(ConfigDir(), "tokens") }

// Error is a setting or config file orgctl cannot use (exit 2): a value of
// the wrong type or range, a file that is not YAML, an unknown profile.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Config is the merged configuration of one run: flags > ORGCTL_* > the
// selected profile in the config file > the file's top level > defaults.
// Every setting a command reads is a field here.
type Config struct {
	// Profile is the selected profile; ProfileGiven is true when a flag,
	// ORGCTL_PROFILE or the file chose it (rather than the default).
	Profile      string
	ProfileGiven bool

	BaseURL    string
	TokenStore string // "keyring", "file" or "" (either)
	Space      string // the Space a profile was logged in to

	// Output options: -o, --jq, --template, --columns.
	Output, JQ, Template string
	Columns              []string

	Quiet, Debug, InsecureHTTP, Sandbox bool
	Timeout, MaxWait                    time.Duration

	// Budget is budget.* with max_wait.
	Budget ratebudget.Config
	// BudgetStore is "file" (or "") or a Redis URL; BudgetStoreFallback
	// "none" (or "") or "file".
	BudgetStore, BudgetStoreFallback string

	CompletionCacheTTL, CompletionTimeout time.Duration

	// The --sandbox org's settings; zero means the sandbox's default.
	SandboxOrg                  string
	SandboxPoints               int
	SandboxWindow, SandboxBlock time.Duration

	file map[string]any
}

// Sources are where settings come from besides the file: the root's
// global flags and the ORGCTL_* environment. Load merges them with the
// config file into a Config.
type Sources struct {
	v     *viper.Viper
	flags *pflag.FlagSet
}

// NewSources reads ORGCTL_* variables; BindFlags adds the global flags.
func NewSources() *Sources {
	v := viper.New()
	v.SetEnvPrefix("ORGCTL")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
	v.AutomaticEnv()
	v.SetDefault("output", DefaultOf("output"))
	v.SetDefault("timeout", DefaultDuration("timeout"))
	v.SetDefault("max_wait", DefaultDuration("max_wait"))
	return &Sources{v: v}
}

// BindFlags makes each global flag the first source of its setting
// (--max-wait sets max_wait).
func (s *Sources) BindFlags(pf *pflag.FlagSet) {
	pf.VisitAll(func(fl *pflag.Flag) {
		s.v.BindPFlag(strings.ReplaceAll(fl.Name, "-", "_"), fl)
	})
	s.flags = pf
}

// LoadOptions say how to load.
type LoadOptions struct {
	// Warn receives one line per problem that does not stop the run
	// (an unknown key in the file).
	Warn func(string)
	// NewProfile lets the profile be one the file does not define yet
	// (auth login creates it).
	NewProfile bool
	// Families lists the budget families orgctl's commands call, for the
	// check of budget.costs.FAMILY keys; asked only when one is set.
	Families func() []string
	// Profile, when set, is loaded instead of the selected profile.
	Profile string
}

// configFile is the YAML on disk. Profiles keep their names' case, which
// viper would fold, so the file is read and written with yaml directly.
func readConfigFile() (map[string]any, error) {
	b, err := readCapped(ConfigPath())
	if errors.Is(err, os.ErrNotExist) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, err
	}
	var n yaml.Node
	err = yaml.Unmarshal(b, &n)
	var m map[string]any
	if err == nil {
		m, err = yamlvalue.Map(&n)
	}
	if err != nil {
		return nil, &Error{fmt.Errorf("config file %s is not valid YAML: %v", ConfigPath(), err)}
	}
	return m, nil
}

// known is the part of a file section viper needs: the settings and the
// sections that hold them. Unknown keys are only warned about (see
// UnknownKeys), and viper merges each key by comparing it with every key
// merged before, so a file of many unknown keys cost quadratic time.
func known(section map[string]any) map[string]any {
	out := make(map[string]any, len(table))
	for k, val := range section {
		if _, ok := Lookup(k); ok || isSection(k) {
			out[k] = val
		}
	}
	return out
}

func profilesOf(m map[string]any) map[string]any {
	p, _ := m["profiles"].(map[string]any)
	return p
}

// Load merges the config file with the flags and environment for the
// selected profile, checks every setting (see checkConfig), and returns
// the typed result.
func (s *Sources) Load(o LoadOptions) (*Config, error) {
	v := s.v
	if o.Warn == nil {
		o.Warn = func(string) {}
	}
	doc, err := LoadDoc()
	if err != nil {
		return nil, err
	}
	file, err := yamlvalue.Map(doc.doc)
	if err != nil {
		return nil, &Error{fmt.Errorf("config file %s: %v", doc.path, err)}
	}
	if err := v.MergeConfigMap(known(file)); err != nil {
		return nil, err
	}
	name := v.GetString("profile")
	if o.Profile != "" {
		name = o.Profile
	}
	if name == "" {
		name = "default"
	}
	if err := credentials.ValidProfile(name); err != nil {
		return nil, &Error{err}
	}
	p, ok := profilesOf(file)[name].(map[string]any)
	if ok {
		if err := v.MergeConfigMap(known(p)); err != nil {
			return nil, err
		}
	} else if name != "default" && !o.NewProfile {
		return nil, unknownProfile(name, file)
	}
	if err := checkConfig(v, s.flags, doc, name, o.Warn, o.Families); err != nil {
		return nil, err
	}
	return typed(v, name, file), nil
}

// typed reads every setting's winning value, as checkConfig left it in v.
func typed(v *viper.Viper, profile string, file map[string]any) *Config {
	c := &Config{
		Profile:             profile,
		ProfileGiven:        v.IsSet("profile") && v.GetString("profile") != "",
		BaseURL:             v.GetString("base_url"),
		TokenStore:          v.GetString("token_store"),
		Space:               v.GetString("space"),
		Output:              v.GetString("output"),
		JQ:                  v.GetString("jq"),
		Template:            v.GetString("template"),
		Columns:             splitColumns(v.GetString("columns")),
		Quiet:               v.GetBool("quiet"),
		Debug:               v.GetBool("debug"),
		InsecureHTTP:        v.GetBool("insecure_http"),
		Sandbox:             v.GetBool("sandbox"),
		Timeout:             v.GetDuration("timeout"),
		MaxWait:             v.GetDuration("max_wait"),
		Budget:              budget(v),
		BudgetStore:         v.GetString("budget.store"),
		BudgetStoreFallback: v.GetString("budget.store_fallback"),
		CompletionCacheTTL:  completions.DefaultTTL,
		CompletionTimeout:   completions.DefaultDeadline,
		SandboxOrg:          v.GetString("sandbox_org"),
		SandboxPoints:       v.GetInt("sandbox_points"),
		SandboxWindow:       v.GetDuration("sandbox_window"),
		SandboxBlock:        v.GetDuration("sandbox_block"),
		file:                file,
	}
	if v.IsSet("completion.cache_ttl") {
		c.CompletionCacheTTL = v.GetDuration("completion.cache_ttl")
	}
	if d := v.GetDuration("completion.timeout"); d > 0 {
		c.CompletionTimeout = d
	}
	return c
}

// budget reads budget.* and max_wait (ORGCTL_BUDGET_POINTS, ...).
func budget(v *viper.Viper) ratebudget.Config {
	b := ratebudget.DefaultConfig()
	if v.IsSet("budget.points") {
		b.Points = v.GetInt("budget.points")
	}
	if v.IsSet("budget.window") {
		b.Window = v.GetDuration("budget.window")
	}
	if v.IsSet("budget.block") {
		b.Block = v.GetDuration("budget.block")
	}
	if v.IsSet("budget.reserve") {
		b.Reserve = v.GetInt("budget.reserve")
	}
	b.MaxWait = v.GetDuration("max_wait")
	for fam := range b.CostTable() {
		if k := "budget.costs." + fam; v.IsSet(k) {
			if b.Costs == nil {
				b.Costs = map[string]int{}
			}
			b.Costs[fam] = v.GetInt(k)
		}
	}
	for k, val := range v.GetStringMap("budget.costs") {
		if b.Costs == nil {
			b.Costs = map[string]int{}
		}
		if _, set := b.Costs[k]; !set {
			if n, ok := val.(int); ok {
				b.Costs[k] = n
			}
		}
	}
	return b
}

// splitColumns reads --columns: names separated by commas, blanks dropped.
func splitColumns(s string) []string {
	var out []string
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// ProfileSettings are what the file records for a profile.
func (c *Config) profileMap(name string) map[string]any {
	p, _ := profilesOf(c.file)[name].(map[string]any)
	return p
}

// LoadProfile loads the settings of the named profile as Load does for the
// selected one (same flags and environment), leaving s as it was.
func (s *Sources) LoadProfile(name string, o LoadOptions) (*Config, error) {
	other := NewSources()
	if s.flags != nil {
		other.BindFlags(s.flags)
	}
	o.Profile = name
	return other.Load(o)
}

// CurrentProfile is the profile commands use when neither --profile nor
// ORGCTL_PROFILE names one: the file's top-level profile, else "default".
func CurrentProfile() string {
	file, err := readConfigFile()
	if err != nil {
		return "default"
	}
	if p, _ := file["profile"].(string); p != "" {
		return p
	}
	return "default"
}

// SwitchProfile makes name the current profile (the file's top-level
// profile key); it must be defined in the file.
func SwitchProfile(name string) error {
	file, err := readConfigFile()
	if err != nil {
		return err
	}
	if _, ok := profilesOf(file)[name].(map[string]any); !ok {
		return unknownProfile(name, file)
	}
	d, err := LoadDoc()
	if err != nil {
		return err
	}
	if err := d.Set("", "profile", name); err != nil {
		return err
	}
	return d.Save()
}

// KeepCurrentProfile writes the current profile into the file's top level
// when the file names none, so a profile saved next stays beside it
// (SaveProfile makes the first profile saved the current one).
func KeepCurrentProfile() error {
	d, err := LoadDoc()
	if err != nil {
		return err
	}
	if _, has := d.Get("", "profile"); has {
		return nil
	}
	if err := d.Set("", "profile", CurrentProfile()); err != nil {
		return err
	}
	return d.Save()
}

// ProfileSetting is one key of a profile as the file records it ("" when
// the profile or the key is absent).
func ProfileSetting(profile, key string) string {
	file, err := readConfigFile()
	if err != nil {
		return ""
	}
	p, _ := profilesOf(file)[profile].(map[string]any)
	v, _ := p[key].(string)
	return v
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

// SaveProfile sets keys of a profile and writes the file, keeping its
// comments and order.
func SaveProfile(name string, set map[string]any, makeDefault bool) error {
	d, err := LoadDoc()
	if err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(set)) {
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

func DeleteProfile(name string) error {
	d, err := LoadDoc()
	if err != nil {
		return err
	}
	d.DeleteProfile(name)
	if n, ok := d.Get("", "profile"); ok && n.Value == name {
		d.Unset("", "profile")
	}
	return d.Save()
}

// UnknownProfileError is a profile the config file does not define, with
// the ones it does (sorted), so a caller can say what to do in its own
// words (auth switch suggests a switch, not a --profile flag).
type UnknownProfileError struct {
	Name  string
	Names []string
}

func (e *UnknownProfileError) Error() string {
	msg := fmt.Sprintf("unknown profile %q", e.Name)
	if near := suggest.Nearest(e.Name, e.Names, suggest.Typo(len(e.Name))); near != "" {
		msg += fmt.Sprintf(": did you mean %s?", near)
	}
	if len(e.Names) == 0 {
		msg += fmt.Sprintf("\nNo profiles are defined yet (%s): create it with `orgctl auth login --profile %s`.", ConfigPath(), e.Name)
	} else {
		msg += fmt.Sprintf("\nProfiles in %s: %s.", ConfigPath(), strings.Join(e.Names, ", "))
		msg += fmt.Sprintf("\nPass --profile with one of them, or create this one with `orgctl auth login --profile %s`.", e.Name)
	}
	return msg
}

// unknownProfile names a profile the config file does not define, the ones
// it does, and the nearest, so a typo is not taken for a fresh start.
func unknownProfile(name string, file map[string]any) error {
	var names []string
	for n := range profilesOf(file) {
		names = append(names, n)
	}
	sort.Strings(names)
	return &Error{&UnknownProfileError{Name: name, Names: names}}
}

// Origin says where the value of key came from, for messages: its
// environment variable, the profile's key in the file, or the file's top
// level; "" when it is the default.
func (c *Config) Origin(key string) string {
	if s, ok := Lookup(key); ok {
		if os.Getenv(s.Env()) != "" {
			return s.Env()
		}
	}
	if _, ok := c.profileMap(c.Profile)[key]; ok {
		return fmt.Sprintf("profile %s's %s in %s", c.Profile, key, ConfigPath())
	}
	if _, ok := c.file[key]; ok {
		return fmt.Sprintf("%s in %s", key, ConfigPath())
	}
	return ""
}
