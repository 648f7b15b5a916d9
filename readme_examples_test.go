package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orgctl/orgctl/cmd"
)

// readmeCommand is one shell command of a fenced block in README.md.
type readmeCommand struct {
	doc     string      // README.md, or the help topic it is in ("help bulk")
	line    int         // where it starts in doc
	text    string      // continuation lines joined, prompt and trailing comment removed
	section string      // the "## " heading it is under; for a topic, "help TOPIC"
	block   int         // its block: the line of the opening fence, unique across docs
	shown   []shownLine // in a console block: what the README shows it prints
}

// where is the command's document and line, for messages.
func (c readmeCommand) where() string { return fmt.Sprintf("%s:%d", c.doc, c.line) }

// shownLine is a line of output README.md shows, and where.
type shownLine struct {
	line int
	text string
}

// readmeNotRunnable are README commands a test cannot run, by what they
// contain, with why. block: the whole block they are in cannot run.
var readmeNotRunnable = []struct {
	has, why string
	block    bool // the whole block cannot run
	is       bool // the command is has, not only contains it
}{
	{has: "redis-server", block: true, why: "the fleet rehearsal needs a redis-server and a sandbox served in the background"},
	{has: "redis.internal", block: true, why: "needs the Redis server the block names"},
	{has: "go test ", why: "runs the whole test suite, this test included (TestREADMEQuickstart checks it against .ci/run)"},
	{has: "go build ", why: "builds the binary; the test runs the same main as `orgctl`"},
	{has: "bash .ci/", why: "a CI script, run by CI"},
	{has: "head -2 sandbox.env", why: "reads what the server in the background wrote"},
	{has: "orgctl auth login", is: true, why: "asks for the URL and a hidden token on a terminal"},
	{has: "auth login --space", why: "stores the token in the OS keyring, which a test has not (the section's Spaces are logged in with --insecure-storage instead)"},
	{has: "auth login --with-token", why: "stores the token in the OS keyring, which a test has not (.ci/keyring-tests.sh logs in to a real one)"},
	{has: "users create ... ", why: "`...` stands for the flags"},
	{has: "| source", why: "fish syntax"},
	{has: "man -l ", why: "reads the page the command above built"},
}

// readmeShownUnchecked are commands whose output, as a console block
// shows it, the test cannot compare, with why (they still run).
var readmeShownUnchecked = []struct{ is, why string }{
	{"orgctl --version", "shows a release's version, commit and build date; the test binary has none"},
}

// readmeRewrites turn a README command into the one the test runs: from
// replaces the command's start, fromAny a text anywhere in it.
var readmeRewrites = []struct{ from, fromAny, to string }{
	{from: "go run . ", to: "orgctl "}, // the test binary's main is orgctl's, as go run . builds it
	{from: "./orgctl ", to: "orgctl "}, // the binary built in the block above
	// a port of its own, which no other process holds
	{fromAny: "--addr 127.0.0.1:8080", to: "--addr 127.0.0.1:0"},
	// a checkout's program, run from this checkout, writing where the
	// script works
	{fromAny: "go run ./cmd/internal/releasefiles -man man/", to: `GOCACHE="$READMEGOCACHE" GOMODCACHE="$READMEGOMODCACHE" go run -C "$READMEREPO" ./cmd/internal/releasefiles -man "$PWD/man/" && test -s man/orgctl-bulk.7 && test -s man/orgctl-users-list.1`},
	// the job the command above ran, whose id differs in every run
	{fromAny: "jobs show 3f2a9c1b7d40", to: "jobs show $READMEJOB"},
}

// readmeServe runs `orgctl sandbox serve` until it has printed its first
// two lines, which must be the exports it promises, then stops it. With
// SIGTERM: a shell starts a coprocess with SIGINT ignored, until serve
// installs its handler after those lines.
var readmeServe = regexp.MustCompile(`^orgctl sandbox serve( [^|&;<>]*)?$`)

const readmeServeScript = `coproc S { exec %s; }
read -r a <&"${S[0]}"; read -r b <&"${S[0]}"
kill -TERM "$S_PID"; wait "$S_PID"
printf '%%s\n' "$a" "$b"
case "$a
$b" in "export ORGCTL_BASE_URL="*"
export ORGCTL_TOKEN="*) ;; *) echo "the first two lines are not the exports" >&2; exit 1;; esac`

// readmeFixtures are the input files the README's commands name, by
// section: what a user would have at hand. A prep line runs before the
// README command that contains its key; wants gives such a command the
// exit codes the README promises it after the prep.
var readmeFixtures = map[string]struct {
	setup string // script lines that start the section
	files map[string]string
	prep  map[string]string
	wants map[string][]int
}{
	"help bulk": {files: map[string]string{
		"people.csv":    "email,first-name,last-name\nada@example.com,Ada,Lovelace\ngrace@example.com,Grace,Hopper\n",
		"emails.csv":    "user\ndev.lee@sandbox.example\npriya.ops@sandbox.example\n",
		"changes.jsonl": `{"user-id":"dev.lee@sandbox.example","last_name":"Byron"}` + "\n",
		"leavers.csv":   "user-id\nformer.employee@sandbox.example\n",
		"groups.csv":    "group\nsupport\neditor\n",
		"hr.csv":        "Email Address,Given Name,Family Name,Department,Badge\nalan@example.com,Alan,Turing,research,42\n",
	}},
	"help spaces": {
		// three Spaces, each a sandbox org of its own, each a profile logged
		// in without a keyring, and no login in the environment
		setup: readmeSpacesSetup,
		prep:  map[string]string{"offboard leaver@example.com --profiles all --dry-run": "orgctl users create --email leaver@example.com --first-name Lea --last-name Ver --profile default"},
	},
	// the README's tour: a file to create users from, an HR export, and the
	// Spaces its --profiles examples reach, set up as for help spaces
	"The jobs": {
		setup: readmeSpacesSetup,
		files: map[string]string{
			"people.csv": "email,first-name,last-name\nada@example.com,Ada,Lovelace\ngrace@example.com,Grace,Hopper\n",
			"hr.csv":     "Email Address,Given Name,Family Name,Department,Badge\nalan@example.com,Alan,Turing,research,42\n",
		},
	},
	"Install": {files: map[string]string{
		// a download and its release's checksums
		"orgctl_1.2.3_linux_amd64.tar.gz": "x\n",
		"checksums.txt": "73cb3858a687a8494ca3323053016282f3dad39d42cf62ca4e79dda2aac7d9ac  orgctl_1.2.3_linux_amd64.tar.gz\n" +
			"0000000000000000000000000000000000000000000000000000000000000000  orgctl_1.2.3_darwin_arm64.tar.gz\n",
	}},
	"help budget": {
		// the --debug log a user would price
		prep: map[string]string{"budget price run.log": "orgctl users list --debug 2> run.log"},
	},
	"help access-reviews": {
		files: map[string]string{"leavers.csv": "email\nformer.employee@sandbox.example\n"},
		// the previous quarter's review, which the README's first review
		// writes, and a change since, which the README says exits 7
		prep: map[string]string{"--since access-q2.csv": "orgctl permissions report -o csv > access-q2.csv && " +
			"orgctl users disable dev.lee@sandbox.example --yes"},
		wants: map[string][]int{"--since access-q2.csv": {7}},
	},
}

// readmeSpacesSetup makes three Spaces, each a sandbox org of its own,
// each a profile logged in without a keyring, and no login in the
// environment.
const readmeSpacesSetup = "rm .config/orgctl/config.yaml\nsandbox2 ENG_URL ENG_TOKEN 100000 1m\nsandbox2 OPS_URL OPS_TOKEN 100000 1m\n" +
	"exec bash -c 'login() { printf %s \"$2\" | ORGCTL_TOKEN= orgctl auth login --with-token --insecure-storage --base-url \"$3\" --profile $1; }; " +
	"login default \"$ORGCTL_TOKEN\" \"$ORGCTL_BASE_URL\" && login eng \"$ENG_TOKEN\" \"$ENG_URL\" && login ops \"$OPS_TOKEN\" \"$OPS_URL\"'\n" +
	"env ORGCTL_TOKEN=\nenv ORGCTL_BASE_URL=\n"

// readmeConfig gives the README's examples the profiles they name, with
// tokens in files, since a test has no OS keyring.
const readmeConfig = "profiles:\n  default: {token_store: file}\n  staging: {token_store: file}\n  prod: {token_store: file}\n"

// readmeFigures are figures README.md states, and how to measure them: a
// script that ends with the output to check, and the pattern that output
// must match, built from the figures README.md states ($1, $2...).
// Each must match a statement of README.md.
var readmeFigures = []readmeFigure{
	// (the plan shown, of the change the README's diff makes, Cost line
	// included, is held whole by TestReadmePlanExample)
	{said: regexp.MustCompile(`For the whole demo org that is (\d+) requests and (\d+) points`),
		script:  "exec orgctl export --dir org\nexec orgctl plan --dir org\n",
		printed: `the read took $1 requests, $2 points`},
	{said: regexp.MustCompile(`a plan of the whole demo org reads (\d+)`),
		script:  "exec orgctl export --dir org\nexec orgctl plan --dir org\n",
		printed: `the read took \d+ requests, $1 points`},
	{said: regexp.MustCompile(`a group change re-reads the groups list alone, (\d+) points`),
		script: "exec orgctl export --dir org\n" +
			"exec sed -i 's/^universal_app_access: .*/universal_app_access: own/' org/groups/support.yaml\n" +
			"exit 7 orgctl plan --dir org --exit-code --out org.plan\nexec orgctl apply org.plan --yes\n",
		printed: `the read took 1 request, $1 points`},
	{said: regexp.MustCompile("`?--only groups`?, reads the groups list alone \\((\\d+) points\\)"),
		script:  "exec orgctl export --dir org\nexec orgctl plan --dir org --only groups\n",
		printed: `the read took 1 request, $1 points`},
	{said: regexp.MustCompile(`copying the demo org onto an empty one is (\d+) writes \((\d+) points\) after a read of (\d+) requests \((\d+) points\)`),
		script:  "exec orgctl export --dir org\n" + readmeCopyToEmpty,
		printed: `the read took $3 requests, $4 points; the changes are $1 requests, $2 points`},
	{said: regexp.MustCompile(`With 400 more users \(([\d,]+) points`),
		script:  "org demo 100000 1m users=400\nexec orgctl export --dir org\n" + readmeCopyToEmpty,
		printed: `the read took \d+ requests, (\d+) points; the changes are \d+ requests, (\d+) points`, sum: true},
	// the report's columns, as its table's header
	{said: regexp.MustCompile("`?permissions report`? has one row per user and object \\(([A-Z ,]+)\\)"),
		// wide enough for every column: a terminal drops optional ones to fit
		script: "env ORGCTL_WIDTH=400\nexec orgctl permissions report\n",
		header: true},
	// the message shown for a mistyped setting in the config file
	{said: regexp.MustCompile(`  (orgctl: invalid timeout "abc" \(from )\S+(/config\.yaml:3 \(profile prod\)\): expected [^()]*\(at least 1ms\))`),
		in:      "help environment",
		script:  "exit 2 orgctl --profile prod users list\n",
		files:   "-- .config/orgctl/config.yaml --\nprofiles:\n  prod:\n    timeout: abc\n",
		printed: `$1\S+$2`},
	// a lookup's price in the table of names, as a dry run of its request prints it
	{said: regexp.MustCompile(`GET (/[a-z_/]+)\S*(?: \([^)]*\))? +(\d+)(?: |$)`),
		in:      "help names",
		script:  "exec orgctl api GET $1 --dry-run\n",
		printed: `cost: $2 points`},
}

type readmeFigure struct {
	said    *regexp.Regexp
	script  string
	printed string
	in      string // the only document to look in ("help names"); "" for every one
	sum     bool   // the figures printed add up to the one README.md states
	header  bool   // the figure is a list of columns, a table's header in that order
	files   string // txtar files the script needs
}

// readmeCopyToEmpty applies the exported org onto an empty one: exit 1,
// the grants on the demo org's app being blocked (the empty org has none).
const readmeCopyToEmpty = "org empty 100000 1m\nenv ORGCTL_SECRET_STRIPE_KEY_PRODUCTION=figures-only\n" +
	"exit 1 orgctl apply --dir org --yes\n"

var (
	readmeJob     = regexp.MustCompile(`\bjob ([0-9a-f]{12})\b`)
	readmeFence   = regexp.MustCompile("^\\s*```\\s*([A-Za-z]*)")
	readmeFuncDef = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\(\)\s*\{`)
	// orgctl as a command word: first, after an assignment, in a pipe or a substitution
	readmeRunsOrgctl = regexp.MustCompile(`(^|[|;&(]\s*|\$\(\s*|<\(\s*)([A-Za-z_][A-Za-z0-9_]*=\S*\s+)*orgctl(\s|$)`)
	readmeExport     = regexp.MustCompile(`^export\s+([A-Za-z_][A-Za-z0-9_]*=[^\s$"'` + "`" + `]*\s*)+$`)
)

// readmeCommands returns the shell commands of README.md's fenced blocks in
// order: sh, bash, shell and console blocks, and plain blocks' lines that
// start with "$ " or "orgctl ". In console blocks only "$ " lines are
// commands; the rest is what they print.
func readmeCommands(readme string) (cmds []readmeCommand, otherBlocks []string) {
	lines := strings.Split(readme, "\n")
	section, block, lang, inBlock := "", 0, "", false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := readmeFence.FindStringSubmatch(l); m != nil {
			if inBlock {
				inBlock = false
				continue
			}
			inBlock, block, lang = true, i+1, m[1]
			if !readmeShellLang(lang) {
				otherBlocks = append(otherBlocks, fmt.Sprintf("README.md:%d: a %s block", i+1, lang))
			}
			continue
		}
		if !inBlock {
			if strings.HasPrefix(l, "## ") {
				section = strings.TrimSpace(strings.TrimPrefix(l, "## "))
			}
			continue
		}
		if !readmeShellLang(lang) {
			continue
		}
		t := strings.TrimSpace(l)
		if p, ok := strings.CutPrefix(t, "$ "); ok {
			t = p
		} else if lang == "console" {
			if n := len(cmds); n > 0 && cmds[n-1].block == block && t != "" {
				cmds[n-1].shown = append(cmds[n-1].shown, shownLine{i + 1, t})
			}
			continue
		} else if lang == "" && !strings.HasPrefix(t, "orgctl ") {
			continue
		}
		start := i
		if readmeFuncDef.MatchString(t) {
			// a function runs to its closing brace, as written
			for i+1 < len(lines) && strings.TrimSpace(lines[i]) != "}" {
				i++
				t += "\n" + lines[i]
			}
		} else {
			for strings.HasSuffix(t, "\\") && i+1 < len(lines) {
				i++
				t = strings.TrimSuffix(t, "\\") + " " + strings.TrimSpace(lines[i])
			}
			t = strings.TrimSpace(stripShellComment(t))
		}
		if t != "" {
			cmds = append(cmds, readmeCommand{doc: "README.md", line: start + 1, text: t, section: section, block: block})
		}
	}
	return cmds, otherBlocks
}

// topicCommands are the examples of the help topic name (text as `orgctl
// help name` prints it, in cmd/manual's format): in a block indented by
// two spaces, each "$ " line, its continuation lines, or a function to its
// "}"; the indented lines after it up to a blank line are what it prints,
// but for lines starting with "#". Blocks are numbered from base, so that
// they differ from every other document's.
func topicCommands(name, text string, base int) []readmeCommand {
	var cmds []readmeCommand
	lines := strings.Split(text, "\n")
	block, last := 0, -1 // last: the command whose output lines follow
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		indented := strings.HasPrefix(l, "  ")
		switch {
		case strings.TrimSpace(l) == "":
			last = -1
			continue
		case !indented:
			block, last = 0, -1
			continue
		case block == 0:
			block = base + i + 1
		}
		t := strings.TrimSpace(l)
		c, ok := strings.CutPrefix(t, "$ ")
		if !ok {
			if last >= 0 && !strings.HasPrefix(t, "#") {
				cmds[last].shown = append(cmds[last].shown, shownLine{i + 1, t})
			}
			continue
		}
		start := i
		if readmeFuncDef.MatchString(c) {
			for i+1 < len(lines) && strings.TrimSpace(lines[i]) != "}" {
				i++
				c += "\n" + strings.TrimPrefix(lines[i], "  ")
			}
		} else {
			for strings.HasSuffix(c, "\\") && i+1 < len(lines) {
				i++
				c = strings.TrimSuffix(c, "\\") + " " + strings.TrimSpace(lines[i])
			}
			c = strings.TrimSpace(stripShellComment(c))
		}
		cmds = append(cmds, readmeCommand{doc: "help " + name, line: start + 1, text: c, section: "help " + name, block: block})
		last = len(cmds) - 1
	}
	return cmds
}

// readmeDoc is a document whose examples and figures the tests check.
type readmeDoc struct{ name, text string }

// readmeDocs are README.md and every help topic, with their commands.
func readmeDocs(t *testing.T) (docs []readmeDoc, cmds []readmeCommand, otherBlocks []string) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, readmeDoc{"README.md", string(b)})
	cmds, otherBlocks = readmeCommands(string(b))
	for i, topic := range cmd.HelpTopics() {
		docs = append(docs, readmeDoc{"help " + topic.Name, topic.Text})
		cmds = append(cmds, topicCommands(topic.Name, topic.Text, (i+1)*1000000)...)
	}
	return docs, cmds, otherBlocks
}

func readmeShellLang(lang string) bool {
	switch lang {
	case "", "sh", "bash", "shell", "console":
		return true
	}
	return false
}

// stripShellComment cuts a # that starts a word outside quotes, and what follows.
func stripShellComment(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			i++
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return s[:i]
		}
	}
	return s
}

// readmePlan is what the test does with one README command.
type readmePlan struct {
	cmd   readmeCommand
	run   string // the command line run by bash; "" when not run
	env   string // an export turned into the script's env
	why   string // why it cannot run
	wants []int  // exit codes that mean it worked
	// why the output a console block shows for it is not compared
	shownWhy string
}

// planREADME decides what the test does with each command: run it
// (rewritten where the test's world differs), turn it into the script's
// environment (a plain export), or leave it out, saying why.
func planREADME(cmds []readmeCommand) []readmePlan {
	blockWhy := map[int]string{}
	for _, c := range cmds {
		for _, n := range readmeNotRunnable {
			if n.block && strings.Contains(c.text, n.has) {
				blockWhy[c.block] = n.why
			}
		}
	}
	var plans []readmePlan
	for _, c := range cmds {
		p := readmePlan{cmd: c, run: c.text, wants: []int{0}}
		for _, u := range readmeShownUnchecked {
			if c.text == u.is && len(c.shown) > 0 {
				p.cmd.shown, p.shownWhy = nil, u.why
			}
		}
		p.run = rewriteREADME(p.run)
		p.why = notRunnable(c, blockWhy[c.block])
		switch {
		case p.why != "":
			p.run = ""
		case readmeServe.MatchString(p.run):
			p.run = fmt.Sprintf(readmeServeScript, p.run)
		case readmeExport.MatchString(p.run):
			p.env, p.run = strings.TrimSpace(strings.TrimPrefix(p.run, "export")), ""
		case !strings.Contains(p.run, "||") && (strings.Contains(p.run, "--exit-code") || strings.Contains(p.run, "--fail-on")):
			// findings or changes are what such a command is for
			p.wants = []int{0, 7}
		}
		plans = append(plans, p)
	}
	return plans
}

// rewriteREADME is a README command as the test runs it (readmeRewrites).
func rewriteREADME(run string) string {
	for _, r := range readmeRewrites {
		if rest, ok := strings.CutPrefix(run, r.from); ok && r.from != "" {
			run = r.to + rest
		} else if r.fromAny != "" {
			run = strings.ReplaceAll(run, r.fromAny, r.to)
		}
	}
	return run
}

// notRunnable says why a command cannot run: its block's reason
// (blockWhy), running in the background, or readmeNotRunnable's; "" when
// it can.
func notRunnable(c readmeCommand, blockWhy string) string {
	why := blockWhy
	if strings.HasSuffix(c.text, "&") && !strings.HasSuffix(c.text, "&&") {
		// it would outlive the test, and hold its output open
		why = "runs in the background"
	}
	for _, n := range readmeNotRunnable {
		if why == "" && !n.block && (c.text == n.has || !n.is && strings.Contains(c.text, n.has)) {
			why = n.why
		}
	}
	return why
}

func sectionSlug(s string) string {
	return strings.Trim(regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(s), "_"), "_")
}

// readmeScriptHead starts every script: a budget that never makes it
// wait, a terminal whose user answers yes, the profiles examples name.
const readmeScriptHead = `org demo 100000 1m
env ORGCTL_BUDGET_POINTS=100000
env ORGCTL_FORCE_TTY=stdin
env ORGCTL_WIDTH=100
env GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
`

// writeREADMEScripts writes one testscript per README section that has a
// command to run: its commands in README order on a fresh demo org, with
// the section's fixtures. runs maps a README line to what runs there.
func writeREADMEScripts(t *testing.T, dir string, plans []readmePlan) (runs map[int]readmePlan) {
	runs = map[int]readmePlan{}
	n := 0
	// The checkout (go test runs in the package's directory) and this
	// machine's Go caches, for a README command that runs go in it: the
	// script's HOME is empty, and so would be its caches.
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	caches, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	c := strings.Fields(string(caches))
	if len(c) != 2 {
		t.Fatalf("go env GOCACHE GOMODCACHE: %q", caches)
	}
	goEnv := fmt.Sprintf("env READMEREPO=%s\nenv READMEGOCACHE=%s\nenv READMEGOMODCACHE=%s\n", repo, c[0], c[1])
	var sections []string
	scripts := map[string]*strings.Builder{}
	for _, p := range plans {
		if p.run == "" && p.env == "" {
			continue
		}
		b := scripts[p.cmd.section]
		if b == nil {
			b = &strings.Builder{}
			scripts[p.cmd.section] = b
			sections = append(sections, p.cmd.section)
			fmt.Fprintf(b, "# %s, section %q: its commands in order, on a fresh demo org\n%s%s%s", p.cmd.doc, p.cmd.section, readmeScriptHead, goEnv, readmeFixtures[p.cmd.section].setup)
		}
		if p.env != "" {
			fmt.Fprintf(b, "# %s: %s\nenv %s\n", p.cmd.where(), p.cmd.text, p.env)
			continue
		}
		fx := readmeFixtures[p.cmd.section]
		for key, prep := range fx.prep {
			if strings.Contains(p.run, key) {
				fmt.Fprintf(b, "stdin yes\nexec bash -c %s\n", quoteScriptArg(prep))
			}
		}
		for key, wants := range fx.wants {
			if strings.Contains(p.run, key) {
				p.wants = wants
			}
		}
		n++
		runs[n] = p
		fmt.Fprintf(b, "# %s\nstdin yes\nreadme %d\n", p.cmd.where(), n)
	}
	for _, section := range sections {
		b := scripts[section]
		b.WriteString("-- yes --\ny\n-- .config/orgctl/config.yaml --\n" + readmeConfig)
		for f, body := range readmeFixtures[section].files {
			fmt.Fprintf(b, "-- %s --\n%s", f, body)
		}
		name := "readme_" + sectionSlug(section) + ".txtar" // "help bulk": readme_help_bulk
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return runs
}

func quoteScriptArg(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// readmeFigureChecks finds the figures README.md states (a statement may
// run over lines) and writes a script for each; checks maps the script's
// name to the README line and what its last command must print.
func readmeFigureChecks(t *testing.T, dir string, docs []readmeDoc) (checks map[string]readmeFigureCheck) {
	checks = map[string]readmeFigureCheck{}
	for k, f := range readmeFigures {
		any := false
		for _, d := range docs {
			if f.in != "" && d.name != f.in {
				continue
			}
			flat := strings.ReplaceAll(d.text, "\n", " ") // the same offsets, lines joined
			for _, m := range f.said.FindAllStringSubmatchIndex(flat, -1) {
				any = true
				// the line of the first figure; the statement may start a line above
				line := strings.Count(d.text[:m[2]], "\n") + 1
				c := readmeFigureCheck{doc: d.name, line: line, said: strings.Trim(flat[m[0]:m[1]], "` "), printed: f.pattern(flat, m)}
				if f.sum {
					c.sum, _ = strconv.Atoi(strings.ReplaceAll(flat[m[2]:m[3]], ",", ""))
				}
				script := string(f.said.ExpandString(nil, f.script, flat, m))
				name := fmt.Sprintf("readme_figure_%s_line%d_%d", sectionSlug(d.name), line, k)
				checks[name] = c
				writeFigureScript(t, dir, name, c, script+"said\n-- yes --\ny\n"+f.files)
			}
		}
		if !any {
			// reworded, the figure would go unchecked without a word
			t.Errorf("readmeFigures[%d] (%s) matches nothing in README.md or the help topics: follow its wording, or drop it if the figure is gone", k, f.said)
		}
	}
	return checks
}

// pattern is what the output must match, given the README statement
// matched at m in text.
func (f readmeFigure) pattern(text string, m []int) *regexp.Regexp {
	switch {
	case f.header:
		cols := strings.Split(text[m[2]:m[3]], ", ")
		for i := range cols {
			cols[i] = regexp.QuoteMeta(cols[i])
		}
		return regexp.MustCompile(`(?m)^\s*` + strings.Join(cols, `\s+`) + `\s*$`)
	case f.sum:
		return regexp.MustCompile(f.printed)
	}
	// the figures as they are, not as patterns
	want := f.printed
	for i := len(m)/2 - 1; i > 0; i-- {
		want = strings.ReplaceAll(want, "$"+strconv.Itoa(i), regexp.QuoteMeta(text[m[2*i]:m[2*i+1]]))
	}
	for n, w := range map[string]string{"one": "1", "two": "2", "three": "3", "four": "4", "five": "5"} {
		want = regexp.MustCompile(`\b`+n+`\b`).ReplaceAllString(want, w)
	}
	return regexp.MustCompile(want)
}

func writeFigureScript(t *testing.T, dir, name string, c readmeFigureCheck, script string) {
	body := fmt.Sprintf("# %s:%d states: %s\n%s%s", c.doc, c.line, c.said, readmeScriptHead, script)
	if err := os.WriteFile(filepath.Join(dir, name+".txtar"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readmeFigureCheck is one figure README.md states and what must show it.
type readmeFigureCheck struct {
	doc     string
	line    int
	said    string
	printed *regexp.Regexp
	sum     int // when not 0: what the figures printed add up to
}

// check says what is wrong with out, or "".
func (c readmeFigureCheck) check(out string) string {
	m := c.printed.FindStringSubmatch(out)
	if m == nil {
		return fmt.Sprintf("no match for %q", c.printed)
	}
	if c.sum == 0 {
		return ""
	}
	total := 0
	for _, g := range m[1:] {
		n, _ := strconv.Atoi(g)
		total += n
	}
	if total != c.sum {
		return fmt.Sprintf("%q: %s add up to %d", m[0], strings.Join(m[1:], " and "), total)
	}
	return ""
}

// readmeCommandTimeout bounds one README command, in seconds.
const readmeCommandTimeout = 300

// runREADMECommand runs one README command line with bash in the script's
// directory and environment, and fails naming the README line when it
// exits otherwise than wanted.
func runREADMECommand(ts *testscript.TestScript, p readmePlan) {
	ts.Logf("%s: %s", p.cmd.where(), p.cmd.text)
	if p.run != p.cmd.text {
		ts.Logf("run as: %s", p.run)
	}
	got := 0
	// an example that never ends fails here rather than at go test's timeout
	err := ts.Exec("timeout", "-k", "10", strconv.Itoa(readmeCommandTimeout), "bash", "-o", "pipefail", "-c", p.run)
	if m := readmeJob.FindAllStringSubmatch(ts.ReadFile("stderr"), -1); m != nil {
		ts.Setenv("READMEJOB", m[len(m)-1][1])
	}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", p.cmd.where(), err)
		}
		got = ee.ExitCode()
	}
	if got == 124 {
		ts.Fatalf("%s: `%s` did not end in %d s (its output is above)", p.cmd.where(), p.cmd.text, readmeCommandTimeout)
	}
	if !slices.Contains(p.wants, got) {
		ts.Fatalf("%s: `%s` exited %d, want %v (its output is above)", p.cmd.where(), p.cmd.text, got, p.wants)
	}
	// what the README shows it print, but for its own host and elisions
	out := strings.Join(strings.Fields(ts.ReadFile("stdout")+"\n"+ts.ReadFile("stderr")), " ")
	for _, l := range p.cmd.shown {
		want := strings.Join(strings.Fields(strings.ReplaceAll(l.text, "https://acme.example.com", ts.Getenv("ORGCTL_BASE_URL"))), " ")
		if want != "..." && !strings.Contains(out, want) {
			ts.Fatalf("%s:%d shows `%s` printing %q, which it did not print (its output is above)", p.cmd.doc, l.line, p.cmd.text, l.text)
		}
	}
}

// Every command of README.md's fenced blocks runs, in README order within
// its section, against a fresh demo org in the sandbox, with the real
// binary and a person at the terminal who answers yes; figures the README
// states are measured. Commands that cannot run are listed with why.
func TestREADMEExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every README example")
	}
	docs, cmds, others := readmeDocs(t)
	plans := planREADME(cmds)
	dir := t.TempDir()
	runs := writeREADMEScripts(t, dir, plans)
	checks := readmeFigureChecks(t, dir, docs)

	ran, orgctlRan := 0, 0
	for _, p := range plans {
		switch {
		case p.why != "":
			t.Logf("not run: %s: %s: %s", p.cmd.where(), p.cmd.text, p.why)
		case p.run != "":
			ran++
			if p.shownWhy != "" {
				t.Logf("output not compared: %s: %s: %s", p.cmd.where(), p.cmd.text, p.shownWhy)
			}
			if readmeRunsOrgctl.MatchString(p.run) {
				orgctlRan++
			}
		}
	}
	for _, o := range others {
		t.Logf("not shell: %s", o)
	}
	for _, n := range readmeNotRunnable {
		used := false
		for _, p := range plans {
			used = used || strings.Contains(p.cmd.text, n.has)
		}
		if !used {
			t.Logf("readmeNotRunnable %q matches no README or topic command any more: drop it", n.has)
		}
	}
	t.Logf("%d README and topic commands run (%d of them orgctl's), %d figures checked", ran, orgctlRan, len(checks))
	if orgctlRan < 40 {
		t.Errorf("only %d orgctl commands found in README.md's blocks and the topics: is the parser finding them?", orgctlRan)
	}
	for _, topic := range []string{"bulk", "org-as-code", "access-reviews", "spaces", "budget", "resource-changes"} {
		n := 0
		for _, p := range plans {
			if p.cmd.doc == "help "+topic && p.run != "" {
				n++
			}
		}
		if n == 0 {
			t.Errorf("no example of `orgctl help %s` runs: is the topic parser finding them?", topic)
		}
	}

	params := scriptParams(dir, scriptBin(t))
	cmdsMap := map[string]func(*testscript.TestScript, bool, []string){}
	for k, v := range params.Cmds {
		cmdsMap[k] = v
	}
	// readme LINE: run the README command that starts at LINE.
	cmdsMap["readme"] = func(ts *testscript.TestScript, neg bool, args []string) {
		p, ok := runs[readmeLine(ts, args)]
		if !ok {
			ts.Fatalf("no README command to run at line %s", args[0])
		}
		runREADMECommand(ts, p)
	}
	// said: the last command printed what README.md says.
	cmdsMap["said"] = func(ts *testscript.TestScript, neg bool, args []string) {
		c := checks[scriptName(ts)]
		out := ts.ReadFile("stdout") + ts.ReadFile("stderr")
		if wrong := c.check(out); wrong != "" {
			ts.Fatalf("%s:%d says %q; orgctl printed %s (its output is above)", c.doc, c.line, c.said, wrong)
		}
	}
	params.Cmds = cmdsMap
	testscript.Run(t, params)
}

// scriptName is the running script's name, from its work directory.
func scriptName(ts *testscript.TestScript) string {
	return strings.TrimPrefix(filepath.Base(ts.Getenv("WORK")), "script-")
}

func readmeLine(ts *testscript.TestScript, args []string) int {
	if len(args) != 1 {
		ts.Fatalf("usage: readme LINE")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	return n
}

// The Quickstart holds the two commands a newcomer types first: orgctl's
// main job against the built-in sandbox (TestREADMEExamples runs it), and
// the whole test suite, as CI runs it.
func TestREADMEQuickstart(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`step "go test \(the README's test command\)"\n(.+)`).FindSubmatch(ci)
	if m == nil {
		t.Fatal(`.ci/run has no step "go test (the README's test command)" followed by its command`)
	}
	suite := strings.TrimSpace(string(m[1]))
	cmds, _ := readmeCommands(string(b))
	var quick []string
	hasSandbox, hasSuite := false, false
	for _, c := range cmds {
		if c.section != "Quickstart" {
			continue
		}
		quick = append(quick, fmt.Sprintf("README.md:%d: %s", c.line, c.text))
		hasSandbox = hasSandbox || strings.HasPrefix(c.text, "go run . --sandbox ")
		hasSuite = hasSuite || c.text == suite
	}
	if !hasSandbox {
		t.Errorf("the Quickstart has no `go run . --sandbox ...` to run orgctl against the built-in sandbox; its commands:\n%s", strings.Join(quick, "\n"))
	}
	if !hasSuite {
		t.Errorf("the Quickstart does not run the test suite as CI does (%s); its commands:\n%s", suite, strings.Join(quick, "\n"))
	}
}

// The README's blocks read as a shell reads them: prompts, continuations,
// comments, quoted #, function bodies, a console block's output, and no
// commands from blocks of other languages.
func TestREADMECommandsAreReadAsAShellWould(t *testing.T) {
	readme := "# t\n## One\n```sh\n" +
		"orgctl users list   # who is there\n" +
		"orgctl users create --email a@b.c \\\n  --first-name A   # named\n" +
		"orgctl groups get x --template '{{.name}} # not a comment'\n" +
		"# a comment alone\n" +
		"f() {   # a function\n  orgctl users list | wc -l\n}\n" +
		"```\n## Two\n```console\n$ orgctl budget status --dry-run\nGET /x   (5 points)\n...\n```\n" +
		"```yaml\norgctl: not a command\n```\n```\norgctl: an error shown\norgctl apps list\n```\n"
	cmds, others := readmeCommands(readme)
	type got struct {
		line          int
		text, section string
		shown         []shownLine
	}
	var gots []got
	for _, c := range cmds {
		gots = append(gots, got{c.line, c.text, c.section, c.shown})
	}
	want := []got{
		{4, "orgctl users list", "One", nil},
		{5, "orgctl users create --email a@b.c  --first-name A", "One", nil},
		{7, "orgctl groups get x --template '{{.name}} # not a comment'", "One", nil},
		{9, "f() {   # a function\n  orgctl users list | wc -l\n}", "One", nil},
		{15, "orgctl budget status --dry-run", "Two", []shownLine{{16, "GET /x   (5 points)"}, {17, "..."}}},
		{24, "orgctl apps list", "Two", nil},
	}
	if fmt.Sprint(gots) != fmt.Sprint(want) {
		t.Errorf("commands:\n%v\nwant:\n%v", gots, want)
	}
	if fmt.Sprint(others) != "[README.md:19: a yaml block]" {
		t.Errorf("other blocks: %v", others)
	}
}
