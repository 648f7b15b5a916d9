package opdef

// Which object kind each input of an operation names (a user, a group...),
// declared or inferred from the path parameter or body key as the kinds
// registry names them (kinds.ByParam, kinds.ByRef): name resolution and
// completion both read it.

import (
	"strings"

	"github.com/orgctl/orgctl/client/kinds"
)

// NoCompletion turns inference off in Field.Complete and Op.Args.Complete.
const NoCompletion = "-"

// ArgKind is the object kind positional argument i names: declared in
// Args.Complete, else inferred from its path parameter ("" for none).
func (op *Op) ArgKind(i int) string {
	if i < len(op.Args.Complete) && op.Args.Complete[i] != "" {
		return op.Args.Complete[i]
	}
	if i >= len(op.Args.Params) {
		return ""
	}
	k, _ := kinds.ByParam(op.Path, op.Args.Params[i])
	return k
}

// KindBy picks an input's object kind from the value of another input: a
// flag, or (Flag "") the argument at index Arg.
type KindBy struct {
	Flag string
	Arg  int
	// Kinds maps that value to a kind; a value not listed names no kind. A
	// function, so a table declared at package level costs nothing until a
	// command reads it.
	Kinds func() map[string]string
}

// Pick is the kind the other input's value in one Input selects.
func (k KindBy) Pick(in Input) string {
	var v string
	if k.Flag != "" {
		if vs := in.Values[k.Flag]; len(vs) > 0 {
			v = vs[len(vs)-1]
		}
	} else if k.Arg < len(in.Args) {
		v = in.Args[k.Arg]
	}
	return k.Kinds()[strings.TrimSpace(v)]
}

// ArgKindIn is the argument's kind in one input: Args.KindBy when the
// argument has one, else the declared or inferred kind.
func (op *Op) ArgKindIn(i int, in Input) string {
	if k, ok := op.Args.KindBy[i]; ok {
		return k.Pick(in)
	}
	return op.ArgKind(i)
}

// KindIn is the field's kind in one input.
func (fd *Field) KindIn(in Input) string {
	if fd.KindBy != nil {
		return fd.KindBy.Pick(in)
	}
	return fd.ObjectKind()
}

// ObjectKind is the object kind the field's values name: Complete, else
// inferred from the last segment of its Key ("" for none).
func (fd *Field) ObjectKind() string {
	if fd.Complete != "" {
		return fd.Complete
	}
	key := fd.Key
	if fd.In == InLocal {
		key = strings.ReplaceAll(fd.Flag, "-", "_")
	}
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		key = key[i+1:]
	}
	k, _ := kinds.ByRef(key)
	return k
}
