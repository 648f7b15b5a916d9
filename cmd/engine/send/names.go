package send

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/cli/usage"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/internal/suggest"
	"github.com/orgctl/orgctl/output/lazy"
)

// Ref is one value of an Input that names an object instead of giving its
// id: an argument (Flag "") or one element of a field's values.
type Ref struct {
	Kind kinds.Kind
	Text string
	Arg  int    // index in Input.Args, when Flag is ""
	Flag string // the field's flag
	Elem int    // index in Input.Values[Flag]
	Part int    // index among the comma-separated parts of that value (opdef.TStrings)
	// KeyOnly marks the KEY of a KEY=VALUE value (Field.KeyKind).
	KeyOnly bool
	// Stand is a syntactically valid id of the kind, unique in the call,
	// used to check the rest of the input before any lookup; for a guard
	// (ByID) it is only the key of its object in a map of objects found.
	Stand string
	// ByID marks a guard: an id, not a name (Found.Guards).
	ByID bool
	// Renames marks the object a PATCH or PUT gives a new natural key (a
	// group's name): a built-in group keeps its name.
	Renames bool
}

// Found are the names of one Input, found once.
type Found struct {
	op   *opdef.Placed
	in   opdef.Input
	Refs []Ref
	// Guards are the objects the call deletes (or changes, where such
	// objects are fixed) that it gives by id, of a kind some of whose
	// objects the org cannot do without. An id does not say which object
	// it is, so each is found in its kind's list before anything is sent,
	// and refused as it would be by its name (Refuse).
	Guards []Ref
}

// Find finds the names in an Input: values of arguments and fields of an
// object kind that do not look like an id of that kind; and its guards.
func Find(op *opdef.Placed, in opdef.Input) Found {
	var refs, guards []Ref
	add := func(kindName string, r Ref) {
		rk, ok := ResolveKind(kindName)
		if !ok {
			return
		}
		k := kinds.Of(rk)
		if strings.TrimSpace(r.Text) == "" {
			return
		}
		r.Kind = k
		if resolve.LooksLikeID(k, r.Text) {
			if k.Builtin != nil && Removes(op, r) != "" {
				r.ByID, r.Stand = true, "id:"+r.Text
				guards = append(guards, r)
			}
			return
		}
		r.Stand = standIn(k, len(refs)+1)
		refs = append(refs, r)
	}
	for i, a := range in.Args {
		if i < len(op.Args.Params) {
			kind := op.ArgKindIn(i, in)
			add(kind, Ref{Text: a, Arg: i, Renames: setsKey(op, in, kind)})
		}
	}
	for _, fd := range op.Fields {
		vals, ok := in.Values[fd.Flag]
		if !ok {
			continue
		}
		kind := fd.KindIn(in)
		for e, v := range vals {
			if fd.KeyKind != "" {
				parts := []string{v}
				if fd.Type == opdef.TStrings {
					parts = strings.Split(v, ",")
				}
				for p, text := range parts {
					part := -1
					if fd.Type == opdef.TStrings {
						part = p
					}
					if key, _, ok := strings.Cut(text, "="); ok {
						add(fd.KeyKind, Ref{Text: strings.TrimSpace(key), Flag: fd.Flag, Elem: e, Part: part, KeyOnly: true})
					}
				}
				continue
			}
			if fd.Type == opdef.TStrings {
				for p, part := range strings.Split(v, ",") {
					add(kind, Ref{Text: strings.TrimSpace(part), Flag: fd.Flag, Elem: e, Part: p})
				}
				continue
			}
			add(kind, Ref{Text: v, Flag: fd.Flag, Elem: e, Part: -1})
		}
	}
	return Found{op: op, in: in, Refs: refs, Guards: guards}
}

// ResolveKind is the kind whose names are looked up for values that
// complete from the view named name; false when its names are not.
func ResolveKind(name string) (string, bool) {
	v, ok := kinds.ViewOf(name)
	return v.Kind, ok && v.Names
}

// StandIn is the first stand-in id of the kind named kind.
func StandIn(kind string) string {
	k, _ := kinds.Lookup(kind)
	return standIn(k, 1)
}

// standIn is the n-th stand-in id of a kind: valid for its syntax checks,
// never a real object's id.
func standIn(k kinds.Kind, n int) string {
	for _, cand := range []string{
		fmt.Sprintf("user_%dresolve", n), fmt.Sprintf("9%08d", n), fmt.Sprintf("app_9%08d", n),
		fmt.Sprintf("00000000-0000-4000-8000-9%011d", n),
	} {
		if resolve.LooksLikeID(k, cand) {
			return cand
		}
	}
	return fmt.Sprintf("resolve%d", n)
}

// Fill returns a copy of the input with each name replaced by ids[its
// stand-in], or by the stand-in itself when ids has none (to build and
// check the call before any lookup).
func (f Found) Fill(ids map[string]string) opdef.Input {
	in := f.in
	value := func(r Ref) string {
		if id, ok := ids[r.Stand]; ok {
			return id
		}
		return r.Stand
	}
	out := in
	out.Args = append([]string(nil), in.Args...)
	out.Values = make(map[string][]string, len(in.Values))
	for k, v := range in.Values {
		out.Values[k] = append([]string(nil), v...)
	}
	for _, r := range f.Refs {
		if r.Flag == "" {
			out.Args[r.Arg] = value(r)
			continue
		}
		replace := func(old string) string {
			if r.KeyOnly {
				_, rest, _ := strings.Cut(old, "=")
				return value(r) + "=" + rest
			}
			return value(r)
		}
		if r.Part < 0 {
			out.Values[r.Flag][r.Elem] = replace(out.Values[r.Flag][r.Elem])
			continue
		}
		parts := strings.Split(out.Values[r.Flag][r.Elem], ",")
		parts[r.Part] = replace(parts[r.Part])
		out.Values[r.Flag][r.Elem] = strings.Join(parts, ",")
	}
	return out
}

// setsKey reports whether a PATCH or PUT of op gives its object of kind
// kindName a new natural key: by the key's flag, or in --body (a JSON
// object holding the key, or a JSON Patch operation on it).
func setsKey(op *opdef.Placed, in opdef.Input, kindName string) bool {
	if op.Method != http.MethodPatch && op.Method != http.MethodPut {
		return false
	}
	rk, ok := ResolveKind(kindName)
	if !ok {
		return false
	}
	key := kinds.Of(rk).Key
	if key == "" {
		return false
	}
	for _, fd := range op.Fields {
		if _, given := in.Values[fd.Flag]; given && fd.Key == key && (fd.In == opdef.InBody || fd.In == opdef.InPatch) {
			return true
		}
	}
	if len(in.BodyData) == 0 {
		return false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(in.BodyData, &obj) == nil {
		_, ok := obj[key]
		return ok
	}
	var patch []struct{ Path string }
	if json.Unmarshal(in.BodyData, &patch) == nil {
		for _, o := range patch {
			if o.Path == "/"+key {
				return true
			}
		}
	}
	return false
}

// Refuse refuses a call that deletes an object the org cannot do without
// (a built-in group, a system folder), or changes one that is fixed (a
// system folder), before anything is sent: from the name where the name
// decides it, else (found not nil, by stand-in) from the object as the
// lookup listed it; a guard, given by id, from its object in found alone.
// The one rule for every command line, --from row and job.
func (f Found) Refuse(found map[string]resolve.Object) error {
	for _, ref := range append(f.Refs[:len(f.Refs):len(f.Refs)], f.Guards...) {
		var obj *resolve.Object
		if o, ok := found[ref.Stand]; ok {
			obj = &o
		}
		if err := RefuseRef(f.op, ref, obj); err != nil {
			return err
		}
	}
	return nil
}

// RefuseRef is Refuse's rule for one ref of a call of op: obj is the
// object its lookup found (nil when not looked up, or not found).
func RefuseRef(op *opdef.Placed, ref Ref, obj *resolve.Object) error {
	verb := Removes(op, ref)
	if verb == "" {
		return nil
	}
	why, what := "", ref.Text
	if !ref.ByID {
		why = ref.Kind.ProtectedKey(ref.Text)
	}
	if why == "" && obj != nil {
		why = obj.Protected
		if ref.ByID && obj.Key != "" && obj.Key != ref.Text {
			what += " (" + obj.Key + ")"
		}
	}
	switch {
	case why == "":
		return nil
	case verb == "delete":
		return usage.Errorf("refusing to delete %s %s: %s, and the org cannot do without it (nothing was changed)",
			kinds.Singular(ref.Kind.Name), what, why)
	case verb == "rename":
		return usage.Errorf("refusing to rename %s %s: %s, and keeps its name (its other settings may change; nothing was changed)",
			kinds.Singular(ref.Kind.Name), what, why)
	}
	return usage.Errorf("refusing to %s %s %s: %s, which is not to be changed (nothing was changed)",
		verb, kinds.Singular(ref.Kind.Name), what, why)
}

// Removes is what a call does to the very object ref names that an
// object the org cannot do without must be kept from: "delete" (DELETE
// /groups/{id}, not a member of the group), "change" (PATCH or PUT of an
// object of a kind whose such objects are fixed), or "" for neither.
func Removes(op *opdef.Placed, ref Ref) string {
	if op == nil || ref.Flag != "" || ref.Arg != len(op.Args.Params)-1 || !SamePath(op.Path, ref.Kind.List+"/{}") {
		return ""
	}
	switch op.Method {
	case http.MethodDelete:
		return "delete"
	case http.MethodPatch, http.MethodPut:
		if ref.Kind.BuiltinFixed {
			return "change"
		}
		if ref.Renames {
			return "rename"
		}
	}
	return ""
}

// SamePath reports whether two path templates are the same path, whatever
// their placeholders are named.
func SamePath(a, b string) bool {
	return placeholders.Get().ReplaceAllString(a, "{}") == placeholders.Get().ReplaceAllString(b, "{}")
}

var placeholders = lazy.Regexp{Expr: `\{[^}]*\}`}

// Suggest adds to a name that matches nothing the names of its kind
// closest to it, from the list r has at hand (it sends nothing): a
// command line and a --from job's row offer the same "did you mean".
func Suggest(err error, r *resolve.Resolver, ref Ref) error {
	var nf *resolve.NotFoundError
	if errors.As(err, &nf) && len(nf.Near) == 0 {
		nf.Near = NearNames(ref.Kind, ref.Text, r.Known(ref.Kind))
	}
	return err
}

// NearNames are up to three of a kind's names closest to a mistyped one,
// nearest first: within a typo's distance (and one edit of the best), or
// names it is the start of.
func NearNames(k kinds.Kind, typed string, names []string) []string {
	type cand struct {
		name string
		d    int
	}
	want := typed
	if k.Fold {
		want = strings.ToLower(want)
	}
	var cs []cand
	for _, n := range names {
		have := n
		if k.Fold {
			have = strings.ToLower(have)
		}
		d := suggest.Distance(want, have)
		if d <= suggest.Typo(len(want)) || (len(want) >= 3 && strings.HasPrefix(have, want)) {
			cs = append(cs, cand{n, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var out []string
	for _, c := range cs {
		if len(out) == 3 || c.d > cs[0].d+1 {
			break // a much worse guess only adds noise
		}
		if !slices.Contains(out, c.name) {
			out = append(out, c.name)
		}
	}
	return out
}
