package engine

import (
	"regexp"
	"sync"
)

// LazyRegexp is a regular expression compiled on first use: a regexp
// compiled at package init costs every command's start-up, whether or not
// the command uses it, and so does a sync.OnceValue made at package level.
// Declare one as a package-level value, var re = engine.LazyRegexp{Expr: `...`},
// which the compiler lays out with no code, and call re.Get().
type LazyRegexp struct {
	Expr string
	once sync.Once
	re   *regexp.Regexp
}

// Get is the compiled expression; it panics on an invalid one, which only
// a mistake in the code can give.
func (l *LazyRegexp) Get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.Expr) })
	return l.re
}
