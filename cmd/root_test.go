package cmd

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/version"
)

// --version and -v print the version and nothing else, with any words
// after them ignored, as cobra's own --version does.
func TestRootVersion(t *testing.T) {
	isolate(t)
	for _, args := range [][]string{{"--version"}, {"-v"}, {"-v", "--version"}, {"--version", "extra"}} {
		out, errOut, err := run(t, "", args...)
		if err != nil || out != version.Get().String() || errOut != "" {
			t.Errorf("%v: err %v, stdout %q, stderr %q", args, err, out, errOut)
		}
	}
}

// Every operation of every family has a help page, the same for --help and
// -h, that starts with the operation's summary and shows how to call it.
func TestEveryOperationHasHelp(t *testing.T) {
	isolate(t)
	page := func(args []string) string {
		f, tio := testFactory(t, &testKeyring{}, "")
		if err := execute(context.Background(), f, args, nil); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return tio.Out.String()
	}
	n := 0
	var walk func(path []string, g engine.Group)
	walk = func(path []string, g engine.Group) {
		path = append(slices.Clip(path), g.Name)
		for _, op := range g.Placed() {
			args := append(slices.Clip(path), op.Name())
			long, short := page(append(args, "--help")), page(append(args, "-h"))
			if long != short {
				t.Errorf("%v: --help and -h differ:\n--help: %q\n    -h: %q", args, long, short)
			}
			if !strings.HasPrefix(long, op.Help.Short) || !strings.Contains(long, "orgctl "+strings.Join(args, " ")) {
				t.Errorf("%v: the help page lacks the summary or the usage:\n%s", args, long)
			}
			n++
		}
		for _, sub := range g.Groups {
			walk(path, sub)
		}
	}
	for _, g := range families.All() {
		walk(nil, g)
	}
	if n < 100 {
		t.Fatalf("looked at %d help pages; the tree has more", n)
	}
}
