package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd"
)

func TestWritesAPagePerCommandAndTheCompletions(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	dir := t.TempDir()
	man, comp := filepath.Join(dir, "man"), filepath.Join(dir, "completions")
	root := cmd.CommandTree()
	if err := write(root, man, comp, nil); err != nil {
		t.Fatal(err)
	}
	var walk func(c *cobra.Command)
	pages := 0
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c != root {
			return
		}
		pages++
		name := strings.ReplaceAll(c.CommandPath(), " ", "-") + ".1"
		b, err := os.ReadFile(filepath.Join(man, name))
		if err != nil {
			t.Errorf("no page for %q: %v", c.CommandPath(), err)
			return
		}
		// each page titled by its own command, as man's header shows it
		title := strings.ToUpper(strings.ReplaceAll(c.CommandPath(), " ", "-"))
		if !bytes.HasPrefix(b, []byte(".nh\n.TH \""+title+"\" \"1\" \"Nov 2023\"")) || !bytes.Contains(b, []byte(c.Short)) {
			t.Errorf("%s: header (title %s) or summary missing:\n%.200s", name, title, b)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if pages < 100 {
		t.Errorf("only %d commands walked", pages)
	}
	for _, want := range []string{"orgctl.1", "orgctl-users-list.1", "orgctl-version.1"} {
		if _, err := os.Stat(filepath.Join(man, want)); err != nil {
			t.Error(err)
		}
	}
	// the API, Scope and Cost lines stay lines of their own
	list := string(read(t, filepath.Join(man, "orgctl-users-list.1")))
	for _, l := range strings.Split(list, "\n") {
		if strings.Contains(l, "API:") && (strings.Contains(l, "Scope:") || strings.Contains(l, "Cost:")) {
			t.Errorf("orgctl-users-list.1 runs the API, Scope and Cost lines together: %q", l)
		}
	}
	if !regexp.MustCompile(`(?m)^API: .*\n\.br\n(?:Plan: .*\n\.br\n)?Scope: .*\n\.br\nCost: `).MatchString(list) {
		t.Errorf("orgctl-users-list.1 does not break the API, Scope and Cost lines apart:\n%s", list)
	}
	// every help topic is a page of section 7, named and titled by it, its
	// headings as subsections, its examples as they are; the commands that
	// point at it name it
	for _, topic := range cmd.HelpTopics() {
		page := string(read(t, filepath.Join(man, "orgctl-"+topic.Name+".7")))
		title := strings.ToUpper(strings.ReplaceAll("orgctl-"+topic.Name, "-", `\-`))
		if !strings.HasPrefix(page, ".nh\n.TH \""+title+"\" \"7\" \"Nov 2023\"") || !strings.Contains(page, ".SH NAME\norgctl\\-") {
			t.Errorf("orgctl-%s.7: header missing:\n%.200s", topic.Name, page)
		}
	}
	bulk := string(read(t, filepath.Join(man, "orgctl-bulk.7")))
	for _, want := range []string{".SS RESUME\n", ".nf\n# onboard an HR export\n$ orgctl users create \\-\\-from people.csv", "\\fBorgctl\\-users\\-create(1)\\fP"} {
		if !strings.Contains(bulk, want) {
			t.Errorf("orgctl-bulk.7 lacks %q", want)
		}
	}
	if !strings.Contains(string(read(t, filepath.Join(man, "orgctl-users-create.1"))), "See orgctl-bulk(7)") {
		t.Errorf("orgctl-users-create.1 does not point at orgctl-bulk(7)")
	}
	for sh, marker := range map[string]string{"bash": "complete -o default -F __start_orgctl orgctl", "zsh": "#compdef orgctl", "fish": "complete -c orgctl"} {
		b, err := os.ReadFile(filepath.Join(comp, "orgctl."+sh))
		if err != nil || !bytes.Contains(b, []byte(marker)) {
			t.Errorf("orgctl.%s lacks %q (%v)", sh, marker, err)
		}
	}

	// -date dates the pages.
	dated := filepath.Join(dir, "dated")
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	if err := write(cmd.CommandTree(), dated, "", &day); err != nil {
		t.Fatal(err)
	}

	// A second run on the same commit writes the same bytes.
	again := filepath.Join(dir, "again")
	if err := write(cmd.CommandTree(), filepath.Join(again, "man"), filepath.Join(again, "completions"), nil); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"man", "completions"} {
		if sub == "man" && !bytes.Contains(read(t, filepath.Join(dated, "orgctl.1")), []byte(`"Mar 2024"`)) {
			t.Errorf("-date did not date the pages")
		}
		entries, _ := os.ReadDir(filepath.Join(dir, sub))
		for _, e := range entries {
			a, _ := os.ReadFile(filepath.Join(dir, sub, e.Name()))
			b, err := os.ReadFile(filepath.Join(again, sub, e.Name()))
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%s/%s differs between two runs (%v)", sub, e.Name(), err)
			}
		}
	}
}

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
