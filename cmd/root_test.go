package cmd

import (
	"context"
	"slices"
	"testing"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families"
)

// rootFor is the tree rootAndOp builds for args.
func rootFor(f *cli.Factory, args []string) *cobra.Command {
	root, _ := rootAndOp(f, args)
	return root
}

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
	return tio.Out.String()
}

// A line that names a family's operation right after the family builds
// that operation alone in it; otherwise every command of the family is
// there (stubs but for the one run).
func TestRootBuildsOnlyTheNamedOperation(t *testing.T) {
	isolate(t)
	names := func(args []string) []string {
		f, _ := testFactory(t, &testKeyring{}, "")
		users, _, err := rootFor(f, args).Find([]string{"users"})
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		var out []string
		for _, c := range users.Commands() {
			out = append(out, c.Name())
		}
		return out
	}
	for op, args := range map[string][]string{"list": {"users", "list", "--help"}, "create": {"-o", "json", "users", "create"}, "get": {"user", "get", "x"}} {
		if got := names(args); len(got) != 1 || got[0] != op {
			t.Errorf("%v: users holds %v, want only %s", args, got, op)
		}
	}
	for _, args := range [][]string{{"users"}, {"users", "--limit", "5", "list"}, {"users", "offboard"}, {"users", "attributes", "list"}, {"users", "lisst"}} {
		if got := names(args); len(got) < 5 {
			t.Errorf("%v: users holds only %v", args, got)
		}
	}
}

// "FAMILY OPERATION --help" (and -h), which prints the page without
// cobra's search, prints what the whole tree prints through cobra, piped
// and on a terminal, for every operation; so do the lines that take the
// usual path (an operation of a subgroup), and cobra run on the tree
// rootFor builds (the path a line with a global flag before the family
// takes).
func TestOperationHelpAsCobraPrintsIt(t *testing.T) {
	isolate(t)
	const (
		viaExecute = iota
		viaRootFor
		viaWhole
	)
	page := func(args []string, via, width int) string {
		f, tio := testFactory(t, &testKeyring{}, "")
		f.IO.OutTTY, f.IO.Width = width > 0, width
		var err error
		switch via {
		case viaExecute:
			err = execute(context.Background(), f, args, nil)
		case viaRootFor, viaWhole:
			var root *cobra.Command
			if via == viaWhole {
				root = newRoot(f, allFamilies)
			} else {
				root = rootFor(f, args)
			}
			root.SetArgs(args)
			err = root.Execute()
		}
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return tio.Out.String()
	}
	n := 0
	var walk func(path []string, g engine.Group)
	walk = func(path []string, g engine.Group) {
		path = append(slices.Clip(path), g.Name)
		for _, op := range g.Ops {
			for _, flag := range []string{"--help", "-h"} {
				args := append(slices.Clip(path), op.Name(), flag)
				if f, _ := testFactory(t, &testKeyring{}, ""); len(path) == 1 {
					if _, named := rootAndOp(f, args); named == nil || !printedHelp(named, args) {
						t.Errorf("%v: not printed without cobra's search", args)
					}
				}
				for _, width := range []int{0, 80} {
					want := page(args, viaWhole, width)
					for _, via := range []int{viaExecute, viaRootFor} {
						if got := page(args, via, width); got != want || got == "" {
							t.Errorf("%v at width %d (path %d):\n got: %q\nwant: %q", args, width, via, got, want)
						}
					}
				}
				n++
			}
		}
		for _, sub := range g.Groups {
			walk(path, sub)
		}
	}
	for _, g := range families.All() {
		walk(nil, g)
	}
	if n < 200 {
		t.Fatalf("compared %d help pages; the tree has more", n)
	}
}

// The help command a named line gets in place of the real one has the
// same name and summary.
func TestHelpStubIsTheHelpCommand(t *testing.T) {
	isolate(t)
	stub, real := helpStub(), newHelpCmd(newRoot(newTestFactory(t), allFamilies), 0)
	if stub.Use != real.Use || stub.Short != real.Short {
		t.Errorf("help stub %q / %q, but the help command says %q / %q", stub.Use, stub.Short, real.Use, real.Short)
	}
}

func newTestFactory(t *testing.T) *cli.Factory {
	f, _ := testFactory(t, &testKeyring{}, "")
	return f
}
