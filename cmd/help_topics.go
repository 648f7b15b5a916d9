package cmd

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/internal/suggest"
	"github.com/orgctl/orgctl/cmd/manual"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
)

// exitCodes are what each exit status means: the contract scripts rely on.
// `orgctl help exit-codes` prints this table, and a test holds the
// README's table to it.
var exitCodes = []struct {
	Code    int
	Meaning string
}{
	{cli.ExitOK, "success"},
	{cli.ExitFailure, "failure (including an API error other than the ones below, or a refused redirect)"},
	{cli.ExitUsage, "invalid usage or input (including a mistyped setting, a base URL with user info, a body that is not the object the API takes or is over 16 MiB, a PATH that would reach another endpoint), caught before any request was sent"},
	{cli.ExitNotFound, "not found"},
	{cli.ExitAuth, "authentication failed (401) or the token lacks the scope the command needs (403)"},
	{cli.ExitGaveUp, "gave up waiting (`--max-wait`): for the rate budget, for the budget ledger's lock, or for the server's 503/429 backoff or Retry-After"},
	{cli.ExitOutcomeUnknown, "outcome unknown: a create, update or delete may have been applied but no answer confirmed it (no answer, a 5xx, a redirect, or a 2xx whose body cannot be read); check before retrying (with `--from`: a row's outcome is still unknown)"},
	{cli.ExitFindings, "differences or findings: `plan --exit-code` has changes to make (or, with `--fail-on-unmanaged`, live objects in no file), `resources audit --fail-on` has findings at that level; the command itself worked"},
	{cli.ExitSIGINT, "interrupted by Ctrl-C (SIGINT)"},
	{cli.ExitSIGTERM, "terminated (SIGTERM)"},
}

// helpTopic is a page of `orgctl help TOPIC` that is not a command.
type helpTopic struct {
	Name  string
	Short string
	Text  func() string
}

// helpTopics are the pages of `orgctl help TOPIC`, in order: the ones
// made from code, then the manual's. Built on first use, since nothing of
// orgctl's may run before main (TestNothingOfOrgctlRunsBeforeMain).
func helpTopics() []helpTopic {
	topicsOnce.Do(func() {
		topics = append([]helpTopic{
			{"environment", "Environment variables and config keys", withManual("environment", environmentHelp)},
			{"exit-codes", "What each exit status means", withManual("exit-codes", exitCodesHelp)},
			{"formatting", "Output formats, --jq and --template, terminal and piped output", withManual("formatting", formattingHelp)},
			{"names", "Names that stand for ids: emails, group names, folder paths", withManual("names", namesHelp)},
			{"login", "Logging in: tokens, where they are kept, profiles, doctor", func() string { return manual.Text("login") }},
			{"scopes", "Token scopes: each one's console label and the commands that need it", withManual("scopes", scopesHelp)},
		}, jobTopics()...)
	})
	return topics
}

var (
	topicsOnce sync.Once
	topics     []helpTopic
)

// jobTopics are the manual's pages, one per job, each read when shown.
func jobTopics() []helpTopic {
	var out []helpTopic
	for _, t := range manual.Topics() {
		out = append(out, helpTopic{t.Name, t.Short, func() string { return manual.Text(t.Name) }})
	}
	return out
}

// withManual is a topic made from code followed by the manual's prose
// about it, when it has some.
func withManual(name string, gen func() string) func() string {
	return func() string {
		if more := manual.Text(name); more != "" {
			return gen() + "\n" + more
		}
		return gen()
	}
}

// HelpTopic is a page of `orgctl help TOPIC` as the man pages render it.
type HelpTopic struct{ Name, Short, Text string }

// HelpTopics are every page of `orgctl help TOPIC`, in order, for the man
// pages (section 7) and the tests that run their examples.
func HelpTopics() []HelpTopic {
	out := make([]HelpTopic, 0, len(helpTopics()))
	for _, t := range helpTopics() {
		out = append(out, HelpTopic{t.Name, t.Short, t.Text()})
	}
	return out
}

// namesHelp is written from the registry of kinds, so it lists what
// resolution looks up.
func namesHelp() string {
	var b strings.Builder
	b.WriteString(`Wherever a command takes an object's id, it also takes the object's name
and looks the id up: one list request per kind (kept for the completion
cache's TTL), or for users one filtered request per email. No match exits
3; a name that matches several objects exits 2 listing their ids.

`)
	named := map[string]bool{}
	for _, v := range kinds.Views() {
		if v.Names {
			named[v.Kind] = true
		}
	}
	var names []string
	for n := range named {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		k := kinds.Of(n)
		by := strings.ReplaceAll(k.Key, "_", " ")
		switch {
		case n == "folders":
			by = "path (see below)"
		case k.Fold:
			by += " (any case)"
		case n == "resources":
			by += ", where the API takes only the UUID"
		}
		fmt.Fprintf(&b, "  %-17s %s\n", n, by)
	}
	b.WriteString(`
Folder paths name every folder once. A path is the folder's type, then the
names from the top down:

  app:/                       the root of the app folders
  app:/Finance/Reports        Reports, in Finance, under the root
  app:~/                      personalRoot, which holds each user's own folders
  app:~/(1) Ada's Drafts      a user's Drafts; their Trash is inside it
  app:~NAME/                  any other folder without a parent, named NAME

A path under the root always begins TYPE:/ and any other TYPE:~, so no
personal or system folder can be taken for a folder under the root: a folder
named "~" under the root is app:/~. A "/" inside a name is written \/
(app:/A\/B is one folder named A/B). Types are app, resource, workflow,
agent and library; file folders (file:/) are shown but not managed.

What an org cannot do without is never deleted: the groups admin and All
Users and the system folders (each type's root and archive, personalRoot, each
user's Drafts and Trash).
A delete of one is refused before it is sent (exit 2), and org as code's
prune leaves them.
`)
	return b.String()
}

// scopesHelp is written from the API description (client/spec) and the
// declared operations, so it lists every scope the description names, in
// the spelling tokens use, and what needs each.
func scopesHelp() string {
	label := map[string]string{}
	for _, op := range spec.Operations() {
		if op.ScopeName != "" && len(op.AnyScope()) == 1 {
			label[op.Scope] = op.ScopeName
		}
	}
	need := map[string][]string{}
	var walk func(prefix string, gs []engine.Group)
	walk = func(prefix string, gs []engine.Group) {
		for _, g := range gs {
			for i := range g.Ops {
				op := &g.Ops[i]
				if op.Help.Hidden {
					continue
				}
				for _, s := range op.Described().AnyScope() {
					if cmd := prefix + g.Name + " " + op.Name(); !slices.Contains(need[s], cmd) {
						need[s] = append(need[s], cmd)
					}
				}
			}
			walk(prefix+g.Name+" ", g.Groups)
		}
	}
	walk("", families.All())
	var b strings.Builder
	fmt.Fprintf(&b, "A token carries scopes; each command needs one of them (its help's Scope line).\n"+
		"The %d scopes of the API %s, as tokens and the API's 403s spell them,\n"+
		"with the console's label where it has one, and the commands that need each:\n", len(spec.Scopes()), spec.Version)
	for _, s := range spec.Scopes() {
		b.WriteString("\n  " + s)
		if l := label[s]; l != "" {
			b.WriteString(" (" + l + ")")
		}
		b.WriteString("\n")
		line := "     "
		for i, c := range need[s] {
			if i > 0 {
				line += ","
			}
			if len(line)+1+len(c) > 78 {
				b.WriteString(line + "\n")
				line = "     "
			}
			line += " " + c
		}
		if len(need[s]) == 0 {
			line += " no command of this orgctl"
		}
		b.WriteString(line + "\n")
	}
	b.WriteString(`
'orgctl tokens create --scope' completes these names. An operation that
accepts either of two scopes lists under both. Reports and reviews that
send several requests name every scope they need in their own help.
`)
	return b.String()
}

func exitCodesHelp() string {
	var b strings.Builder
	b.WriteString("Each exit status means one thing, so scripts can branch on it:\n\n")
	for _, e := range exitCodes {
		fmt.Fprintf(&b, "  %3d   %s\n", e.Code, strings.ReplaceAll(e.Meaning, "`", ""))
	}
	b.WriteString(`
Ctrl-C or SIGTERM abandons the request in flight and exits 130 or 143; a
write that had already been sent exits 6 instead, since the server may have
applied it. Input problems (exit 2) are reported all together, and nothing
is sent.
`)
	return b.String()
}

func environmentHelp() string {
	var b strings.Builder
	b.WriteString(`Every config key can also be set with an environment variable (ORGCTL_ and
the key in capitals, dots as underscores) and, where listed, a flag.
Precedence: flag > environment > the selected profile > the file's top level > default.

Config:  $XDG_CONFIG_HOME/orgctl/config.yaml (default ~/.config/orgctl)
State:   $XDG_STATE_HOME/orgctl (budget ledger, sandbox org, bulk jobs)
Caches:  $XDG_CACHE_HOME/orgctl

`)
	type row struct{ env, key, flag, help string }
	rows := []row{{"VARIABLE", "CONFIG KEY", "FLAG", "MEANING"}}
	for _, s := range settings.All() {
		r := row{env: s.Env(), key: s.Key, help: s.Help}
		if s.EnvOnly {
			r.key = "(env only)"
		}
		if s.Family {
			r.env, r.key = "", s.Key+".FAMILY"
		}
		if s.Flag != "" {
			r.flag = "--" + s.Flag
		}
		var what []string
		if s.Type != settings.TypeString || len(s.Enum) > 0 {
			what = append(what, s.Accepts())
		}
		if s.Default != "" {
			what = append(what, "default "+s.Default)
		}
		if len(what) > 0 {
			r.help += " (" + strings.Join(what, "; ") + ")"
		}
		rows = append(rows, r)
	}
	w := [3]int{}
	for _, r := range rows {
		w[0], w[1], w[2] = max(w[0], len(r.env)), max(w[1], len(r.key)), max(w[2], len(r.flag))
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s  %-*s  %-*s  %s\n", w[0], r.env, w[1], r.key, w[2], r.flag, strings.ReplaceAll(r.help, "`", "'"))
	}
	b.WriteString("\nThe Environments family (development, staging, production) is 'orgctl environments'.\n")
	return b.String()
}

func formattingHelp() string {
	return `Only data goes to stdout; progress, waits, warnings and confirmations go to
stderr, so a pipe carries nothing but the answer.

  -o table     on a terminal: aligned columns with a header
               piped: no header, tab-separated, one record per line
  -o json      the API's data exactly as received (one value)
  -o yaml      the same data as YAML
  -o csv       the table's columns as CSV (RFC 4180) with a header row of the
               column names, for spreadsheets; a cell starting with = + - @,
               tab or carriage return gets a leading ' so it is never run as
               a formula (--report files are written the same way)
  --jq EXPR    filter the JSON data with a jq expression (strings print bare)
  --template T format each answer with a Go text/template, e.g. '{{.email}}'

--columns picks and orders the columns of the table, piped and CSV output.
--jq and --template cannot be used together. An empty list prints nothing
when piped; on a terminal it says so on stderr ("no users match").
Colour only on a terminal: set NO_COLOR to turn it off, CLICOLOR_FORCE=1 to keep
it through a pipe; ORGCTL_FORCE_TTY=1 renders the terminal form through a pipe
(tests, recordings).

Examples:
  orgctl users list -o json --jq '.[] | select(.active) | .email'
  orgctl users get USER_ID --template '{{.first_name}} {{.last_name}}'
`
}

// newHelpCmd is `orgctl help [COMMAND|TOPIC]`: a topic, a command's help,
// or, for anything else, exit 2 with the nearest topics and commands.
func newHelpCmd(root *cobra.Command, width int) *cobra.Command {
	c := &cobra.Command{Use: "help [COMMAND | TOPIC]",
		Short: "Help about any command, or a topic: " + strings.Join(topicNames(), ", ")}
	c.Long = "Help about any command, or one of these topics:\n\n" + topicList() +
		"\nExample: orgctl help exit-codes"
	c.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		out := topicNames()
		for _, c := range root.Commands() {
			if c.IsAvailableCommand() {
				out = append(out, c.Name())
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
	c.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return root.Help()
		}
		if len(args) == 1 {
			for _, t := range helpTopics() {
				if t.Name == args[0] {
					text := t.Text()
					// the topic is shown before a command of the same name
					// (budget, spaces): say where that one's help is
					if cmd, _, err := root.Find(args); err == nil && cmd != root {
						text += fmt.Sprintf("\nThe %s command: orgctl %s --help.\n", cmd.Name(), cmd.CommandPath()[len(root.Name())+1:])
					}
					fmt.Fprint(c.OutOrStdout(), output.WrapHelp(text, width))
					return nil
				}
			}
		}
		target, rest, err := root.Find(args)
		if err == nil && target != root && len(rest) == 0 {
			return target.Help()
		}
		return unknownTopic(root, strings.Join(args, " "), topicNames())
	}
	return c
}

// topicNames are the help topics' names, in their order.
func topicNames() []string {
	names := make([]string, 0, len(helpTopics()))
	for _, t := range helpTopics() {
		names = append(names, t.Name)
	}
	return names
}

func topicList() string {
	var b strings.Builder
	w := 0
	for _, t := range helpTopics() {
		w = max(w, len(t.Name))
	}
	for _, t := range helpTopics() {
		fmt.Fprintf(&b, "  %-*s %s\n", w, t.Name, t.Short)
	}
	return b.String()
}

// unknownTopic is a usage error naming the nearest topics and commands.
func unknownTopic(root *cobra.Command, what string, topics []string) error {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	last := what
	if i := strings.LastIndexByte(what, ' '); i >= 0 {
		last = what[i+1:]
	}
	for _, t := range topics {
		cs = append(cs, cand{t, suggest.Distance(last, t)})
	}
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			cs = append(cs, cand{c.Name(), suggest.Distance(last, c.Name())})
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d || cs[i].d == cs[j].d && cs[i].name < cs[j].name })
	msg := fmt.Sprintf("unknown help topic %q", what)
	var near []string
	for _, c := range cs {
		if c.d <= suggest.Typo(len(last)) && len(near) < 3 {
			near = append(near, c.name)
		}
	}
	if len(near) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(near, "\n\t")
	}
	msg += "\n\nTopics:\n" + topicList() + "Run 'orgctl --help' for the list of commands."
	return cli.UsageErrorf("%s", msg)
}
