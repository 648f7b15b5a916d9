package cmd

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/orgctl/orgctl/cmd/cli"
)

var (
	// A command line quoted in a hint: 'orgctl users update ID --active=true' or `orgctl auth login`.
	quotedCommand = regexp.MustCompile("['`](orgctl [^'`\n]+)['`]")
	flagMention   = regexp.MustCompile(`(?:^|[\s('"` + "`" + `])--([a-z][a-z0-9-]+)`)
)

// hintTree is the whole command tree, against which every hint is checked,
// and the names of every flag any command has.
var hintTree = sync.OnceValues(func() (*cobra.Command, map[string]bool) {
	root := newRoot(cli.NewFactory("test"), allFamilies)
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
	anyFlag["prefix"] = true // brew --prefix
	// redis-server and gh, in help budget's fleet rehearsal and help
	// org-as-code's pull-request workflow
	for _, f := range []string{"port", "bind", "save", "appendonly", "daemonize", "body-file", "edit-last"} {
		anyFlag[f] = true
	}
	return root, anyFlag
})

// checkHints fails the test when text quotes a command line that orgctl
// does not have, or one of its flags that the command lacks, or mentions a
// flag no command has: a hint must never send the reader to something
// orgctl does not have. Flags the user typed (typed) may be repeated back
// as they are. It returns how many hints it checked.
func checkHints(t errorf, where, text string, typed ...string) int {
	t.Helper()
	root, anyFlag := hintTree()
	checked := 0
	for _, m := range quotedCommand.FindAllStringSubmatch(text, -1) {
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
				t.Errorf("%s: %q: orgctl has no flag %s", where, m[1], words[0])
			}
			continue
		}
		c, rest, err := root.Find(words)
		if err != nil || c == root {
			t.Errorf("%s: %q: no such command", where, m[1])
			continue
		}
		for _, w := range rest {
			if !strings.HasPrefix(w, "-") && w == strings.ToLower(w) && !strings.ContainsAny(w, "%@.=/_<0123456789") && c.HasSubCommands() {
				t.Errorf("%s: %q: %q is not a subcommand of %s", where, m[1], w, c.CommandPath())
			}
			if name, ok := strings.CutPrefix(w, "--"); ok {
				name, _, _ = strings.Cut(name, "=")
				if strings.Contains(name, "%") {
					continue
				}
				c.InitDefaultHelpFlag()
				if c.Flags().Lookup(name) == nil && c.InheritedFlags().Lookup(name) == nil && root.PersistentFlags().Lookup(name) == nil {
					t.Errorf("%s: %q: %s has no flag --%s", where, m[1], c.CommandPath(), name)
				}
			}
		}
	}
	for _, m := range flagMention.FindAllStringSubmatch(text, -1) {
		checked++
		if !anyFlag[m[1]] && !slices.ContainsFunc(typed, func(a string) bool { return strings.HasPrefix(a, "--"+m[1]) }) {
			t.Errorf("%s: %q mentions --%s, which no command has", where, text, m[1])
		}
	}
	return checked
}

// Every help text (each command's description, examples and flags, and
// every help topic) names only commands and flags that exist. What
// commands print on stderr is checked the same way by run, so every test
// of this package that makes orgctl give a hint checks that hint too, and
// TestMessagesNameCommandsAndFlagsThatExist runs the lines whose messages
// the packages below test.
func TestHelpTextsNameCommandsAndFlagsThatExist(t *testing.T) {
	root, _ := hintTree()
	checked := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		where := c.CommandPath()
		checked += checkHints(t, where, c.Long+"\n"+c.Example)
		c.Flags().VisitAll(func(f *pflag.Flag) { checked += checkHints(t, where+" --"+f.Name, f.Usage) })
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, tp := range helpTopics() {
		checked += checkHints(t, "help "+tp.Name, tp.Text())
	}
	if checked < 100 {
		t.Errorf("only %d hints checked: is the walk finding the texts?", checked)
	}
}

// errorf is what checkHints needs of a test.
type errorf interface {
	Helper()
	Errorf(format string, args ...any)
}

// complaints records what a check would have failed a test with.
type complaints []string

func (c *complaints) Helper() {}
func (c *complaints) Errorf(format string, args ...any) {
	*c = append(*c, fmt.Sprintf(format, args...))
}

// The check itself finds what it is for.
func TestCheckHintsFindsWrongHints(t *testing.T) {
	for _, text := range []string{
		"run `orgctl users frobnicate` first",
		"try 'orgctl users list --no-such-flag'",
		"pass --no-such-flag to go on",
		"see `orgctl nonsense`",
	} {
		var c complaints
		checkHints(&c, "test", text)
		if len(c) == 0 {
			t.Errorf("%q passed the check", text)
		}
	}
	var c complaints
	if n := checkHints(&c, "test", "run `orgctl users list --limit 5` or pass --yes"); n != 3 || len(c) != 0 {
		t.Errorf("checked %d hints, want 3; complaints %q", n, c)
	}
}

func isHelpTopic(name string) bool {
	for _, t := range helpTopics() {
		if t.Name == name {
			return true
		}
	}
	return false
}

// What commands print when they refuse, fail, warn or stop short names
// only commands and flags that exist. These lines are the ones the tests
// of the engine and the families run for their messages; here they run
// through the whole tree, which the check needs.
func TestMessagesNameCommandsAndFlagsThatExist(t *testing.T) {
	api, _ := sandboxEnv(t)
	lines := [][]string{
		{"users", "list", "--limit", "2"},
		{"api", "GET", "users", "-f", "limit=2"},
		{"groups", "delete", "6"},
		{"users", "delete", "user_1", "--dry-run"},
		{"users", "create", "--email", "a@b.c", "--first-name", "A", "--last-name", "L", "--admin", "--dry-run"},
		{"users", "list", "-o", "xml"},
		{"users", "list", "--jq", ".["},
		{"users", "get", "user_missing"},
		{"resources", "create", "--name", "hr", "--type", "mssql", "--options", `{"windows_auth":true}`, "--odbc-param", "Trusted_Connection=yes"},
		{"resources", "update", "hr-mssql-winauth", "--odbc-param", "Driver={x}"},
		{"observability", "test", "sentry"},
		{"org", "invalidate-sessions", "--yes"},
		{"tokens", "create", "--label", "ci", "--scope", "users:read"},
	}
	checked := 0
	for _, args := range lines {
		// run fails the test on a wrong hint; the count says the check saw them.
		_, errOut, err := run(t, "", args...)
		var c complaints
		checked += checkHints(&c, "", errOut, args...)
		if err != nil {
			checked += checkHints(&c, "", err.Error(), args...)
		}
	}
	for _, tok := range []string{mustMint(t, api, "users:read"), "tok_not_valid"} {
		t.Setenv("ORGCTL_TOKEN", tok)
		for _, args := range [][]string{{"groups", "list"}, {"users", "list"}} {
			_, _, err := run(t, "", args...)
			if err != nil {
				var c complaints
				checked += checkHints(&c, "", err.Error(), args...)
			}
		}
	}
	t.Logf("%d hints checked", checked)
	if checked < 5 {
		t.Errorf("only %d hints checked: do the lines still give their hints?", checked)
	}
}
