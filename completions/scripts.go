package completions

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Shells are the shells Script writes for, in the order help lists them.
var Shells = []string{"bash", "zsh", "fish", "powershell"}

// Script writes the completion script of root's program for shell, with
// descriptions (labels such as a user's email beside its id).
func Script(w io.Writer, root *cobra.Command, shell string) error {
	switch shell {
	case "bash":
		return root.GenBashCompletionV2(w, true)
	case "zsh":
		return root.GenZshCompletion(w)
	case "fish":
		return root.GenFishCompletion(w, true)
	case "powershell":
		return root.GenPowerShellCompletionWithDesc(w)
	}
	return fmt.Errorf("unsupported shell %q: use one of %s", shell, strings.Join(Shells, ", "))
}

// Install says how to load the script of program in shell, for help pages
// and the README.
func Install(program, shell string) string {
	p := program
	switch shell {
	case "bash":
		return fmt.Sprintf(`Needs the bash-completion package (v2; "brew install bash-completion@2" on macOS).

Current shell only:
  source <(%[1]s completion bash)

Every new shell, for you:
  mkdir -p ~/.local/share/bash-completion/completions
  %[1]s completion bash > ~/.local/share/bash-completion/completions/%[1]s

Every new shell, for all users (Linux):
  %[1]s completion bash | sudo tee /etc/bash_completion.d/%[1]s >/dev/null

macOS with Homebrew:
  %[1]s completion bash > $(brew --prefix)/etc/bash_completion.d/%[1]s`, p)
	case "zsh":
		return fmt.Sprintf(`If completion is not enabled in zsh yet, add this to ~/.zshrc once:
  autoload -U compinit; compinit

Current shell only:
  source <(%[1]s completion zsh)

Every new shell (a directory in $fpath; restart zsh afterwards):
  mkdir -p ~/.zsh/completions
  %[1]s completion zsh > ~/.zsh/completions/_%[1]s
  # and in ~/.zshrc, before compinit:  fpath=(~/.zsh/completions $fpath)

macOS with Homebrew:
  %[1]s completion zsh > $(brew --prefix)/share/zsh/site-functions/_%[1]s`, p)
	case "fish":
		return fmt.Sprintf(`Current shell only:
  %[1]s completion fish | source

Every new shell:
  mkdir -p ~/.config/fish/completions
  %[1]s completion fish > ~/.config/fish/completions/%[1]s.fish`, p)
	case "powershell":
		return fmt.Sprintf(`Current session only:
  %[1]s completion powershell | Out-String | Invoke-Expression

Every new session: add the line above to your profile (the file named by
$PROFILE; create it with "New-Item -Force $PROFILE" if missing), or save the
script and dot-source it there:
  %[1]s completion powershell > "$HOME\%[1]s-completion.ps1"
  Add-Content $PROFILE '. "$HOME\%[1]s-completion.ps1"'`, p)
	}
	return ""
}
