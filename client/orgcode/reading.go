package orgcode

import (
	"fmt"
	"slices"
	"strings"
)

// Reading is what a read of the live org covers: the kinds whose objects a
// plan manages (compares, lists as unmanaged, deletes with prune), and the
// lists it reads for them, which add the kinds they refer to (a group's
// members are users). Access lists, one request per folder and per app
// and the bulk of a read's points, are read only when grants are managed.
type Reading struct {
	managed map[string]bool
	lists   map[string]bool
	// access, when set, limits the access lists read to these folders and
	// apps ("folders.app:/Ops", "apps.Customer Lookup"): a saved plan's.
	access map[string]bool
}

// Everything reads and manages every kind, as export does.
func Everything() Reading {
	r := Reading{managed: map[string]bool{}, lists: map[string]bool{}}
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
	r := Reading{managed: map[string]bool{}, lists: map[string]bool{}}
	for _, k := range Kinds() {
		if (f.Kinds[k.Name] || len(f.Docs[k.Name]) > 0) && (len(only) == 0 || slices.Contains(only, k.Name)) {
			r.managed[k.Name] = true
		}
	}
	for name := range r.managed {
		for _, l := range needs(name) {
			r.lists[l] = true
		}
	}
	return r, nil
}

// needs are the lists a kind's plan reads: its own, those of the kinds its
// fields refer to, and for grants those of their subjects.
func needs(kind string) []string {
	out := []string{kind}
	for _, fd := range KindNamed(kind).Fields {
		if fd.Ref != "" {
			out = append(out, fd.Ref)
		}
	}
	if kind == "grants" {
		out = append(out, "groups", "users", "folders", "apps")
	}
	return out
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
