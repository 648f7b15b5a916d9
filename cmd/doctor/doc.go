// Package doctor is `orgctl doctor`: one check per link of the chain a
// request depends on (config, base URL, API version, token, keyring,
// budget store, clock), each saying what is wrong and what to do.
//
// It must not import the root command package or another tool command.
package doctor
