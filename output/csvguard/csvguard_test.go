package csvguard

import "testing"

func TestCellGuardsFormulasAndTextTakesTheGuardOff(t *testing.T) {
	for _, c := range []struct{ in, cell string }{
		{"=SUM(1)", "'=SUM(1)"},
		{"=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"},
		{"-2+3", "'-2+3"},
		{"@SUM(1)", "'@SUM(1)"},
		{"+x", "'+x"},
		{"\tx", "'\tx"},
		{"-12", "-12"},
		{"+3.5", "+3.5"},
		{"plain", "plain"},
		{"", ""},
		{"'", "'"},
		{"'quoted", "'quoted"},
		{"'=x", "''=x"}, // a quote before a formula reads back as itself
		{"''-x", "'''-x"},
		{"'-12", "'-12"},
	} {
		if got := Cell(c.in); got != c.cell {
			t.Errorf("Cell(%q) = %q, want %q", c.in, got, c.cell)
		}
		if got := Text(c.cell); got != c.in {
			t.Errorf("Text(%q) = %q, want %q", c.cell, got, c.in)
		}
	}
}

func FuzzTextUndoesCell(f *testing.F) {
	for _, s := range []string{"=1", "'=1", "''", "-1", "-", "'-x", "@", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := Text(Cell(s)); got != s {
			t.Fatalf("Text(Cell(%q)) = %q", s, got)
		}
	})
}
