package families

import (
	"reflect"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
)

// declared is one operation as its family declares it, with its command path.
type declared struct {
	command string
	op      *opdef.Op
}

func allDeclared() []declared {
	var out []declared
	var walk func(prefix string, gs []engine.Group)
	walk = func(prefix string, gs []engine.Group) {
		for _, g := range gs {
			for i := range g.Ops {
				out = append(out, declared{prefix + g.Name + " " + g.Ops[i].Name(), &g.Ops[i]})
			}
			walk(prefix+g.Name+" ", g.Groups)
		}
	}
	walk("", All())
	return out
}

// A family declares what only orgctl knows: command names, help, hooks,
// bulk rules. Every fact of an endpoint is the API description's: a
// declaration names its operation by method and path, and restates nothing
// else the description says (scope, pagination, allowed values, what is
// required), so that a new description is a regeneration of client/spec,
// not an edit of every family.
func TestDeclarationsRestateNothingTheDescriptionSays(t *testing.T) {
	ops := allDeclared()
	if len(ops) < 150 {
		t.Fatalf("only %d declared operations found", len(ops))
	}
	for _, d := range ops {
		op := d.op
		s := op.Described()
		if s == nil {
			t.Errorf("%s: %s %s is no operation of the description", d.command, op.Method, op.Path)
			continue
		}
		if op.Path != s.Path {
			t.Errorf("%s: path %s spells the description's %s another way", d.command, op.Path, s.Path)
		}
		if op.Scope != "" {
			t.Errorf("%s: declares the scope %q; the description says %s", d.command, op.Scope, s.ScopeText())
		}
		if op.List {
			t.Errorf("%s: declares that it pages; the description says so (Paginated: %v)", d.command, s.Paginated)
		}
		for _, fd := range op.Fields {
			whole, each := op.Rules(fd)
			if enum := opdef.DescribedEnum(whole, each); len(fd.Enum) > 0 && enum != nil {
				t.Errorf("%s --%s: declares the values %v; the description lists %v", d.command, fd.Flag, fd.Enum, enum)
			}
			required := opdef.DescribedRequired(fd, whole)
			if fd.Required && required {
				t.Errorf("%s --%s: declares it required; the description requires it", d.command, fd.Flag)
			}
			if fd.Optional && !required {
				t.Errorf("%s --%s: declared Optional, but the description does not require it", d.command, fd.Flag)
			}
		}
	}
}

// The facts a declaration may not restate have no field to restate them
// in but the two that orgctl api's raw requests need (Scope and List, for
// paths no description names): a field added to Op or Field for an
// endpoint fact fails here until the test above covers it.
func TestOpHasNoFieldForADescribedFact(t *testing.T) {
	covered := map[string]bool{"Scope": true, "List": true, "Enum": true, "Required": true, "Optional": true}
	facts := []string{"scope", "plan", "badge", "paginat", "page", "enum", "required", "since", "version", "deprecat", "status", "pattern", "format"}
	for _, typ := range []reflect.Type{reflect.TypeFor[opdef.Op](), reflect.TypeFor[opdef.Field](), reflect.TypeFor[opdef.Args]()} {
		for i := range typ.NumField() {
			name := typ.Field(i).Name
			for _, f := range facts {
				if strings.Contains(strings.ToLower(name), f) && !covered[name] {
					t.Errorf("%s.%s looks like a fact of the description (%q): derive it from client/spec, or cover it in TestDeclarationsRestateNothingTheDescriptionSays", typ.Name(), name, f)
				}
			}
		}
	}
	if spec.Find("GET", "/users") == nil {
		t.Fatal("client/spec has no GET /users")
	}
}
