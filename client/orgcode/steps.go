package orgcode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// Step is one request of a plan. Steps of one phase are independent of
// each other; a phase runs after every earlier one, so a step finds the
// ids of what earlier phases created.
type Step struct {
	Phase  int
	Kind   string
	Key    string
	What   string // "create", "add members", "grant", ...
	Method string
	// Path is the request's path with natural keys in braces where ids
	// go, for reading and pricing ("/groups/{support}/members").
	Path string

	build func(l *Live) (client.Request, error)
	done  func(l *Live, resp *client.Response)
	// says is the step's sentence where Sentence cannot build it from
	// What, Kind and Key (grants name the access level).
	says string
	// action is what the plan's change the step is part of does: a
	// step's outcome is counted as its change is (a member removed
	// changes its group; it deletes nothing the plan calls a delete).
	action Action
	change string // the change's kind and key
}

// Describe is the step for records and scripts: "create users ada@example.com".
func (s *Step) Describe() string { return s.What + " " + s.Kind + " " + s.Key }

// Sentence is the step done, for people: "Created user ada@example.com",
// "Added members to group support", "Granted use on folder app:/Finance
// to group support".
func (s *Step) Sentence() string {
	if s.says != "" {
		return s.says
	}
	noun := strings.ReplaceAll(strings.TrimSuffix(s.Kind, "s"), "-", " ")
	switch s.What {
	case "create", "update", "delete", "disable":
		return pastOf(s.What) + " " + noun + " " + s.Key
	case "make admin":
		return "Made " + noun + " " + s.Key + " an admin"
	case "add members":
		return "Added members to group " + s.Key
	case "remove member":
		group, email, _ := strings.Cut(s.Key, " ")
		return "Removed " + email + " from group " + group
	}
	return s.Describe()
}

// pastOf is a step's verb in the past tense.
func pastOf(what string) string {
	switch what {
	case "create":
		return "Created"
	case "update":
		return "Updated"
	case "delete":
		return "Deleted"
	case "disable":
		return "Disabled"
	}
	return ""
}

// Request is the step's request, with the ids it needs looked up now.
func (s *Step) Request(l *Live) (client.Request, error) { return s.build(l) }

// Done records what the step's answer says (a created object's id).
func (s *Step) Done(l *Live, resp *client.Response) {
	if s.done != nil && resp != nil {
		s.done(l, resp)
	}
}

// Action is what the step's change does to its object, in the words
// of the plan's summary: each step of a group's update (a member added
// or removed) is part of an update.
func (s *Step) Action() Action {
	if s.action == "" {
		return Update
	}
	return s.action
}

const (
	phaseAttributes = 10
	phaseUsers      = 20
	phaseUserAdmin  = 21
	phaseGroups     = 30
	phaseMembers    = 31
	phaseFolders    = 40 // + depth
	phaseEnvs       = 60
	phaseConfigVars = 61
	phaseThemes     = 62
	phaseOrg        = 63
	phaseGrants     = 70
	phaseRevoke     = 80
	phaseDelete     = 81
	phaseFolderDel  = 85 // + (max depth - depth)
	phaseGroupDel   = 95
	phaseUserDel    = 96
	phaseAttrDel    = 97
)

// errNoID is a reference whose object has no id yet: its create failed.
func needID(l *Live, kind, key string) (string, error) {
	if id, ok := l.ID(kind, key); ok {
		return id, nil
	}
	return "", fmt.Errorf("%s %q does not exist (its create failed or was not applied)", kinds.Singular(kind), key)
}

func createdID(kind, key string) func(l *Live, resp *client.Response) {
	return func(l *Live, resp *client.Response) {
		var o map[string]any
		dec := json.NewDecoder(bytes.NewReader(resp.Data))
		dec.UseNumber()
		if dec.Decode(&o) == nil && jsonscan.AsText(o["id"]) != "" {
			l.setID(kind, key, jsonscan.AsText(o["id"]))
		}
	}
}

func replaceOp(path string, v any) map[string]any {
	return map[string]any{"op": "replace", "path": path, "value": v}
}

// jsonPointer escapes one JSON Pointer token.
func jsonPointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func steps(changes []Change, l *Live) []*Step {
	var out []*Step
	maxDepth := 0
	for _, c := range changes {
		if c.Kind == "folders" {
			_, names, _ := splitFolder(c.Key)
			maxDepth = max(maxDepth, len(names))
		}
	}
	for _, c := range changes {
		add := func(s *Step) {
			s.action, s.change = c.Action, c.Kind+"\x00"+c.Key
			out = append(out, s)
		}
		switch c.Kind {
		case "user-attributes":
			attrSteps(c, add)
		case "users":
			userSteps(c, add)
		case "groups":
			groupSteps(c, add)
		case "folders":
			folderSteps(c, maxDepth, add)
		case "grants":
			grantSteps(c, add)
		case "environments":
			envSteps(c, add)
		case "config-vars":
			configVarSteps(c, add)
		case "themes":
			themeSteps(c, add)
		case "organization":
			if c.Action == Update {
				var ops []any
				for _, fc := range c.Fields {
					ops = append(ops, replaceOp("/"+fc.Field, fc.New))
				}
				add(&Step{Phase: phaseOrg, Kind: c.Kind, Key: c.Key, What: "update", Method: http.MethodPatch, Path: "/organization/",
					build: func(*Live) (client.Request, error) {
						return client.Request{Method: http.MethodPatch, Path: "/organization/", Body: map[string]any{"operations": ops}}, nil
					}})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Phase < out[j].Phase })
	return out
}

func fieldsOf(c Change) map[string]any {
	if c.doc != nil {
		return c.doc.Fields
	}
	return map[string]any{}
}

// patchStep sends ops as one JSON Patch to path ("{}" stands for the id).
func patchStep(c Change, phase int, path string, ops []any) *Step {
	id := c.live.ID
	return &Step{Phase: phase, Kind: c.Kind, Key: c.Key, What: "update", Method: http.MethodPatch,
		Path: strings.ReplaceAll(path, "{}", "{"+c.Key+"}"),
		build: func(*Live) (client.Request, error) {
			return client.Request{Method: http.MethodPatch, Path: withID(path, id),
				Body: map[string]any{"operations": ops}}, nil
		}}
}

// withID fills a step's path template ("/users/{}") with an object's id,
// escaped as every path is (client.Expand), so no id changes the endpoint.
func withID(path, id string) string {
	return client.Expand(strings.ReplaceAll(path, "{}", "{id}"), map[string]string{"id": id})
}

// replaceOps replaces each changed field at its own path.
func replaceOps(c Change) []any {
	var ops []any
	for _, fc := range c.Fields {
		ops = append(ops, replaceOp("/"+fc.Field, fc.New))
	}
	return ops
}

func deleteStep(c Change, phase int, what, path string) *Step {
	return &Step{Phase: phase, Kind: c.Kind, Key: c.Key, What: what, Method: http.MethodDelete,
		Path: strings.ReplaceAll(path, "{}", "{"+c.Key+"}"),
		build: func(l *Live) (client.Request, error) {
			return client.Request{Method: http.MethodDelete, Path: withID(path, c.live.ID)}, nil
		}}
}

func attrSteps(c Change, add func(*Step)) {
	f := fieldsOf(c)
	switch c.Action {
	case Create:
		body := map[string]any{"name": c.Key}
		for _, p := range [][2]string{{"label", "label"}, {"data_type", "dataType"}, {"default_value", "defaultValue"}} {
			if v, ok := f[p[0]]; ok {
				body[p[1]] = v
			}
		}
		add(&Step{Phase: phaseAttributes, Kind: c.Kind, Key: c.Key, What: "create", Method: http.MethodPost, Path: "/user_attributes",
			build: func(*Live) (client.Request, error) {
				return client.Request{Method: http.MethodPost, Path: "/user_attributes", Body: body}, nil
			}, done: createdID(c.Kind, c.Key)})
	case Update:
		add(patchStep(c, phaseAttributes, "/user_attributes/{}", replaceOps(c)))
	case Delete:
		add(deleteStep(c, phaseAttrDel, "delete", "/user_attributes/{}"))
	}
}

func userSteps(c Change, add func(*Step)) {
	f := fieldsOf(c)
	switch c.Action {
	case Create:
		body := map[string]any{"email": c.Key}
		for _, n := range []string{"first_name", "last_name", "active"} {
			if v, ok := f[n]; ok {
				body[n] = v
			}
		}
		if md, ok := f["attributes"].(map[string]any); ok && len(md) > 0 {
			body["metadata"] = md
		}
		add(&Step{Phase: phaseUsers, Kind: c.Kind, Key: c.Key, What: "create", Method: http.MethodPost, Path: "/users",
			build: func(*Live) (client.Request, error) {
				return client.Request{Method: http.MethodPost, Path: "/users", Body: body}, nil
			}, done: createdID("users", c.Key)})
		if f["admin"] == true { // the create takes no admin flag
			add(&Step{Phase: phaseUserAdmin, Kind: c.Kind, Key: c.Key, What: "make admin", Method: http.MethodPatch, Path: "/users/{" + c.Key + "}",
				build: func(l *Live) (client.Request, error) {
					id, err := needID(l, "users", c.Key)
					return client.Request{Method: http.MethodPatch, Path: client.Path("users", id),
						Body: map[string]any{"operations": []any{replaceOp("/is_admin", true)}}}, err
				}})
		}
	case Update:
		var ops []any
		for _, fc := range c.Fields {
			name, entry, isEntry := strings.Cut(fc.Field, ".")
			switch {
			case name == "admin":
				ops = append(ops, replaceOp("/is_admin", fc.New))
			case isEntry && !fc.HasNew:
				ops = append(ops, map[string]any{"op": "remove", "path": "/metadata/" + jsonPointer(entry)})
			case isEntry:
				ops = append(ops, map[string]any{"op": "add", "path": "/metadata/" + jsonPointer(entry), "value": fc.New})
			default:
				ops = append(ops, replaceOp("/"+name, fc.New))
			}
		}
		add(patchStep(c, phaseUsers, "/users/{}", ops))
	case Delete:
		add(deleteStep(c, phaseUserDel, "disable", "/users/{}"))
	}
}

func groupSteps(c Change, add func(*Step)) {
	f := fieldsOf(c)
	switch c.Action {
	case Create:
		members, _ := f["members"].(map[string]any)
		add(&Step{Phase: phaseGroups, Kind: c.Kind, Key: c.Key, What: "create", Method: http.MethodPost, Path: "/groups",
			build: func(l *Live) (client.Request, error) {
				body := map[string]any{"name": c.Key}
				for _, fd := range KindNamed("groups").Fields {
					v, ok := f[fd.Name]
					if !ok || fd.Name == "members" || fd.Name == "landing_page_app" {
						continue
					}
					body[fd.Name] = v
				}
				if app, ok := f["landing_page_app"].(string); ok {
					id, ok := l.Apps[app]
					if !ok {
						return client.Request{}, fmt.Errorf("no app named %q", app)
					}
					body["landing_page_app_id"] = id
				}
				list, err := memberList(l, members, sortedKeys(members))
				body["members"] = list
				return client.Request{Method: http.MethodPost, Path: "/groups", Body: body}, err
			}, done: createdID("groups", c.Key)})
	case Update:
		var ops []any
		var upsert, remove []string
		for _, fc := range c.Fields {
			name, entry, isEntry := strings.Cut(fc.Field, ".")
			switch {
			case isEntry && name == "members" && fc.HasNew:
				upsert = append(upsert, entry)
			case isEntry && name == "members":
				remove = append(remove, entry)
			case name == "landing_page_app":
				ops = append(ops, fc) // resolved when the step runs
			default:
				ops = append(ops, replaceOp("/"+name, fc.New))
			}
		}
		id := c.live.ID
		if len(ops) > 0 {
			add(&Step{Phase: phaseGroups, Kind: c.Kind, Key: c.Key, What: "update", Method: http.MethodPatch, Path: "/groups/{" + c.Key + "}",
				build: func(l *Live) (client.Request, error) {
					out := make([]any, len(ops))
					for i, op := range ops {
						if fc, ok := op.(FieldChange); ok {
							var v any
							if app, ok := fc.New.(string); ok {
								appID, found := l.Apps[app]
								if !found {
									return client.Request{}, fmt.Errorf("no app named %q", app)
								}
								v = appID
							}
							op = replaceOp("/landing_page_app_id", v)
						}
						out[i] = op
					}
					return client.Request{Method: http.MethodPatch, Path: client.Path("groups", id), Body: map[string]any{"operations": out}}, nil
				}})
		}
		if len(upsert) > 0 {
			members, _ := f["members"].(map[string]any)
			add(&Step{Phase: phaseMembers, Kind: c.Kind, Key: c.Key, What: "add members", Method: http.MethodPost,
				Path: "/groups/{" + c.Key + "}/members",
				build: func(l *Live) (client.Request, error) {
					list, err := memberList(l, members, upsert)
					return client.Request{Method: http.MethodPost, Path: client.Path("groups", id, "members"),
						Body: map[string]any{"members": list}}, err
				}})
		}
		for _, email := range remove {
			email := email
			add(&Step{Phase: phaseMembers, Kind: c.Kind, Key: c.Key + " " + email, What: "remove member", Method: http.MethodDelete,
				Path: "/groups/{" + c.Key + "}/members/{" + email + "}",
				build: func(l *Live) (client.Request, error) {
					uid, err := needID(l, "users", email)
					return client.Request{Method: http.MethodDelete, Path: client.Path("groups", id, "members", uid)}, err
				}})
		}
	case Delete:
		add(deleteStep(c, phaseGroupDel, "delete", "/groups/{}"))
	}
}

func memberList(l *Live, members map[string]any, emails []string) ([]any, error) {
	list := []any{}
	for _, email := range emails {
		uid, err := needID(l, "users", email)
		if err != nil {
			return nil, err
		}
		list = append(list, map[string]any{"id": uid, "is_group_admin": members[email] == "admin"})
	}
	return list, nil
}

func folderSteps(c Change, maxDepth int, add func(*Step)) {
	typ, names, _ := splitFolder(c.Key)
	switch c.Action {
	case Create:
		add(&Step{Phase: phaseFolders + len(names), Kind: c.Kind, Key: c.Key, What: "create", Method: http.MethodPost, Path: "/folders",
			build: func(l *Live) (client.Request, error) {
				body := map[string]any{"name": names[len(names)-1], "folder_type": typ}
				if len(names) > 1 {
					pid, err := needID(l, "folders", folderKey(typ, names[:len(names)-1]))
					if err != nil {
						return client.Request{}, err
					}
					body["parent_folder_id"] = pid
				}
				return client.Request{Method: http.MethodPost, Path: "/folders", Body: body}, nil
			}, done: createdID("folders", c.Key)})
	case Delete:
		add(deleteStep(c, phaseFolderDel+maxDepth-len(names), "delete", "/folders/{}"))
	}
}

// grantSteps grant each new or changed entry and revoke each removed one.
func grantSteps(c Change, add func(*Step)) {
	typ, name, _ := splitSubject(c.Key)
	for _, fc := range c.Fields {
		fc := fc
		field, obj, _ := strings.Cut(fc.Field, ".")
		objType := strings.TrimSuffix(field, "s")
		what, path, phase := "grant", "/permissions/grant", phaseGrants
		if !fc.HasNew {
			what, path = "revoke", "/permissions/revoke"
			if c.Action == Delete {
				phase = phaseRevoke
			}
		}
		says := fmt.Sprintf("Granted %v on %s %s to %s %s", fc.New, objType, obj, typ, name)
		if what == "revoke" {
			says = fmt.Sprintf("Revoked %v on %s %s from %s %s", fc.Old, objType, obj, typ, name)
		}
		add(&Step{Phase: phase, Kind: c.Kind, Key: c.Key + " " + objType + ":" + obj, What: what, Method: http.MethodPost, Path: path, says: says,
			build: func(l *Live) (client.Request, error) {
				var subj map[string]any
				sid, err := needID(l, typ+"s", name)
				if err != nil {
					return client.Request{}, err
				}
				if typ == "group" {
					var n json.Number = json.Number(sid)
					subj = map[string]any{"type": "group", "id": n}
				} else {
					subj = map[string]any{"type": "user", "id": sid}
				}
				var oid string
				if objType == "app" {
					id, ok := l.Apps[obj]
					if !ok {
						return client.Request{}, fmt.Errorf("no app named %q", obj)
					}
					oid = id
				} else if oid, err = needID(l, "folders", obj); err != nil {
					return client.Request{}, err
				}
				body := map[string]any{"subject": subj, "object": map[string]any{"type": objType, "id": oid}}
				if fc.HasNew {
					body["access_level"] = fc.New
				}
				return client.Request{Method: http.MethodPost, Path: path, Body: body}, nil
			}})
	}
}

func envSteps(c Change, add func(*Step)) {
	f := fieldsOf(c)
	switch c.Action {
	case Create:
		body := map[string]any{"name": c.Key}
		for _, n := range []string{"description", "color"} {
			if v, ok := f[n]; ok {
				body[n] = v
			}
		}
		add(&Step{Phase: phaseEnvs, Kind: c.Kind, Key: c.Key, What: "create", Method: http.MethodPost, Path: "/environments",
			build: func(*Live) (client.Request, error) {
				return client.Request{Method: http.MethodPost, Path: "/environments", Body: body}, nil
			}, done: createdID(c.Kind, c.Key)})
	case Update:
		add(patchStep(c, phaseEnvs, "/environments/{}", replaceOps(c)))
	case Delete:
		add(deleteStep(c, phaseDelete, "delete", "/environments/{}"))
	}
}

// configVarSteps send the whole variable (create, or PUT to update): the
// API takes its values only as a set. Secrets come from the environment.
func configVarSteps(c Change, add func(*Step)) {
	f := fieldsOf(c)
	if c.Action == Delete {
		add(deleteStep(c, phaseDelete, "delete", "/configuration_variables/{}"))
		return
	}
	method, path, pathShown := http.MethodPost, "/configuration_variables", "/configuration_variables"
	what := "create"
	if c.Action == Update {
		method, path, pathShown, what = http.MethodPut, client.Path("configuration_variables", c.live.ID), "/configuration_variables/{"+c.Key+"}", "update"
	}
	var liveF map[string]any
	if c.live != nil {
		liveF = c.live.Fields
	}
	add(&Step{Phase: phaseConfigVars, Kind: c.Kind, Key: c.Key, What: what, Method: method, Path: pathShown,
		build: func(l *Live) (client.Request, error) {
			body := map[string]any{"name": c.Key}
			for _, n := range []string{"description", "secret"} {
				if v, ok := f[n]; ok {
					body[n] = v
				} else if v, ok := liveF[n]; ok {
					body[n] = v
				}
			}
			if _, ok := body["secret"]; !ok {
				body["secret"] = false
			}
			vals, _ := f["values"].(map[string]any)
			list := []any{}
			for _, env := range sortedKeys(vals) {
				eid, err := needID(l, "environments", env)
				if err != nil {
					return client.Request{}, err
				}
				v := fmt.Sprint(vals[env])
				if m := secretRef.Get().FindStringSubmatch(v); m != nil {
					v = os.Getenv(m[1])
				}
				list = append(list, map[string]any{"environment_id": eid, "value": v})
			}
			body["values"] = list
			return client.Request{Method: method, Path: path, Body: body}, nil
		}, done: createdID(c.Kind, c.Key)})
}

func themeSteps(c Change, add func(*Step)) {
	f := fieldsOf(c)
	switch c.Action {
	case Create, Update:
		method, what := http.MethodPost, "create"
		if c.Action == Update {
			method, what = http.MethodPut, "update"
		}
		var id string
		if c.live != nil {
			id = c.live.ID
		}
		add(&Step{Phase: phaseThemes, Kind: c.Kind, Key: c.Key, What: what, Method: method, Path: "/app_themes",
			build: func(*Live) (client.Request, error) {
				body := map[string]any{"name": c.Key, "theme": f["theme"]}
				if id != "" {
					body["id"] = json.Number(id)
				}
				return client.Request{Method: method, Path: "/app_themes", Body: body}, nil
			}, done: createdID(c.Kind, c.Key)})
	case Delete:
		add(deleteStep(c, phaseDelete, "delete", "/app_themes/{}"))
	}
}
