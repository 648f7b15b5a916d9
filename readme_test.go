package main

import (
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/orgctl/orgctl/cmd/manual"
)

// TestReadmePlanExample keeps the plan example of `orgctl help
// org-as-code` what plan prints: testdata/script/orgcode_readme.txtar runs
// it and compares its output with plan.txt, and this compares plan.txt
// with the topic's block.
func TestReadmePlanExample(t *testing.T) {
	topic := manual.Text("org-as-code")
	_, rest, ok := strings.Cut(topic, "3. PLAN IN CI\n")
	if !ok {
		t.Fatal("help org-as-code has no 3. PLAN IN CI part")
	}
	// the first block indented by two spaces, its indent removed
	_, rest, _ = strings.Cut(rest, "\n\n  ")
	rest = "  " + rest
	var block strings.Builder
	for _, l := range strings.SplitAfter(rest, "\n") {
		if l != "\n" && !strings.HasPrefix(l, "  ") {
			break
		}
		block.WriteString(strings.TrimPrefix(l, "  "))
	}
	got := strings.TrimRight(block.String(), "\n") + "\n"
	ar, err := txtar.ParseFile("testdata/script/orgcode_readme.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "plan.txt" {
			if string(f.Data) != got {
				t.Errorf("help org-as-code's plan example:\n%s\nwhat plan prints (orgcode_readme.txtar):\n%s", got, f.Data)
			}
			return
		}
	}
	t.Fatal("orgcode_readme.txtar has no plan.txt")
}

// CONTRIBUTING.md's layout table names every package of the module, and only
// packages that exist: a package moved or added shows here, not in a
// reader's search. In a row's first cell, a name without a slash is a
// sibling of the cell's first package (`cmd/api`, `auth`: cmd/auth).
func TestReadmeLayoutNamesEveryPackage(t *testing.T) {
	readme, err := os.ReadFile(".github/CONTRIBUTING.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "\n| package | owns |\n|---|---|\n")
	if !ok {
		t.Fatal(".github/CONTRIBUTING.md has no layout table (| package | owns |)")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	table = strings.TrimRight(table, "\n")
	named := map[string]int{} // package dir -> README line in the table
	for i, row := range strings.Split(table, "\n") {
		cells := strings.Split(row, "|")
		if len(cells) < 3 {
			t.Fatalf("layout table row %d is not a row: %q", i+1, row)
		}
		parent := ""
		for j, part := range strings.Split(cells[1], "`") {
			if j%2 == 0 {
				continue
			}
			switch {
			case strings.Contains(part, "/"):
				if parent == "" {
					parent = path.Dir(part)
				}
			case parent != "":
				part = parent + "/" + part
			}
			named[part] = i + 1
		}
	}
	pkgs := map[string]bool{}
	err = filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			if dir := filepath.ToSlash(filepath.Dir(p)); dir != "." {
				pkgs[dir] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range slices.Sorted(maps.Keys(pkgs)) {
		if named[p] == 0 {
			t.Errorf("package %s is missing from .github/CONTRIBUTING.md's layout table", p)
		}
	}
	for p, row := range named {
		if !pkgs[p] {
			t.Errorf(".github/CONTRIBUTING.md's layout table (row %d) names %s, which is no package", row, p)
		}
	}
}

// README.md is a front page, the manual being the help topics: at most 400
// lines, and a pointer to the topic of every job the manual has.
func TestReadmeIsAFrontPage(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > 400 {
		t.Errorf("README.md has %d lines; a front page has at most 400: move the detail into a topic (cmd/manual)", n)
	}
	for _, topic := range manual.Topics() {
		if !strings.Contains(string(b), "`orgctl help "+topic.Name+"`") {
			t.Errorf("README.md does not point at `orgctl help %s`", topic.Name)
		}
	}
}
