// Package families declares the management API's endpoint families as
// data for the engine: one file per family, each an engine.Group of Ops
// (the operation's method and path, command names, help, fields, columns,
// and the few hooks an endpoint needs; every other fact of the endpoint,
// its scope, values, requirements and paging, is client/spec's, and
// restate_test.go fails on a declaration that restates one), the
// views that are the family's own, and where a workflow (cmd/access,
// cmd/resources) is attached, as engine.Attach(NewCmdX). It builds no
// command itself. Each file declares its family's build function; the
// registry table (registry.go) names every family, sorted, and List gives
// them to the root.
//
// It must not import the root command package or a tool command.
package families
