package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/cli"
)

// notRunnable are examples that cannot run against a fresh sandbox from a
// test, by what they contain, with why.
var notRunnable = []struct{ has, why string }{
	{"sandbox serve", "serves until interrupted"},
	{"sandbox reset", "resets the --sandbox org, not the one under test"},
	{"auth login", "asks for a token on a terminal"},
	{"auth logout", "removes the test's login"},
	{"--dir ", "reads or writes an org-as-code directory"},
	{"--body ", "reads a request body from a file"},
	{"--input ", "reads a request body from a file"},
	{"--file", "reads a file"},
	{"-file ", "reads a file"},
	{"--from ", "reads a bulk input file"},
	{"--exclude ", "reads a file"},
	{"--since ", "reads an earlier report's file"},
	{"jobs show", "names a job of another run"},
	{"jobs rm", "names a job of another run"},
	{"custom-components", "the published API lists libraries only by an id the sandbox makes per run"},
	{"observability ", "needs a provider's credentials"},
	{"user-tasks ", "needs a user task the sandbox makes per run"},
	{"resource-configs ", "needs a configuration the sandbox makes per run"},
	{"releases manifests set", "reads a manifest file"},
	{"source-control deployments get", "needs a deployment id"},
	{"workflows runs get", "needs a run id"},
	{"--preloaded-css-file", "reads a file"},
	{"odbc-check", "checks a local ODBC driver"},
	{"invites remove", "removes an invite that the add example puts in the group first"},
	{"invites attributes delete", "deletes an attribute that the set example sets first"},
	{"org invalidate-sessions", "asks to type the organization's host"},
	{"SCREEN_UUID", "needs a screen id from the app's editor"},
	{"GRANT_UUID", "needs a role grant the sandbox makes per run"},
	{"Q_UUID", "needs a query id from the app's editor"},
}

// shellWords splits an example line as a shell would, for the simple
// lines examples are: words, '…' and "…" quoting, a trailing # comment.
// ok is false for lines that need a shell (pipes, variables, redirects,
// continuations).
func shellWords(line string) (words []string, ok bool) {
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				return nil, false
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			i = len(line)
		case strings.IndexByte("|$<>\\;&`", c) >= 0:
			return nil, false
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, len(words) > 1 && words[0] == "orgctl"
}

// Every help example runs: each on a fresh demo org in the sandbox, with a
// person at the terminal who answers yes, it must succeed (exit 7 where
// the example asks for findings). Examples that cannot run from a test are
// counted and listed by reason.
func TestHelpExamplesRunAgainstTheSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every example")
	}
	root, _ := hintTree()
	seen := map[string]bool{}
	var lines []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, l := range strings.Split(c.Example, "\n") {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "orgctl ") && !seen[l] {
				seen[l] = true
				lines = append(lines, l)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	ran, shell, skipped := 0, 0, map[string]int{}
	for _, line := range lines {
		args, ok := shellWords(line)
		if !ok {
			shell++
			continue
		}
		why := ""
		for _, n := range notRunnable {
			if strings.Contains(line, n.has) {
				why = n.why
				break
			}
		}
		if why != "" {
			skipped[why]++
			continue
		}
		ran++
		t.Run(line, func(t *testing.T) {
			sandboxEnv(t)
			// staging and prod are the profiles examples name.
			cfgDir := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "orgctl")
			os.MkdirAll(cfgDir, 0o700)
			os.WriteFile(filepath.Join(cfgDir, "config.yaml"), []byte("profiles:\n  default: {}\n  staging: {}\n  prod: {}\n"), 0o600)
			f, tio := testFactory(t, &testKeyring{}, "y\n")
			f.IO.InTTY, f.IO.ErrTTY = true, true
			err := execute(t.Context(), f, args[1:], nil)
			code := cli.ExitCode(err)
			if code == cli.ExitFindings && (strings.Contains(line, "--exit-code") || strings.Contains(line, "--fail-on")) {
				code = 0
			}
			if code != 0 {
				t.Errorf("exit %d: %v\nstderr: %s", code, err, tio.Err.String())
			}
		})
	}
	t.Logf("%d examples ran; %d need a shell; not runnable from a test: %v", ran, shell, skipped)
	if ran < 150 {
		t.Errorf("only %d examples ran: is the walk finding them?", ran)
	}
}
