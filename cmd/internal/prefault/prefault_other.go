//go:build !linux

// Package prefault maps all of orgctl's machine code into the process at
// start on Linux; elsewhere it does nothing.
package prefault

// Err is nil: there is nothing to do here.
var Err error
