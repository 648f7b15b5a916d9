package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/version"
)

func TestFinish(t *testing.T) {
	unknown := &client.OutcomeUnknownError{Method: "POST", Path: "/users", Cause: context.Canceled}
	for _, tc := range []struct {
		name      string
		err       error
		signalled int
		code      int
		stderr    string
	}{
		{"success", nil, 0, cli.ExitOK, ""},
		// a job whose last steps were in flight ends without an error: still interrupted
		{"interrupted run that ended without an error", nil, cli.ExitSIGTERM, cli.ExitSIGTERM, "orgctl: interrupted (SIGTERM)\n"},
		{"usage", cli.UsageErrorf("bad flag"), 0, cli.ExitUsage, "orgctl: bad flag\n"},
		{"verdict without message", &cli.ExitError{Code: 1}, 0, 1, ""},
		{"verdict with message", &cli.ExitError{Code: 4, Err: errors.New("token rejected")}, 0, 4, "orgctl: token rejected\n"},
		{"SIGINT", fmt.Errorf("GET /users: %w", context.Canceled), cli.ExitSIGINT, cli.ExitSIGINT, "orgctl: interrupted (SIGINT)\n"},
		{"SIGTERM", fmt.Errorf("GET /users: %w", context.Canceled), cli.ExitSIGTERM, cli.ExitSIGTERM, "orgctl: interrupted (SIGTERM)\n"},
		{"outcome unknown wins over the signal", unknown, cli.ExitSIGTERM, cli.ExitOutcomeUnknown, "orgctl: " + unknown.Error() + "\n"},
		// one "orgctl:" however the message begins
		{"message naming the command", cli.UsageErrorf("orgctl users get takes 1 argument(s)"), 0, cli.ExitUsage, "orgctl: users get takes 1 argument(s)\n"},
		{"message with its own prefix", errors.New("orgctl: orgctl groups get: boom"), 0, 1, "orgctl: groups get: boom\n"},
	} {
		var stderr bytes.Buffer
		if code := finish(&stderr, tc.err, tc.signalled); code != tc.code || stderr.String() != tc.stderr {
			t.Errorf("%s: finish = %d, stderr %q; want %d, %q", tc.name, code, stderr.String(), tc.code, tc.stderr)
		}
	}
}

// Signal handlers are installed only for a command that runs: help,
// --version and usage errors leave them alone.
func TestSignalsArmedOnlyForCommandsThatRun(t *testing.T) {
	isolate(t)
	for _, tc := range []struct {
		args  []string
		armed bool
	}{
		{[]string{"--version"}, false},
		{[]string{"--help"}, false},
		{[]string{"users", "list", "--help"}, false},
		{[]string{"help", "exit-codes"}, true},
		{[]string{"users", "get"}, false}, // missing argument
		{[]string{"users", "list", "--bogus"}, false},
		{[]string{"config", "list"}, true},
	} {
		f, _ := testFactory(t, &testKeyring{}, "")
		armed := false
		execute(context.Background(), f, tc.args, func() { armed = true })
		if armed != tc.armed {
			t.Errorf("%q: armed %v, want %v", tc.args, armed, tc.armed)
		}
	}
}

// captureStd runs fn with os.Stdout and os.Stderr sent to files and returns
// what was written to each.
func captureStd(t *testing.T, fn func()) (stdout, stderr string) {
	t.Helper()
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	errf, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	oldOut, oldErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = out, errf
	defer func() { os.Stdout, os.Stderr = oldOut, oldErr }()
	fn()
	out.Close()
	errf.Close()
	o, _ := os.ReadFile(out.Name())
	e, _ := os.ReadFile(errf.Name())
	return string(o), string(e)
}

func TestMain_ExitStatusAndStreams(t *testing.T) {
	isolate(t)
	var code int
	stdout, stderr := captureStd(t, func() { code = Main([]string{"users", "list", "--limit", "0"}) })
	if code != cli.ExitUsage || stdout != "" || stderr != "orgctl: users list: --limit takes a whole number from 1 to 100, got 0\n" {
		t.Errorf("bad --limit: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	stdout, stderr = captureStd(t, func() { code = Main([]string{"--version"}) })
	if code != cli.ExitOK || stdout != version.Get().String() || stderr != "" {
		t.Errorf("--version: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	stdout, stderr = captureStd(t, func() { code = Main([]string{"users", "list"}) })
	if code != cli.ExitUsage || stdout != "" || !strings.Contains(stderr, "no base URL") {
		t.Errorf("no base URL: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	t.Setenv("ORGCTL_BASE_URL", "https://acme.example.com")
	t.Setenv("ORGCTL_TOKEN_STORE", "file") // Main's factory has the real keyring: keep it out
	stdout, stderr = captureStd(t, func() { code = Main([]string{"users", "list"}) })
	if code != cli.ExitAuth || stdout != "" || !strings.Contains(stderr, "not logged in") {
		t.Errorf("not logged in: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestFamilyWord(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		first, fam string
	}{
		{nil, "", ""},
		{[]string{"users", "list"}, "users", "users"},
		{[]string{"--profile", "ci", "groups", "list"}, "groups", "groups"},
		{[]string{"-o", "json", "--jq", ".[]", "apps", "list"}, "apps", "apps"},
		{[]string{"--output", "yaml", "--template", "{{.}}", "--max-wait", "1m", "--timeout", "5s", "folders"}, "folders", "folders"},
		{[]string{"--profile=ci", "-ojson", "--debug", "-q", "spaces"}, "spaces", "spaces"},
		{[]string{"--sandbox", "--insecure-http", "user", "get", "u"}, "user", "user"},
		{[]string{"--", "themes"}, "themes", "themes"},
		{[]string{"--", "users", "list"}, "users", "users"},
		{[]string{"--"}, "", ""},
		{[]string{"--profile"}, "", ""},
		{[]string{"--debug"}, "", ""},
		// help and completion requests name the family after them.
		{[]string{"help", "users"}, "help", "users"},
		{[]string{"help", "-o", "json", "users", "list"}, "help", "users"},
		{[]string{"-o", "json", "help"}, "help", ""},
		{[]string{"help", "help", "perms"}, "help", "perms"},
		{[]string{"completion", "bash"}, "completion", "completion"},
		{[]string{cobra.ShellCompRequestCmd, "users", ""}, cobra.ShellCompRequestCmd, "users"},
		{[]string{cobra.ShellCompRequestCmd, "--profile", ""}, cobra.ShellCompRequestCmd, ""},
		{[]string{cobra.ShellCompNoDescRequestCmd, "gr"}, cobra.ShellCompNoDescRequestCmd, "gr"},
		{[]string{cobra.ShellCompRequestCmd, "help", "users", "li"}, cobra.ShellCompRequestCmd, "users"},
		{[]string{"--columns", "id,email", "users", "list"}, "users", "users"},
		{[]string{"-qo", "json", "users"}, "users", "users"},
		{[]string{"-oq", "users"}, "users", "users"},
		{[]string{"--jq=.", "users"}, "users", "users"},
		{[]string{"users", "--limit", "5", "list"}, "users", "users"},
		{[]string{"users", "--", "list"}, "users", "users"},
	} {
		first := ""
		if i := firstWordAt(tc.args); i >= 0 {
			first = tc.args[i]
		}
		if first != tc.first {
			t.Errorf("first word of %q: %q, want %q", tc.args, first, tc.first)
		}
		if fam := familyWord(tc.args); fam != tc.fam {
			t.Errorf("familyWord(%q) = %q, want %q", tc.args, fam, tc.fam)
		}
	}
}

// Every global flag works before the command's words as after them: the
// start-up shortcut steps over each one (and its value) to find the
// family to build. A new global flag needs a sample value here.
func TestEveryGlobalFlagBeforeAndAfterTheCommand(t *testing.T) {
	samples := map[string][]string{
		"profile":       {"--profile", "default"},
		"output":        {"-o", "json"},
		"jq":            {"--jq", "."},
		"template":      {"--template", "{{len .}}"},
		"columns":       {"--columns", "id,email"},
		"quiet":         {"-q"},
		"debug":         {"--debug"},
		"max-wait":      {"--max-wait", "1m"},
		"timeout":       {"--timeout", "20s"},
		"insecure-http": {"--insecure-http"},
		// --sandbox would leave the test's sandbox for the built-in one;
		// "=false" still has the shortcut step over the flag.
		"sandbox": {"--sandbox=false"},
	}
	sandboxEnv(t)
	f, _ := testFactory(t, &testKeyring{}, "")
	seen := 0
	newRoot(f, allFamilies).PersistentFlags().VisitAll(func(fl *pflag.Flag) {
		seen++
		flag, ok := samples[fl.Name]
		if !ok {
			t.Errorf("--%s: no sample value in this test", fl.Name)
			return
		}
		forms := [][]string{flag}
		if len(flag) == 2 { // also --name=value
			forms = append(forms, []string{"--" + fl.Name + "=" + flag[1]})
		}
		for _, form := range forms {
			before := append(slices.Clip(form), "users", "list")
			after := append([]string{"users", "list"}, form...)
			outBefore, _, errBefore := run(t, "", before...)
			outAfter, _, errAfter := run(t, "", after...)
			if errBefore != nil || errAfter != nil {
				t.Errorf("%q: %v; %q: %v", before, errBefore, after, errAfter)
				continue
			}
			if outBefore != outAfter || outBefore == "" {
				t.Errorf("%q printed %q, but %q printed %q", before, outBefore, after, outAfter)
			}
		}
	})
	if seen != len(samples) {
		t.Errorf("the root has %d global flags, the samples %d", seen, len(samples))
	}
}

func TestRootBuildsOnlyTheNamedFamily(t *testing.T) {
	isolate(t)
	sub := func(root *cobra.Command, name string) *cobra.Command {
		for _, c := range root.Commands() {
			if c.Name() == name {
				return c
			}
		}
		return nil
	}
	f, _ := testFactory(t, &testKeyring{}, "")
	// A named family (or tool) is built in full, the others as stubs.
	alone := func(args []string, name string) {
		t.Helper()
		root := newRoot(f, familyWord(args))
		if c := sub(root, name); c == nil || !c.HasSubCommands() {
			t.Errorf("%v: %s, the named command, was not built", args, name)
		}
		for _, other := range []string{"users", "groups", "permissions", "releases", "auth", "budget", "completion", "jobs"} {
			if c := sub(root, other); other != name && (c == nil || c.HasSubCommands()) {
				t.Errorf("%v: %s is not a stub", args, other)
			}
		}
	}
	alone([]string{"-o", "json", "users", "list"}, "users")
	alone([]string{"perms", "roles", "list"}, "permissions") // an alias names its family
	alone([]string{"--debug", "auth", "status"}, "auth")
	// Without a known name, the root lists every family and tool as a
	// stub: its help, and the error for an unknown command.
	for _, args := range [][]string{{}, {"--version"}, {"frobnicate"}} {
		root := newRoot(f, familyWord(args))
		for _, name := range []string{"users", "groups", "auth", "jobs"} {
			if c := sub(root, name); c == nil || c.HasSubCommands() {
				t.Errorf("%v: %s is not a stub", args, name)
			}
		}
	}
	// Help and completion requests build the family they name.
	alone([]string{"help", "users", "list"}, "users")
	alone([]string{cobra.ShellCompRequestCmd, "-o", "json", "groups", "li"}, "groups")
	alone([]string{"completion", "zsh"}, "completion")
	// The whole tree is every family and tool in full.
	root := newRoot(f, allFamilies)
	for _, g := range families.All() {
		if c := sub(root, g.Name); c == nil || !c.HasSubCommands() {
			t.Errorf("family %s is not whole", g.Name)
		}
	}
}

// TestToolHeaders keeps each tool's stub (what the root's help lists when
// the tool is not built) equal to the command it builds.
func TestToolHeaders(t *testing.T) {
	isolate(t)
	f, _ := testFactory(t, &testKeyring{}, "")
	root := newRoot(f, allFamilies)
	for _, tl := range tools(root) {
		c := tl.build(f)
		if c.Use != tl.use || c.Short != tl.short {
			t.Errorf("tool header %q / %q, but the command says %q / %q", tl.use, tl.short, c.Use, c.Short)
		}
		if built, _, err := root.Find([]string{tl.name()}); err != nil || built.Use != tl.use || built.GroupID != tl.group || !built.Runnable() {
			t.Errorf("root has no whole %q in group %q (err %v)", tl.name(), tl.group, err)
		}
	}
}

func TestExecuteHelpAndUsageErrors(t *testing.T) {
	isolate(t)
	out, _, err := run(t, "", "--help")
	if err != nil || !strings.Contains(out, "Organization commands:") || !strings.Contains(out, "users") || !strings.Contains(out, "orgctl commands:") {
		t.Errorf("root help: %v\n%s", err, out)
	}
	out, _, err = run(t, "", "help", "groups")
	if err != nil || !strings.Contains(out, "members") || !strings.Contains(out, "replace") {
		t.Errorf("help groups lacks its subcommands: %v\n%s", err, out)
	}
	out, _, err = run(t, "", "groups")
	if err != nil || !strings.Contains(out, "Available Commands:") {
		t.Errorf("a bare family prints its help: %v\n%s", err, out)
	}
	for _, args := range [][]string{
		{"bogus"},
		{"users", "bogus"},
		{"users", "list", "--bogus"},
		{"users", "get"},
		{"users", "create", "--active=maybe"},
		{"groups", "list", "--limit"},
		{"users", "list", "extra"},
	} {
		_, _, err := run(t, "", args...)
		if cli.ExitCode(err) != cli.ExitUsage {
			t.Errorf("%v: err %v, exit %d, want 2", args, err, cli.ExitCode(err))
		}
	}
	_, _, err = run(t, "", "users", "bogus")
	if err == nil || !strings.Contains(err.Error(), `unknown command "bogus" for "orgctl users"`) {
		t.Errorf("unknown subcommand: %v", err)
	}
}
