package settings

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	yaml "go.yaml.in/yaml/v3"

	"github.com/orgctl/orgctl/cmd/internal/suggest"
	"github.com/orgctl/orgctl/output/redact"
	"github.com/orgctl/orgctl/ratebudget"
)

// Found is one value of a setting and where it was found.
type Found struct {
	Text  string
	Where string // "flag --timeout", "the environment variable ORGCTL_TIMEOUT", "/home/u/.config/orgctl/config.yaml:3 (profile prod)"
	Bad   string // set when the file holds no scalar here: what it holds instead
}

// ValuesOf lists a key's values in precedence order: flag, environment,
// the selected profile, the file's top level.
func ValuesOf(s Setting, key string, flags *pflag.FlagSet, doc *Doc, profile string) []Found {
	var out []Found
	if s.Flag != "" && flags != nil {
		if fl := flags.Lookup(s.Flag); fl != nil && fl.Changed {
			out = append(out, Found{Text: fl.Value.String(), Where: "flag --" + s.Flag})
		}
	}
	env := Setting{Key: key}.Env()
	if !s.Family {
		env = s.Env()
	}
	if v, ok := os.LookupEnv(env); ok && v != "" {
		out = append(out, Found{Text: v, Where: "the environment variable " + env})
	}
	for _, section := range []string{profile, ""} {
		if section != "" && !doc.hasProfile(section) {
			continue
		}
		n, ok := doc.Get(section, key)
		if !ok || n.Tag == "!!null" {
			continue
		}
		fv := Found{Text: n.Value, Where: doc.place(n, section)}
		switch n.Kind {
		case yaml.MappingNode:
			fv.Bad = "a mapping"
		case yaml.SequenceNode:
			fv.Bad = "a list"
		case yaml.AliasNode:
			if n.Alias != nil && n.Alias.Kind == yaml.ScalarNode {
				fv.Text = n.Alias.Value
			} else {
				fv.Bad = "an alias"
			}
		}
		out = append(out, fv)
	}
	return out
}

// place names a value's position in the config file for messages.
func (d *Doc) place(n *yaml.Node, profile string) string {
	where := fmt.Sprintf("%s:%d", d.path, n.Line)
	if profile != "" {
		where += " (profile " + profile + ")"
	}
	return where
}

func (d *Doc) hasProfile(name string) bool {
	profiles := child(d.top(), "profiles", false)
	return profiles != nil && child(profiles, name, false) != nil
}

// checkConfig checks every setting's values, wherever they come from, by
// type and range, and stores the one that wins in v: viper would read a
// mistyped duration or number as 0 (no timeout, a free request) without a
// word. Every problem is reported in one usage error. Keys the file holds
// that orgctl does not read are warned about, with the nearest known key.
func checkConfig(v *viper.Viper, flags *pflag.FlagSet, doc *Doc, profile string, warn func(string), families func() []string) error {
	var problems []string
	check := func(s Setting, key string) {
		var winner any
		for i, fv := range ValuesOf(s, key, flags, doc, profile) {
			if fv.Bad != "" {
				problems = append(problems, fmt.Sprintf("%s in %s is %s: expected %s", key, fv.Where, fv.Bad, s.Accepts()))
				continue
			}
			val, err := s.Parse(fv.Text)
			if err != nil {
				problems = append(problems, fmt.Sprintf("invalid %s %s (from %s): %s", key, ShownValue(s, fv.Text), fv.Where, WhatIsAccepted(err)))
				continue
			}
			if i == 0 {
				winner = val
			}
		}
		if n, ok := winner.(int64); ok {
			winner = int(n) // what viper's readers and a decoded YAML number give
		}
		if winner != nil && s.Type != TypeString {
			v.Set(key, winner)
		}
	}
	for _, s := range table {
		switch {
		case s.EnvOnly:
		case s.Family:
			for _, key := range familyKeys(s, doc, profile) {
				check(s, key)
			}
		default:
			check(s, s.Key)
		}
	}
	for _, w := range UnknownKeys(doc, families) {
		warn(w)
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	if len(problems) == 1 {
		return &Error{errors.New(problems[0])}
	}
	return &Error{fmt.Errorf("%d settings are invalid:\n  %s", len(problems), strings.Join(problems, "\n  "))}
}

// ShownValue quotes a value for a message; a URL loses its user info,
// which is most likely a password.
func ShownValue(s Setting, text string) string {
	if s.Type == TypeURL {
		return fmt.Sprintf("%q", redact.URL(text))
	}
	return fmt.Sprintf("%q", text)
}

// WhatIsAccepted is Parse's complaint without the value it quotes.
func WhatIsAccepted(err error) string {
	var bad *badSetting
	if errors.As(err, &bad) {
		return bad.want
	}
	return err.Error()
}

// familyKeys are the budget.costs.FAMILY keys set in the file (top level
// and profile) or the environment.
func familyKeys(s Setting, doc *Doc, profile string) []string {
	seen := map[string]bool{}
	for _, section := range []string{profile, ""} {
		if n, ok := doc.Get(section, s.Key); ok && n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				seen[s.Key+"."+n.Content[i].Value] = true
			}
		}
	}
	prefix := Setting{Key: s.Key}.Env() + "_"
	for _, e := range os.Environ() {
		if k, _, ok := strings.Cut(e, "="); ok && strings.HasPrefix(k, prefix) && len(k) > len(prefix) {
			seen[s.Key+"."+strings.ToLower(strings.TrimPrefix(k, prefix))] = true
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// UnknownKeys walks the file's top level and every profile and describes
// each key orgctl does not read there.
func UnknownKeys(doc *Doc, families func() []string) []string {
	var out []string
	unknown := 0
	var walk func(m *yaml.Node, prefix, profile string)
	walk = func(m *yaml.Node, prefix, profile string) {
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, val := m.Content[i], m.Content[i+1]
			key := prefix + k.Value
			where := doc.place(k, profile)
			if key == "profiles" && prefix == "" && profile == "" {
				if val.Kind != yaml.MappingNode {
					out = append(out, fmt.Sprintf("%s: profiles must map profile names to their settings; ignored", where))
					continue
				}
				for j := 0; j+1 < len(val.Content); j += 2 {
					name, p := val.Content[j].Value, val.Content[j+1]
					if p.Kind != yaml.MappingNode {
						out = append(out, fmt.Sprintf("%s: profile %q must be a mapping of settings; ignored", doc.place(val.Content[j], ""), name))
						continue
					}
					walk(p, "", name)
				}
				continue
			}
			if s, ok := Lookup(key); ok {
				switch {
				case s.EnvOnly:
					out = append(out, fmt.Sprintf("%s: %s is read from the environment only (%s); the config file's value is ignored", where, key, s.Env()))
				case key == "profile" && profile != "":
					out = append(out, fmt.Sprintf("%s: profile is a top-level setting; inside a profile it is ignored", where))
				case s.Family && key == s.Key && val.Kind == yaml.MappingNode:
					for j := 0; j+1 < len(val.Content); j += 2 {
						if w := unknownFamily(val.Content[j].Value, families); w != "" {
							out = append(out, fmt.Sprintf("%s: %s.%s: %s", doc.place(val.Content[j], profile), key, val.Content[j].Value, w))
						}
					}
				}
				continue
			}
			if isSection(key) && val.Kind == yaml.MappingNode {
				walk(val, key+".", profile)
				continue
			}
			if unknown++; unknown > maxUnknownShown {
				continue
			}
			msg := fmt.Sprintf("%s: unknown setting %q is ignored", where, key)
			if near := nearestSetting(key, profile == ""); near != "" {
				msg += fmt.Sprintf("; did you mean %q?", near)
			}
			out = append(out, msg)
		}
	}
	walk(doc.top(), "", "")
	if more := unknown - maxUnknownShown; more > 0 {
		out = append(out, fmt.Sprintf("%s: %d more unknown settings are ignored", doc.path, more))
	}
	return out
}

// maxUnknownShown bounds the unknown settings named one by one: a file of
// thousands (the wrong file, a generated one) needs one line, not thousands.
const maxUnknownShown = 20

// isSection reports whether key is a prefix of settings (budget, completion).
func isSection(key string) bool {
	for _, s := range table {
		if strings.HasPrefix(s.Key, key+".") {
			return true
		}
	}
	return false
}

// nearestSetting is the file setting closest to key, when close enough to
// be a typo.
func nearestSetting(key string, top bool) string {
	var keys []string
	for _, s := range table {
		if !s.EnvOnly {
			keys = append(keys, s.Key)
		}
	}
	if top {
		keys = append(keys, "profiles")
	}
	return suggest.Nearest(key, keys, suggest.Typo(len(key)))
}

// unknownFamily warns about a budget.costs family that orgctl never calls
// but that is one typo away from one it does; called lists the families
// orgctl's commands call, and is asked only when a family is set.
func unknownFamily(name string, called func() []string) string {
	fam := strings.ToLower(strings.TrimSpace(name))
	known := knownFamilies(called)
	if known[fam] {
		return ""
	}
	if near := suggest.Nearest(fam, slices.Sorted(maps.Keys(known)), max(1, len(fam)/4)); near != "" {
		return fmt.Sprintf("no family is called %q; did you mean %q?", name, near)
	}
	return ""
}

// knownFamilies are the priced families and those orgctl's commands call.
func knownFamilies(called func() []string) map[string]bool {
	known := map[string]bool{}
	for fam := range ratebudget.DefaultConfig().CostTable() {
		known[fam] = true
	}
	if called != nil {
		for _, fam := range called() {
			known[fam] = true
		}
	}
	delete(known, "")
	return known
}
