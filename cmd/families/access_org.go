package families

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/ratebudget"
)

// accessOrg is what the access commands read to name what the permission
// answers hold by id: users, groups (with members), folders (as paths) and
// the objects with access lists. Each list is one request.
type accessOrg struct {
	cl *client.Client
	// reqs and points count what loading cost.
	reqs, points int

	users      []accessUser
	userByID   map[string]*accessUser
	userByMail map[string]*accessUser
	groups     []listedGroup
	groupByID  map[string]*listedGroup
	// names maps an object type, then an id, to what people call it
	// (folders: their path, app:/Finance).
	names map[string]map[string]string
	// objects lists, per type, the objects whose access a review reads.
	objects map[string][]string
}

type accessUser struct {
	ID      string `json:"id"`
	Email   string `json:"email"`
	Active  bool   `json:"active"`
	IsAdmin bool   `json:"is_admin"`
}

// objectLists are the lists that name each object type; folders read as
// paths.
var objectLists = []struct{ typ, path, scope, key string }{
	{"folder", "/folders", "Folders > Read", ""},
	{"app", "/apps", "Apps > Read", "name"},
	{"resource", "/resources", "Resources > Read", "display_name"},
	{"workflow", "/workflows", "Workflows > Read", "name"},
	{"resource_configuration", "/resource_configurations", "Resources > Read", ""},
}

func newAccessOrg(cl *client.Client) *accessOrg {
	return &accessOrg{cl: cl, names: map[string]map[string]string{}, objects: map[string][]string{}}
}

func (o *accessOrg) get(ctx context.Context, path, scope string) (json.RawMessage, error) {
	o.reqs++
	o.points += ratebudget.DefaultConfig().Cost(path)
	r, err := o.cl.Do(ctx, client.Request{Method: http.MethodGet, Path: path, Scope: scope})
	if err != nil {
		return nil, err
	}
	return r.Data, nil
}

func (o *accessOrg) loadUsers(ctx context.Context) error {
	if o.userByID != nil {
		return nil
	}
	data, err := o.get(ctx, "/users", "Users > Read")
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &o.users); err != nil {
		return fmt.Errorf("GET /users: unexpected answer: %w", err)
	}
	o.userByID, o.userByMail = map[string]*accessUser{}, map[string]*accessUser{}
	for i := range o.users {
		u := &o.users[i]
		o.userByID[u.ID] = u
		o.userByMail[strings.ToLower(u.Email)] = u
	}
	return nil
}

func (o *accessOrg) loadGroups(ctx context.Context) error {
	if o.groupByID != nil {
		return nil
	}
	data, err := o.get(ctx, "/groups", "Groups > Read")
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &o.groups); err != nil {
		return fmt.Errorf("GET /groups: unexpected answer: %w", err)
	}
	o.groupByID = map[string]*listedGroup{}
	for i := range o.groups {
		o.groupByID[groupID(o.groups[i])] = &o.groups[i]
	}
	return nil
}

func groupID(g listedGroup) string { return engine.IDText(g.ID) }

// loadObjects reads the list of each type asked for.
func (o *accessOrg) loadObjects(ctx context.Context, types ...string) error {
	for _, l := range objectLists {
		if o.names[l.typ] != nil || !slices.Contains(types, l.typ) {
			continue
		}
		data, err := o.get(ctx, l.path, l.scope)
		if err != nil {
			return err
		}
		var items []map[string]any
		if err := json.Unmarshal(data, &items); err != nil {
			return fmt.Errorf("GET %s: unexpected answer: %w", l.path, err)
		}
		names := map[string]string{}
		var ids []string
		for _, it := range items {
			id := resolve.Text(it["id"])
			if l.typ == "folder" {
				names[id] = resolve.FolderPath(it, items)
				// Roots hold everything of their type and are granted
				// nothing of their own; file folders have no access lists.
				if it["parent_folder_id"] == nil || !creatableFolderType[resolve.Text(it["folder_type"])] {
					continue
				}
			} else if l.typ == "resource_configuration" {
				// No name of its own: its resource's, and its environment's.
				res, _ := it["resource"].(map[string]any)
				env, _ := it["environment"].(map[string]any)
				names[id] = resolve.Text(res["display_name"]) + " (" + resolve.Text(env["name"]) + ")"
			} else {
				names[id] = resolve.Text(it[l.key])
			}
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return names[ids[i]] < names[ids[j]] })
		o.names[l.typ], o.objects[l.typ] = names, ids
	}
	return nil
}

var creatableFolderType = map[string]bool{"app": true, "resource": true, "workflow": true, "agent": true, "library": true}

// name is what people call an object: its name or path, else its id.
func (o *accessOrg) name(typ, id string) string {
	if n := o.names[typ][id]; n != "" {
		return n
	}
	return id
}

func (o *accessOrg) groupName(id string) string {
	if g := o.groupByID[id]; g != nil {
		return g.Name
	}
	return "group " + id
}

func (o *accessOrg) userEmail(id string) string {
	if u := o.userByID[id]; u != nil {
		return u.Email
	}
	return id
}

// groupsOfUser are the groups the user is a member of.
func (o *accessOrg) groupsOfUser(id string) []*listedGroup {
	var out []*listedGroup
	for i := range o.groups {
		for _, m := range o.groups[i].Members {
			if m.ID == id {
				out = append(out, &o.groups[i])
				break
			}
		}
	}
	return out
}

// universal is a group's universal access to objects of a type (for a
// folder, of the folder's own type).
func (g *listedGroup) universal(typ string) string {
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

var levelRank = map[string]int{"none": 0, "use": 1, "edit": 2, "own": 3}
