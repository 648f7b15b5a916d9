package output

import (
	"strings"

	"github.com/mattn/go-runewidth"
)

// minWrapWidth is the narrowest width worth wrapping to: below it the
// hanging indents of help leave no room, and a line is better left long.
const minWrapWidth = 30

// WrapWords breaks prose into lines at most width columns wide, at spaces;
// a word wider than width stands on a line of its own. width <= 0 keeps
// the text on one line.
func WrapWords(s string, width int) []string {
	words := strings.Fields(s)
	if width <= 0 || len(words) == 0 {
		return []string{s}
	}
	var lines []string
	line, lw := "", 0
	for _, w := range splitLong(words, width) {
		ww := runewidth.StringWidth(w)
		switch {
		case lw == 0:
			line, lw = w, ww
		case lw+1+ww <= width:
			line, lw = line+" "+w, lw+1+ww
		default:
			lines = append(lines, line)
			line, lw = w, ww
		}
	}
	return append(lines, line)
}

// splitLong breaks each word wider than width after a '|' or a ',' (a list
// of choices such as {a|b|c}, JSON), or else at width.
func splitLong(words []string, width int) []string {
	var out []string
	for _, w := range words {
		for runewidth.StringWidth(w) > width {
			cut := runewidth.Truncate(w, width, "")
			if i := strings.LastIndexAny(cut, "|,"); i > 0 {
				cut = cut[:i+1]
			}
			out = append(out, cut)
			w = w[len(cut):]
		}
		out = append(out, w)
	}
	return out
}

// WrapHelp fits a help page to a terminal width columns wide: a line of
// prose wraps under its own indent; a line of two columns (a flag and its
// usage, a topic and its summary) wraps under its second column; in the
// Examples section a shell command wraps at spaces outside quotes with a
// trailing backslash, and a comment into comment lines, so that what is
// pasted still runs as it would whole. width 0 (not a
// terminal) or too narrow to help leaves the text as it is.
func WrapHelp(text string, width int) string {
	if width < minWrapWidth {
		return text
	}
	var b strings.Builder
	examples := false
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		trimmed := strings.TrimSpace(line)
		switch {
		case line == "Examples:":
			examples = true
		case line != "" && line[0] != ' ':
			examples = false
		}
		if runewidth.StringWidth(line) <= width {
			b.WriteString(line)
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		switch {
		case examples && strings.HasPrefix(trimmed, "#"):
			b.WriteString(wrapComment(line[:indent], trimmed, width))
		case examples:
			b.WriteString(wrapCommand(line[:indent], trimmed, width))
		default:
			b.WriteString(wrapColumns(line, indent, width))
		}
	}
	return b.String()
}

// wrapColumns wraps a line of columns ("  --x VALUE   usage...", a row of
// a table) under its last column, keeping the columns before it as they
// are; when the last column starts too far right to be read there, it goes
// on the lines below, under the second column. A line of prose wraps
// under its indent.
func wrapColumns(line string, indent, width int) string {
	var cols []int
	for p := indent + 3; p < len(line); p++ {
		if line[p] != ' ' && line[p-3:p] == "   " {
			cols = append(cols, p)
		}
	}
	room := width - minWrapWidth/2
	if len(cols) == 0 {
		return hang(line[:indent], line[indent:], width)
	}
	last := cols[len(cols)-1]
	body := line[last:]
	// A word up to 40 wide should fit beside the column; a longer one is a
	// list that breaks anywhere it stands.
	fits := func(at int) bool { return at <= room && at+min(longestWord(body), 40) <= width }
	if fits(runewidth.StringWidth(line[:last])) {
		return hang(line[:last], body, width)
	}
	head := strings.TrimRight(line[:last], " ")
	under := indent + 4
	if at := runewidth.StringWidth(line[:cols[0]]); fits(at) {
		under = at
	}
	if runewidth.StringWidth(head) > width {
		head = wrapColumns(head, indent, width)
	}
	return head + "\n" + hang(strings.Repeat(" ", under), body, width)
}

func longestWord(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		n = max(n, runewidth.StringWidth(w))
	}
	return n
}

// hang writes head, then body wrapped to the width left beside it, each
// line after the first indented as far as head is wide.
func hang(head, body string, width int) string {
	pad := strings.Repeat(" ", runewidth.StringWidth(head))
	return head + strings.Join(WrapWords(body, width-len(pad)), "\n"+pad)
}

// wrapComment wraps a shell comment into lines that each start with "#":
// a line of it without one would run as a command when pasted.
func wrapComment(indent, comment string, width int) string {
	lead := indent + "# "
	text := strings.TrimSpace(strings.TrimPrefix(comment, "#"))
	return lead + strings.Join(WrapWords(text, width-runewidth.StringWidth(lead)), "\n"+lead)
}

// wrapCommand breaks a shell command at spaces outside quotes, ending each
// line but the last with " \" and indenting the rest under the command. A
// comment after it stays on its last line when it fits there, or else
// follows as comment lines of its own: a " \" inside a comment continues
// nothing, so the comment's next line would run as a command.
func wrapCommand(indent, cmd string, width int) string {
	words := shellWords(cmd)
	var comment []string
	for i, w := range words {
		if strings.HasPrefix(w, "#") {
			words, comment = words[:i], words[i:]
			break
		}
	}
	out := wrapWordsOfCommand(indent, words, width)
	if len(comment) == 0 {
		return out
	}
	text := strings.Join(comment, " ")
	last := out[strings.LastIndexByte(out, '\n')+1:]
	if runewidth.StringWidth(last)+1+runewidth.StringWidth(text) <= width {
		return out + " " + text
	}
	return out + "\n" + wrapComment(indent+"    ", text, width)
}

// wrapWordsOfCommand lays out a command's words as wrapCommand does.
func wrapWordsOfCommand(indent string, words []string, width int) string {
	pad := indent + "    "
	var b strings.Builder
	b.WriteString(indent)
	lw := len(indent)
	for i, w := range words {
		parts := []string{w}
		if strings.HasPrefix(w, "'{") || strings.HasPrefix(w, "'[") {
			// JSON in single quotes: a line break between its values is
			// still the same JSON, and still one argument.
			parts = splitJSON(w, width-len(pad))
		}
		fw := runewidth.StringWidth(parts[0])
		if i > 0 {
			// Room for the word and, when a line may break after it, a " \".
			reserve := 2
			if i == len(words)-1 || len(parts) > 1 {
				reserve = 0
			}
			if lw+1+fw+reserve > width {
				b.WriteString(" \\\n" + pad)
				lw = len(pad)
			} else {
				b.WriteByte(' ')
				lw++
			}
		}
		b.WriteString(parts[0])
		lw += fw
		for _, p := range parts[1:] {
			b.WriteString("\n" + pad + p)
			lw = len(pad) + runewidth.StringWidth(p)
		}
	}
	return b.String()
}

// shellWords splits a command at the spaces outside single or double
// quotes, keeping the quotes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == ' ':
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteRune(r)
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	return words
}

// splitJSON breaks a JSON text after commas that separate values, so
// that each part is at most width wide where it can be.
func splitJSON(s string, width int) []string {
	var parts []string
	for runewidth.StringWidth(s) > width {
		cut := runewidth.Truncate(s, width, "")
		i := strings.LastIndex(cut, ",\"")
		if j := strings.LastIndex(cut, ",{"); j > i {
			i = j
		}
		if i <= 0 {
			break
		}
		parts = append(parts, s[:i+1])
		s = s[i+1:]
	}
	return append(parts, s)
}
