package config

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/settings"
)

// configRun runs `config ARGS` on a fresh Factory, as one process would,
// in the XDG directories the test set.
func configRun(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
	err = clitest.Execute(f, NewCmd(f), args...)
	return tio.Out.String(), tio.Err.String(), err
}

func TestConfigSetGetUnsetThroughTheFile(t *testing.T) {
	clitest.Isolate(t)
	if out, _, err := configRun(t, "get", "timeout"); err != nil || strings.TrimSpace(out) == "" {
		t.Fatalf("get before any set: %q, %v; want the default", out, err)
	}
	def, _, _ := configRun(t, "get", "timeout")
	if _, errOut, err := configRun(t, "set", "timeout", "45s"); err != nil || !strings.Contains(errOut, "timeout") {
		t.Fatalf("set: %v; stderr %q", err, errOut)
	}
	b, err := os.ReadFile(settings.ConfigPath())
	if err != nil || !strings.Contains(string(b), "timeout: 45s") {
		t.Fatalf("config file after set: %q, %v", b, err)
	}
	if out, _, err := configRun(t, "get", "timeout"); err != nil || out != "45s\n" {
		t.Errorf("get after set: %q, %v", out, err)
	}
	out, _, err := configRun(t, "list")
	if err != nil || !hasRow(out, "timeout", "45s", "file") {
		t.Errorf("list after set: %v\n%s", err, out)
	}
	// the environment goes before the file, and list says so
	t.Setenv("ORGCTL_TIMEOUT", "50s")
	if out, _, _ := configRun(t, "list"); !hasRow(out, "timeout", "50s", "env ORGCTL_TIMEOUT") {
		t.Errorf("list with ORGCTL_TIMEOUT set:\n%s", out)
	}
	t.Setenv("ORGCTL_TIMEOUT", "")
	if _, _, err := configRun(t, "unset", "timeout"); err != nil {
		t.Fatalf("unset: %v", err)
	}
	if out, _, _ := configRun(t, "get", "timeout"); out != def {
		t.Errorf("get after unset: %q, want the default %q", out, def)
	}
}

func TestConfigRefusesBadKeysAndValuesWithoutWriting(t *testing.T) {
	clitest.Isolate(t)
	for _, args := range [][]string{
		{"set", "timout", "45s"},
		{"set", "timeout", "soon"},
		{"get", "timout"},
	} {
		_, _, err := configRun(t, args...)
		var usage *cli.UsageError
		if !errors.As(err, &usage) || !strings.Contains(err.Error(), args[len(args)-1]) && !strings.Contains(err.Error(), args[1]) {
			t.Errorf("%q: %v, want a usage error (exit 2) naming what was wrong", args, err)
		}
		if err != nil && args[1] == "timout" && !strings.Contains(err.Error(), "timeout") {
			t.Errorf("%q: %v, want the nearest key", args, err)
		}
	}
	if _, err := os.Stat(settings.ConfigPath()); !os.IsNotExist(err) {
		t.Errorf("a refused set wrote the config file: %v", err)
	}
}

// hasRow says whether a piped listing has a line with these fields.
func hasRow(out string, fields ...string) bool {
	for _, line := range strings.Split(out, "\n") {
		if line == strings.Join(fields, "\t") {
			return true
		}
	}
	return false
}
