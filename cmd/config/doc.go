// Package config is `orgctl config`: list, get, set and unset settings,
// each with where its value comes from. The settings themselves (table,
// file, checks) are package settings'; this package only wires them to
// commands.
//
// It must not import the root command package or another tool command.
package config
