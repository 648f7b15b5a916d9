package cmd

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/cmd/settings"
)

// The README's exit-code table and `orgctl help exit-codes` say the same.
func TestREADMEExitCodesMatchHelp(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Exit codes\n")
	if !ok {
		t.Fatal("README has no ## Exit codes section")
	}
	row := regexp.MustCompile(`(?m)^\| (\d+) \| (.+) \|$`)
	var readme []string
	for _, m := range row.FindAllStringSubmatch(strings.Split(section, "\n## ")[0], -1) {
		readme = append(readme, m[1]+" "+m[2])
	}
	var help []string
	for _, e := range exitCodes {
		help = append(help, strconv.Itoa(e.Code)+" "+e.Meaning)
	}
	if strings.Join(readme, "\n") != strings.Join(help, "\n") {
		t.Errorf("README exit codes:\n%s\n\nhelp exit-codes:\n%s", strings.Join(readme, "\n"), strings.Join(help, "\n"))
	}
	page := exitCodesHelp()
	for _, e := range exitCodes {
		if !strings.Contains(page, strconv.Itoa(e.Code)+"   "+strings.ReplaceAll(e.Meaning, "`", "")) {
			t.Errorf("help exit-codes lacks %d", e.Code)
		}
	}
}

// `help environment` shows every setting with its variable.
func TestHelpEnvironmentCoversEverySetting(t *testing.T) {
	page := environmentHelp()
	for _, s := range settings.All() {
		want := s.Env()
		if s.Family {
			want = s.Key + ".FAMILY"
		}
		if !strings.Contains(page, want) || !s.EnvOnly && !strings.Contains(page, s.Key) {
			t.Errorf("help environment lacks %s (%s)", s.Key, want)
		}
	}
}

// The README's environment table says what the settings table says: each
// variable is a setting's, with its config key (or "(env only)"), and a
// default the row states is the setting's default.
func TestREADMEEnvironmentTable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Environment and configuration\n")
	if !ok {
		t.Fatal("README has no ## Environment and configuration section")
	}
	section = strings.Split(section, "\n## ")[0]
	row := regexp.MustCompile("(?m)^\\| `([A-Z_]+)` \\| ([^|]*) \\| (.*) \\|$")
	byEnv := map[string]settings.Setting{}
	for _, s := range settings.All() {
		byEnv[s.Env()] = s
	}
	rows := row.FindAllStringSubmatch(section, -1)
	if len(rows) < 10 {
		t.Fatalf("README's environment table has %d rows; is it still a table of | `VARIABLE` | key | meaning |?", len(rows))
	}
	def := regexp.MustCompile("\\(default `([^`]*)`\\)")
	for _, r := range rows {
		env, key, meaning := r[1], strings.TrimSpace(r[2]), r[3]
		s, ok := byEnv[env]
		if !ok {
			t.Errorf("README's environment table names %s, which is no setting (orgctl help environment lists them)", env)
			continue
		}
		want := "`" + s.Key + "`"
		if s.EnvOnly {
			want = "(env only)"
		}
		if key != want {
			t.Errorf("README: %s's config key is %s; the settings say %s", env, key, want)
		}
		if m := def.FindStringSubmatch(meaning); m != nil && m[1] != s.Default {
			t.Errorf("README: %s's default is %q; the settings say %q", env, m[1], s.Default)
		}
	}
}

// `orgctl help scopes` names every scope of the description in the 4.0
// spelling, each once, and under each the commands whose help names it:
// walked here from the command tree's Scope lines, not from the topic's
// own source.
func TestHelpScopesNamesEveryScopeAndItsCommands(t *testing.T) {
	page := scopesHelp()
	blocks := map[string]string{}
	var current string
	for _, line := range strings.Split(page, "\n") {
		switch {
		case strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   "):
			current = strings.Fields(line)[0]
			if _, dup := blocks[current]; dup {
				t.Errorf("%s listed twice", current)
			}
			blocks[current] = ""
		case strings.HasPrefix(line, "     ") && current != "":
			blocks[current] += line
		}
	}
	if len(blocks) != len(spec.Scopes()) || len(blocks) != 43 {
		t.Errorf("%d scopes listed, the description names %d", len(blocks), len(spec.Scopes()))
	}
	if !strings.Contains(page, "\n  users:read (Users > Read)\n") {
		t.Errorf("users:read without its console label:\n%s", page)
	}
	checked := 0
	for _, c := range apiCommands(newTestRoot(t)) {
		op := spec.Find(c.Annotations["method"], c.Annotations["path"])
		if op == nil || c.Hidden || !strings.HasPrefix(c.Long, c.Short) || c.Annotations["scope"] == "" {
			continue
		}
		name := strings.TrimPrefix(c.CommandPath(), "orgctl ")
		if c.Parent() != nil && c.Parent().Parent() != nil && strings.Contains(c.Long, "\n\nRequests:") {
			continue // a workflow's own requests: its help names them
		}
		for _, s := range op.AnyScope() {
			if !regexp.MustCompile(`[ ,]` + regexp.QuoteMeta(name) + `(,|$)`).MatchString(blocks[s]) {
				t.Errorf("help scopes: %s does not list %s, whose help says it needs it", s, name)
			}
			checked++
		}
	}
	if checked < 150 {
		t.Errorf("only %d command scopes checked", checked)
	}
}
