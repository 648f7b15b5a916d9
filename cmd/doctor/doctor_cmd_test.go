package doctor_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/doctor"
)

func TestDoctorAgainstTheSandbox(t *testing.T) {
	clitest.SandboxEnv(t, sandbox.Options{})
	f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
	if err := clitest.Execute(f, doctor.NewCmd(f)); err != nil {
		t.Fatalf("doctor: %v\n%s%s", err, tio.Out.String(), tio.Err.String())
	}
	out := tio.Out.String()
	for _, check := range []string{"config", "base url", "api", "token", "login", "budget"} {
		if !strings.Contains(out, "✓ "+check) {
			t.Errorf("no passing %q check:\n%s", check, out)
		}
	}
	if !strings.Contains(tio.Err.String(), "2 points") {
		t.Errorf("the paid request was not announced on stderr: %q", tio.Err.String())
	}
	t.Setenv("ORGCTL_OUTPUT", "json")
	f, tio = clitest.Factory(t, &clitest.Keyring{}, "")
	err := clitest.Execute(f, doctor.NewCmd(f))
	var checks []map[string]any
	if err != nil || json.Unmarshal(tio.Out.Bytes(), &checks) != nil || len(checks) < 6 {
		t.Fatalf("doctor -o json: %v\n%s", err, tio.Out.String())
	}
}
