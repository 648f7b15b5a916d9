package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/internal/suggest"
	"github.com/orgctl/orgctl/completions"
	"github.com/orgctl/orgctl/output/lazy"
	"github.com/orgctl/orgctl/ratebudget"
)

// nameRef is one value of an Input that names an object instead of giving
// its id: an argument (Flag "") or one element of a field's values.
type nameRef struct {
	Kind resolve.Kind
	Text string
	Arg  int    // index in Input.Args, when Flag is ""
	Flag string // the field's flag
	Elem int    // index in Input.Values[Flag]
	Part int    // index among the comma-separated parts of that value (opdef.KStrings)
	// KeyOnly marks the KEY of a KEY=VALUE value (Field.KeyKind).
	KeyOnly bool
	// stand is a syntactically valid id of the kind, unique in the call,
	// used to check the rest of the input before any lookup.
	stand string
}

// nameRefs finds the names in an Input: values of arguments and fields of
// an object kind that do not look like an id of that kind.
func nameRefs(op *Placed, in Input) []nameRef {
	var refs []nameRef
	add := func(kindName string, r nameRef) {
		rk, ok := resolveKind(kindName)
		if !ok {
			return
		}
		k := kinds.Of(rk)
		if strings.TrimSpace(r.Text) == "" || resolve.LooksLikeID(k, r.Text) {
			return
		}
		r.Kind = k
		r.stand = standIn(k, len(refs)+1)
		refs = append(refs, r)
	}
	for i, a := range in.Args {
		if i < len(op.Args.Params) {
			add(op.ArgKindIn(i, in), nameRef{Text: a, Arg: i})
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
				if fd.Kind == opdef.KStrings {
					parts = strings.Split(v, ",")
				}
				for p, text := range parts {
					part := -1
					if fd.Kind == opdef.KStrings {
						part = p
					}
					if key, _, ok := strings.Cut(text, "="); ok {
						add(fd.KeyKind, nameRef{Text: strings.TrimSpace(key), Flag: fd.Flag, Elem: e, Part: part, KeyOnly: true})
					}
				}
				continue
			}
			if fd.Kind == opdef.KStrings {
				for p, part := range strings.Split(v, ",") {
					add(kind, nameRef{Text: strings.TrimSpace(part), Flag: fd.Flag, Elem: e, Part: p})
				}
				continue
			}
			add(kind, nameRef{Text: v, Flag: fd.Flag, Elem: e, Part: -1})
		}
	}
	return refs
}

// standIn is the n-th stand-in id of a kind: valid for its syntax checks,
// never a real object's id.
func standIn(k resolve.Kind, n int) string {
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

// substitute returns a copy of in with each ref's value replaced by
// ids[its stand-in], or by the stand-in itself when ids has none (to build
// and check the call before any lookup).
func substitute(in Input, refs []nameRef, ids map[string]string) Input {
	value := func(r nameRef) string {
		if id, ok := ids[r.stand]; ok {
			return id
		}
		return r.stand
	}
	out := in
	out.Args = append([]string(nil), in.Args...)
	out.Values = make(map[string][]string, len(in.Values))
	for k, v := range in.Values {
		out.Values[k] = append([]string(nil), v...)
	}
	for _, r := range refs {
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

// resolveNames looks every ref up (the resolve phase): the object found
// for each, by the ref's stand-in.
func (e *Engine) resolveNames(ctx context.Context, refs []nameRef) (map[string]resolve.Object, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	r, err := e.resolver()
	if err != nil {
		return nil, err
	}
	found := make(map[string]resolve.Object, len(refs))
	for _, ref := range refs {
		o, err := r.One(ctx, ref.Kind, ref.Text)
		if err != nil {
			var nf *resolve.NotFoundError
			if errors.As(err, &nf) && len(nf.Near) == 0 {
				nf.Near = nearNames(ref.Kind, ref.Text, r.Known(ref.Kind))
			}
			return nil, err
		}
		found[ref.stand] = o
	}
	return found, nil
}

// foundIDs maps each stand-in to the id of the object found for it.
func foundIDs(found map[string]resolve.Object) map[string]string {
	ids := make(map[string]string, len(found))
	for stand, o := range found {
		ids[stand] = o.ID
	}
	return ids
}

// nearNames are up to three of a kind's names closest to a mistyped one,
// nearest first: within a typo's distance (and one edit of the best), or
// names it is the start of.
func nearNames(k resolve.Kind, typed string, names []string) []string {
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

// resolver is the engine's one Resolver, on the paced client.
func (e *Engine) resolver() (*resolve.Resolver, error) {
	if e.names != nil {
		return e.names, nil
	}
	cl, err := e.apiClient()
	if err != nil {
		return nil, err
	}
	e.names = resolve.New(cl)
	e.names.Store = nameStore{cache: completionCache(e.cfg.CompletionCacheTTL), profile: e.cfg.Profile, origin: completionOrigin(e.cfg),
		served: &e.cached}
	return e.names, nil
}

// fetched is the engine's resolver when it read kind's list from the API
// in this process (never from the cache, which may be older than a change
// made elsewhere); nil otherwise.
func (e *Engine) fetched(kind string) *resolve.Resolver {
	if e.names == nil {
		return nil
	}
	k, _ := kinds.Lookup(kind)
	known := e.names.Known(k) // may load the cache, which marks it
	if _, cached := e.cached.Load(kind); cached || len(known) == 0 {
		return nil
	}
	return e.names
}

// nameStore keeps the resolver's lists in the completion cache, beside the
// completion lists and forgotten with them when orgctl changes the family:
// a second command within the TTL looks a name up without a request.
type nameStore struct {
	cache   *completions.Cache
	profile string
	origin  string
	served  *sync.Map // kinds whose list came from the cache
}

// nameList is the cache list of a kind's names.
func nameList(kind string) string {
	k, _ := kinds.Lookup(kind)
	return "names-" + ratebudget.Family(k.List)
}

func (s nameStore) Load(kind string) ([]map[string]string, bool) {
	e := s.cache.Read(s.profile, nameList(kind))
	if e == nil || e.Origin != s.origin || !s.cache.Fresh(e) {
		return nil, false
	}
	items := make([]map[string]string, len(e.Items))
	for i, it := range e.Items {
		items[i] = it
	}
	if s.served != nil {
		s.served.Store(kind, true)
	}
	return items, true
}

func (s nameStore) Save(kind string, items []map[string]string) {
	if s.cache.TTL <= 0 {
		return
	}
	entry := completions.Entry{Origin: s.origin, FetchedAt: time.Now(), Items: make([]completions.Item, len(items))}
	for i, it := range items {
		entry.Items[i] = it
	}
	_ = s.cache.Write(s.profile, nameList(kind), entry)
}

// refuseBuiltin refuses a call that deletes an object the org cannot do
// without (a built-in group, a system folder), before anything is sent:
// from the name where the name decides it, else (found not nil) from the
// object as the lookup listed it.
func refuseBuiltin(op *Placed, refs []nameRef, found map[string]resolve.Object) error {
	for _, ref := range refs {
		if !deletesObject(op, ref) {
			continue
		}
		why := ref.Kind.ProtectedKey(ref.Text)
		if why == "" && found != nil {
			why = found[ref.stand].Protected
		}
		if why != "" {
			return builtinRefusal(ref, why)
		}
	}
	return nil
}

func builtinRefusal(ref nameRef, why string) error {
	return cli.UsageErrorf("refusing to delete %s %s: %s, and the org cannot do without it (nothing was changed)",
		kinds.Singular(ref.Kind.Name), ref.Text, why)
}

// deletesObject reports a call that deletes the very object ref names
// (DELETE /groups/{id}), not something inside it (a member of the group).
func deletesObject(op *Placed, ref nameRef) bool {
	return op.Method == http.MethodDelete && ref.Flag == "" && ref.Arg == len(op.Args.Params)-1 &&
		placeholders.Get().ReplaceAllString(op.Path, "{}") == ref.Kind.List+"/{}"
}

// foundObject is the object a lookup answered when the call reads that
// very object, by the id the lookup found, with nothing else asked of the
// read (no query, no follow-up): printing it saves the second request.
func foundObject(c *Call, refs []nameRef, found map[string]resolve.Object) json.RawMessage {
	op := c.Op
	if op.Method != http.MethodGet || op.List || len(refs) != 1 || len(c.Reads) > 0 || len(c.Then) > 0 || c.Pages.All ||
		len(c.Req.Query) > 0 || c.Req.Path != "" {
		return nil
	}
	ref := refs[0]
	if ref.Flag != "" || ref.Arg != len(op.Args.Params)-1 || ref.Kind.Get == "" || placeholders.Get().ReplaceAllString(ref.Kind.Get, "{}") != placeholders.Get().ReplaceAllString(op.Path, "{}") {
		return nil
	}
	return found[ref.stand].Raw
}

var placeholders = lazy.Regexp{Expr: `\{[^}]*\}`}

// dryRunNames lists the lookups first, then the call with each name where
// its id will go.
func (e *Engine) dryRunNames(c *Call, refs []nameRef) error {
	r, err := e.resolver()
	if err != nil {
		r = resolve.New(nil) // not logged in: still list what would be looked up
	}
	names := map[string]string{}
	var plan []planned
	seen := map[string]bool{}
	for _, ref := range refs {
		names[ref.stand] = "<" + ref.Text + ">"
		p := r.Plan(ref.Kind, ref.Text)
		if p == nil {
			continue
		}
		key := p.Request.Path + "?" + p.Request.Query.Encode()
		if seen[key] {
			continue
		}
		seen[key] = true
		plan = append(plan, planned{req: p.Request, note: "looks up " + lookupWhat(p, refs)})
	}
	return e.printPlan(callPlan(plan, c), names)
}

// lookupWhat names what one lookup request finds: one name, or a kind's list.
func lookupWhat(p *resolve.Planned, refs []nameRef) string {
	if len(p.Request.Query) > 0 {
		return fmt.Sprintf("%s %q", kinds.Singular(p.Kind), p.Name)
	}
	var ns []string
	for _, r := range refs {
		if r.Kind.Name == p.Kind {
			ns = append(ns, fmt.Sprintf("%q", r.Text))
		}
	}
	return fmt.Sprintf("%s %s (one list of all %s)", kinds.Singular(p.Kind), strings.Join(ns, ", "), p.Kind)
}
