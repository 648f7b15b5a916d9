package opdef_test

import (
	"testing"

	"github.com/orgctl/orgctl/cmd/engine/opdef"
)

// What an op says of itself from its Use and Method alone: its command
// name, and whether it changes anything (a POST that lists does not).
func TestOpNameWritesReads(t *testing.T) {
	for _, tc := range []struct {
		op                      opdef.Op
		name                    string
		mutating, writes, reads bool
	}{
		{opdef.Op{Use: "get USER_ID", Method: "GET"}, "get", false, false, true},
		{opdef.Op{Use: "list-objects", Method: "POST"}, "list-objects", true, false, true},
		{opdef.Op{Use: "create", Method: "POST"}, "create", true, true, false},
		{opdef.Op{Use: "delete GROUP_ID", Method: "DELETE"}, "delete", true, true, false},
	} {
		op := tc.op
		if op.Name() != tc.name || op.Mutating() != tc.mutating || op.Writes() != tc.writes || op.Reads() != tc.reads {
			t.Errorf("%s %q: name %q mutating %v writes %v reads %v; want %q %v %v %v", op.Method, op.Use,
				op.Name(), op.Mutating(), op.Writes(), op.Reads(), tc.name, tc.mutating, tc.writes, tc.reads)
		}
	}
}

func TestSiblingAndHasField(t *testing.T) {
	ops := []opdef.Op{{Use: "create", Fields: []opdef.Field{{Flag: "name"}}}, {Use: "update ID"}}
	op := &ops[0]
	op.Siblings = ops
	if s := op.Sibling("update"); s == nil || s.Use != "update ID" {
		t.Errorf("Sibling(update) = %v", s)
	}
	if op.Sibling("") != nil || op.Sibling("delete") != nil {
		t.Errorf("Sibling found an op that is not there")
	}
	if !op.HasField("name") || op.HasField("email") {
		t.Errorf("HasField: name %v, email %v", op.HasField("name"), op.HasField("email"))
	}
}
