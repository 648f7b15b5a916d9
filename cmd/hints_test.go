package cmd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/orgctl/orgctl/cmd/cli"
)

// sourceStrings are the string literals of the non-test Go files matching glob.
func sourceStrings(t *testing.T, glob string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %s: %v", glob, err)
	}
	out := map[string]string{}
	fs := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_gen.go") {
			continue
		}
		f, err := parser.ParseFile(fs, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					out[s] = fs.Position(lit.Pos()).String()
				}
			}
			return true
		})
	}
	return out
}

var (
	// A command line quoted in a hint: 'orgctl users update ID --active=true' or `orgctl auth login`.
	quotedCommand = regexp.MustCompile("['`](orgctl [^'`\n]+)['`]")
	flagMention   = regexp.MustCompile(`(?:^|[\s('"` + "`" + `])--([a-z][a-z0-9-]+)`)
)

// Every command line a hint quotes exists with every flag it passes, and
// every flag a message mentions exists: a hint must never send the reader
// to something orgctl does not have.
func TestHintsNameCommandsAndFlagsThatExist(t *testing.T) {
	root := NewRootCmd(cli.NewFactory("test"))
	anyFlag := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) { anyFlag[f.Name] = true })
		c.PersistentFlags().VisitAll(func(f *pflag.Flag) { anyFlag[f.Name] = true })
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	anyFlag["help"] = true // cobra adds it to each command when it runs
	// Flags of other programs, in examples that pipe orgctl into them.
	anyFlag["token-stdin"] = true
	global := map[string]bool{"help": true, "version": true}
	root.PersistentFlags().VisitAll(func(f *pflag.Flag) { global[f.Name] = true })

	checked := 0
	check := func(glob string, flagOK map[string]bool) {
		for s, pos := range sourceStrings(t, glob) {
			for _, m := range quotedCommand.FindAllStringSubmatch(s, -1) {
				checked++
				words := strings.Fields(m[1])[1:]
				if len(words) > 0 && words[0] == "help" {
					words = words[1:] // help names a topic or a command
					if len(words) == 1 && isHelpTopic(words[0]) {
						continue
					}
				}
				if len(words) > 0 && strings.HasPrefix(words[0], "-") {
					if root.Flags().Lookup(strings.TrimLeft(words[0], "-")) == nil && words[0] != "--help" {
						t.Errorf("%s: %q: orgctl has no flag %s", pos, m[1], words[0])
					}
					continue
				}
				c, rest, err := root.Find(words)
				if err != nil || c == root {
					t.Errorf("%s: %q: no such command", pos, m[1])
					continue
				}
				for _, w := range rest {
					if !strings.HasPrefix(w, "-") && w == strings.ToLower(w) && !strings.ContainsAny(w, "%@.=/_<0123456789") && c.HasSubCommands() {
						t.Errorf("%s: %q: %q is not a subcommand of %s", pos, m[1], w, c.CommandPath())
					}
					if name, ok := strings.CutPrefix(w, "--"); ok {
						name, _, _ = strings.Cut(name, "=")
						if strings.Contains(name, "%") {
							continue
						}
						c.InitDefaultHelpFlag()
						if c.Flags().Lookup(name) == nil && c.InheritedFlags().Lookup(name) == nil && root.PersistentFlags().Lookup(name) == nil {
							t.Errorf("%s: %q: %s has no flag --%s", pos, m[1], c.CommandPath(), name)
						}
					}
				}
			}
			for _, m := range flagMention.FindAllStringSubmatch(s, -1) {
				checked++
				if !flagOK[m[1]] {
					t.Errorf("%s: %q mentions --%s, which no command that can show it has", pos, s, m[1])
				}
			}
		}
	}
	check("*.go", anyFlag)
	// The client's messages can reach any command: only global flags may be named.
	check("../client/*.go", global)
	check("../client/resolve/*.go", global)
	if checked < 100 {
		t.Errorf("only %d hints checked: is the walk finding the messages?", checked)
	}
}

func isHelpTopic(name string) bool {
	for _, t := range helpTopics {
		if t.Name == name {
			return true
		}
	}
	return false
}
