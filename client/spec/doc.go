// Package spec is the management API as its published OpenAPI description
// states it, as Go data: every operation (method, path, tag, scope,
// success status), what its input may hold (path and query parameters and
// body values, each with its type, format, pattern, enum and bounds; the
// request body's schema), which fields its answer has, an example answer,
// the published resource types and the API version. It also owns the one
// validator of values against those rules: orgctl checks each request
// before sending it (package engine), and the sandbox (package
// client/sandbox) checks what it receives, with the same checks.
//
// spec_gen.go is written by internal/specgen from ../shared/api/openapi.json
// (go generate; CI checks that it is current). The tables are plain data,
// so they cost nothing at start-up; patterns compile on first use.
//
// It must not import any other package of orgctl.
package spec

// The published OpenAPI file sits in ../shared beside the repository; only the generator reads it.
//go:generate go run ./internal/specgen -spec ../../../shared/api/openapi.json -o spec_gen.go
