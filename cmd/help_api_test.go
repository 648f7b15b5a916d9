package cmd

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	yaml "go.yaml.in/yaml/v3"

	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
)

// apiLine finds the endpoints an `API:` help line (and the lines that
// continue it) names: "GET /api/v2/users/{userId}".
var apiEndpoint = regexp.MustCompile(`\b(GET|POST|PUT|PATCH|DELETE) /api/v2(/[^\s,;)]*)`)

// helpEndpoints are the endpoints a command's help names on its API: line
// and the lines indented under it.
func helpEndpoints(c *cobra.Command) []string {
	var out []string
	in := false
	for _, line := range strings.Split(c.Long, "\n") {
		switch {
		case strings.HasPrefix(line, "API:"):
			in = true
		case in && strings.HasPrefix(line, " "):
		default:
			in = false
		}
		if in {
			for _, m := range apiEndpoint.FindAllStringSubmatch(line, -1) {
				out = append(out, endpointKey(m[1], m[2]))
			}
		}
	}
	return out
}

// Walking every command's help, the API: lines name every operation of
// the 4.0 description, and POST /apps, which the service serves without
// describing it: every operation has a command that says so.
func TestHelpNamesEveryOperationOf40(t *testing.T) {
	b, err := os.ReadFile(sandboxtest.SharedFile(t, "api", "openapi-4.0.yaml"))
	if err != nil {
		t.Skipf("the 4.0 description is not available: %v", err)
	}
	var doc struct {
		Paths map[string]map[string]yaml.Node `yaml:"paths"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("openapi-4.0.yaml: %v", err)
	}
	want := map[string]bool{endpointKey("POST", "/apps"): true}
	for path, item := range doc.Paths {
		for method := range item {
			switch m := strings.ToUpper(method); m {
			case "GET", "POST", "PUT", "PATCH", "DELETE":
				want[endpointKey(m, path)] = true
			}
		}
	}
	if len(want) != 153 {
		t.Fatalf("the 4.0 description has %d operations with POST /apps, want 153 (152 + 1)", len(want))
	}
	named := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, k := range helpEndpoints(c) {
			named[k] = true
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newTestRoot(t))
	var missing []string
	for k := range want {
		if !named[k] {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	t.Logf("help names %d of the %d operations", len(want)-len(missing), len(want))
	if len(missing) > 0 {
		t.Errorf("%d operation(s) named on no command's API: line:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
}
