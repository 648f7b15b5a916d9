package resolve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// Doer sends one request: the orgctl client, paced by the budget.
type Doer interface {
	Do(ctx context.Context, r client.Request) (*client.Response, error)
}

// Store keeps lists between processes (the completion cache). Items carry
// only "id", "key" and label fields, never whole objects.
type Store interface {
	Load(list string) ([]map[string]string, bool)
	Save(list string, items []map[string]string)
}

// Object is one object of a kind as a lookup found it.
type Object = kinds.Object

// NotFoundError is a name that matches no object.
type NotFoundError struct {
	Kind, Name string
	// Near are the kind's names closest to Name, offered as "did you mean".
	Near []string
}

func (e *NotFoundError) Error() string {
	msg := fmt.Sprintf("no %s named %q", kinds.Singular(e.Kind), e.Name)
	switch len(e.Near) {
	case 0:
		return msg
	case 1:
		return msg + "; did you mean " + e.Near[0] + "?"
	}
	return msg + "; did you mean " + strings.Join(e.Near[:len(e.Near)-1], ", ") + " or " + e.Near[len(e.Near)-1] + "?"
}

// AmbiguousError is a name that matches several objects.
type AmbiguousError struct {
	Kind, Name string
	Matches    []Object
}

func (e *AmbiguousError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s match %q; use an id:", len(e.Matches), e.Kind, e.Name)
	for _, m := range e.Matches {
		fmt.Fprintf(&b, "\n  %s  %s", m.ID, m.Describe())
	}
	return b.String()
}

// Planned is a request a lookup sends, as the dry run lists it.
type Planned struct {
	Kind    string
	Name    string
	Request client.Request
}

// Resolver turns names into ids. It is safe for concurrent use; each list
// is fetched at most once per Resolver.
type Resolver struct {
	Doer  Doer
	Store Store

	mu    sync.Mutex
	lists map[string]*listState
	keys  map[string]*keyLookup // kind+"\x00"+key -> filtered lookups
}

// keyLookup is one filtered lookup: callers that ask for the same key
// while it is in flight (a bulk job's workers) wait for its answer
// instead of sending their own.
type keyLookup struct {
	done    chan struct{}
	matches []Object
	err     error
}

type listState struct {
	once sync.Once
	objs []Object
	err  error
	// stored: objs came from the Store, not from the API in this process.
	stored bool
	done   bool // objs is the list (guarded by Resolver.mu)
	// byKey indexes objs by folded key, built on the first lookup, so a
	// job that looks up a name per row does not scan the list per row.
	idxOnce sync.Once
	byKey   map[string][]Object
	byLower map[string][]Object // by key in lower case
}

// New returns a resolver sending through d.
func New(d Doer) *Resolver { return &Resolver{Doer: d} }

// LooksLikeID reports whether text is used as an id without a lookup.
func LooksLikeID(k kinds.Kind, text string) bool { return k.IsID(text) }

// Plan says which request resolving text would send (nil when none would:
// an id, or a list this resolver already has).
func (r *Resolver) Plan(k kinds.Kind, text string) *Planned {
	if LooksLikeID(k, text) {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if st := r.lists[k.Name]; st != nil {
		return nil
	}
	return &Planned{Kind: k.Name, Name: text, Request: r.request(k, text)}
}

func (r *Resolver) request(k kinds.Kind, key string) client.Request {
	req := client.Request{Method: http.MethodGet, Path: k.List, Scope: k.Scope}
	if k.Filter != "" && key != "" {
		req.Query = url.Values{k.Filter: {key}}
	}
	return req
}

// ID is the id that text names: text itself when it looks like an id,
// else the one object whose natural key it is.
func (r *Resolver) ID(ctx context.Context, k kinds.Kind, text string) (string, error) {
	o, err := r.One(ctx, k, text)
	if err != nil {
		return "", err
	}
	return o.ID, nil
}

// One finds the one object text names (by id or natural key).
func (r *Resolver) One(ctx context.Context, k kinds.Kind, text string) (Object, error) {
	if LooksLikeID(k, text) {
		return Object{ID: text, Key: text}, nil
	}
	matches, err := r.Find(ctx, k, text)
	if err != nil {
		return Object{}, err
	}
	switch len(matches) {
	case 0:
		return Object{}, &NotFoundError{Kind: k.Name, Name: text}
	case 1:
		return matches[0], nil
	}
	return Object{}, &AmbiguousError{Kind: k.Name, Name: text, Matches: matches}
}

// Find lists the objects whose natural key is key (none, one, or several
// where the API allows duplicates).
func (r *Resolver) Find(ctx context.Context, k kinds.Kind, key string) ([]Object, error) {
	if k.Filter != "" {
		id := k.Name + "\x00" + k.FoldKey(key)
		r.mu.Lock()
		st := r.lists[k.Name]
		kl, ok := r.keys[id]
		if !ok && st == nil {
			if r.keys == nil {
				r.keys = map[string]*keyLookup{}
			}
			kl = &keyLookup{done: make(chan struct{})}
			r.keys[id] = kl
		}
		r.mu.Unlock()
		switch {
		case ok:
			select {
			case <-kl.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if kl.err == nil {
				return kl.matches, nil
			}
			return r.Find(ctx, k, key) // it failed, and was forgotten: ask again
		case st == nil:
			kl.matches, kl.err = r.filtered(ctx, k, key)
			if kl.err == nil && len(kl.matches) == 0 && k.Fold && strings.ToLower(key) != key {
				// The API may filter case-sensitively while keys are stored in lower case.
				kl.matches, kl.err = r.filtered(ctx, k, strings.ToLower(key))
			}
			if kl.err != nil {
				r.mu.Lock()
				if r.keys[id] == kl {
					delete(r.keys, id) // a failed lookup is not kept: the next asks again
				}
				r.mu.Unlock()
			}
			close(kl.done)
			return kl.matches, kl.err
		}
	}
	st := r.list(ctx, k, true)
	if st.err != nil {
		return nil, st.err
	}
	st.idxOnce.Do(func() {
		st.byKey = make(map[string][]Object, len(st.objs))
		st.byLower = make(map[string][]Object, len(st.objs))
		for _, o := range st.objs {
			f := k.FoldKey(o.Key)
			st.byKey[f] = append(st.byKey[f], o)
			l := strings.ToLower(o.Key)
			st.byLower[l] = append(st.byLower[l], o)
		}
	})
	if exact := st.byKey[k.FoldKey(key)]; len(exact) > 0 {
		return exact, nil
	}
	// The API takes any name for a group and the like, "support" beside
	// "Support", but compares names without regard to case where it
	// compares them at all (name_contains): a name that only its case
	// keeps from matching names the object that matches it so, and several
	// such are ambiguous.
	return st.byLower[strings.ToLower(key)], nil
}

func (r *Resolver) filtered(ctx context.Context, k kinds.Kind, key string) ([]Object, error) {
	resp, err := r.Doer.Do(ctx, r.request(k, key))
	if err != nil {
		return nil, err
	}
	objs, err := objects(k, resp.Data)
	if err != nil {
		return nil, err
	}
	return match(k, objs, key), nil
}

// All lists every object of the kind: one request per Resolver (or none,
// when the Store has the list).
func (r *Resolver) All(ctx context.Context, k kinds.Kind) ([]Object, error) {
	st := r.list(ctx, k, true)
	return st.objs, st.err
}

// ByID finds the object with this id in the kind's whole list, as All
// reads it. A list from the Store that lacks the id may be older than the
// object, so the API's own list is read then; ok is false when that has
// no such object either.
func (r *Resolver) ByID(ctx context.Context, k kinds.Kind, id string) (o Object, ok bool, err error) {
	st := r.list(ctx, k, true)
	if st.err != nil {
		return Object{}, false, st.err
	}
	if o, ok := withID(st.objs, id); ok || !st.stored {
		return o, ok, nil
	}
	r.mu.Lock()
	if r.lists[k.Name] == st {
		delete(r.lists, k.Name)
	}
	r.mu.Unlock()
	st = r.list(ctx, k, false)
	if st.err != nil {
		return Object{}, false, st.err
	}
	o, ok = withID(st.objs, id)
	return o, ok, nil
}

func withID(objs []Object, id string) (Object, bool) {
	for _, o := range objs {
		if o.ID == id {
			return o, true
		}
	}
	return Object{}, false
}

// ListRequest is the request that reads the kind's whole list (nil when
// this resolver has it already), for a dry run to show.
func (r *Resolver) ListRequest(k kinds.Kind) *client.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	if st := r.lists[k.Name]; st != nil {
		return nil
	}
	req := r.request(k, "")
	return &req
}

// list is the kind's list as All reads it: from the Store when it has it
// fresh and stored allows, else from the API.
func (r *Resolver) list(ctx context.Context, k kinds.Kind, stored bool) *listState {
	r.mu.Lock()
	if r.lists == nil {
		r.lists = map[string]*listState{}
	}
	st := r.lists[k.Name]
	if st == nil {
		st = &listState{}
		r.lists[k.Name] = st
	}
	r.mu.Unlock()
	st.once.Do(func() {
		if r.Store != nil && stored {
			if items, ok := r.Store.Load(k.Name); ok {
				st.objs, st.stored = fromItems(k, items), true
				return
			}
		}
		resp, err := r.Doer.Do(ctx, r.request(k, ""))
		if err != nil {
			st.err = err
			return
		}
		st.objs, st.err = objects(k, resp.Data)
		if st.err == nil && r.Store != nil {
			r.Store.Save(k.Name, toItems(k, st.objs))
		}
	})
	r.mu.Lock()
	st.done = st.err == nil
	r.mu.Unlock()
	if st.err != nil {
		// A failed fetch is not kept: the next call may try again.
		r.mu.Lock()
		if r.lists[k.Name] == st {
			delete(r.lists, k.Name)
		}
		r.mu.Unlock()
	}
	return st
}

// Seed gives the resolver a kind's whole list, as an answer fetched for
// another purpose holds it (data: the list request's JSON array). It
// replaces nothing the resolver already has; a list that does not decode
// is ignored.
func (r *Resolver) Seed(k kinds.Kind, data json.RawMessage) {
	objs, err := objects(k, data)
	if err != nil {
		return
	}
	st := &listState{objs: objs, done: true}
	st.once.Do(func() {})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lists == nil {
		r.lists = map[string]*listState{}
	}
	if r.lists[k.Name] == nil {
		r.lists[k.Name] = st
		if r.Store != nil {
			r.Store.Save(k.Name, toItems(k, objs))
		}
	}
}

// Known are the keys of the kind's objects when the resolver has the list
// at hand (it fetched it, or the Store has it fresh), without sending
// anything; nil otherwise.
func (r *Resolver) Known(k kinds.Kind) []string {
	r.mu.Lock()
	st := r.lists[k.Name]
	var objs []Object
	if st != nil && st.done {
		objs = st.objs
	}
	r.mu.Unlock()
	if objs == nil && r.Store != nil {
		if items, ok := r.Store.Load(k.Name); ok {
			objs = fromItems(k, items)
		}
	}
	keys := make([]string, 0, len(objs))
	for _, o := range objs {
		keys = append(keys, o.Key)
	}
	return keys
}

// DescribeRequest is the request Describe sends for an id: one GET of the
// object, or the kind's list when the API reads no single object (or the
// key needs the list); nil when this resolver already has the list.
func (r *Resolver) DescribeRequest(k kinds.Kind, id string) *client.Request {
	if readsOne(k) {
		return &client.Request{Method: http.MethodGet, Path: client.Expand(k.Get, map[string]string{"id": id}), Scope: k.Scope}
	}
	return r.ListRequest(k)
}

// readsOne reports a kind whose object Describe reads alone: the API has
// a single-object read and the key needs no other object.
func readsOne(k kinds.Kind) bool { return k.Get != "" && k.KeyOf == nil }

// Describe finds the object an id names, so a message can name it by its
// key and labels: one request (DescribeRequest says which). An id that no
// object has is a NotFoundError.
func (r *Resolver) Describe(ctx context.Context, k kinds.Kind, id string) (Object, error) {
	if !readsOne(k) {
		objs, err := r.All(ctx, k)
		if err != nil {
			return Object{}, err
		}
		for _, o := range objs {
			if o.ID == id {
				return o, nil
			}
		}
		return Object{}, &NotFoundError{Kind: k.Name, Name: id}
	}
	resp, err := r.Doer.Do(ctx, *r.DescribeRequest(k, id))
	if err != nil {
		return Object{}, err
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(resp.Data))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return Object{}, fmt.Errorf("GET %s: expected an object: %w", k.Get, err)
	}
	return object(k, m, k.KeyOfObject(m, nil)), nil
}

// Forget drops what the resolver knows of a kind (after a change to it).
func (r *Resolver) Forget(kind string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.lists, kind)
	for k := range r.keys {
		if strings.HasPrefix(k, kind+"\x00") {
			delete(r.keys, k)
		}
	}
}

func match(k kinds.Kind, objs []Object, key string) []Object {
	var out []Object
	want := k.FoldKey(key)
	for _, o := range objs {
		if k.FoldKey(o.Key) == want {
			out = append(out, o)
		}
	}
	return out
}

// objects decodes a list answer into the kind's objects.
func objects(k kinds.Kind, data json.RawMessage) ([]Object, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, fmt.Errorf("GET %s: expected a list: %w", k.List, err)
	}
	all := make([]map[string]any, len(raws))
	for i, raw := range raws {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&all[i]); err != nil {
			return nil, fmt.Errorf("GET %s: expected a list of objects: %w", k.List, err)
		}
	}
	out := make([]Object, 0, len(all))
	keys := k.Keys(all)
	for i, m := range all {
		o := object(k, m, keys[i])
		o.Raw = raws[i]
		out = append(out, o)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

// object is one decoded object of the kind, whose natural key is key.
func object(k kinds.Kind, m map[string]any, key string) Object {
	o := Object{ID: jsonscan.AsText(m["id"]), Fields: m, Key: key, Protected: k.Protected(m)}
	for _, l := range k.Label {
		o.Labels = append(o.Labels, jsonscan.AsText(m[l]))
	}
	return o
}

// ListItems reduces a list answer to the items a Store keeps (id, key and
// labels), so a list fetched elsewhere (for completions) serves lookups.
func ListItems(k kinds.Kind, data json.RawMessage) ([]map[string]string, error) {
	objs, err := objects(k, data)
	if err != nil {
		return nil, err
	}
	return toItems(k, objs), nil
}

// protectedItem is the item field that keeps Object.Protected in a Store.
const protectedItem = "protected"

func toItems(k kinds.Kind, objs []Object) []map[string]string {
	items := make([]map[string]string, 0, len(objs))
	for _, o := range objs {
		it := map[string]string{"id": o.ID, "key": o.Key}
		if o.Protected != "" {
			it[protectedItem] = o.Protected
		}
		for i, l := range k.Label {
			if i < len(o.Labels) {
				it[l] = o.Labels[i]
			}
		}
		items = append(items, it)
	}
	return items
}

func fromItems(k kinds.Kind, items []map[string]string) []Object {
	out := make([]Object, 0, len(items))
	for _, it := range items {
		o := Object{ID: it["id"], Key: it["key"], Protected: it[protectedItem]}
		for _, l := range k.Label {
			o.Labels = append(o.Labels, it[l])
		}
		out = append(out, o)
	}
	return out
}
