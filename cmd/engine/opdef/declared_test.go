package opdef_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/engine/opdef"
)

// An Op is a declaration: the families write it, everything else reads it,
// so that what a command does can be read off its declaration alone. The
// check is by syntax: it finds assignments to an Op's fields through
// variables declared as an Op or a Placed (parameters, var and :=
// of a literal) and through any `.Op.` in a selector, outside the
// families and outside tests.
func TestNoCodeOutsideTheDeclarationsWritesAnOp(t *testing.T) {
	opFields := fieldNames(reflect.TypeFor[opdef.Op]())
	placedOwn := fieldNames(reflect.TypeFor[opdef.Placed]())
	written := func(field string) bool { return opFields[field] && !placedOwn[field] }
	root := filepath.Join("..", "..", "..")
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || name == "families" || strings.HasPrefix(name, ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, pos := range opWrites(file, opFields, written) {
			found = append(found, fset.Position(pos).String())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("code outside the declarations assigns to an Op's fields (build the Op whole in a literal instead):\n%s",
			strings.Join(found, "\n"))
	}
}

// The check itself finds what it is for: an Op built and then changed,
// directly and through a call's placed op.
func TestTheOpWriteCheckFindsWrites(t *testing.T) {
	opFields := fieldNames(reflect.TypeFor[opdef.Op]())
	placedOwn := fieldNames(reflect.TypeFor[opdef.Placed]())
	written := func(field string) bool { return opFields[field] && !placedOwn[field] }
	src := `package x
func a() {
	op := &opdef.Op{Method: "GET"}
	op.Confirm = nil
}
func b(p *opdef.Placed, c *opdef.Call) {
	p.Hooks.Shape = nil
	c.Op.Body = true
	p.Noun = "user"
	c.Op.Scope = "users:read"
}
func d(o *options) { o.Body = nil }
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, pos := range opWrites(file, opFields, written) {
		lines = append(lines, fset.Position(pos).Line)
	}
	if want := []int{4, 7, 8}; !slices.Equal(lines, want) {
		t.Errorf("writes found on lines %v, want %v", lines, want)
	}
}

func fieldNames(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := range t.NumField() {
		if f := t.Field(i); !f.Anonymous {
			out[f.Name] = true
		}
	}
	return out
}

// opWrites are the positions of assignments to an Op's fields in file.
func opWrites(file *ast.File, opFields map[string]bool, written func(string) bool) []token.Pos {
	var out []token.Pos
	ops := map[string]bool{} // names declared as an Op or a Placed, file-wide (a syntactic approximation)
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if isOpType(n.Type) {
				for _, name := range n.Names {
					ops[name.Name] = true
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if isOpType(n.Type) || i < len(n.Values) && isOpLiteral(n.Values[i]) {
					ops[name.Name] = true
				}
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for i, lhs := range n.Lhs {
					if id, ok := lhs.(*ast.Ident); ok && i < len(n.Rhs) && isOpLiteral(n.Rhs[i]) {
						ops[id.Name] = true
					}
				}
			}
		}
		return true
	})
	ast.Inspect(file, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok == token.DEFINE {
			return true
		}
		for _, lhs := range as.Lhs {
			if chain := selectorChain(lhs); writesOp(chain, ops, written) {
				out = append(out, lhs.Pos())
			}
		}
		return true
	})
	return out
}

// writesOp reports whether a selector chain (root first) names an Op's
// field: root.Field where root is an Op or a Placed, or any .Op.Field.
func writesOp(chain []string, ops map[string]bool, written func(string) bool) bool {
	if len(chain) < 2 {
		return false
	}
	if ops[chain[0]] && written(chain[1]) {
		return true
	}
	for i := 1; i+1 < len(chain); i++ {
		if chain[i] == "Op" && written(chain[i+1]) {
			return true
		}
	}
	return false
}

func selectorChain(e ast.Expr) []string {
	switch e := e.(type) {
	case *ast.Ident:
		return []string{e.Name}
	case *ast.SelectorExpr:
		if head := selectorChain(e.X); head != nil {
			return append(head, e.Sel.Name)
		}
	case *ast.IndexExpr:
		return selectorChain(e.X)
	case *ast.StarExpr:
		return selectorChain(e.X)
	case *ast.ParenExpr:
		return selectorChain(e.X)
	}
	return nil
}

func isOpType(e ast.Expr) bool {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "Op" || e.Name == "Placed"
	case *ast.SelectorExpr:
		return e.Sel.Name == "Op" || e.Sel.Name == "Placed"
	}
	return false
}

func isOpLiteral(e ast.Expr) bool {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	lit, ok := e.(*ast.CompositeLit)
	return ok && isOpType(lit.Type)
}
