package config

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	yaml "go.yaml.in/yaml/v3"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/internal/suggest"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/redact"
)

func NewCmd(f *cli.Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "config",
		Short: "Read and change orgctl's settings, and see where each comes from",
		Long: `Settings live in $XDG_CONFIG_HOME/orgctl/config.yaml: at the top level, or per
profile under profiles.NAME. 'config set' and 'config unset' edit the file in
place, keeping its comments and order, and check a value's type and range before
writing. With --profile NAME they change that profile; without, the top level.
A config.yaml that is a symlink (dotfiles) is written through to its target.

'config list' masks the password of a URL (budget.store), since listings end
up in logs; 'config get KEY' prints the value itself.

A setting's value comes from, first found: a flag, its ORGCTL_<KEY> environment
variable, the selected profile, the file's top level, the default.
'orgctl help environment' lists every setting.`,
		Example: `  orgctl config list
  orgctl config get budget.reserve
  orgctl config set timeout 45s
  orgctl config set budget.reserve 60 --profile prod
  orgctl config unset output`,
		Args: cli.NoArgsGroup,
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	c.AddCommand(newConfigListCmd(f), newConfigGetCmd(f), newConfigSetCmd(f), newConfigUnsetCmd(f))
	return c
}

// settingValue is one setting's effective value and where it came from.
type settingValue struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// effective finds where a key's value comes from, by the precedence
// viper applies: flag, environment, profile, file, default.
func effective(c *cobra.Command, cfg *settings.Config, doc *settings.Doc, s settings.Setting, key string) settingValue {
	if s.Flag != "" {
		if fl := c.Flags().Lookup(s.Flag); fl != nil && fl.Changed {
			return settingValue{key, fl.Value.String(), "flag --" + s.Flag}
		}
	}
	env := s.Env()
	if s.Family {
		env = settings.Setting{Key: key}.Env()
	}
	if v, ok := os.LookupEnv(env); ok && v != "" {
		return settingValue{key, v, "env " + env}
	}
	if n, ok := doc.Get(cfg.Profile, key); ok {
		return settingValue{key, nodeText(n), "profile " + cfg.Profile}
	}
	if n, ok := doc.Get("", key); ok {
		return settingValue{key, nodeText(n), "file"}
	}
	return settingValue{key, s.Default, "default"}
}

func nodeText(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	var v any
	if n.Decode(&v) == nil {
		b, _ := json.Marshal(v)
		return string(b)
	}
	return ""
}

// configKeys are the keys config list shows: every file setting, plus the
// budget.costs.FAMILY entries the file or environment sets.
func configKeys(cfg *settings.Config, doc *settings.Doc) []string {
	var keys []string
	for _, s := range settings.All() {
		if s.EnvOnly || s.Family {
			continue
		}
		keys = append(keys, s.Key)
	}
	fams := map[string]bool{}
	for _, profile := range []string{"", cfg.Profile} {
		if n, ok := doc.Get(profile, "budget.costs"); ok && n.Kind == yaml.MappingNode {
			for i := 0; i < len(n.Content); i += 2 {
				fams[n.Content[i].Value] = true
			}
		}
	}
	for _, e := range os.Environ() {
		if k, _, ok := strings.Cut(e, "="); ok && strings.HasPrefix(k, "ORGCTL_BUDGET_COSTS_") {
			fams[strings.ToLower(strings.TrimPrefix(k, "ORGCTL_BUDGET_COSTS_"))] = true
		}
	}
	fam := make([]string, 0, len(fams))
	for f := range fams {
		fam = append(fam, f)
	}
	sort.Strings(fam)
	for _, f := range fam {
		keys = append(keys, "budget.costs."+f)
	}
	return keys
}

func newConfigListCmd(f *cli.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "Show every setting's value and where it comes from, and the profiles",
		Long: `Show every setting's value for the selected profile and where it comes from.
On a terminal, the profiles in the config file follow, the one in use marked
with * ('orgctl auth switch PROFILE' changes it; 'orgctl auth status --all'
checks their logins).`,
		Example: "  orgctl config list\n  orgctl config list --profile prod -o json",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			cfg, err := f.Config()
			if err != nil {
				return err
			}
			doc, err := settings.LoadDoc()
			if err != nil {
				return err
			}
			p, err := cli.NewPrinter(f.IO, cfg)
			if err != nil {
				return err
			}
			var rows []settingValue
			for _, k := range configKeys(cfg, doc) {
				s, _ := settings.Lookup(k)
				v := effective(c, cfg, doc, s, k)
				if s.Type == settings.TypeURL {
					// A listing lands in logs; config get KEY prints the value itself.
					v.Value = redact.URL(v.Value)
				}
				rows = append(rows, v)
			}
			b, err := json.Marshal(rows)
			if err != nil {
				return err
			}
			if err := p.Print(b, []output.Column{{Header: "KEY", Field: "key", Key: true}, {Header: "VALUE", Field: "value"}, {Header: "SOURCE", Field: "source"}}); err != nil {
				return err
			}
			if p.Opts.Structured() || !f.IO.OutTTY || len(p.Opts.Columns) > 0 {
				return nil // scripts get the settings alone; 'auth status --all -o json' lists profiles
			}
			return printProfiles(f, p, cfg)
		},
	}
}

// printProfiles lists the config file's profiles under the settings on a
// terminal, the one in use marked with *.
func printProfiles(f *cli.Factory, p *output.Printer, cfg *settings.Config) error {
	names := settings.ProfileNames()
	if len(names) == 0 {
		return nil
	}
	rows := make([]map[string]string, 0, len(names))
	for _, n := range names {
		mark := ""
		if n == cfg.Profile {
			mark = "*"
		}
		rows = append(rows, map[string]string{"mark": mark, "profile": n,
			"base_url": settings.ProfileSetting(n, "base_url"), "space": settings.ProfileSetting(n, "space")})
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	fmt.Fprintln(f.IO.Out)
	return p.Print(b, []output.Column{{Header: " ", Field: "mark"}, {Header: "PROFILE", Field: "profile"},
		{Header: "BASE URL", Field: "base_url"}, {Header: "SPACE", Field: "space"}})
}

// knownKey finds a key's setting, or says what is known instead.
func knownKey(key string) (settings.Setting, error) {
	s, ok := settings.Lookup(key)
	if ok {
		return s, nil
	}
	var keys []string
	for _, s := range settings.All() {
		keys = append(keys, s.Key)
	}
	msg := fmt.Sprintf("unknown setting %q", key)
	if near := suggest.Nearest(key, keys, suggest.Typo(len(key))); near != "" {
		msg += fmt.Sprintf("; did you mean %q?", near)
	}
	return settings.Setting{}, cli.UsageErrorf("%s\nRun 'orgctl help environment' for every setting.", msg)
}

func newConfigGetCmd(f *cli.Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "get KEY",
		Short:   "Print one setting's value",
		Example: "  orgctl config get timeout\n  orgctl config get base_url --profile staging",
		Args:    cli.ExactArgs(1, "KEY"),
		RunE: func(c *cobra.Command, args []string) error {
			s, err := knownKey(args[0])
			if err != nil {
				return err
			}
			if s.EnvOnly {
				return cli.UsageErrorf("%s is read from the environment only (%s)", args[0], s.Env())
			}
			cfg, err := f.Config()
			if err != nil {
				return err
			}
			doc, err := settings.LoadDoc()
			if err != nil {
				return err
			}
			fmt.Fprintln(f.IO.Out, effective(c, cfg, doc, s, args[0]).Value)
			return nil
		},
	}
}

// configTarget is the section config set/unset change: the profile named
// with --profile or ORGCTL_PROFILE, else the top level.
func configTarget(c *cobra.Command) string {
	if fl := c.Flags().Lookup("profile"); fl != nil && fl.Changed {
		return fl.Value.String()
	}
	return os.Getenv("ORGCTL_PROFILE")
}

func newConfigSetCmd(f *cli.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "set KEY VALUE",
		Short: "Change a setting in the config file (checked before writing)",
		Example: `  orgctl config set timeout 45s
  orgctl config set output json
  orgctl config set budget.reserve 60 --profile prod
  orgctl config set budget.costs.usage 5`,
		Args: cli.ExactArgs(2, "KEY VALUE"),
		RunE: func(c *cobra.Command, args []string) error {
			key, text := args[0], args[1]
			s, err := knownKey(key)
			if err != nil {
				return err
			}
			if s.EnvOnly {
				return cli.UsageErrorf("%s cannot be kept in the config file; set %s in the environment", key, s.Env())
			}
			if s.Family && key == s.Key {
				return cli.UsageErrorf("set one family's price: budget.costs.FAMILY, e.g. budget.costs.users")
			}
			v, err := s.Parse(text)
			if err != nil {
				return cli.UsageErrorf("%s: %v; nothing was written", key, err)
			}
			profile := configTarget(c)
			if profile != "" && key == "profile" {
				return cli.UsageErrorf("profile is a top-level setting: run it without --profile")
			}
			if d, ok := v.(time.Duration); ok {
				v = d.String()
			}
			doc, err := settings.LoadDoc()
			if err != nil {
				return err
			}
			if err := doc.Set(profile, key, v); err != nil {
				return err
			}
			if err := doc.Save(); err != nil {
				return err
			}
			where := "the top level"
			if profile != "" {
				where = "profile " + profile
			}
			if !f.Quiet() {
				f.IO.Success("Set %s to %v in %s (%s)", key, v, where, settings.ConfigPath())
			}
			return nil
		},
	}
}

func newConfigUnsetCmd(f *cli.Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "unset KEY",
		Short:   "Remove a setting from the config file",
		Example: "  orgctl config unset timeout\n  orgctl config unset budget.reserve --profile prod",
		Args:    cli.ExactArgs(1, "KEY"),
		RunE: func(c *cobra.Command, args []string) error {
			if _, err := knownKey(args[0]); err != nil {
				return err
			}
			doc, err := settings.LoadDoc()
			if err != nil {
				return err
			}
			profile := configTarget(c)
			if !doc.Unset(profile, args[0]) {
				if !f.Quiet() {
					f.IO.Notice("%s was not set in %s", args[0], settings.ConfigPath())
				}
				return nil
			}
			if err := doc.Save(); err != nil {
				return err
			}
			if !f.Quiet() {
				f.IO.Success("Removed %s from %s", args[0], settings.ConfigPath())
			}
			return nil
		},
	}
}
