package main

import (
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestReadmePlanExample keeps the README's plan example what plan prints:
// testdata/script/orgcode_readme.txtar runs it and compares its output
// with plan.txt, and this compares plan.txt with the README's block.
func TestReadmePlanExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "**3. Plan in CI.**")
	if !ok {
		t.Fatal("README.md has no **3. Plan in CI.** part")
	}
	_, rest, _ = strings.Cut(rest, "\n```\n")
	block, _, ok := strings.Cut(rest, "```\n")
	if !ok {
		t.Fatal("README.md's plan example has no closing fence")
	}
	ar, err := txtar.ParseFile("testdata/script/orgcode_readme.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "plan.txt" {
			if string(f.Data) != block {
				t.Errorf("README.md's plan example:\n%s\nwhat plan prints (orgcode_readme.txtar):\n%s", block, f.Data)
			}
			return
		}
	}
	t.Fatal("orgcode_readme.txtar has no plan.txt")
}
