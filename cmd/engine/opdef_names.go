package engine

import "github.com/orgctl/orgctl/cmd/engine/opdef"

// What an operation is lives in package opdef, and other packages name it
// there. The engine, which runs operations on nearly every line, names the
// few types and constants it uses unqualified.

type (
	Op     = opdef.Op
	Placed = opdef.Placed
	Input  = opdef.Input
	Call   = opdef.Call
)
