package cmd

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles expr on first use: a regexp compiled at package init
// costs every command's start-up, whether or not the command uses it.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
