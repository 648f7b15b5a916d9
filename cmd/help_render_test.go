package cmd

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/output"
)

// cobraHelpPage is the help page cobra's own help function writes for c,
// with the help topics inserted in the root's usage: what orgctl printed
// before it wrote its own renderer, kept here as the reference.
func cobraHelpPage(c *cobra.Command) string {
	root := c.Root()
	root.SetUsageFunc(cobraUsageText)
	defer root.SetUsageFunc(usageWithTopics)
	var b bytes.Buffer
	w := c.OutOrStdout()
	c.SetOut(&b)
	defer c.SetOut(w)
	(&cobra.Command{}).HelpFunc()(c, nil)
	return b.String()
}

// cobraUsageText is cobra's own usage function, with the topics listed
// before the root's last line.
func cobraUsageText(c *cobra.Command) error {
	var b bytes.Buffer
	w := c.OutOrStderr()
	c.SetOut(&b)
	err := (&cobra.Command{}).UsageFunc()(c)
	c.SetOut(w)
	text := b.String()
	if i := strings.LastIndex(text, "\n\nUse \""); i >= 0 && !c.HasParent() {
		text = text[:i] + "\n\nHelp topics (orgctl help TOPIC):\n" + strings.TrimRight(topicList(), "\n") + text[i:]
	}
	_, _ = w.Write([]byte(text))
	return err
}

// cobraUsage is cobraUsageText's text.
func cobraUsage(c *cobra.Command) string {
	var b bytes.Buffer
	out, errOut := c.OutOrStdout(), c.OutOrStderr()
	c.SetOut(&b)
	c.SetErr(&b)
	_ = cobraUsageText(c)
	c.SetOut(out)
	c.SetErr(errOut)
	return b.String()
}

// samePages compares orgctl's help and usage of c with cobra's, piped and
// fitted to terminals of several widths.
func samePages(t *testing.T, c *cobra.Command, state string) {
	t.Helper()
	// Ours first: cobra's help merges the persistent flags into the
	// command's own, a state that ours must read the same.
	mine, usage := helpPage(c), usageText(c)
	want, wantUsage := cobraHelpPage(c), cobraUsage(c)
	if mine != want {
		t.Errorf("%s (%s): help differs from cobra's:\n--- orgctl\n%s\n--- cobra\n%s", c.CommandPath(), state, mine, want)
		return
	}
	if usage != wantUsage {
		t.Errorf("%s (%s): usage differs from cobra's:\n--- orgctl\n%s\n--- cobra\n%s", c.CommandPath(), state, usage, wantUsage)
		return
	}
	if again := helpPage(c); again != want {
		t.Errorf("%s (%s): help differs from cobra's once the flags are merged:\n--- orgctl\n%s\n--- cobra\n%s", c.CommandPath(), state, again, want)
	}
	for _, width := range []int{0, 40, 80, 100, 160} {
		var b bytes.Buffer
		w := c.OutOrStdout()
		c.SetOut(&b)
		helpFitting(width)(c, nil)
		c.SetOut(w)
		// and the line naming the manual's topics, which cobra has not
		fitted := want + seeTopics(c)
		if width > 0 {
			fitted = output.WrapHelp(fitted, width)
		}
		if b.String() != fitted {
			t.Errorf("%s (%s) at %d columns: help differs from cobra's:\n--- orgctl\n%s\n--- cobra\n%s", c.CommandPath(), state, width, b.String(), fitted)
		}
	}
}

// Every command's help and usage, written by orgctl, is byte for byte
// what cobra's default help and usage functions write: as the help
// command shows it (flags not yet merged), and as --help does (the help
// flag defined, the flags parsed).
func TestHelpRendererMatchesCobra(t *testing.T) {
	isolate(t)
	root := CommandTree()
	pages := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		samePages(t, c, "as help shows it")
		c.InitDefaultHelpFlag()
		if err := c.ParseFlags(nil); err != nil {
			t.Fatal(err)
		}
		samePages(t, c, "with --help")
		pages++
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if pages < 100 {
		t.Errorf("only %d commands compared", pages)
	}
}

// What orgctl's tree does not show today is rendered as cobra does too:
// deprecated, hidden, shadowed and optional-value flags, unsorted flags,
// aliases, examples, help-topic commands and commands in no group.
func TestHelpRendererMatchesCobraOnEveryShape(t *testing.T) {
	root := &cobra.Command{Use: "tool", Short: "a tool", Run: func(*cobra.Command, []string) {}}
	root.SetUsageFunc(usageWithTopics)
	root.AddGroup(&cobra.Group{ID: "g", Title: "Grouped:"})
	pf := root.PersistentFlags()
	pf.StringP("name", "n", "def \"quoted\"", "a `NAME` with a default")
	pf.Int("level", 0, "a level")
	pf.Bool("gone", false, "a deprecated flag")
	_ = pf.MarkDeprecated("gone", "use --level")
	pf.Duration("wait", 0, "zero duration")
	pf.Duration("again", time.Second, "one second")

	mid := &cobra.Command{Use: "mid", Aliases: []string{"m", "middle"}, Short: "a middle", GroupID: "g"}
	mid.PersistentFlags().String("name", "", "shadows the root's --name\nover two lines")
	mid.PersistentFlags().StringSlice("tags", nil, "some tags")
	root.AddCommand(mid, &cobra.Command{Use: "topic", Short: "a help topic"},
		&cobra.Command{Use: "loose", Short: "in no group", Run: func(*cobra.Command, []string) {}},
		&cobra.Command{Use: "secret", Hidden: true, Run: func(*cobra.Command, []string) {}})

	leaf := &cobra.Command{Use: "leaf ARG [flags]", Short: "a leaf", Long: "A leaf.\n\n  ",
		Example: "  tool mid leaf x", Run: func(*cobra.Command, []string) {}}
	fs := leaf.Flags()
	fs.SortFlags = false
	fs.String("zeta", "", "comes first unsorted")
	fs.String("opt", "", "optional value")
	fs.Lookup("opt").NoOptDefVal = "auto"
	fs.Bool("alpha", true, "true by default")
	fs.Lookup("alpha").NoOptDefVal = "false"
	fs.CountP("verbose", "v", "more output")
	fs.Float64("ratio", 0.5, "a ratio")
	fs.StringArray("each", []string{"a"}, "each one")
	fs.Int("hidden", 3, "not shown")
	_ = fs.MarkHidden("hidden")
	fs.IntP("old", "o", 1, "old shorthand")
	fs.BoolFunc("hook", "a boolean func", func(string) error { return nil })
	fs.Func("each-hook", "a func", func(string) error { return nil })
	fs.Lookup("each-hook").DefValue = "0s"
	fs.Var(&customBool{}, "custom", "a boolean of its own `KIND`")
	fs.Lookup("custom").DefValue = "0"
	fs.Lookup("hook").DefValue = "0"
	_ = fs.MarkShorthandDeprecated("old", "use --old")
	bare := &cobra.Command{Use: "bare", Short: "flags only from its parents", DisableFlagsInUseLine: true,
		Run: func(*cobra.Command, []string) {}}
	mid.AddCommand(leaf, bare)

	for _, c := range []*cobra.Command{root, mid, leaf, bare} {
		samePages(t, c, "as help shows it")
		c.InitDefaultHelpFlag()
		samePages(t, c, "with --help")
	}
}

// customBool is a value of no pflag type that says it is a boolean.
type customBool struct{ on bool }

func (b *customBool) String() string   { return strconv.FormatBool(b.on) }
func (b *customBool) Set(string) error { b.on = true; return nil }
func (b *customBool) Type() string     { return "custom" }
func (b *customBool) IsBoolFlag() bool { return true }
