package sandbox

import (
	"fmt"
	"github.com/orgctl/orgctl/client/kinds"
)

// Effective access, as the service computes it: a subject's level on an
// object is the highest of its direct grant, the grants on the folders above
// the object (through every level of nesting), its groups' universal access
// to the object's kind and, for users and invites, what their groups have.

// objectColl is the collection of an object type whose objects have access
// lists; "" for any other type.
func objectColl(typ string) string {
	switch typ {
	case "app":
		return "/apps"
	case "folder":
		return "/folders"
	case "resource":
		return "/resources"
	case "workflow":
		return "/workflows"
	}
	return ""
}

// universalField is the group field giving access to every object of a kind.
func universalField(kind string) string {
	switch kind {
	case "app":
		return "universal_app_access"
	case "resource":
		return "universal_resource_access"
	case "workflow":
		return "universal_workflow_access"
	}
	return ""
}

// accessIndex holds what an access computation reads, built once a request.
type accessIndex struct {
	o *org
	// grants by object "type/id", then by "subject_type/subject_id".
	grants  map[string]map[string]string
	folders map[string]obj
	// userGroups lists each user's groups, in the order of GET /groups.
	userGroups   map[string][]obj
	inviteGroups map[string][]obj
}

func (o *org) accessIndex() *accessIndex {
	ix := &accessIndex{o: o, grants: map[string]map[string]string{}, folders: map[string]obj{},
		userGroups: map[string][]obj{}, inviteGroups: map[string][]obj{}}
	for _, p := range o.Collections["/permissions"] {
		k := fmt.Sprint(p["type"]) + "/" + fmt.Sprint(p["id"])
		if ix.grants[k] == nil {
			ix.grants[k] = map[string]string{}
		}
		ix.grants[k][fmt.Sprint(p["subject_type"])+"/"+fmt.Sprint(p["subject_id"])] = fmt.Sprint(p["access_level"])
	}
	for _, f := range o.Collections["/folders"] {
		ix.folders[fmt.Sprint(f["id"])] = f
	}
	for _, g := range o.Collections["/groups"] {
		ms, _ := g["members"].([]any)
		for _, m := range ms {
			if mm, ok := m.(map[string]any); ok {
				id := fmt.Sprint(mm["id"])
				ix.userGroups[id] = append(ix.userGroups[id], g)
			}
		}
		invs, _ := g["user_invites"].([]any)
		for _, inv := range invs {
			if im, ok := inv.(map[string]any); ok {
				id := fmt.Sprint(im["id"])
				ix.inviteGroups[id] = append(ix.inviteGroups[id], g)
			}
		}
	}
	return ix
}

// object is one object whose access is computed: its kind (for universal
// access) and the folders above it, nearest first.
type object struct {
	typ, id string
	kind    string
	above   []string
}

func (ix *accessIndex) object(typ string, it obj) object {
	ob := object{typ: typ, id: fmt.Sprint(it["id"]), kind: typ}
	parent := it["folder_id"]
	if typ == "folder" {
		ob.kind = fmt.Sprint(it["folder_type"])
		parent = it["parent_folder_id"]
	}
	for parent != nil && len(ob.above) < 64 {
		f := ix.folders[fmt.Sprint(parent)]
		if f == nil {
			break
		}
		ob.above = append(ob.above, fmt.Sprint(f["id"]))
		parent = f["parent_folder_id"]
	}
	return ob
}

// grantSources is what a subject's own grants give it on ob: the direct
// level, and the highest level inherited with the (nearest) folder giving it.
func (ix *accessIndex) grantSources(ob object, subject string) (direct, inherited int, from string) {
	direct = kinds.LevelRank(ix.grants[ob.typ+"/"+ob.id][subject])
	for _, f := range ob.above {
		if l := kinds.LevelRank(ix.grants["folder/"+f][subject]); l > inherited {
			inherited, from = l, f
		}
	}
	return direct, inherited, from
}

type groupAccess struct {
	level     int
	universal bool
}

// groupEntry computes one group's access to ob.
func (ix *accessIndex) groupEntry(ob object, g obj) (map[string]any, groupAccess) {
	id := fmt.Sprint(g["id"])
	direct, inh, from := ix.grantSources(ob, "group/"+id)
	uni := 0
	if f := universalField(ob.kind); f != "" {
		uni = kinds.LevelRank(fmt.Sprint(g[f]))
	}
	level := max(direct, inh, uni)
	sources := obj{"direct": direct > 0, "universal": uni > 0, "groups": []any{}}
	if inh > 0 {
		sources["inherited"] = obj{"id": from, "type": "folder"}
	}
	return obj{"subject": obj{"id": id, "type": "group"}, "sources": sources, "accessLevel": kinds.AccessLevels[level]},
		groupAccess{level, uni > 0}
}

// memberEntry computes the access of a user or invite: its own grants and
// what the groups it belongs to reach.
func (ix *accessIndex) memberEntry(ob object, typ, id string, groups []obj, byGroup map[string]groupAccess) map[string]any {
	direct, inh, from := 0, 0, ""
	if typ == "user" {
		direct, inh, from = ix.grantSources(ob, "user/"+id)
	}
	level, universal := max(direct, inh), false
	via := []any{}
	for _, g := range groups {
		ga := byGroup[fmt.Sprint(g["id"])]
		if ga.level == 0 {
			continue
		}
		via = append(via, obj{"id": fmt.Sprint(g["id"]), "type": "group"})
		level = max(level, ga.level)
		universal = universal || ga.universal
	}
	if level == 0 {
		return nil
	}
	sources := obj{"direct": direct > 0, "universal": universal, "groups": via}
	if inh > 0 {
		sources["inherited"] = obj{"id": from, "type": "folder"}
	}
	return obj{"subject": obj{"id": id, "type": typ}, "sources": sources, "accessLevel": kinds.AccessLevels[level]}
}

// accessList answers who reaches ob: groups, users (disabled ones too: the
// service lists them with what their memberships would give) and invites.
func (ix *accessIndex) accessList(ob object) obj {
	groups, users, invites := []any{}, []any{}, []any{}
	byGroup := map[string]groupAccess{}
	for _, g := range ix.o.Collections["/groups"] {
		e, ga := ix.groupEntry(ob, g)
		byGroup[fmt.Sprint(g["id"])] = ga
		if ga.level > 0 {
			groups = append(groups, e)
		}
	}
	for _, u := range ix.o.Collections["/users"] {
		id := fmt.Sprint(u["id"])
		if e := ix.memberEntry(ob, "user", id, ix.userGroups[id], byGroup); e != nil {
			users = append(users, e)
		}
	}
	for _, inv := range ix.o.Collections["/user_invites"] {
		id := fmt.Sprint(inv["id"])
		if e := ix.memberEntry(ob, "userInvite", id, ix.inviteGroups[id], byGroup); e != nil {
			invites = append(invites, e)
		}
	}
	return obj{"group": groups, "user": users, "userInvite": invites}
}

// levelOf is one subject's effective level on ob.
func (ix *accessIndex) levelOf(ob object, subjType, subjID string) string {
	if subjType == "group" {
		_, g := ix.o.find("/groups", subjID)
		if g == nil {
			return "none"
		}
		_, ga := ix.groupEntry(ob, g)
		return kinds.AccessLevels[ga.level]
	}
	byGroup := map[string]groupAccess{}
	for _, g := range ix.userGroups[subjID] {
		_, ga := ix.groupEntry(ob, g)
		byGroup[fmt.Sprint(g["id"])] = ga
	}
	if e := ix.memberEntry(ob, "user", subjID, ix.userGroups[subjID], byGroup); e != nil {
		return fmt.Sprint(e["accessLevel"])
	}
	return "none"
}

// effectiveObjects lists every object of typ the subject reaches by any
// source: listObjects with include_inherited_access.
func (c *call) effectiveObjects(subj map[string]any, typ string) []any {
	coll := objectColl(typ)
	if coll == "" {
		return c.objectsFor(subj, typ)
	}
	ix := c.org.accessIndex()
	st, sid := fmt.Sprint(subj["type"]), fmt.Sprint(subj["id"])
	out := []any{}
	var byID map[string]obj
	if typ == "folder" {
		byID = map[string]obj{}
		for _, f := range c.org.Collections[coll] {
			byID[fmt.Sprint(f["id"])] = f
		}
	}
	for _, it := range c.org.Collections[coll] {
		if typ == "folder" && (it["parent_folder_id"] == nil || !underRoot(it, byID)) {
			// The service lists no parentless folder (each type's root,
			// personalRoot), nor what lies in a user's personal tree
			// (Drafts, Trash): those are one user's own, not shared.
			continue
		}
		if l := ix.levelOf(ix.object(typ, it), st, sid); l != "none" {
			out = append(out, obj{"type": typ, "id": it["id"], "access_level": l})
		}
	}
	return out
}

// underRoot reports a folder whose topmost ancestor is its type's root,
// not personalRoot.
func underRoot(f obj, byID map[string]obj) bool {
	for depth := 0; f["parent_folder_id"] != nil && depth < 1000; depth++ {
		parent, ok := byID[fmt.Sprint(f["parent_folder_id"])]
		if !ok {
			return false
		}
		f = parent
	}
	return f["name"] == "root"
}
