package settings

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/orgctl/orgctl/output/atomicfile"
	"github.com/orgctl/orgctl/output/fsguard"
	"github.com/orgctl/orgctl/output/yamlvalue"
)

// Doc is the config file as a YAML node tree, so that orgctl's own
// edits (auth login, config set) keep the user's comments and key order.
type Doc struct {
	path string
	doc  *yaml.Node // a DocumentNode whose one child is the top-level mapping
}

// LoadDoc reads the config file; a missing file is an empty one.
func LoadDoc() (*Doc, error) {
	d := &Doc{path: ConfigPath()}
	b, err := readCapped(d.path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	var n yaml.Node
	if len(bytes.TrimSpace(b)) > 0 {
		if err := yaml.Unmarshal(b, &n); err != nil {
			return nil, &Error{fmt.Errorf("config file %s is not valid YAML: %v", d.path, err)}
		}
	}
	if n.Kind == 0 {
		n = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	if len(n.Content) != 1 || n.Content[0].Kind != yaml.MappingNode {
		return nil, &Error{fmt.Errorf("config file %s must be a mapping of keys to values", d.path)}
	}
	d.doc = &n
	return d, nil
}

func (d *Doc) top() *yaml.Node { return d.doc.Content[0] }

// maxConfigSize caps the config file: a few profiles take a few KiB, and a
// file of many megabytes is a mistake that would only cost time.
const maxConfigSize = 1 << 20

// readCapped reads the config file: a regular file of at most
// maxConfigSize bytes.
func readCapped(path string) ([]byte, error) {
	b, err := yamlvalue.ReadFile(path, maxConfigSize)
	var nr *yamlvalue.NotRegularError
	var tl *yamlvalue.TooLargeError
	switch {
	case errors.As(err, &nr):
		return nil, &Error{fmt.Errorf("config file %s is %s, not a regular file: move it away, or set XDG_CONFIG_HOME to a directory whose orgctl/config.yaml is a file", path, nr.Kind)}
	case errors.As(err, &tl):
		return nil, &Error{fmt.Errorf("config file %w", tl)}
	}
	return b, err
}

// section is the mapping that holds a profile's keys ("" is the top level),
// created when create is set.
func (d *Doc) section(profile string, create bool) *yaml.Node {
	if profile == "" {
		return d.top()
	}
	profiles := child(d.top(), "profiles", create)
	if profiles == nil {
		return nil
	}
	return child(profiles, profile, create)
}

// child finds key's mapping value in m, creating an empty mapping when
// create is set and it is missing (or not a mapping).
func child(m *yaml.Node, key string, create bool) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v := m.Content[i+1]
			if v.Kind == yaml.MappingNode {
				return v
			}
			if !create {
				return nil
			}
			m.Content[i+1] = &yaml.Node{Kind: yaml.MappingNode}
			return m.Content[i+1]
		}
	}
	if !create {
		return nil
	}
	v := &yaml.Node{Kind: yaml.MappingNode}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
	return v
}

// Get reads a dotted key of a profile ("" is the top level).
func (d *Doc) Get(profile, key string) (*yaml.Node, bool) {
	m := d.section(profile, false)
	parts := strings.Split(key, ".")
	for i, p := range parts {
		if m == nil {
			return nil, false
		}
		found := false
		for j := 0; j+1 < len(m.Content); j += 2 {
			if m.Content[j].Value != p {
				continue
			}
			if i == len(parts)-1 {
				return m.Content[j+1], true
			}
			m, found = m.Content[j+1], true
			break
		}
		if !found {
			return nil, false
		}
	}
	return nil, false
}

// Set stores a value under a dotted key of a profile, in place: an
// existing key keeps its position and comments.
func (d *Doc) Set(profile, key string, value any) error {
	var vn yaml.Node
	if err := vn.Encode(value); err != nil {
		return err
	}
	m := d.section(profile, true)
	parts := strings.Split(key, ".")
	for _, p := range parts[:len(parts)-1] {
		m = child(m, p, true)
	}
	last := parts[len(parts)-1]
	for j := 0; j+1 < len(m.Content); j += 2 {
		if m.Content[j].Value == last {
			old := m.Content[j+1]
			vn.HeadComment, vn.LineComment, vn.FootComment = old.HeadComment, old.LineComment, old.FootComment
			m.Content[j+1] = &vn
			return nil
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: last}, &vn)
	return nil
}

// Unset removes a dotted key of a profile; it reports whether it was there.
// Mappings it leaves empty are removed too.
func (d *Doc) Unset(profile, key string) bool {
	m := d.section(profile, false)
	if m == nil {
		return false
	}
	return unset(m, strings.Split(key, "."))
}

func unset(m *yaml.Node, parts []string) bool {
	for j := 0; j+1 < len(m.Content); j += 2 {
		if m.Content[j].Value != parts[0] {
			continue
		}
		if len(parts) == 1 {
			m.Content = append(m.Content[:j], m.Content[j+2:]...)
			return true
		}
		v := m.Content[j+1]
		if v.Kind != yaml.MappingNode || !unset(v, parts[1:]) {
			return false
		}
		if len(v.Content) == 0 {
			m.Content = append(m.Content[:j], m.Content[j+2:]...)
		}
		return true
	}
	return false
}

// DeleteProfile removes a whole profile.
func (d *Doc) DeleteProfile(name string) {
	if profiles := child(d.top(), "profiles", false); profiles != nil {
		unset(profiles, []string{name})
		if len(profiles.Content) == 0 {
			unset(d.top(), []string{"profiles"})
		}
	}
}

// Save writes the file atomically, readable only by its owner.
func (d *Doc) Save() error {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(d.doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	if err := fsguard.MkdirAll(ConfigDir()); err != nil {
		return err
	}
	// A config file that is a symlink (kept with dotfiles) is written
	// through: its target is replaced atomically, and the link stays.
	path := d.path
	if target, err := filepath.EvalSymlinks(path); err == nil && target != path {
		if err := fsguard.Check(filepath.Dir(target)); err != nil {
			return err
		}
		path = target
	}
	return atomicfile.Write(path, b.Bytes(), 0o600)
}
