package output

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
)

// layoutTable is the terminal table's layout written out plainly: every
// column as wide as its widest cell (display width, ambiguous characters
// narrow), cells padded on the right, two spaces between columns, no
// trailing blanks. writeTable must print exactly this, whatever library
// draws it.
func layoutTable(headers []string, rows [][]string) string {
	if len(rows) == 0 {
		return ""
	}
	cond := runewidth.NewCondition()
	cond.EastAsianWidth = false
	all := [][]string{headers}
	n := len(headers)
	for _, r := range rows {
		all = append(all, r)
		n = max(n, len(r))
	}
	widths := make([]int, n)
	cells := make([][]string, len(all))
	for i, r := range all {
		cells[i] = make([]string, n)
		for j, c := range r {
			if i == 0 {
				c = strings.ReplaceAll(strings.TrimSpace(c), "\t", "    ")
			} else {
				c = strings.TrimSpace(flatten(c))
			}
			cells[i][j] = c
			widths[j] = max(widths[j], cond.StringWidth(c))
		}
	}
	var b strings.Builder
	for _, r := range cells {
		var line strings.Builder
		for j, c := range r {
			line.WriteString(c)
			line.WriteString(strings.Repeat(" ", widths[j]-cond.StringWidth(c)+2))
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// The text an org holds: ASCII, accents (composed and combining), CJK,
// full- and half-width forms, Hangul, Thai, ambiguous-width symbols,
// single emoji, and the blanks and breaks that cells are flattened from.
var tableTexts = []string{"a", "bb", "ccc", "hello world", "admin@sandbox.example", " lead", "trail ", "", "  ", "x\ty",
	"line\nbreak", "cr\rx", "1234", "-5.5", "true", "null", "|", "+", "-", "é", "e\u0301", "Ærøskøbing", "Łódź",
	"日本語", "中文字", "한국어", "ｆｕｌｌ", "ﾊﾝｶｸ", "ก่", "±", "→", "①", "─", "✓", "✗", "…", "😀", "🚀 launch", "café ☕"}

// A table prints as the first-generation table library printed it, for
// all of that text. Not covered, because terminals disagree on their
// width: emoji sequences (ZWJ families, skin tones, flags, VS16), which
// are counted per code point, and escape sequences in cells.
func TestWriteTableLayout(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	text := func() string {
		var s strings.Builder
		for range rng.Intn(4) {
			s.WriteString(tableTexts[rng.Intn(len(tableTexts))])
		}
		return s.String()
	}
	// Headers are column names and record keys: no line breaks.
	header := func() string { return strings.NewReplacer("\n", "", "\r", "").Replace(text()) }
	for i := range 2000 {
		headers := make([]string, 1+rng.Intn(6))
		for j := range headers {
			headers[j] = header()
		}
		rows := make([][]string, rng.Intn(5))
		for r := range rows {
			n := len(headers)
			if rng.Intn(10) == 0 { // short and long rows
				n = 1 + rng.Intn(len(headers)+1)
			}
			rows[r] = make([]string, n)
			for j := range rows[r] {
				rows[r][j] = text()
			}
		}
		var b bytes.Buffer
		if err := writeTable(&b, headers, rows); err != nil {
			t.Fatal(err)
		}
		if want := layoutTable(headers, rows); b.String() != want {
			t.Fatalf("table %d: headers %q rows %q\ngot:\n%s\nwant:\n%s", i, headers, rows, b.String(), want)
		}
	}
}
