//go:build !linux

// Package prefault maps in orgctl's machine code and the next stretch of
// its heap at start on Linux; elsewhere it does nothing.
package prefault

// Err is nil: there is nothing to do here.
var Err error
