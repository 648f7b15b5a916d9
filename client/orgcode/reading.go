package orgcode

import (
	"fmt"
	"slices"
	"strings"

	"github.com/orgctl/orgctl/output/jsonscan"
)

// Reading is what a read of the live org covers: the kinds whose objects a
// plan manages (compares, lists as unmanaged, deletes with prune), and the
// lists it reads for them, which add the kinds they refer to. Access
// lists, one request per folder and per app and the bulk of a read's
// points, are read only when grants are managed.
//
// Some lists are read only when the read asks for them (lazy): a group
// list carries its members' ids and emails, so the users list is read for
// groups only when a file names a user no group shows; the apps list only
// when a landing page is set or named; the user attributes only when a
// user file names one the files do not define.
type Reading struct {
	managed map[string]bool
	lists   map[string]bool
	lazy    map[string]bool
	// refs are the keys, by kind, that the files or a saved plan refer to
	// in lazy lists' kinds (users lower-cased).
	refs map[string]map[string]bool
	// access, when set, limits the access lists read to these folders and
	// apps ("folders.app:/Ops", "apps.Customer Lookup"): a saved plan's.
	access map[string]bool
	// files, when set, are checked (Check) as soon as the lists are read.
	files *Files
}

func newReading() Reading {
	return Reading{managed: map[string]bool{}, lists: map[string]bool{}, lazy: map[string]bool{}, refs: map[string]map[string]bool{}}
}

// Everything reads and manages every kind, as export does.
func Everything() Reading {
	r := newReading()
	for _, k := range Kinds() {
		r.managed[k.Name] = true
	}
	for _, l := range readOrder {
		r.lists[l] = true
	}
	return r
}

// ReadingFor manages the kinds the files hold (a kind's folder, even
// empty, counts: with prune it deletes every live object of the kind),
// limited to only when it is not empty.
func ReadingFor(f *Files, only []string) (Reading, error) {
	for _, k := range only {
		if KindNamed(k) == nil {
			return Reading{}, fmt.Errorf("no kind %q: the kinds are %s", k, strings.Join(kindNames(), ", "))
		}
	}
	r := newReading()
	r.files = f
	for _, k := range Kinds() {
		if (f.Kinds[k.Name] || len(f.Docs[k.Name]) > 0) && (len(only) == 0 || slices.Contains(only, k.Name)) {
			r.managed[k.Name] = true
		}
	}
	for name := range r.managed {
		r.need(name)
		for _, d := range f.Docs[name] {
			r.refer(d.Kind, d.Fields, f)
		}
	}
	return r, nil
}

// need adds the lists a kind's plan reads: its own and, for grants, those
// of their subjects and objects (the access lists name them by id), for
// config vars the environments (their values are by environment id); and
// the lazy ones of the kinds its fields refer to.
func (r Reading) need(kind string) {
	r.lists[kind] = true
	switch kind {
	case "grants":
		for _, l := range []string{"groups", "users", "folders", "apps"} {
			r.lists[l] = true
		}
	case "config-vars":
		r.lists["environments"] = true
	case "groups":
		r.lazy["users"], r.lazy["apps"] = true, true
	case "users":
		r.lazy["user-attributes"] = true
	}
}

// refer notes what one document's fields refer to in lazy lists' kinds;
// attributes the files define (f, when not nil) need no read.
func (r Reading) refer(k *FileKind, fields map[string]any, f *Files) {
	add := func(kind, key string) {
		if r.refs[kind] == nil {
			r.refs[kind] = map[string]bool{}
		}
		r.refs[kind][strings.ToLower(key)] = true
	}
	switch k.Name {
	case "groups":
		members, _ := fields["members"].(map[string]any)
		for email := range members {
			add("users", email)
		}
		if app, ok := fields["landing_page_app"].(string); ok {
			add("apps", app)
		}
	case "users":
		attrs, _ := fields["attributes"].(map[string]any)
		for name := range attrs {
			if f == nil || !slices.ContainsFunc(f.Docs["user-attributes"], func(d *Doc) bool { return d.Key == name }) {
				add("user-attributes", name)
			}
		}
	}
}

// wants reports whether a lazy list is to be read, given the lists read.
func (r Reading) wants(list string, raw map[string][]map[string]any) bool {
	switch list {
	case "users":
		shown := map[string]bool{}
		for _, g := range raw["groups"] {
			ms, _ := g["members"].([]any)
			for _, m := range ms {
				mm, _ := m.(map[string]any)
				email := jsonscan.AsText(mm["email"])
				if email == "" {
					return true // named by id alone: the users list names it
				}
				shown[strings.ToLower(email)] = true
			}
		}
		for email := range r.refs["users"] {
			if !shown[email] {
				return true
			}
		}
		return false
	case "apps":
		if len(r.refs["apps"]) > 0 {
			return true
		}
		for _, g := range raw["groups"] {
			if jsonscan.AsText(g["landing_page_app_id"]) != "" {
				return true
			}
		}
		return false
	}
	return len(r.refs[list]) > 0
}

// Manages reports whether the reading manages a kind.
func (r Reading) Manages(kind string) bool { return r.managed[kind] }

func (r Reading) reads(list string) bool { return r.lists[list] }

func (r Reading) readsAccessLists() bool { return r.managed["grants"] }

// readsAccessList reports whether the access list of one folder or app
// ("folders", "app:/Ops") is read.
func (r Reading) readsAccessList(field, key string) bool {
	return r.access == nil || r.access[field+"."+key]
}
