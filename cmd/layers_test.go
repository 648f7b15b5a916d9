package cmd

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The command tree is layered as the packages' docs say: a tool command
// imports neither the root nor another tool; the workflows (access,
// resources) and families import no tool and not the root, and the
// workflows not families; cli, which every command imports, imports none
// of them; settings imports no cobra. The compiler refuses only the
// imports that would close a cycle: this holds the others.
func TestPackagesImportOnlyTheLayersBelow(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the packages' imports with")
	}
	out, err := exec.Command(goTool, "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/orgctl/orgctl/"
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		imports[strings.TrimPrefix(fields[0], mod)] = fields[1:]
	}
	tools := []string{"cmd/api", "cmd/auth", "cmd/budget", "cmd/config", "cmd/doctor", "cmd/jobs", "cmd/orgfiles", "cmd/sandbox", "cmd/version"}
	commands := append([]string{"cmd", "cmd/families", "cmd/access", "cmd/resources", "cmd/engine"}, tools...)
	forbidden := map[string][]string{
		// users sync is org as code over an HR file, so the users family
		// attaches it from cmd/orgfiles; no other family reaches a tool.
		"cmd/families":  append([]string{"cmd"}, without(tools, "cmd/orgfiles")...),
		"cmd/access":    append([]string{"cmd", "cmd/families"}, tools...),
		"cmd/resources": append([]string{"cmd", "cmd/families"}, tools...),
		"cmd/cli":       commands,
		"cmd/settings":  append([]string{"github.com/spf13/cobra"}, commands...),
	}
	for _, tool := range tools {
		forbidden[tool] = append([]string{"cmd"}, tools...)
	}
	for pkg, not := range forbidden {
		got, ok := imports[pkg]
		if !ok {
			t.Errorf("go list did not list %s", pkg)
			continue
		}
		for _, imp := range got {
			if imp := strings.TrimPrefix(imp, mod); imp != pkg && slices.Contains(not, imp) {
				t.Errorf("%s imports %s", pkg, imp)
			}
		}
	}
}

// without is list less one name.
func without(list []string, name string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return s == name })
}
