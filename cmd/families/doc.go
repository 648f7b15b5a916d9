// Package families declares the management API's endpoint families as
// data for the engine: one file per family, each an engine.Group of Ops
// (path, scope, fields, columns, and the few hooks an endpoint needs), and
// the views and extra commands that are the family's own. Each file
// registers its family in init; List gives them to the root, sorted.
//
// It must not import the root command package or a tool command.
package families
