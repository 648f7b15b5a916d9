// Package auth is `orgctl auth`: login (to the primary org or a Space),
// status, token and logout, per profile, with the token kept in the OS
// keyring or an explicit 0600 file, never in argv or the config file.
//
// It must not import the root command package or another tool command.
package auth
