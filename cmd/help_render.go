package cmd

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// helpPage is the help page cobra's default help function writes for c
// (its long description, then its usage), byte for byte, with the help
// topics on the root's. Cobra's own builds two new flag sets for the local
// and inherited flags, twice each, and formats each flag with fmt: that
// was most of what `--help` cost beyond building the command.
// TestHelpRendererMatchesCobra holds the two equal for every command.
func helpPage(c *cobra.Command) string {
	var b strings.Builder
	b.Grow(4096)
	about := c.Long
	if about == "" {
		about = c.Short
	}
	if about = trimRightSpace(about); about != "" {
		b.WriteString(about)
		b.WriteString("\n\n")
	}
	if c.Runnable() || c.HasSubCommands() {
		writeUsage(&b, c)
	}
	return b.String()
}

// usageText is cobra's default usage text for c, with the help topics
// listed on the root's, before its last line. Topics are listed, not added
// as commands: "environment" stays the Environments family's alias.
func usageText(c *cobra.Command) string {
	var b strings.Builder
	writeUsage(&b, c)
	return b.String()
}

// writeUsage writes what cobra's defaultUsageFunc writes, and the topics.
func writeUsage(b *strings.Builder, c *cobra.Command) {
	local, inherited := splitFlags(c)
	hasLocal, hasInherited := anyVisible(local), anyVisible(inherited)
	subs := c.HasAvailableSubCommands()
	b.WriteString("Usage:")
	if c.Runnable() {
		b.WriteString("\n  ")
		b.WriteString(useLine(c, hasLocal || hasInherited))
	}
	if subs {
		b.WriteString("\n  " + c.CommandPath() + " [command]")
	}
	if len(c.Aliases) > 0 {
		b.WriteString("\n\nAliases:\n  " + c.NameAndAliases())
	}
	if c.HasExample() {
		b.WriteString("\n\nExamples:\n" + c.Example)
	}
	if subs {
		writeSubcommands(b, c)
	}
	if hasLocal {
		b.WriteString("\n\nFlags:\n")
		b.WriteString(trimRightSpace(flagUsages(local)))
	}
	if hasInherited {
		b.WriteString("\n\nGlobal Flags:\n")
		b.WriteString(trimRightSpace(flagUsages(inherited)))
	}
	if c.HasHelpSubCommands() {
		b.WriteString("\n\nAdditional help topics:")
		for _, sub := range c.Commands() {
			if sub.IsAdditionalHelpTopicCommand() {
				b.WriteString("\n  " + rpad(sub.CommandPath(), sub.CommandPathPadding()) + " " + sub.Short)
			}
		}
	}
	if subs {
		if !c.HasParent() {
			b.WriteString("\n\nHelp topics (orgctl help TOPIC):\n")
			b.WriteString(strings.TrimRight(topicList(), "\n"))
		}
		b.WriteString("\n\nUse \"" + c.CommandPath() + " [command] --help\" for more information about a command.")
	}
	b.WriteString("\n")
}

// writeSubcommands lists c's commands, by group when c has groups.
func writeSubcommands(b *strings.Builder, c *cobra.Command) {
	cmds := c.Commands()
	listed := func(sub *cobra.Command) bool { return sub.IsAvailableCommand() || sub.Name() == "help" }
	line := func(sub *cobra.Command) {
		b.WriteString("\n  " + rpad(sub.Name(), sub.NamePadding()) + " " + sub.Short)
	}
	if len(c.Groups()) == 0 {
		b.WriteString("\n\nAvailable Commands:")
		for _, sub := range cmds {
			if listed(sub) {
				line(sub)
			}
		}
		return
	}
	for _, g := range c.Groups() {
		b.WriteString("\n\n" + g.Title)
		for _, sub := range cmds {
			if sub.GroupID == g.ID && listed(sub) {
				line(sub)
			}
		}
	}
	if !c.AllChildCommandsHaveGroup() {
		b.WriteString("\n\nAdditional Commands:")
		for _, sub := range cmds {
			if sub.GroupID == "" && listed(sub) {
				line(sub)
			}
		}
	}
}

// useLine is cobra's UseLine, told whether c has a flag to show (cobra
// asks its merged flag set, which holds the same flags as local and
// inherited together).
func useLine(c *cobra.Command, flags bool) string {
	line := strings.Replace(c.Use, c.Name(), c.DisplayName(), 1)
	if c.HasParent() {
		line = c.Parent().CommandPath() + " " + line
	}
	if !c.DisableFlagsInUseLine && flags && !strings.Contains(line, "[flags]") {
		line += " [flags]"
	}
	return line
}

// splitFlags is c's local flags (its own, and those shadowing a parent's)
// and the persistent flags it inherits, in the order cobra's LocalFlags
// and InheritedFlags list them, without building either flag set.
func splitFlags(c *cobra.Command) (local, inherited []*pflag.Flag) {
	// The parents' persistent flags, the nearest parent's first: a name
	// already taken is not taken again.
	var parents []*pflag.Flag
	for p := c.Parent(); p != nil; p = p.Parent() {
		p.PersistentFlags().VisitAll(func(fl *pflag.Flag) {
			if findFlag(parents, fl.Name) == nil {
				parents = append(parents, fl)
			}
		})
	}
	add := func(fl *pflag.Flag) {
		if findFlag(local, fl.Name) == nil && fl != findFlag(parents, fl.Name) {
			local = append(local, fl)
		}
	}
	// Visited in the order defined, then sorted here: pflag would sort a
	// copy of the set's names each time a flag has been added since.
	own := c.Flags()
	sorted := own.SortFlags
	own.SortFlags = false
	own.VisitAll(add)
	own.SortFlags = sorted
	c.PersistentFlags().VisitAll(add)
	if sorted {
		sortFlags(local)
	}
	for _, fl := range parents {
		if findFlag(local, fl.Name) == nil {
			inherited = append(inherited, fl)
		}
	}
	sortFlags(inherited)
	return local, inherited
}

func findFlag(flags []*pflag.Flag, name string) *pflag.Flag {
	for _, fl := range flags {
		if fl.Name == name {
			return fl
		}
	}
	return nil
}

// sortFlags sorts by name, which no two flags of a list share.
func sortFlags(flags []*pflag.Flag) {
	slices.SortFunc(flags, func(a, b *pflag.Flag) int { return strings.Compare(a.Name, b.Name) })
}

func anyVisible(flags []*pflag.Flag) bool {
	for _, fl := range flags {
		if !fl.Hidden {
			return true
		}
	}
	return false
}

// flagUsages is pflag's FlagUsages of a flag set holding flags, written
// straight into one buffer: the column of descriptions is where the
// longest head ends, so the heads are written first, side by side.
func flagUsages(flags []*pflag.Flag) string {
	var heads []byte
	ends := make([]int, 0, len(flags))
	maxlen, size := 0, 0
	for _, fl := range flags {
		if !fl.Hidden {
			start := len(heads)
			heads = flagHead(heads, fl)
			ends = append(ends, len(heads))
			maxlen = max(maxlen, len(heads)-start+1)
			size += len(fl.Usage) + len(fl.DefValue) + 16
		}
	}
	b := make([]byte, 0, size+len(ends)*(maxlen+2))
	start := 0
	for _, fl := range flags {
		if fl.Hidden {
			continue
		}
		h := heads[start:ends[0]]
		start, ends = ends[0], ends[1:]
		b = append(b, h...)
		b = append(b, ' ')
		b = appendSpaces(b, maxlen-len(h))
		b = append(b, ' ')
		b = appendAbout(b, fl, maxlen+2)
		b = append(b, '\n')
	}
	return string(b)
}

// flagHead appends a flag's names, its value's name and its optional
// value to b.
func flagHead(b []byte, fl *pflag.Flag) []byte {
	if fl.Shorthand != "" && fl.ShorthandDeprecated == "" {
		b = append(b, "  -"...)
		b = append(b, fl.Shorthand...)
		b = append(b, ", --"...)
	} else {
		b = append(b, "      --"...)
	}
	b = append(b, fl.Name...)
	if name, _ := valueName(fl); name != "" {
		b = append(b, ' ')
		b = append(b, name...)
	}
	if fl.NoOptDefVal == "" {
		return b
	}
	switch fl.Value.Type() {
	case "string":
		b = append(b, "[=\""...)
		b = append(b, fl.NoOptDefVal...)
		return append(b, "\"]"...)
	case "bool", "boolfunc":
		if fl.NoOptDefVal == "true" {
			return b
		}
	case "count":
		if fl.NoOptDefVal == "+1" {
			return b
		}
	}
	b = append(b, "[="...)
	b = append(b, fl.NoOptDefVal...)
	return append(b, ']')
}

// valueName is pflag.UnquoteUsage's name, and where in the usage the
// back-quoted name is (-1 when it has none), without building the new
// usage.
func valueName(fl *pflag.Flag) (string, int) {
	u := fl.Usage
	if i := strings.IndexByte(u, '`'); i >= 0 {
		if j := strings.IndexByte(u[i+1:], '`'); j >= 0 {
			return u[i+1 : i+1+j], i
		}
	}
	switch name := fl.Value.Type(); name {
	case "bool", "boolfunc":
		return "", -1
	case "func":
		return "value", -1
	case "float64":
		return "float", -1
	case "int64":
		return "int", -1
	case "uint64":
		return "uint", -1
	case "stringSlice":
		return "strings", -1
	case "intSlice":
		return "ints", -1
	case "uintSlice":
		return "uints", -1
	case "boolSlice":
		return "bools", -1
	default:
		return name, -1
	}
}

// appendAbout appends a flag's usage (its value's name unquoted), its
// default and whether it is deprecated, every line after the first
// indented.
func appendAbout(b []byte, fl *pflag.Flag, indent int) []byte {
	u := fl.Usage
	if name, i := valueName(fl); i >= 0 {
		b = appendIndented(b, u[:i], indent)
		b = appendIndented(b, name, indent)
		u = u[i+len(name)+2:]
	}
	b = appendIndented(b, u, indent)
	if !defaultIsZero(fl) {
		b = append(b, " (default "...)
		if fl.Value.Type() == "string" {
			b = strconv.AppendQuote(b, fl.DefValue) // no newline left in it
		} else {
			b = appendIndented(b, fl.DefValue, indent)
		}
		b = append(b, ')')
	}
	if fl.Deprecated != "" {
		b = append(b, " (DEPRECATED: "...)
		b = appendIndented(b, fl.Deprecated, indent)
		b = append(b, ')')
	}
	return b
}

// appendIndented appends s with every line after its first indented.
func appendIndented(b []byte, s string, indent int) []byte {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(b, s...)
		}
		b = append(b, s[:i+1]...)
		b = appendSpaces(b, indent)
		s = s[i+1:]
	}
}

const spaces = "                                                                "

func appendSpaces(b []byte, n int) []byte {
	for n > len(spaces) {
		b = append(b, spaces...)
		n -= len(spaces)
	}
	return append(b, spaces[:max(n, 0)]...)
}

// defaultIsZero is pflag's unexported Flag.defaultIsZeroValue, which
// tells pflag's own value types apart by their Go type.
func defaultIsZero(fl *pflag.Flag) bool {
	// pflag asks first whether the value is a boolean; of its own types
	// only these two are, so the question is left for the others.
	switch reflect.TypeOf(fl.Value).String() {
	case "*pflag.boolValue", "pflag.boolfuncValue":
		return fl.DefValue == "false" || fl.DefValue == ""
	case "*pflag.durationValue":
		return fl.DefValue == "0" || fl.DefValue == "0s"
	case "*pflag.intValue", "*pflag.int8Value", "*pflag.int32Value", "*pflag.int64Value",
		"*pflag.uintValue", "*pflag.uint8Value", "*pflag.uint16Value", "*pflag.uint32Value", "*pflag.uint64Value",
		"*pflag.countValue", "*pflag.float32Value", "*pflag.float64Value":
		return fl.DefValue == "0"
	case "*pflag.stringValue":
		return fl.DefValue == ""
	case "*pflag.ipValue", "*pflag.ipMaskValue", "*pflag.ipNetValue":
		return fl.DefValue == "<nil>"
	case "*pflag.intSliceValue", "*pflag.stringSliceValue", "*pflag.stringArrayValue":
		return fl.DefValue == "[]"
	}
	if _, ok := fl.Value.(interface{ IsBoolFlag() bool }); ok {
		return fl.DefValue == "false" || fl.DefValue == ""
	}
	switch fl.DefValue {
	case "false", "<nil>", "", "0":
		return true
	}
	return false
}

// rpad pads s with spaces to width runes, as fmt's %-*s does.
func rpad(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

func trimRightSpace(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }
