// Package sandbox is `orgctl sandbox`: serve the built-in API on
// loopback, or reset the persistent --sandbox org. The sandbox itself is
// package client/sandbox.
//
// It must not import the root command package or another tool command.
package sandbox
