package orgfiles

import (
	"strings"
	"testing"
)

// lineBreaks must do what a strings.Replacer of CR LF, LF and CR does,
// CR LF counting as one break.
func TestLineBreaks(t *testing.T) {
	want := strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")
	for _, s := range []string{
		"", "plain", "a\nb", "a\r\nb", "a\rb", "\r\r\n", "\n\r", "\r\n\r\n", "end\r", "\r", "\n",
		"caf\xe9\r\nx", "tab\tstays", "ünï\ncode",
	} {
		if got, w := lineBreaks(s), want.Replace(s); got != w {
			t.Errorf("lineBreaks(%q) = %q, want %q", s, got, w)
		}
	}
}
