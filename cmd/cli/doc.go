// Package cli holds what every command of orgctl shares: the Factory that
// makes, on first use, the settings, the printer and the paced connection
// (target, token, budget ledger, client); the one Prompter every question
// goes through (a Factory field tests replace); the typed errors and exit
// statuses that Main maps in one place, and Explain, which Main calls once
// to add what to do next; the checks of a token and base URL before
// anything is sent; and the few helpers every command uses (argument
// checks, the printer from -o/--jq/--template, key: value status views).
//
// UsageError is declared in the leaf cmd/cli/usage, so that what must
// stay free of the network (cmd/engine/opdef) can return it.
//
// It must not import the command tree (cmd and its command packages): they
// import it.
package cli
