package main

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// label is a line that states one fact of a command ("API:    GET
// /api/v2/users", "Scope:  Users > Read", "Cost: ..."): such lines read
// as a list, one per line, never run together into a paragraph.
var label = regexp.MustCompile(`^[A-Z][A-Za-z /-]{0,20}:\s`)

// manLong is a command's long description as markdown that go-md2man
// renders as the terminal shows it: a paragraph of lines written as lines
// (labels, short lines, aligned columns) keeps its line breaks, and an
// indented block stays a block, where markdown would run either together.
func manLong(long string) string {
	paras := strings.Split(strings.TrimSpace(long), "\n\n")
	for i, p := range paras {
		lines := strings.Split(p, "\n")
		switch {
		case allIndented(lines):
			for j, l := range lines {
				lines[j] = "    " + strings.TrimLeft(l, " ")
			}
			paras[i] = strings.Join(lines, "\n")
		case lined(lines):
			paras[i] = strings.Join(lines, "  \n")
		}
	}
	return strings.Join(paras, "\n\n")
}

func allIndented(lines []string) bool {
	for _, l := range lines {
		if !strings.HasPrefix(l, "  ") {
			return false
		}
	}
	return true
}

// lined says whether a paragraph's line breaks are the writer's: every
// line is a label, or a line before the last is too short to have been
// wrapped, or holds columns.
func lined(lines []string) bool {
	if len(lines) < 2 {
		return false
	}
	labels := true
	for i, l := range lines {
		labels = labels && label.MatchString(l)
		if i < len(lines)-1 && (len(l) < 50 || strings.Contains(strings.TrimSpace(l), "   ")) {
			return true
		}
	}
	return labels
}

// topicPage is a help topic as a man page of section 7, from the
// manual's plain-text format (see cmd/manual): headings, paragraphs,
// lists and blocks shown as they are. seeAlso are the pages it points at.
func topicPage(name, short, text string, day time.Time, seeAlso []string) string {
	var b strings.Builder
	title := strings.ToUpper("orgctl-" + name)
	fmt.Fprintf(&b, ".nh\n.TH \"%s\" \"7\" \"%s\" \"orgctl\" \"orgctl manual\"\n", roffEscape(title), day.Format("Jan 2006"))
	fmt.Fprintf(&b, ".SH NAME\norgctl\\-%s \\- %s\n.SH DESCRIPTION\n", roffEscape(name), roffEscape(short))
	for _, p := range strings.Split(strings.Trim(text, "\n"), "\n\n") {
		p = strings.Trim(p, "\n")
		if p == "" {
			continue
		}
		lines := strings.Split(p, "\n")
		switch {
		case allIndented(lines):
			b.WriteString(".PP\n.RS 4\n.nf\n")
			for _, l := range lines {
				b.WriteString(roffLine(strings.TrimPrefix(l, "  ")) + "\n")
			}
			b.WriteString(".fi\n.RE\n")
		case len(lines) == 1 && isHeading(lines[0]):
			b.WriteString(".SS " + roffEscape(lines[0]) + "\n")
		case listItem.MatchString(lines[0]):
			m := listItem.FindString(lines[0])
			mark := strings.TrimSpace(m)
			if mark == "-" {
				mark = "\\(bu"
			}
			fmt.Fprintf(&b, ".IP %s %d\n", mark, len(m))
			writeProse(&b, append([]string{lines[0][len(m):]}, lines[1:]...))
		case lined(lines):
			b.WriteString(".PP\n")
			for i, l := range lines {
				if i > 0 {
					b.WriteString(".br\n")
				}
				b.WriteString(roffLine(l) + "\n")
			}
		default:
			b.WriteString(".PP\n")
			writeProse(&b, lines)
		}
	}
	if len(seeAlso) > 0 {
		b.WriteString(".SH SEE ALSO\n")
		for i, s := range seeAlso {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("\\fB" + roffEscape(s) + "\\fP")
		}
		b.WriteString("\n")
	}
	return b.String()
}

var listItem = regexp.MustCompile(`^(- |\d+\. )`)

// isHeading is the manual's heading: a line of capitals ("RESUME",
// "3. PLAN IN CI").
func isHeading(l string) bool {
	return l == strings.ToUpper(l) && strings.ContainsAny(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && !strings.HasPrefix(l, " ")
}

func writeProse(b *strings.Builder, lines []string) {
	for _, l := range lines {
		b.WriteString(roffLine(strings.TrimSpace(l)) + "\n")
	}
}

// roffLine is a line of text that roff prints as it is: a leading
// period or apostrophe would be a request.
func roffLine(l string) string {
	l = roffEscape(l)
	if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
		l = "\\&" + l
	}
	return l
}

// roffEscape escapes what roff would read otherwise: backslashes, and
// hyphens, which man shows as dashes that a copied command would not take.
func roffEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	return strings.ReplaceAll(s, "-", `\-`)
}
