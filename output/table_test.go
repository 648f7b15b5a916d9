package output

import (
	"strings"
	"testing"
)

// flatten must do what a strings.Replacer of tab, LF and CR to a space does,
// byte for byte, also on text that is not UTF-8.
func TestFlattenLikeReplacer(t *testing.T) {
	want := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
	for _, s := range []string{"", "plain", "a\tb\nc\rd", "\r\n", "caf\xe9\tx", "ünï\ncode"} {
		if got, w := flatten(s), want.Replace(s); got != w {
			t.Errorf("flatten(%q) = %q, want %q", s, got, w)
		}
	}
}
