// Package api is `orgctl api [METHOD] PATH`: any endpoint of the management
// API, with -f/-F fields, --input and --paginate, sent through the same
// engine (pacing, dry run, printing) as every declared operation.
//
// It must not import the root command package or another tool command.
package api
