package bulkjob

import (
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/send"
)

// A file may name, by id or by a name only its lookup tells, an object the
// org cannot do without (the root folder, a built-in group) among the
// objects its rows delete. The check pass notes every row's target of the
// kinds that have such objects; before the first row is sent, one list per
// kind says which targets are protected, and the whole job is refused by
// line (exit 2, nothing changed), as a name that says so alone already is
// at the check, rather than failing those rows after the others went.

// noteTargets records the refs of a checked row (line) whose object the
// call deletes or, where such objects are fixed, changes.
func (j *checkPass) noteTargets(line int, refs []send.Ref) {
	for _, r := range refs {
		if r.Kind.Builtin == nil || send.Removes(j.op, r) == "" {
			continue
		}
		if j.targets == nil {
			j.targets = map[string]map[uint64]target{}
		}
		set := j.targets[r.Kind.Name]
		if set == nil {
			set = map[uint64]target{}
			j.targets[r.Kind.Name] = set
		}
		if h := targetHash(r.Kind, r.ByID, r.Text); set[h].line == 0 {
			t := target{line: line, renames: r.Renames, byID: r.ByID}
			if !r.ByID {
				t.lower = lowerHash(r.Text)
			}
			set[h] = t
		}
	}
}

// target is a row's target as noted: the first line naming it, whether
// that row renames it, and whether it names it by id; a name also by its
// lower case, by which a lookup finds the object when no name matches
// it exactly.
type target struct {
	line    int
	renames bool
	byID    bool
	lower   uint64
}

// lowerHash is a name as a lookup compares it when no name matches it
// exactly: without regard to case.
func lowerHash(text string) uint64 {
	return maphash.String(keySeed.Get(), "lower\x00"+strings.ToLower(text))
}

// targetHash is how a target is kept: by its id, or by its name as the
// kind compares names.
func targetHash(k kinds.Kind, byID bool, text string) uint64 {
	if byID {
		return maphash.String(keySeed.Get(), "id\x00"+text)
	}
	return maphash.String(keySeed.Get(), "key\x00"+k.FoldKey(text))
}

// refuseTarget is the refusal of a row's target that names the protected
// object o as text (its id or its name), or nil.
func (j *bulkJob) refuseTarget(k kinds.Kind, text string, byID bool, t target, o *resolve.Object) error {
	ref := send.Ref{Kind: k, Text: text, ByID: byID, Renames: t.renames, Arg: len(j.op.Args.Params) - 1}
	return send.RefuseRef(j.op, ref, o)
}

// refuseProtected reads the list of each kind the rows' targets are of
// (from the API, never a cache: the cached list may lack a new object)
// and refuses the job when a target is an object the org cannot do
// without, every such row by line. A list that cannot be read fails the
// job before any row: nothing else says the targets may go.
func (j *bulkJob) refuseProtected(ctx context.Context, errOut io.Writer) error {
	if len(j.checked.targets) == 0 {
		return nil
	}
	type problem struct {
		line int
		msg  string
	}
	var probs []problem
	for _, kind := range slices.Sorted(maps.Keys(j.checked.targets)) {
		k := kinds.Of(kind)
		objs, err := j.runner.truth.All(ctx, k)
		if err != nil {
			return err
		}
		set := j.checked.targets[kind]
		// A name finds the objects it matches exactly, else those it
		// matches but for case, as the row's lookup will find them.
		exact := map[uint64]bool{}
		byLower := map[uint64][]int{}
		for i, o := range objs {
			exact[targetHash(k, false, o.Key)] = true
			if o.Protected != "" {
				byLower[lowerHash(o.Key)] = append(byLower[lowerHash(o.Key)], i)
			}
		}
		for i := range objs {
			o := &objs[i]
			if o.Protected == "" {
				continue
			}
			for _, byID := range []bool{true, false} {
				text := o.Key
				if byID {
					text = o.ID
				}
				t, ok := set[targetHash(k, byID, text)]
				if !ok {
					continue
				}
				if err := j.refuseTarget(k, text, byID, t, o); err != nil {
					probs = append(probs, problem{t.line, err.Error()})
				}
			}
		}
		for h, t := range set {
			if t.byID || exact[h] {
				continue // by id, or a name some object has exactly: seen above
			}
			for _, i := range byLower[t.lower] {
				if err := j.refuseTarget(k, objs[i].Key, false, t, &objs[i]); err != nil {
					probs = append(probs, problem{t.line, err.Error()})
				}
			}
		}
	}
	sort.Slice(probs, func(a, b int) bool {
		if probs[a].line != probs[b].line {
			return probs[a].line < probs[b].line
		}
		return probs[a].msg < probs[b].msg
	})
	if len(probs) == 0 {
		return nil
	}
	pl := &problemList{name: j.in.src.name}
	for _, p := range probs {
		pl.add(p.line, p.msg)
	}
	pl.report(errOut)
	return cli.UsageErrorf("%s: %s an object the org cannot do without; nothing was changed", j.in.src.name,
		nounFor(len(probs), "1 row names", fmt.Sprintf("%d rows name", len(probs))))
}
