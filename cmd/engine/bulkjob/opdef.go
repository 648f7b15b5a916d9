package bulkjob

import "github.com/orgctl/orgctl/cmd/engine/opdef"

// The declaration's names this package uses most, unqualified.
type (
	Op       = opdef.Op
	Field    = opdef.Field
	Input    = opdef.Input
	Call     = opdef.Call
	FollowUp = opdef.FollowUp
)
