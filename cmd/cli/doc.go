// Package cli holds what every command of orgctl shares: the Factory that
// makes, on first use, the settings, the printer and the paced connection
// (target, token, budget ledger, client); the typed errors and exit
// statuses that Main maps in one place; and the few cobra helpers every
// command uses (argument checks, the printer from -o/--jq/--template).
//
// It must not import the command tree (cmd and its command packages): they
// import it.
package cli
