// Package spec is the management API as its description states it, as Go
// data: every operation (method, path, tag, the token scopes it accepts and
// the console's label for them, the plans its x-badges name, the version
// that added it, whether it is deprecated and for what, whether it pages,
// its success status), what its input may hold (path and query parameters
// and body values, each with its type, format, pattern, enum and bounds and
// the version that added it; the request body's schema), which fields its
// answer has, an example answer, the resource types, the scope names and
// the API version. It also owns the one validator of values against those
// rules: orgctl checks each request before sending it (package engine), and
// the sandbox (package client/sandbox) checks what it receives, with the
// same checks.
//
// spec_gen.go is written by internal/specgen from the 4.0 description
// (../shared/api/openapi-4.0.yaml), with what only the 2.12 one
// (openapi.json, which the 3.334 release still publishes) says carried
// along: the console's scope labels, "Available from" versions, and
// operations 4.0 dropped. POST /apps, which the service documents but no
// description lists, is added as Unpublished. (go generate; CI checks
// that it is current.) The tables are plain data, so they cost nothing at
// start-up; patterns compile on first use.
//
// It must not import any other package of orgctl but output/lazy.
package spec

// The descriptions sit in ../shared beside the repository; only the generator reads them.
//go:generate go run ./internal/specgen -spec ../../../shared/api/openapi-4.0.yaml -old ../../../shared/api/openapi.json -o spec_gen.go
