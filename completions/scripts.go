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
		var b strings.Builder
		if err := root.GenBashCompletionV2(&b, true); err != nil {
			return err
		}
		_, err := io.WriteString(w, standaloneBash(b.String(), root.Name()))
		return err
	case "zsh":
		return root.GenZshCompletion(w)
	case "fish":
		return root.GenFishCompletion(w, true)
	case "powershell":
		return root.GenPowerShellCompletionWithDesc(w)
	}
	return fmt.Errorf("unsupported shell %q: use one of %s", shell, strings.Join(Shells, ", "))
}

// standaloneBash makes cobra's bash script work without the
// bash-completion package: its fallback for _init_completion still calls
// that package's _get_comp_words_by_ref, and it leaves the part before a
// ':' in a completion (folder paths: app:/Finance) to that package too.
func standaloneBash(script, program string) string {
	script = strings.Replace(script, `    _get_comp_words_by_ref "$@" cur prev words cword
`, `    if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
        _get_comp_words_by_ref "$@" cur prev words cword
        return
    fi
    # The words bash split, with the '=' and ':' it splits at joined back
    # to the word before them, as _get_comp_words_by_ref -n =: does.
    local i w n
    words=()
    cword=0
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        w=${COMP_WORDS[i]}
        n=${#words[@]}
        if ((n > 1)) && [[ $w == [=:]* || ${words[n-1]} == *[=:] ]]; then
            words[n-1]+=$w
        else
            words+=("$w")
        fi
        if ((i == COMP_CWORD)); then
            cword=$((${#words[@]} - 1))
        fi
    done
    cur=${words[cword]}
    prev=${words[cword-1]}
`, 1)
	return strings.Replace(script, `    __`+program+`_process_completion_results
}`, `    __`+program+`_process_completion_results

    # Bash replaces only what follows the last ':' in the word.
    if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then
        local colon=${cur%"${cur##*:}"} j
        for j in "${!COMPREPLY[@]}"; do
            COMPREPLY[j]=${COMPREPLY[j]#"$colon"}
        done
    fi
}`, 1)
}

// Install says how to load the script of program in shell, for help pages
// and the README.
func Install(program, shell string) string {
	p := program
	switch shell {
	case "bash":
		// Only the bash-completion package reads its completions
		// directories, so the recipe that works without it is a line in
		// ~/.bashrc; eval rather than source <(...), which bash 3.2
		// (macOS) reads as empty.
		return fmt.Sprintf(`Works with or without the bash-completion package.

Current shell only:
  source <(%[1]s completion bash)

Every new shell, with or without the bash-completion package:
  echo 'eval "$(%[1]s completion bash)"' >> ~/.bashrc

With the bash-completion package, it can instead load the script when
first needed (these directories are read by that package alone):
  mkdir -p ~/.local/share/bash-completion/completions
  %[1]s completion bash > ~/.local/share/bash-completion/completions/%[1]s
  # for all users (Linux):
  %[1]s completion bash | sudo tee /etc/bash_completion.d/%[1]s >/dev/null
  # macOS with Homebrew:
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
