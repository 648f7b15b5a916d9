// Package cmd is orgctl's command tree: cobra commands, flags, viper
// configuration and profiles. Commands parse flags into a call, hand the
// request to package client and the answer to package output.
//
// Families declare their operations as data (ops.go): path, scope, flags,
// columns. The shared machinery turns each into a command once. Nothing here
// calls os.Exit: errors are typed and main maps them to exit codes.
package cmd
