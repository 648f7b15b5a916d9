package cmd

import (
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
	"github.com/spf13/cobra"
)

// Every help page and topic fits the terminal it is shown on: no line is
// wider than 80 or 100 columns.
func TestHelpFitsTheTerminal(t *testing.T) {
	isolate(t)
	for _, width := range []int{80, 100} {
		f, tio := testFactory(t, &testKeyring{}, "")
		f.IO.OutTTY, f.IO.Width = true, width
		root := newRoot(f, allFamilies)
		pages := 0
		var walk func(c *cobra.Command)
		walk = func(c *cobra.Command) {
			tio.Out.Reset()
			c.HelpFunc()(c, nil)
			pages++
			for i, line := range strings.Split(tio.Out.String(), "\n") {
				if w := runewidth.StringWidth(line); w > width {
					t.Errorf("%s --help at %d columns, line %d is %d wide:\n%s", c.CommandPath(), width, i+1, w, line)
				}
			}
			for _, sub := range c.Commands() {
				walk(sub)
			}
		}
		walk(root)
		for _, topic := range helpTopics() {
			tio.Out.Reset()
			root.SetArgs([]string{"help", topic.Name})
			if err := root.Execute(); err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(tio.Out.String(), "\n") {
				if w := runewidth.StringWidth(line); w > width {
					t.Errorf("help %s at %d columns: a line %d wide:\n%s", topic.Name, width, w, line)
				}
			}
		}
		if pages < 100 {
			t.Errorf("only %d help pages looked at", pages)
		}
	}
}

// Piped (no terminal width known), help is left as written: one line per
// flag, for grep.
func TestHelpPipedIsNotWrapped(t *testing.T) {
	isolate(t)
	f, tio := testFactory(t, &testKeyring{}, "")
	root := newRoot(f, allFamilies)
	root.SetArgs([]string{"auth", "login", "--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tio.Out.String(), "--space NAME         log in to the Space NAME (looked up through the current profile, GET /spaces) as a profile of its own: NAME, or --profile\n") {
		t.Errorf("piped help was changed:\n%s", tio.Out.String())
	}
}

// help exit-codes at 80 columns: each code's meaning starts in one
// column, and a meaning that wraps goes on under that column, never back
// under the code.
func TestFirstdayExitCodesAlignedAt80(t *testing.T) {
	isolate(t)
	f, tio := testFactory(t, &testKeyring{}, "")
	f.IO.OutTTY, f.IO.Width = true, 80
	root := newRoot(f, allFamilies)
	root.SetArgs([]string{"help", "exit-codes"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(tio.Out.String(), "\n")
	const at = 8 // "  130   " and "    1   "
	rows := 0
	for i, line := range lines {
		if strings.TrimSpace(line) == "" {
			if rows > 0 {
				break
			}
			continue
		}
		if i == 0 {
			continue
		}
		rows++
		if len(line) <= at || line[at-1] != ' ' || line[at] == ' ' {
			t.Errorf("line %d: meaning not in column %d:\n%s", i+1, at+1, line)
		}
		if code := strings.TrimSpace(line[:at]); code != "" && strings.Trim(code, "0123456789") != "" {
			t.Errorf("line %d: %q before the meaning's column:\n%s", i+1, code, line)
		}
	}
	if rows < len(exitCodes)+3 {
		t.Errorf("%d lines in the table, want each of %d codes and the wrapped lines:\n%s", rows, len(exitCodes), tio.Out.String())
	}
}
