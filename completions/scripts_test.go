package completions

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func toyRoot() *cobra.Command {
	root := &cobra.Command{Use: "orgctl"}
	root.AddCommand(&cobra.Command{Use: "users", Short: "Users", Run: func(*cobra.Command, []string) {}})
	return root
}

func TestScriptsForEveryShell(t *testing.T) {
	// What each script must contain to be the right shell's, with descriptions.
	marks := map[string][]string{
		"bash":       {"__start_orgctl", "complete -o default -F __start_orgctl orgctl", "__complete"},
		"zsh":        {"#compdef orgctl", "compdef _orgctl orgctl", "__complete"},
		"fish":       {"complete -c orgctl", "__complete"},
		"powershell": {"Register-ArgumentCompleter", "-CommandName 'orgctl'", "__complete"},
	}
	for _, sh := range Shells {
		var b bytes.Buffer
		if err := Script(&b, toyRoot(), sh); err != nil {
			t.Fatalf("%s: %v", sh, err)
		}
		for _, m := range marks[sh] {
			if !strings.Contains(b.String(), m) {
				t.Errorf("%s script lacks %q", sh, m)
			}
		}
		if strings.Contains(b.String(), "__completeNoDesc") && sh != "fish" {
			t.Errorf("%s script asks for completions without descriptions", sh)
		}
		help := Install("orgctl", sh)
		if !strings.Contains(help, "orgctl completion "+sh) {
			t.Errorf("install help for %s does not show the command: %q", sh, help)
		}
	}
	if err := Script(&bytes.Buffer{}, toyRoot(), "tcsh"); err == nil || !strings.Contains(err.Error(), "bash, zsh, fish, powershell") {
		t.Errorf("tcsh: err = %v", err)
	}
	if Install("orgctl", "tcsh") != "" {
		t.Error("install help for an unsupported shell")
	}
}

func TestScriptsParseInTheirShells(t *testing.T) {
	for _, sh := range []struct{ name, check string }{
		{"bash", "-n"}, {"zsh", "-n"}, {"fish", "--no-execute"},
	} {
		path, err := exec.LookPath(sh.name)
		if err != nil {
			t.Logf("%s not installed: content checked above only", sh.name)
			continue
		}
		var b bytes.Buffer
		if err := Script(&b, toyRoot(), sh.name); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(path, sh.check)
		cmd.Stdin = &b
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s rejects its script: %v\n%s", sh.name, err, out)
		}
	}
}
