// Package opdef is what an operation IS, apart from how it runs: the
// declaration of one API operation (Op, its Fields and their kinds, which
// object kind each input names, how a bulk job tells that what a row would
// create exists), the Input a command line or a file row gives it, and the
// build phase that turns that Input into a checked Call (Build: every value
// converted, checked against the published spec, shaped by the op's own
// Shape), with the request the Call would send. Nothing here sends,
// prompts or prints.
//
// Where a declaration needs something of the org (the name a destructive
// op asks to be typed, the reads that tell a row's change is in place), it
// says so through a small interface (Org, Lookups) that cmd/engine
// (Org) and cmd/engine/bulkjob (Lookups) implement on the paced client.
//
// It must not import the network: net/http, the client, the sandbox, cobra
// or the command tree (deps_test.go holds it to that); nor cmd/engine,
// which imports it.
package opdef
