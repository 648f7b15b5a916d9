// Package jobs is `orgctl jobs`: list, show and forget the bulk jobs that
// --from runs and apply journal, from their journals under the state
// directory.
//
// It must not import the root command package or another tool command.
package jobs
