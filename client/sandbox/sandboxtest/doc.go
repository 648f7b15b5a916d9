// Package sandboxtest is test support for tests that run against the sandbox (client/sandbox) or
// use the reference material next to the repository: it finds ../shared, loads its recorded API
// exchanges (go-vcr cassettes), and mints tokens through the sandbox's public API.
//
// Only _test.go files may import it; the orgctl binary must not link it. It must not import
// client/sandbox: it works only through a sandbox's HTTP behaviour, which keeps it honest and lets
// the sandbox's own tests use it too. It must not import cmd, ratebudget or output either.
package sandboxtest
