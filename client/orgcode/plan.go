package orgcode

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/ratebudget"
)

// Action is what a change does to an object.
type Action string

const (
	Create Action = "create"
	Update Action = "update"
	Delete Action = "delete"
)

// FieldChange is one field's (or one map entry's) old and new value; Old
// is absent (nil, HasOld false) for a create.
type FieldChange struct {
	Field  string `json:"field"`
	Old    any    `json:"old,omitempty"`
	New    any    `json:"new,omitempty"`
	HasOld bool   `json:"-"`
	HasNew bool   `json:"-"`
}

// Change is one object to create, update or delete.
type Change struct {
	Kind   string        `json:"kind"`
	Key    string        `json:"key"`
	Action Action        `json:"action"`
	Fields []FieldChange `json:"fields,omitempty"`
	// Note explains a change that is not a plain one (a user is disabled, not removed).
	Note string `json:"note,omitempty"`

	doc, live *Doc
}

// Unmanaged is a live object that no file holds.
type Unmanaged struct {
	Kind string `json:"kind"`
	Key  string `json:"key"`
	Note string `json:"note,omitempty"`
}

// NoteBuiltin is the note of an unmanaged object the org cannot do
// without (a built-in group): prune leaves it.
const NoteBuiltin = "built in: never deleted"

// Plan is what apply would do.
type Plan struct {
	Changes   []Change    `json:"changes"`
	Unmanaged []Unmanaged `json:"unmanaged"`
	// Blocked are the field changes the org cannot take yet; Changes
	// hold the rest.
	Blocked []Blocked `json:"blocked"`
	Steps   []*Step   `json:"-"`
	Prune   bool      `json:"prune"`
	// Requests, Points and Time sum the steps; Time is the least the budget
	// needs for Points with a full window to start with.
	Requests int           `json:"requests"`
	Points   int           `json:"points"`
	Time     time.Duration `json:"-"`
	// ReadRequests and ReadPoints are what reading the live org cost.
	ReadRequests int `json:"read_requests"`
	ReadPoints   int `json:"read_points"`
}

// Empty reports a plan with nothing to do, and nothing blocked.
func (p *Plan) Empty() bool { return len(p.Steps) == 0 && len(p.Blocked) == 0 }

// CheckFiles finds what is wrong in the files of the kinds r manages
// that no read of the org can change: it runs before any request.
func CheckFiles(f *Files, r Reading) error {
	var probs Problems
	if r.Manages("config-vars") {
		for _, d := range f.Docs["config-vars"] {
			if d.Fields["secret"] != true {
				continue
			}
			vals, _ := d.Fields["values"].(map[string]any)
			for env, v := range vals {
				if !secretRef.Get().MatchString(fmt.Sprint(v)) {
					probs = append(probs, Problem{File: d.File, Line: d.Lines["values\x00"+env], Msg: fmt.Sprintf("values: %s: a secret's value is written as %s, never as the value", env, SecretForm)})
				}
			}
		}
	}
	if len(probs) > 0 {
		return probs.sorted()
	}
	return nil
}

// Check finds references that name nothing: not in the files and not in
// the live org. A reference to an object of the files needs no read; one
// to an object in no file can only be checked against the live org, so
// ReadLive runs Check once the lists are read, before the access lists
// (most of a read's points) and any write.
func Check(f *Files, l *Live, r Reading) error {
	var probs Problems
	has := func(kind, key string) bool {
		for _, d := range f.Docs[kind] {
			if foldKey(d.Kind, d.Key) == foldKey(d.Kind, key) {
				return true
			}
		}
		if kind == "folders" {
			if _, ok := l.SystemFolders[key]; ok {
				return true
			}
		}
		// What only the live org can hold and it lacks blocks a change,
		// which the plan shows: the files are not wrong for it.
		needs, _ := uncreatable(l, kind, key)
		return l.Exists(kind, key) || needs != ""
	}
	for _, k := range Kinds() {
		if !r.Manages(k.Name) {
			continue
		}
		for _, d := range f.Docs[k.Name] {
			for _, fd := range k.Fields {
				v, ok := d.Fields[fd.Name]
				if !ok || fd.Ref == "" {
					continue
				}
				switch fd.Type {
				case tRef:
					if s, ok := v.(string); ok && fd.Ref == "apps" && l.SameName[s] != nil {
						probs = append(probs, Problem{File: d.File, Line: d.Lines[fd.Name], Msg: fmt.Sprintf("%s: %s", fd.Name, l.sameNameProblem(s))})
					} else if ok && !has(fd.Ref, s) {
						probs = append(probs, Problem{File: d.File, Line: d.Lines[fd.Name], Msg: fmt.Sprintf("%s: no %s named %q in the files or the live org", fd.Name, kinds.Singular(fd.Ref), s)})
					}
				case tLevelMap, tEnvMap, tScalarMap:
					for key := range v.(map[string]any) {
						if fd.Ref == "apps" && l.SameName[key] != nil {
							probs = append(probs, Problem{File: d.File, Line: d.Lines[fd.Name+"\x00"+key], Msg: fmt.Sprintf("%s: %s", fd.Name, l.sameNameProblem(key))})
						} else if !has(fd.Ref, key) {
							probs = append(probs, Problem{File: d.File, Line: d.Lines[fd.Name+"\x00"+key], Msg: fmt.Sprintf("%s: no %s named %q in the files or the live org", fd.Name, kinds.Singular(fd.Ref), key)})
						}
					}
				}
			}
			switch k.Name {
			case "folders":
				typ, names, _ := splitFolder(d.Key)
				if len(names) > 1 {
					parent := folderKey(typ, names[:len(names)-1])
					if !has("folders", parent) {
						probs = append(probs, Problem{File: d.File, Line: d.Lines["folder"], Msg: fmt.Sprintf("folder %q: its parent %q is neither in the files nor in the live org", d.Key, parent)})
					}
				}
			case "grants":
				typ, name, _ := splitSubject(d.Key)
				if !has(typ+"s", name) {
					probs = append(probs, Problem{File: d.File, Line: d.Lines["subject"], Msg: fmt.Sprintf("subject: no %s named %q in the files or the live org", typ, name)})
				}
			}
		}
	}
	probs = append(probs, systemFolderFiles(f, l, r)...)
	if len(probs) > 0 {
		return probs.sorted()
	}
	return nil
}

// systemFolderFiles are the files that declare a system folder, which
// every org has and org as code only refers to.
func systemFolderFiles(f *Files, l *Live, r Reading) Problems {
	var probs Problems
	if !r.Manages("folders") {
		return nil
	}
	for _, d := range f.Docs["folders"] {
		if _, system := l.SystemFolders[d.Key]; system {
			probs = append(probs, Problem{File: d.File, Line: d.Lines["folder"], Msg: fmt.Sprintf("folder %q is a system folder, which org as code refers to but never creates, renames or deletes: remove this file", d.Key)})
		}
	}
	return probs
}

// MissingSecrets names the environment variables that the secrets of the
// config vars p creates or updates come from and that are not set, each
// with where it is used. A config var the plan does not send needs none.
func MissingSecrets(p *Plan) Problems {
	var probs Problems
	for _, c := range p.Changes {
		if c.Kind != "config-vars" || c.Action == Delete || c.doc == nil {
			continue
		}
		d := c.doc
		vals, _ := d.Fields["values"].(map[string]any)
		for _, env := range sortedKeys(vals) {
			if m := secretRef.Get().FindStringSubmatch(fmt.Sprint(vals[env])); m != nil {
				if _, ok := os.LookupEnv(m[1]); !ok {
					where := d.File
					if where == "" {
						where = "config var " + d.Key
					}
					probs = append(probs, Problem{File: where, Line: d.Lines["values\x00"+env], Msg: fmt.Sprintf("values: %s: the environment variable %s is not set; set it to the secret's value", env, m[1])})
				}
			}
		}
	}
	return probs.sorted()
}

func folderKey(typ string, names []string) string {
	esc := make([]string, len(names))
	for i, n := range names {
		esc[i] = kinds.EscapeFolderName(n)
	}
	return typ + ":/" + strings.Join(esc, "/")
}

// Diff compares the files with the live org, for the kinds r manages.
// Objects only in the files are created; objects in both are updated where
// a field the file gives differs; objects only live are unmanaged, and
// deleted with prune.
func Diff(f *Files, l *Live, r Reading, prune bool, budget ratebudget.Config) *Plan {
	p := &Plan{Prune: prune, Changes: []Change{}, Unmanaged: []Unmanaged{}, Blocked: []Blocked{}}
	for _, k := range Kinds() {
		if !r.Manages(k.Name) {
			continue // neither compared nor listed as unmanaged
		}
		live := map[string]*Doc{}
		for _, d := range l.Docs[k.Name] {
			live[foldKey(k, d.Key)] = d
		}
		inFiles := map[string]bool{}
		for _, d := range f.Docs[k.Name] {
			key := foldKey(k, d.Key)
			inFiles[key] = true
			ld := live[key]
			if ld == nil {
				c := Change{Kind: k.Name, Key: d.Key, Action: Create, doc: d}
				for _, fd := range k.Fields {
					v, ok := d.Fields[fd.Name]
					if !ok {
						continue
					}
					if m, isMap := v.(map[string]any); isMap && fd.Type != tScalarMap {
						for _, key := range sortedKeys(m) { // entry by entry, as grants are sent
							c.Fields = append(c.Fields, FieldChange{Field: fd.Name + "." + key, New: m[key], HasNew: true})
						}
						continue
					}
					c.Fields = append(c.Fields, FieldChange{Field: fd.Name, New: v, HasNew: true})
				}
				p.add(c, l)
				continue
			}
			if fcs := diffFields(k, d, ld); len(fcs) > 0 {
				p.add(Change{Kind: k.Name, Key: d.Key, Action: Update, Fields: fcs, doc: d, live: ld}, l)
			}
		}
		for _, d := range l.Docs[k.Name] {
			if inFiles[foldKey(k, d.Key)] {
				continue
			}
			u := Unmanaged{Kind: k.Name, Key: d.Key}
			if d.Inactive {
				u.Note = "disabled"
			}
			if k.reg.Singleton {
				u.Note = "the org's own: never deleted"
			}
			if d.Builtin != "" {
				u.Note = NoteBuiltin
			}
			p.Unmanaged = append(p.Unmanaged, u)
			if prune && !d.Inactive && !k.reg.Singleton && d.Builtin == "" {
				c := Change{Kind: k.Name, Key: d.Key, Action: Delete, live: d}
				if k.Name == "users" {
					c.Note = "disabled: the API keeps a deleted user's record"
				}
				if k.Name == "grants" {
					for _, fd := range k.Fields {
						m, _ := d.Fields[fd.Name].(map[string]any)
						for _, key := range sortedKeys(m) {
							c.Fields = append(c.Fields, FieldChange{Field: fd.Name + "." + key, Old: m[key], HasOld: true})
						}
					}
				}
				p.Changes = append(p.Changes, c)
			}
		}
	}
	p.price(l, budget)
	return p
}

// price makes the plan's steps from its changes and prices them, and the
// read of l that the plan was made from.
func (p *Plan) price(l *Live, budget ratebudget.Config) {
	p.Steps = steps(p.Changes, l)
	for _, s := range p.Steps {
		p.Requests++
		p.Points += budget.Cost(s.Path)
	}
	p.Time = budget.Idle().TimeFor(p.Points)
	for _, r := range l.Reads {
		p.ReadRequests++
		p.ReadPoints += budget.Cost(r.Path)
	}
}

// diffFields lists the fields the file gives that differ from live; map
// fields entry by entry.
func diffFields(k *FileKind, d, ld *Doc) []FieldChange {
	var out []FieldChange
	for _, fd := range k.Fields {
		nv, ok := d.Fields[fd.Name]
		if !ok {
			continue
		}
		ov, hasOld := ld.Fields[fd.Name]
		switch fd.Type {
		case tLevelMap, tScalarMap, tEnvMap:
			nm, _ := nv.(map[string]any)
			om, _ := ov.(map[string]any)
			// Members are users by email, which has no case: an entry the
			// file writes in another case than the org is the same entry,
			// compared once under the file's spelling.
			fold := fd.Ref == "users"
			keys, inFile := map[string]bool{}, map[string]bool{}
			for key := range nm {
				keys[key] = true
				inFile[strings.ToLower(key)] = true
			}
			for key := range om {
				if !fold || !inFile[strings.ToLower(key)] {
					keys[key] = true
				}
			}
			for _, key := range sortedKeys(keys) {
				a, inOld := lookup(om, key, fold)
				b, inNew := lookup(nm, key, fold)
				if fd.Type == tEnvMap && d.Fields["secret"] == true && inOld && inNew {
					continue // a secret's live value is masked: it can be set, never compared
				}
				if inOld && inNew && equal(a, b) {
					continue
				}
				out = append(out, FieldChange{Field: fd.Name + "." + key, Old: a, New: b, HasOld: inOld, HasNew: inNew})
			}
		default:
			if hasOld && equal(ov, nv) {
				continue
			}
			out = append(out, FieldChange{Field: fd.Name, Old: ov, New: nv, HasOld: true, HasNew: true})
		}
	}
	return out
}

func lookup(m map[string]any, key string, fold bool) (any, bool) {
	if v, ok := m[key]; ok {
		return v, true
	}
	if fold {
		for k, v := range m {
			if strings.EqualFold(k, key) {
				return v, true
			}
		}
	}
	return nil, false
}
