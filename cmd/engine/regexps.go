package engine

import (
	"regexp"
	"sync"
)

// LazyRegexp compiles expr on first use: a regexp compiled at package init
// costs every command's start-up, whether or not the command uses it.
func LazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
