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
package cmd
