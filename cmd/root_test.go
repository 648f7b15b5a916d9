package cmd

import (
	"context"
	"testing"
)

// A command line that only asks for the version builds the root alone and
// prints what the whole tree prints; any other word or flag beside it
// builds the tree as before.
func TestVersionBuildsTheRootAlone(t *testing.T) {
	isolate(t)
	for _, args := range [][]string{{"--version"}, {"-v"}, {"-v", "--version"}} {
		f, _ := testFactory(t, &testKeyring{}, "")
		if root := rootFor(f, args); root.HasSubCommands() {
			t.Errorf("%v: the root has %d commands, want none", args, len(root.Commands()))
		}
		alone, whole := versionOutput(t, args, false), versionOutput(t, args, true)
		if alone != whole || alone == "" {
			t.Errorf("%v: printed %q, the whole tree prints %q", args, alone, whole)
		}
	}
	for _, args := range [][]string{{}, {"--version", "--help"}, {"-q", "--version"}, {"--version", "users"}, {"-vq"}} {
		f, _ := testFactory(t, &testKeyring{}, "")
		if root := rootFor(f, args); !root.HasSubCommands() {
			t.Errorf("%v: the root was built alone", args)
		}
	}
}

// versionOutput runs args through execute, or through the whole tree.
func versionOutput(t *testing.T, args []string, whole bool) string {
	t.Helper()
	f, tio := testFactory(t, &testKeyring{}, "")
	if whole {
		root := newRoot(f, allFamilies)
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	} else if err := execute(context.Background(), f, args, nil); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return tio.out.String()
}
