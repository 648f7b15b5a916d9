// Package orgfiles is `orgctl export`, `plan` and `apply`: the org as
// files. The model, the diff and the steps are package client/orgcode's;
// this package reads the flags, prints plans and runs apply.
//
// It must not import the root command package or another tool command.
package orgfiles
