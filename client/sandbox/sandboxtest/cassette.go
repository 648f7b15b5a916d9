package sandboxtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// Cassette is the part of a go-vcr (v2) recording of real API exchanges that tests replay.
type Cassette struct {
	Name         string        `yaml:"-"` // the file name without .yaml
	Interactions []Interaction `yaml:"interactions"`
}

// Interaction is one recorded request and its answer.
type Interaction struct {
	Request struct {
		Method string `yaml:"method"`
		URL    string `yaml:"url"`
		Body   string `yaml:"body"`
	} `yaml:"request"`
	Response struct {
		Code int    `yaml:"code"`
		Body string `yaml:"body"`
	} `yaml:"response"`
}

// LoadCassettes reads ../shared/api/recordings/*.yaml (recorded against a 2.12 instance) whose
// names start with one of prefixes (all of them when none are given), sorted by name. It skips the
// test with a message when the recordings are absent or none match.
func LoadCassettes(t testing.TB, prefixes ...string) []Cassette {
	t.Helper()
	return LoadCassettesFrom(t, "recordings", prefixes...)
}

// LoadCassettesFrom is LoadCassettes for another folder of ../shared/api: "recordings-4.0" holds
// the exchanges recorded against a 4.0 instance.
func LoadCassettesFrom(t testing.TB, folder string, prefixes ...string) []Cassette {
	t.Helper()
	dir := SharedFile(t, "api", folder)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Skipf("skipping: recordings not readable: %v", err)
	}
	var out []Cassette
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".yaml")
		if !ok || !hasAnyPrefix(name, prefixes) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		c := Cassette{Name: name}
		if err := yaml.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Skipf("skipping: no cassettes named %v* in %s", prefixes, dir)
	}
	return out
}

func hasAnyPrefix(s string, prefixes []string) bool {
	if len(prefixes) == 0 {
		return true
	}
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
