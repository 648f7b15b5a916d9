package orgcode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/ratebudget"
)

// SavedFormat names a saved plan's format; a file without it is not a plan.
const SavedFormat = "orgctl-plan/1"

// Saved is a plan as a file: the changes with the desired documents they
// were computed from, and where (which org, which directory, which kinds).
// Applying it sends exactly these changes: the directory is not read
// again, and the org is read again only for the objects the plan changes.
type Saved struct {
	Format  string    `json:"format"`
	Target  string    `json:"target"`
	Created time.Time `json:"created"`
	Dir     string    `json:"dir"`
	Prune   bool      `json:"prune"`
	Only    []string  `json:"only,omitempty"`
	Changes []Saving  `json:"changes"`
	// Blocked are the plan's blocked changes: never sent by this plan.
	Blocked []Blocked `json:"blocked,omitempty"`
	// Points and Requests are the writes the plan priced.
	Requests int `json:"requests"`
	Points   int `json:"points"`
}

// Saving is one change as saved: what it does, field by field, and the
// document it moves the object to (none for a delete).
type Saving struct {
	Kind   string       `json:"kind"`
	Key    string       `json:"key"`
	Action Action       `json:"action"`
	Note   string       `json:"note,omitempty"`
	Fields []savedField `json:"fields"`
	// Desired is never left out for a create or an update, even empty: a
	// group file holding only its name wants the group and nothing more.
	Desired map[string]any   `json:"desired"`
	Live    *json.RawMessage `json:"live,omitempty"`
}

// savedField keeps a field's old and new value apart from their absence:
// null is a value (no landing page) and absent is not.
type savedField struct {
	Field string           `json:"field"`
	Old   *json.RawMessage `json:"old,omitempty"`
	New   *json.RawMessage `json:"new,omitempty"`
}

func raw(v any) *json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte("null")
	}
	r := json.RawMessage(b)
	return &r
}

func unraw(r *json.RawMessage) (any, bool) {
	if r == nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(*r))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	return norm(v), true
}

// Save is the plan as a file for the org at target, made from dir.
func (p *Plan) Save(target, dir string, only []string, now time.Time) ([]byte, error) {
	s := Saved{Format: SavedFormat, Target: target, Created: now.UTC(), Dir: dir, Prune: p.Prune, Only: only,
		Requests: p.Requests, Points: p.Points, Changes: []Saving{}, Blocked: p.Blocked}
	for _, c := range p.Changes {
		sv := Saving{Kind: c.Kind, Key: c.Key, Action: c.Action, Note: c.Note, Fields: []savedField{}}
		for _, fc := range c.Fields {
			f := savedField{Field: fc.Field}
			if fc.HasOld {
				f.Old = raw(fc.Old)
			}
			if fc.HasNew {
				f.New = raw(fc.New)
			}
			sv.Fields = append(sv.Fields, f)
		}
		if c.doc != nil {
			sv.Desired = c.doc.Fields
		}
		if c.live != nil && c.Kind != "grants" {
			sv.Live = raw(c.live.Fields)
		}
		s.Changes = append(s.Changes, sv)
	}
	return json.MarshalIndent(s, "", "  ")
}

// LoadPlan reads a saved plan; name is for messages.
func LoadPlan(name string, b []byte) (*Saved, error) {
	var s Saved
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&s); err != nil || s.Format == "" {
		return nil, fmt.Errorf("%s is not a saved plan: write one with `orgctl plan --dir DIR --out %s`", name, name)
	}
	if s.Format != SavedFormat {
		return nil, fmt.Errorf("%s is a plan of format %q; this orgctl applies %q: plan again with this version", name, s.Format, SavedFormat)
	}
	for i, c := range s.Changes {
		k := KindNamed(c.Kind)
		if k == nil || (c.Action != Create && c.Action != Update && c.Action != Delete) || c.Key == "" {
			return nil, fmt.Errorf("%s: change %d (%s %s %s) is not one orgctl makes: the file was edited or damaged; plan again", name, i+1, c.Action, c.Kind, c.Key)
		}
		if c.Action != Delete && c.Desired == nil {
			return nil, fmt.Errorf("%s: change %d (%s %s %s) has no desired state: the file was edited or damaged; plan again", name, i+1, c.Action, c.Kind, c.Key)
		}
		if c.Desired != nil {
			s.Changes[i].Desired = norm(c.Desired).(map[string]any)
		}
	}
	for i, b := range s.Blocked {
		if KindNamed(b.Kind) == nil || b.Key == "" || b.Field == "" || b.Needs == "" {
			return nil, fmt.Errorf("%s: blocked change %d (%s %s %s) is not one orgctl makes: the file was edited or damaged; plan again", name, i+1, b.Kind, b.Key, b.Field)
		}
	}
	return &s, nil
}

// Reading is what applying the plan must read again: the lists of the
// kinds it changes and those its changes need (a grant's subject and
// object, a new member's id, a landing page's app), and the access lists
// of just the folders and apps whose grants it changes.
func (s *Saved) Reading() Reading {
	r := newReading()
	r.access = map[string]bool{}
	for _, c := range s.Changes {
		r.managed[c.Kind] = true
		if c.Kind != "grants" {
			r.need(c.Kind) // a grant needs fewer lists than a whole grants plan: below
		}
		switch c.Kind {
		case "grants":
			// the subject's list names it in the access lists; the objects'
			// lists give the ids of the access lists to read
			r.lists[c.Kind] = true
			typ, _, _ := splitSubject(c.Key)
			r.lists[typ+"s"] = true
			for _, f := range c.Fields {
				r.access[f.Field] = true // "folders.app:/Ops", "apps.Customer Lookup"
				field, _, _ := strings.Cut(f.Field, ".")
				r.lists[field] = true
			}
		case "groups":
			// members added need their ids, a landing page its app's
			fields := map[string]any{}
			for _, f := range c.Fields {
				name, entry, isEntry := strings.Cut(f.Field, ".")
				switch {
				case isEntry && name == "members" && f.New != nil:
					m, _ := fields["members"].(map[string]any)
					if m == nil {
						m = map[string]any{}
						fields["members"] = m
					}
					m[entry] = true
				case name == "landing_page_app":
					if v, ok := unraw(f.New); ok {
						fields[name] = v
					}
				}
			}
			r.refer(KindNamed("groups"), fields, nil)
		}
		// a user change names attributes by name: refer notes none, so
		// their list is not read
	}
	return r
}

// Conflict is a change the org no longer allows as planned: the object
// changed since the plan was made.
type Conflict struct {
	Kind, Key, What string
}

func (c Conflict) String() string { return fmt.Sprintf("%s %s: %s", c.Kind, c.Key, c.What) }

// Conflicts are every conflict found.
type Conflicts []Conflict

func (cs Conflicts) Error() string {
	lines := make([]string, len(cs))
	for i, c := range cs {
		lines[i] = "  " + c.String()
	}
	return "the org changed since the plan was made:\n" + strings.Join(lines, "\n")
}

// Earlier are the steps earlier runs of one saved plan's apply sent
// (answered or not), by Step.Describe: what tells an object this plan
// created or deleted from one someone else did since the plan.
type Earlier map[string]bool

// EarlierSteps are the steps a journal of a saved plan's apply records
// as sent: made, or sent without an answer (a killed run's).
func EarlierSteps(st *bulk.State) Earlier {
	out := Earlier{}
	if st == nil {
		return out
	}
	st.EachRow(func(_ int, r bulk.RowState) {
		if r.Key != "" && (r.Status == bulk.Sent || r.Status == bulk.Done && r.Outcome.Applied()) {
			out[r.Key] = true
		}
	})
	return out
}

func (e Earlier) sent(what, kind, key string) bool { return e[what+" "+kind+" "+key] }

// Replan checks the saved changes against a fresh read of the objects
// they change and returns the plan of what is left to send: a change (or
// a field of one) already made by an earlier run of this apply (earlier)
// is done; an object someone else created, changed or deleted since the
// plan is a conflict, and then nothing is to be sent.
func (s *Saved) Replan(l *Live, earlier Earlier, budget ratebudget.Config) (*Plan, int, error) {
	p := &Plan{Prune: s.Prune, Changes: []Change{}, Unmanaged: []Unmanaged{}, Blocked: s.Blocked}
	if p.Blocked == nil {
		p.Blocked = []Blocked{}
	}
	var conflicts Conflicts
	done := 0
	for _, sv := range s.Changes {
		k := KindNamed(sv.Kind)
		var ld *Doc
		for _, d := range l.Docs[k.Name] {
			if foldKey(k, d.Key) == foldKey(k, sv.Key) {
				ld = d
				break
			}
		}
		c, fin, what := replanOne(k, sv, ld, earlier)
		switch {
		case what != "":
			conflicts = append(conflicts, Conflict{k.Name, sv.Key, what})
		case fin:
			done++
		default:
			p.Changes = append(p.Changes, c)
		}
	}
	if len(conflicts) > 0 {
		return nil, done, conflicts
	}
	p.price(l, budget)
	return p, done, nil
}

// replanOne is one saved change against the object's fresh state: the
// change left to make, whether it is all made, or what conflicts.
func replanOne(k *FileKind, sv Saving, ld *Doc, earlier Earlier) (Change, bool, string) {
	c := Change{Kind: k.Name, Key: sv.Key, Action: sv.Action, Note: sv.Note, live: ld}
	if sv.Desired != nil {
		c.doc = &Doc{Kind: k, Key: sv.Key, Fields: sv.Desired}
	}
	saved := map[string]savedField{}
	for _, f := range sv.Fields {
		saved[f.Field] = f
	}
	if fin, what, decided := objectFate(k, sv, ld, earlier); decided {
		if sv.Action == Create && ld == nil {
			c = restore(c, sv)
		}
		return c, fin, what
	}
	if sv.Action == Update && k.Name != "grants" && sv.Live != nil {
		if name := changedAside(sv, ld); name != "" {
			return c, false, fmt.Sprintf("%s changed since the plan", name)
		}
	}
	// The fields left to change: each either still as the plan found it
	// (to send), already as the plan wants it (done), or neither.
	desired := c.doc
	if desired == nil { // a grant subject's revokes: nothing is wanted
		desired = &Doc{Kind: k, Key: sv.Key, Fields: map[string]any{}}
	}
	liveDoc := ld
	if liveDoc == nil {
		liveDoc = &Doc{Kind: k, Key: sv.Key, Fields: map[string]any{}}
	}
	var left []FieldChange
	for _, fc := range diffFields(k, desired, liveDoc) {
		if k.Name == "grants" {
			if _, planned := saved[fc.Field]; !planned {
				continue // an access list this apply did not read again
			}
		}
		sf, planned := saved[fc.Field]
		if !planned {
			return c, false, fmt.Sprintf("%s changed since the plan", fc.Field)
		}
		old, hadOld := unraw(sf.Old)
		if sv.Action == Create && k.Name != "grants" {
			old, hadOld = fc.Old, fc.HasOld // made by an earlier run, partly
		}
		if hadOld != fc.HasOld || (hadOld && !equal(old, fc.Old)) {
			return c, false, fmt.Sprintf("%s is %s, not %s as planned", fc.Field, showOld(fc), showSaved(sf.Old))
		}
		left = append(left, fc)
	}
	if len(left) == 0 {
		return c, true, ""
	}
	if sv.Action == Create && k.Name != "grants" {
		c.Action = Update // the create went through; what follows it did not
	}
	c.Fields = left
	return c, false, ""
}

// changedAside is the first field the plan does not change that is no
// longer as it was ("" when none): the object is otherwise not the one the
// plan was reviewed against.
func changedAside(sv Saving, ld *Doc) string {
	was, _ := mustUnraw(sv.Live).(map[string]any)
	for _, name := range sortedKeys(ld.Fields) {
		if !equal(was[name], ld.Fields[name]) && !touches(sv.Fields, name) {
			return name
		}
	}
	return ""
}

// objectFate is what becomes of a saved change as a whole, from whether
// its object is there and who made or removed it: all made, a conflict,
// or (a create of a missing object, a delete) to send whole; decided is
// false when the fields are to be compared.
func objectFate(k *FileKind, sv Saving, ld *Doc, earlier Earlier) (fin bool, what string, decided bool) {
	gone := ld == nil || (k.Name == "users" && ld.Inactive && sv.Action == Delete)
	switch {
	case sv.Action == Delete && k.Name != "grants":
		if gone && (earlier.sent("delete", k.Name, sv.Key) || earlier.sent("disable", k.Name, sv.Key)) {
			return true, "", true
		}
		if gone {
			return false, "deleted since the plan", true
		}
		if sv.Live != nil && !equal(ld.Fields, mustUnraw(sv.Live)) {
			return false, "changed since the plan; it would be deleted as it is now", true
		}
		return false, "", true
	case sv.Action == Create && ld == nil:
		return false, "", true
	case sv.Action == Update && ld == nil && k.Name != "grants":
		return false, "deleted since the plan", true
	case sv.Action == Create && k.Name != "grants" && !earlier.sent("create", k.Name, sv.Key):
		// The plan was reviewed as a create; updating an object someone
		// else made is not what was reviewed.
		return false, "created since the plan", true
	}
	return false, "", false
}

// restore is a create as planned.
func restore(c Change, sv Saving) Change {
	for _, f := range sv.Fields {
		v, _ := unraw(f.New)
		c.Fields = append(c.Fields, FieldChange{Field: f.Field, New: v, HasNew: f.New != nil})
	}
	return c
}

func touches(fs []savedField, name string) bool {
	return slices.ContainsFunc(fs, func(f savedField) bool {
		return f.Field == name || strings.HasPrefix(f.Field, name+".")
	})
}

func mustUnraw(r *json.RawMessage) any {
	v, _ := unraw(r)
	return v
}

func showOld(fc FieldChange) string {
	if !fc.HasOld {
		return "absent"
	}
	return string(*raw(fc.Old))
}

func showSaved(r *json.RawMessage) string {
	if r == nil {
		return "absent"
	}
	return string(*raw(mustUnraw(r)))
}
