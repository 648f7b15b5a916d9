package output

import (
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
)

func widest(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		n = max(n, runewidth.StringWidth(l))
	}
	return n
}

func TestWrapWords(t *testing.T) {
	got := WrapWords("the quick brown fox jumps over the lazy dog", 10)
	want := []string{"the quick", "brown fox", "jumps over", "the lazy", "dog"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q", got)
	}
	if got := WrapWords("a {x|y|z|w} b", 4); strings.Join(got, " ") != "a {x| y|z| w} b" {
		t.Errorf("a list wider than the width breaks after '|': %q", got)
	}
	if got := WrapWords("as it is", 0); len(got) != 1 || got[0] != "as it is" {
		t.Errorf("width 0: %q", got)
	}
}

func TestWrapHelpFlagsUnderTheirUsage(t *testing.T) {
	in := "Flags:\n      --space NAME   log in to the Space NAME (looked up through the current profile, GET /spaces) as a profile of its own\n  -h, --help         help"
	got := WrapHelp(in, 60)
	want := "Flags:\n" +
		"      --space NAME   log in to the Space NAME (looked up\n" +
		"                     through the current profile, GET\n" +
		"                     /spaces) as a profile of its own\n" +
		"  -h, --help         help"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if WrapHelp(in, 0) != in {
		t.Error("width 0 changed the text")
	}
}

func TestWrapHelpExamplesStillRun(t *testing.T) {
	in := "Examples:\n  printf %s \"$TOKEN\" | orgctl auth login --with-token --base-url https://acme.example.com\n  # a comment that is long enough to need wrapping at this width, really\n\nFlags:"
	got := WrapHelp(in, 50)
	want := "Examples:\n" +
		"  printf %s \"$TOKEN\" | orgctl auth login \\\n" +
		"      --with-token --base-url \\\n" +
		"      https://acme.example.com\n" +
		"  # a comment that is long enough to need wrapping\n" +
		"  # at this width, really\n" +
		"\nFlags:"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// A comment after a command: on the command's last line when it fits,
	// else on comment lines of its own; never a " \" inside a comment,
	// which would leave its next line to run as a command.
	in = "Examples:\n" +
		"  orgctl sandbox serve --users 5000 --groups 300 --folders 400   # an access review's scale\n" +
		"  orgctl sandbox serve --latency 2s               # slow answers, to interrupt clients mid-request"
	got = WrapHelp(in, 50)
	want = "Examples:\n" +
		"  orgctl sandbox serve --users 5000 --groups 300 \\\n" +
		"      --folders 400 # an access review's scale\n" +
		"  orgctl sandbox serve --latency 2s\n" +
		"      # slow answers, to interrupt clients\n" +
		"      # mid-request"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// Quotes are never split at their spaces; JSON breaks between values.
	in = "Examples:\n  orgctl x --jq '.[] | select(.active) | .email' --body '{\"name\":\"STRIPE_KEY\",\"secret\":true,\"values\":[{\"environment_id\":\"PROD\",\"value\":\"sk\"}]}'"
	got = WrapHelp(in, 50)
	if !strings.Contains(got, "'.[] | select(.active) | .email'") || widest(got) > 50 {
		t.Errorf("got:\n%s", got)
	}
	if strings.ReplaceAll(strings.ReplaceAll(got, " \\\n      ", " "), "\n      ", "") != in {
		t.Errorf("joined again, the command differs:\n%s", got)
	}
}

func TestWrapHelpTableRows(t *testing.T) {
	in := "  ORGCTL_BASE_URL               base_url                                instance URL; orgctl appends /api/v2"
	got := WrapHelp(in, 80)
	want := "  ORGCTL_BASE_URL               base_url\n" +
		"                                instance URL; orgctl appends /api/v2"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
