package main

import (
	"bytes"
	"os"
	"path/filepath"
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
		if !bytes.HasPrefix(b, []byte(".nh\n.TH \"ORGCTL\" \"1\" \"Nov 2023\"")) || !bytes.Contains(b, []byte(c.Short)) {
			t.Errorf("%s: header or summary missing:\n%.200s", name, b)
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
