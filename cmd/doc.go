// Package cmd is orgctl's root: Main (signals, the exit-code contract),
// the root command with its global flags, the start-up shortcut that
// builds only the family a line names, help topics, and the suggestions
// for mistyped words. Nothing below it calls os.Exit.
//
// The rest of the tree is in its sub-packages: cli (the Factory, typed
// errors), settings (typed configuration), engine (declarative Op to
// command, run in phases), families (the API's families as data), and one
// package per tool command (auth, budget, config, sandbox, api, jobs,
// doctor, orgfiles, version). cmd/internal/releasefiles writes the man
// pages and completion scripts that release packages carry.
//
// Start-up is measured by .ci/bench-startup.sh against a floor (cobra
// and viper with 150 commands), in wall-clock time and in instructions.
// A command line builds in full only the family (or tool) it names, its
// first word, or the one after "help" or a completion request; the others
// are stubs with a name and a summary, all the root's help and cobra's
// lookup need. The whole tree (~240 commands, ~1,900 flags) takes about
// three times the floor to start, the named family well under twice.
// Help and usage are written by help_render.go rather than
// by cobra, whose default builds the local and inherited flag sets twice
// per page. No package of orgctl's own does init work
// (TestNothingOfOrgctlRunsBeforeMain): its tables are laid out by the
// compiler (slices and switches, not map literals) or built on first use
// (output/lazy), since a package-level map literal, regexp,
// strings.Replacer or sync.OnceValue call runs before every command,
// --version included. What remains beyond
// the floor is mostly the libraries' own init (gojq's builtin
// definitions, tablewriter's width cache, go-retryablehttp's regular
// expressions), which the script prints library by library, next to the
// floor with all of them linked in for their init alone.
package cmd
