// Package familytest finds declared operations for tests: by command path,
// or every one in turn; and runs a family's command line as Main would,
// under clitest's root. It is imported by tests only.
package familytest

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/output"
)

// Op returns the declared operation at a command path below the root
// ("groups", "members", "add"), from a fresh copy of the declarations,
// placed in its group as the engine places it.
func Op(t testing.TB, path ...string) *opdef.Placed {
	t.Helper()
	var walk func(gs []engine.Group, rest []string) *opdef.Placed
	walk = func(gs []engine.Group, rest []string) *opdef.Placed {
		for _, g := range gs {
			if g.Name != rest[0] {
				continue
			}
			if len(rest) == 2 {
				for _, op := range g.Placed() {
					if op.Name() == rest[1] {
						return op
					}
				}
			}
			if len(rest) > 2 {
				return walk(g.Groups, rest[1:])
			}
		}
		return nil
	}
	if len(path) < 2 {
		t.Fatalf("familytest.Op(%v): need a family and an operation", path)
	}
	op := walk(families.All(), path)
	if op == nil {
		t.Fatalf("no operation %q", strings.Join(path, " "))
	}
	return op
}

// Each calls fn with every declared operation, placed in its group, and
// its command path ("orgctl groups members add").
func Each(fn func(path string, op *opdef.Placed)) {
	var walk func(prefix string, gs []engine.Group)
	walk = func(prefix string, gs []engine.Group) {
		for _, g := range gs {
			p := prefix + " " + g.Name
			for _, op := range g.Placed() {
				fn(p+" "+op.Name(), op)
			}
			walk(p, g.Groups)
		}
	}
	walk("orgctl", families.All())
}

// Input is an Input for a command path, with flag values given as
// "flag", "value" pairs (a flag may repeat).
func Input(command string, args []string, pairs ...string) opdef.Input {
	v := map[string][]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		v[pairs[i]] = append(v[pairs[i]], pairs[i+1])
	}
	return opdef.Input{Command: "orgctl " + command, Args: args, Values: v}
}

// Build builds a call that must be valid.
func Build(t testing.TB, op *opdef.Placed, input opdef.Input) *opdef.Call {
	t.Helper()
	c, err := op.Build(input, strings.NewReader(""))
	if err != nil {
		t.Fatalf("%s: build: %v", input.Command, err)
	}
	return c
}

// BuildErr builds a call that must be refused as bad usage (exit 2) and
// returns the message.
func BuildErr(t testing.TB, op *opdef.Placed, input opdef.Input) string {
	t.Helper()
	c, err := op.Build(input, strings.NewReader(""))
	if err == nil {
		t.Fatalf("%s: build accepted the input: %+v", input.Command, c.Request())
	}
	if !clitest.IsUsage(err) {
		t.Fatalf("%s: err = %T %v, want a UsageError (exit 2)", input.Command, err, err)
	}
	return err.Error()
}

// JSON renders v as compact JSON for comparisons that ignore Go types.
func JSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %v: %v", v, err)
	}
	return string(b)
}

// BodyFile writes content to a file for --body and returns its path.
func BodyFile(t testing.TB, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "body.json")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Factory is a Factory on empty stdin and discarded output, with every
// orgctl directory in a fresh temp dir and no ORGCTL_* settings.
func Factory(t testing.TB) *cli.Factory {
	t.Helper()
	clitest.Isolate(t)
	f := cli.NewFactory("test")
	f.IO = &output.IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}
	return f
}
