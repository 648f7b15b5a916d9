// Package cmd is orgctl's root: Main (signals, the exit-code contract),
// the root command with its global flags, the start-up shortcut that
// builds only the command a line runs, help topics, and the suggestions
// for mistyped words. Nothing below it calls os.Exit.
//
// The rest of the tree is in its sub-packages: cli (the Factory, typed
// errors), settings (typed configuration), engine (declarative Op to
// command, run in phases), families (the API's families as data), and one
// package per tool command (auth, budget, config, sandbox, api, jobs,
// doctor, orgfiles, version). cmd/internal/releasefiles writes the man
// pages and completion scripts that release packages carry.
//
// Start-up, against the floor of .ci/bench-startup.sh (cobra and viper
// with 150 commands), in instructions executed (cachegrind, median of 9
// rounds): --version 1.22x, users list --help 1.22x. The tree is built
// only as far as the command line needs it: --version alone builds the
// root alone, without the global flags; a line naming a family's
// operation builds that operation alone in its family, and for "FAMILY
// OPERATION --help" prints its page without cobra's two searches of the
// tree. Help and usage are written by help_render.go rather than by
// cobra, whose default builds the local and inherited flag sets twice per
// page. In wall-clock time the ratios are higher (--version 1.24x, users
// list --help 1.27x, median of 5 hyperfine rounds of 80 runs), and the
// floor with orgctl's dependencies linked in for their init alone is as
// slow as orgctl (1.24x; the script prints it): the difference is system
// time, ~300 more page faults than the floor's, nearly all from the
// libraries' init-time allocations. Nothing is computed before main
// that a short run does not use (the sandbox's handlers, the flag
// completions, the completion and name-resolution tables, the sorted
// family list). Most of what remains is the libraries' own init, each
// measured as the floor with it linked in:
//   - gojq (--jq): +0.64M instructions, 22% of the floor, 2,278
//     allocations building its builtin definitions; no option avoids it.
//   - tablewriter v0.0.5: +0.20M (7%), its regular expressions; v1.1.5
//     costs +0.34M (12%), 0.2 ms and 663 KB for a width cache allocated
//     in init even when turned off, and ~150 more page faults.
//   - go-retryablehttp with net/http: +0.11M (4%), which any API client
//     pays (a bare HTTPS client: +0.07M).
//
// The rest is the binary's size: the runtime checks every function's
// table entry and builds the data's pointer bitmaps before main (+0.28M).
package cmd
