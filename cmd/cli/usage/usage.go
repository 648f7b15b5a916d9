// Package usage is the error for invalid usage or input, caught before any
// request (exit 2), and how such messages show a value. Package cli maps it
// to its exit status; packages that must stay free of the network (the
// declaration of operations, cmd/engine/opdef) return it without importing
// cli.
//
// It is a leaf: it imports only the standard library.
package usage

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNothingToChange is wrapped by the refusal of an update that names no
// field: a --from job's row that only names its object is told by it, not
// by its words.
var ErrNothingToChange = errors.New("nothing to change")

// Error is invalid usage or input, caught before any request (exit 2).
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Errorf is an Error with a formatted message.
func Errorf(format string, args ...any) error {
	return &Error{fmt.Errorf(format, args...)}
}

// Shown quotes a value only where it would otherwise be hard to read.
func Shown(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"'") {
		return fmt.Sprintf("%q", s)
	}
	return s
}
