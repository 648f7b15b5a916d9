package access

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/output/jsonscan"
	"github.com/orgctl/orgctl/ratebudget"
)

// Org is what a review reads to name what the permission answers hold
// by id: users, groups (with members), folders (as paths) and
// the objects with access lists. Each list is one request.
type Org struct {
	cl *client.Client
	// Reqs and Points count what the reads through Org cost, priced by
	// Prices (the zero Config: the service's list).
	Reqs, Points int
	Prices       ratebudget.Config

	Users    []User
	userByID map[string]*User
	// ByEmail finds a user by email in lower case.
	ByEmail   map[string]*User
	Groups    []Group
	groupByID map[string]*Group
	// names maps an object type, then an id, to what people call it
	// (folders: their path, app:/Finance).
	names map[string]map[string]string
	// Objects lists, per type, the objects whose access a review reads.
	Objects map[string][]string
}

// User is a user as GET /users gives it, with what a review reads.
type User struct {
	ID      string `json:"id"`
	Email   string `json:"email"`
	Active  bool   `json:"active"`
	IsAdmin bool   `json:"is_admin"`
	// LegacyID is the number tokens name their owner by.
	LegacyID json.RawMessage `json:"legacy_id"`
}

// objectTypes are the object types whose lists name what a review
// reads, in the order they are read.
var objectTypes = []string{"folder", "app", "resource", "workflow", "resource_configuration"}

// NewOrg reads through cl; nothing is read until a Load method runs.
func NewOrg(cl *client.Client) *Org {
	return &Org{cl: cl, names: map[string]map[string]string{}, Objects: map[string][]string{}}
}

func (o *Org) get(ctx context.Context, path, scope string) (json.RawMessage, error) {
	o.Reqs++
	o.Points += o.Prices.Cost(path)
	r, err := o.cl.Do(ctx, client.Request{Method: http.MethodGet, Path: path, Scope: scope})
	if err != nil {
		return nil, err
	}
	return r.Data, nil
}

// LoadUsers reads GET /users (every user, one request) once.
func (o *Org) LoadUsers(ctx context.Context) error {
	if o.userByID != nil {
		return nil
	}
	k := kinds.Of("users")
	data, err := o.get(ctx, k.List, k.Scope)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &o.Users); err != nil {
		return fmt.Errorf("GET %s: unexpected answer: %w", k.List, err)
	}
	o.userByID, o.ByEmail = map[string]*User{}, map[string]*User{}
	for i := range o.Users {
		u := &o.Users[i]
		o.userByID[u.ID] = u
		o.ByEmail[strings.ToLower(u.Email)] = u
	}
	return nil
}

// LoadGroups reads GET /groups (with members) once.
func (o *Org) LoadGroups(ctx context.Context) error {
	if o.groupByID != nil {
		return nil
	}
	k := kinds.Of("groups")
	data, err := o.get(ctx, k.List, k.Scope)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &o.Groups); err != nil {
		return fmt.Errorf("GET %s: unexpected answer: %w", k.List, err)
	}
	o.groupByID = map[string]*Group{}
	for i := range o.Groups {
		o.groupByID[GroupID(o.Groups[i])] = &o.Groups[i]
	}
	return nil
}

// GroupID is a group's id as text.
func GroupID(g Group) string { return jsonscan.AsText(g.ID) }

// LoadObjects reads the list of each type asked for (see ObjectTypes
// and ReportTypes), once each.
func (o *Org) LoadObjects(ctx context.Context, types ...string) error {
	for _, typ := range objectTypes {
		k, _ := kinds.WithObjectType(typ)
		if o.names[typ] != nil || !slices.Contains(types, typ) {
			continue
		}
		data, err := o.get(ctx, k.List, k.Scope)
		if err != nil {
			return err
		}
		var items []map[string]any
		if err := json.Unmarshal(data, &items); err != nil {
			return fmt.Errorf("GET %s: unexpected answer: %w", k.List, err)
		}
		names := map[string]string{}
		var ids []string
		keys := k.Keys(items)
		for i, it := range items {
			id := jsonscan.AsText(it["id"])
			names[id] = keys[i]
			// A type's root is reviewed like any folder: universal access
			// reaches it and it can be granted directly. Personal trees
			// (personalRoot, each user's Drafts and Trash) are left out:
			// they are one user's own, not shared; file folders have no
			// access lists.
			if typ == "folder" && (!kinds.UnderRoot(keys[i]) || !kinds.CreatableFolderType(jsonscan.AsText(it["folder_type"]))) {
				continue
			}
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return names[ids[i]] < names[ids[j]] })
		o.names[typ], o.Objects[typ] = names, ids
	}
	return nil
}

// Name is what people call an object: its name or path, else its id.
func (o *Org) Name(typ, id string) string {
	if n := o.names[typ][id]; n != "" {
		return n
	}
	return id
}

// GroupName names a group by id ("group ID" when unknown).
func (o *Org) GroupName(id string) string {
	if g := o.groupByID[id]; g != nil {
		return g.Name
	}
	return "group " + id
}

// UserEmail names a user by id (the id when unknown).
func (o *Org) UserEmail(id string) string {
	if u := o.userByID[id]; u != nil {
		return u.Email
	}
	return id
}

// GroupsOf are the groups the user is a member of.
func (o *Org) GroupsOf(id string) []*Group {
	var out []*Group
	for i := range o.Groups {
		for _, m := range o.Groups[i].Members {
			if m.ID == id {
				out = append(out, &o.Groups[i])
				break
			}
		}
	}
	return out
}

// Universal is a group's universal access to objects of a type (for a
// folder, of the folder's own type).
func (g *Group) Universal(typ string) string {
	switch typ {
	case "app":
		return g.App
	case "resource":
		return g.Res
	case "workflow":
		return g.Wf
	}
	return "none"
}

// ObjectTypes are the types POST /permissions/listObjects answers for.
var ObjectTypes = []string{"folder", "app", "resource", "resource_configuration"}

// Subject resolves a user (email or id) or a group (name or id) into the
// API's subject object and the name to show; one list read at most.
func (o *Org) Subject(ctx context.Context, user, group string) (map[string]any, string, error) {
	if user != "" {
		if strings.HasPrefix(user, "user_") {
			return map[string]any{"type": "user", "id": user}, user, nil
		}
		if err := o.LoadUsers(ctx); err != nil {
			return nil, "", err
		}
		u := o.ByEmail[strings.ToLower(user)]
		if u == nil {
			return nil, "", &resolve.NotFoundError{Kind: "users", Name: user}
		}
		return map[string]any{"type": "user", "id": u.ID}, u.Email, nil
	}
	if n, err := strconv.ParseUint(group, 10, 64); err == nil {
		return map[string]any{"type": "group", "id": json.Number(strconv.FormatUint(n, 10))}, group, nil
	}
	if err := o.LoadGroups(ctx); err != nil {
		return nil, "", err
	}
	for _, g := range o.Groups {
		if strings.EqualFold(g.Name, group) {
			return map[string]any{"type": "group", "id": json.Number(GroupID(g))}, g.Name, nil
		}
	}
	return nil, "", &resolve.NotFoundError{Kind: "groups", Name: group}
}

// ListObjects sends one POST /permissions/listObjects (with
// include_inherited_access when inherited) and returns its items as received.
func (o *Org) ListObjects(ctx context.Context, subject map[string]any, typ string, inherited bool) ([]json.RawMessage, error) {
	body := map[string]any{"subject": subject, "object_type": typ}
	if inherited {
		body["include_inherited_access"] = true
	}
	o.Reqs++
	o.Points += o.Prices.Cost("/permissions/listObjects")
	r, err := o.cl.Do(ctx, client.Request{Method: http.MethodPost, Path: "/permissions/listObjects", Scope: "Permissions > Read", Body: body})
	if err != nil {
		return nil, err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(r.Data, &items); err != nil {
		return nil, fmt.Errorf("POST /permissions/listObjects: unexpected answer: %w", err)
	}
	return items, nil
}

// Object is one item of a listObjects answer.
type Object struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id"`
	Level string          `json:"access_level"`
}

// Member is one member as GET /groups gives it.
type Member struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Admin bool   `json:"is_group_admin"`
}

// Group is a group as GET /groups gives it, with what the access
// commands read.
type Group struct {
	ID      json.RawMessage `json:"id"`
	Name    string          `json:"name"`
	Members []Member        `json:"members"`
	App     string          `json:"universal_app_access"`
	Res     string          `json:"universal_resource_access"`
	Wf      string          `json:"universal_workflow_access"`
}

// Reach reads what a user can reach (effective, per type) and their own
// grants, and says where each access comes from as far as the lists tell.
func (o *Org) Reach(ctx context.Context, u *User, stage string) (rows []Row, direct []Object, err error) {
	subject := map[string]any{"type": "user", "id": u.ID}
	groups := o.GroupsOf(u.ID)
	for _, t := range ObjectTypes {
		eff, err := o.ListObjects(ctx, subject, t, true)
		if err != nil {
			return nil, nil, err
		}
		own := map[string]string{}
		if stage == "before" {
			dir, err := o.ListObjects(ctx, subject, t, false)
			if err != nil {
				return nil, nil, err
			}
			for _, raw := range dir {
				var ob Object
				if json.Unmarshal(raw, &ob) == nil {
					ob.Type = t
					direct = append(direct, ob)
					own[jsonscan.AsText(ob.ID)] = ob.Level
				}
			}
		}
		for _, raw := range eff {
			var ob Object
			if json.Unmarshal(raw, &ob) != nil {
				continue
			}
			id := jsonscan.AsText(ob.ID)
			var via []string
			best := 0
			if l, ok := own[id]; ok {
				via, best = append(via, "direct"), kinds.LevelRank(l)
			}
			for _, g := range groups {
				if ul := g.Universal(KindOf(t, id)); kinds.LevelRank(ul) > 0 {
					via, best = append(via, "universal through "+g.Name), max(best, kinds.LevelRank(ul))
				}
			}
			if kinds.LevelRank(ob.Level) > best {
				via = append(via, "a group's or a folder's grant")
			}
			rows = append(rows, Row{"stage": stage, "user": u.Email, "type": t, "object": o.Name(t, id), "level": ob.Level, "via": strings.Join(via, "; ")})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i]["type"] != rows[j]["type"] {
			return slices.Index(ObjectTypes, rows[i]["type"]) < slices.Index(ObjectTypes, rows[j]["type"])
		}
		return rows[i]["object"] < rows[j]["object"]
	})
	return rows, direct, nil
}

// ReloadGroups reads the groups again, after changes to them.
func (o *Org) ReloadGroups(ctx context.Context) error {
	o.groupByID = nil
	return o.LoadGroups(ctx)
}

// After works out what a user still reaches once the steps taken are
// done, from what they reached before: a row stays only through what is
// left of its sources (a group the user is still in, a direct grant not
// revoked). Reading the access again would cost as much as reading it the
// first time, and tells nothing the steps taken do not.
//
// left are the user's groups that were not removed; revoked says whether
// every direct grant was revoked. A row reached through "a group's or a
// folder's grant" stays while any group is left or a direct grant stays,
// since either may be its source.
func After(before []Row, left []*Group, revoked bool) []Row {
	kept := map[string]bool{}
	for _, g := range left {
		kept[g.Name] = true
	}
	var out []Row
	for _, r := range before {
		var via []string
		for _, part := range strings.Split(r["via"], "; ") {
			switch {
			case part == "direct":
				if !revoked {
					via = append(via, part)
				}
			case strings.HasPrefix(part, "universal through "):
				if kept[strings.TrimPrefix(part, "universal through ")] {
					via = append(via, part)
				}
			case part == "a group's or a folder's grant":
				if len(kept) > 0 || !revoked {
					via = append(via, part)
				}
			}
		}
		if len(via) == 0 {
			continue
		}
		after := Row{}
		for k, v := range r {
			after[k] = v
		}
		after["stage"], after["via"] = "after", strings.Join(via, "; ")
		out = append(out, after)
	}
	return out
}
