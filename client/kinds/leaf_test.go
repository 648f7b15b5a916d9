package kinds

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/orgctl/orgctl/"

// The registry is a leaf that anything may read: besides the standard
// library, it reaches only output/jsonscan (for the text of a JSON value),
// never the client, cobra or the printers.
func TestKindsIsALeaf(t *testing.T) {
	for _, p := range moduleDeps(t, "client/kinds") {
		if p != "client/kinds" && p != "output/jsonscan" {
			t.Errorf("client/kinds reaches %s", p)
		}
	}
}

// moduleDeps are the packages of this module that pkg (a directory from
// the module root) imports, directly or through others, pkg included;
// only non-test files count. A package outside the standard library and
// the module fails the test.
func moduleDeps(t *testing.T, pkg string) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	seen := map[string]bool{}
	var out []string
	var visit func(dir string)
	visit = func(dir string) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		out = append(out, dir)
		bp, err := build.ImportDir(filepath.Join(root, filepath.FromSlash(dir)), 0)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, imp := range bp.Imports {
			switch {
			case strings.HasPrefix(imp, module):
				visit(strings.TrimPrefix(imp, module))
			case strings.Contains(strings.Split(imp, "/")[0], "."):
				t.Errorf("%s imports %s, outside the standard library", dir, imp)
			}
		}
	}
	visit(pkg)
	return out
}
