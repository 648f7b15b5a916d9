// Package resources holds the resource workflows, commands that are not
// one API operation: 'resources audit' (the announced deprecations and
// removals, over one list and a read per resource whose options decide
// it) and 'resources odbc-check' (the ODBC allowlist, checked locally with
// no request), and PrecheckODBC, which the declared create and update run
// before sending.
//
// Each command is an Options struct, NewCmdX(f, runF) that only parses
// flags into it, and a run function; cmd/families attaches it with
// engine.Attach.
//
// It must not import cmd/families, the root command package or a tool
// command.
package resources
