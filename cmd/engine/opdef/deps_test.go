package opdef_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// What an operation is must be declared and checked without the network:
// nothing this package imports, directly or through others, may reach
// net/http, the retrying client or the sandbox.
func TestImportsNoNetworkCode(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := exec.LookPath(goTool); err != nil {
		if goTool, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command to list this package's imports with")
		}
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 || deps[len(deps)-1] != "github.com/orgctl/orgctl/cmd/engine/opdef" {
		t.Fatalf("go list -deps did not list this package last: %q", deps)
	}
	for _, d := range deps {
		switch {
		case d == "net/http", strings.Contains(d, "go-retryablehttp"), strings.HasSuffix(d, "/client/sandbox"),
			d == "github.com/orgctl/orgctl/client", strings.HasPrefix(d, "github.com/spf13/cobra"):
			t.Errorf("opdef imports %s", d)
		}
	}
}
