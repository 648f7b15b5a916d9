// Package lazy holds values made on first use. A package-level
// sync.OnceValue(f) is itself a call, which runs before main in every
// orgctl command, --version included; a Value declared as
//
//	var table = lazy.Value[T]{New: buildTable}
//
// is laid out by the compiler with no code, and New runs on the first Get.
// orgctl keeps every table a short command does not use this way (its
// root package's TestNothingOfOrgctlRunsBeforeMain holds the rule).
package lazy

import (
	"regexp"
	"sync"
)

// Value is a value made by New on the first Get, once, whatever the
// number of goroutines asking.
type Value[T any] struct {
	New  func() T
	once sync.Once
	v    T
}

// Get is the value, made now if no Get has made it yet.
func (l *Value[T]) Get() T {
	l.once.Do(func() { l.v = l.New() })
	return l.v
}

// Regexp is a regular expression compiled on first use:
//
//	var re = lazy.Regexp{Expr: `...`}
type Regexp struct {
	Expr string
	once sync.Once
	re   *regexp.Regexp
}

// Get is the compiled expression; it panics on an invalid one, which only
// a mistake in the code can give.
func (l *Regexp) Get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.Expr) })
	return l.re
}
