package opdef_test

import (
	"reflect"
	"testing"

	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
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
	ops := []opdef.Op{{Use: "create", Fields: []opdef.Field{{Flag: "name"}}},
		{Use: "update ID", Columns: []output.Column{{Header: "OWN", Field: "own"}}}}
	group := []output.Column{{Header: "ID", Field: "id"}}
	placed := opdef.Place(ops, "thing", "things", group)
	op := placed[0]
	s := op.Sibling("update")
	if s == nil || s.Use != "update ID" || s.Noun != "thing" || s.Plural != "things" {
		t.Fatalf("Sibling(update) = %+v", s)
	}
	// Each op keeps its own columns, else takes the group's; the
	// declarations are left as they were.
	if len(op.Table) != 1 || op.Table[0].Header != "ID" || s.Table[0].Header != "OWN" || ops[0].Columns != nil {
		t.Errorf("tables: %v %v, declared %v", op.Table, s.Table, ops[0].Columns)
	}
	if op.Sibling("") != nil || op.Sibling("delete") != nil {
		t.Errorf("Sibling found an op that is not there")
	}
	if !op.HasField("name") || op.HasField("email") {
		t.Errorf("HasField: name %v, email %v", op.HasField("name"), op.HasField("email"))
	}
}

// Op and Call stay small: each field group has one job (help, arguments,
// hooks, bulk rules; the request, what was given, what the run found),
// and a new concern is a new group, not a 17th field.
func TestOpAndCallStaySmall(t *testing.T) {
	for _, v := range []any{opdef.Op{}, opdef.Call{}} {
		if n := reflect.TypeOf(v).NumField(); n > 16 {
			t.Errorf("%T has %d fields; group them by job (at most 16)", v, n)
		}
	}
}
