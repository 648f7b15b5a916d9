package sandbox

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/orgctl/orgctl/client/changes"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/output/lazy"
)

// addFamilyHandlers adds the families' own handlers to custom.
func addFamilyHandlers(custom map[string]handler) {
	for k, h := range map[string]handler{
		"POST /users":                  createUser,
		"PUT /users/reset2fa/{userId}": reset2FA,
		"POST /users/{userId}/user_attributes": func(c *call) (int, any) {
			return setAttribute(c, "/users", c.params["userId"])
		},
		"DELETE /users/{userId}/user_attributes/{attributeName}": func(c *call) (int, any) {
			return deleteAttribute(c, "/users", c.params["userId"])
		},
		"POST /user_invites/{userInviteId}/user_attributes": func(c *call) (int, any) {
			return setAttribute(c, "/user_invites", c.params["userInviteId"])
		},
		"DELETE /user_invites/{userInviteId}/user_attributes/{attributeName}": func(c *call) (int, any) {
			return deleteAttribute(c, "/user_invites", c.params["userInviteId"])
		},
		"POST /user_invites":                                   createInvite,
		"POST /groups":                                         createGroup,
		"POST /groups/{groupId}/members":                       addMembers,
		"DELETE /groups/{groupId}/members/{userId}":            removeMember,
		"POST /groups/{groupId}/user_invites":                  addGroupInvites,
		"DELETE /groups/{groupId}/user_invites/{userInviteId}": removeGroupInvite,
		"POST /folders":                                        createFolder,
		"PATCH /folders/{folderId}":                            patchFolder,
		"PUT /groups/{groupId}":                                changeGroup,
		"PATCH /groups/{groupId}":                              changeGroup,
		"DELETE /groups/{groupId}":                             changeGroup,
		"DELETE /folders/{folderId}":                           deleteFolder,
		"DELETE /users/{userId}":                               disableUser,
		"POST /spaces":                                         createSpace,
		"PUT /spaces/{spaceId}":                                renameSpace,
		"DELETE /spaces/{spaceId}":                             deleteSpace,
		"GET /access_tokens":                                   listTokens,
		"POST /access_tokens":                                  createToken,
		"GET /access_tokens/{accessTokenId}":                   getToken,
		"POST /resources":                                      createResource,
		"PATCH /resources/{resourceId}":                        patchResource,
		"GET /resources/{resourceId}":                          getResource,
		"DELETE /resources/{resourceId}":                       deleteResource,
		"POST /environments":                                   createEnvironment,
		"POST /user_attributes":                                createUserAttribute,
		"POST /configuration_variables":                        saveConfigVar,
		"PUT /configuration_variables/{id}":                    saveConfigVar,
		"POST /apps":                                           createApp,
		"POST /apps/cloneApp":                                  cloneApp,
		"PATCH /access_requests/{accessRequestId}":             patchAccessRequest,
		"POST /permissions/grant":                              grant,
		"POST /permissions/revoke":                             revoke,
		"POST /permissions/listObjects":                        listObjects,
		"GET /permissions/accessList/{objectType}/{objectId}":  accessList,
		"POST /organization/invalidate_sessions":               func(c *call) (int, any) { return 204, nil },
	} {
		custom[k] = h
	}
}

func (o *org) userByEmail(email string) obj {
	for _, u := range o.Collections["/users"] {
		if strings.EqualFold(fmt.Sprint(u["email"]), email) {
			return u
		}
	}
	return nil
}

func userID(n int) string { return collectionAt("/users").id(n).(string) }

func (o *org) addUser(email, first, last string, admin, active bool, at time.Time) obj {
	n := o.next("/users")
	u := obj{"id": userID(n), "legacy_id": float64(n), "email": email, "first_name": first, "last_name": last,
		"active": active, "created_at": stamp(at), "last_active": nil, "metadata": obj{}, "is_admin": admin,
		"user_type": "default", "two_factor_auth_enabled": false, "seat_type": seatFor(email, admin)}
	o.Collections["/users"] = append(o.Collections["/users"], u)
	return u
}

func createUser(c *call) (int, any) {
	email, _ := c.body["email"].(string)
	if c.org.userByEmail(email) != nil {
		return 409, errBody("User with email %q already exists", email)
	}
	u := c.newObject("/users", c.rt.key, c.body)
	c.org.Seq["/users"]-- // addUser below takes the number newObject took
	n := c.org.next("/users")
	u["id"], u["legacy_id"], u["last_active"], u["is_admin"] = userID(n), float64(n), nil, false
	u["created_at"] = stamp(c.now)
	if _, ok := u["seat_type"].(string); !ok {
		u["seat_type"] = seatFor(email, false)
	}
	c.org.Collections["/users"] = append(c.org.Collections["/users"], u)
	// All Users holds everyone: the service puts a new user in it.
	if c.org.groupByName("All Users") != nil {
		c.org.join("All Users", u, false)
	}
	return 200, one(u)
}

// disableUser is DELETE /users/{id}: the service disables the user and keeps
// the record ("Disables a user from the organization").
func disableUser(c *call) (int, any) {
	_, u := c.org.find("/users", c.params["userId"])
	if u == nil {
		return notFound("/users", c.params["userId"])
	}
	u["active"] = false
	return 204, nil
}

func reset2FA(c *call) (int, any) {
	_, u := c.org.find("/users", c.params["userId"])
	if u == nil {
		return notFound("/users", c.params["userId"])
	}
	u["two_factor_auth_enabled"] = false
	return 204, nil
}

func setAttribute(c *call, coll, id string) (int, any) {
	_, it := c.org.find(coll, id)
	if it == nil {
		return notFound(coll, id)
	}
	md, _ := it["metadata"].(map[string]any)
	if md == nil {
		md = obj{}
		it["metadata"] = md
	}
	md[fmt.Sprint(c.body["name"])] = c.body["value"]
	return 200, one(obj{"metadata": md})
}

func deleteAttribute(c *call, coll, id string) (int, any) {
	_, it := c.org.find(coll, id)
	if it == nil {
		return notFound(coll, id)
	}
	md, _ := it["metadata"].(map[string]any)
	name := c.params["attributeName"]
	if _, ok := md[name]; !ok {
		return 404, errBody("User attribute %q not found", name)
	}
	delete(md, name)
	return 200, one(obj{"metadata": md})
}

func createInvite(c *call) (int, any) {
	inv := c.newObject("/user_invites", c.rt.key, c.body)
	inv["invited_email"] = c.body["email"]
	inv["invited_by"] = c.tok.OwnerEmail
	inv["expires_at"] = stamp(c.now.Add(7 * 24 * time.Hour))
	inv["claimed_by"], inv["claimed_at"] = nil, nil
	inv["invite_link"] = fmt.Sprintf("https://%s/invite/%v", c.host, inv["id"])
	groups := []any{}
	ids, _ := c.body["defaultGroupIds"].([]any)
	for _, gid := range ids {
		_, g := c.org.find("/groups", fmt.Sprint(gid))
		if g == nil {
			return notFound("/groups", fmt.Sprint(gid))
		}
		groups = append(groups, obj{"id": g["id"], "legacy_id": g["legacy_id"], "name": g["name"]})
	}
	inv["groups"] = groups
	c.org.Collections["/user_invites"] = append(c.org.Collections["/user_invites"], inv)
	return 200, one(inv)
}

func createGroup(c *call) (int, any) {
	for _, g := range c.org.Collections["/groups"] {
		if g["name"] == c.body["name"] {
			return 409, errBody("Group with name %q already exists", c.body["name"])
		}
	}
	// Members come as {id, is_group_admin}; the published answer lists each with its email.
	members := []any{}
	reqs, _ := c.body["members"].([]any)
	for _, r := range reqs {
		m, _ := r.(map[string]any)
		id := fmt.Sprint(m["id"])
		_, u := c.org.find("/users", id)
		if u == nil {
			return notFound("/users", id)
		}
		members = append(members, obj{"id": u["id"], "email": u["email"], "is_group_admin": m["is_group_admin"] == true})
	}
	g := c.newObject("/groups", c.rt.key, c.body)
	g["members"] = members
	g["landing_page_app_id"] = c.body["landing_page_app_id"]
	c.org.Collections["/groups"] = append(c.org.Collections["/groups"], g)
	return 200, one(g)
}

// builtinGroup tells the groups every org is made with and relies on: admin
// makes its members admins, All Users holds everyone. The API refuses to
// delete or rename them, as it refuses to change a system folder.
func builtinGroup(name string) bool { return name == "admin" || name == "All Users" }

// changeGroup is PUT, PATCH and DELETE of one group, refused for a built-in
// group when it would delete or rename it.
func changeGroup(c *call) (int, any) {
	_, g := c.org.find("/groups", c.params["groupId"])
	if g != nil && builtinGroup(fmt.Sprint(g["name"])) {
		if c.rt.Method == "DELETE" {
			return 422, errBody("Group %q is built in and cannot be deleted", g["name"])
		}
		if name, renamed := newGroupName(c); renamed && name != g["name"] {
			return 422, errBody("Group %q is built in and cannot be renamed", g["name"])
		}
	}
	if c.rt.Method == "PUT" {
		return replaceGroup(c)
	}
	return c.generic("/groups", "groupId")
}

// newGroupName is the name a PUT or PATCH body gives the group, if any.
func newGroupName(c *call) (any, bool) {
	if c.rt.Method == "PUT" {
		name, ok := c.body["name"]
		return name, ok
	}
	ops, _ := c.body["operations"].([]any)
	for _, raw := range ops {
		op, _ := raw.(map[string]any)
		if op["path"] == "/name" && op["op"] != "test" {
			return op["value"], true
		}
	}
	return nil, false
}

func addMembers(c *call) (int, any) {
	_, g := c.org.find("/groups", c.params["groupId"])
	if g == nil {
		return notFound("/groups", c.params["groupId"])
	}
	members, _ := g["members"].([]any)
	reqs, _ := c.body["members"].([]any)
	for _, r := range reqs {
		m := r.(map[string]any)
		id := fmt.Sprint(m["id"])
		_, u := c.org.find("/users", id)
		if u == nil {
			return notFound("/users", id)
		}
		entry := obj{"id": u["id"], "email": u["email"], "is_group_admin": m["is_group_admin"] == true}
		replaced := false
		for i, ex := range members {
			if ex.(map[string]any)["id"] == u["id"] {
				members[i], replaced = entry, true
			}
		}
		if !replaced {
			members = append(members, entry)
		}
	}
	g["members"] = members
	touch(g, c.now)
	return 200, one(g)
}

func removeMember(c *call) (int, any) {
	_, g := c.org.find("/groups", c.params["groupId"])
	if g == nil {
		return notFound("/groups", c.params["groupId"])
	}
	members, _ := g["members"].([]any)
	kept := []any{}
	for _, m := range members {
		if fmt.Sprint(m.(map[string]any)["id"]) != c.params["userId"] {
			kept = append(kept, m)
		}
	}
	if len(kept) == len(members) {
		return 404, errBody("User %q is not a member of group %s", c.params["userId"], c.params["groupId"])
	}
	g["members"] = kept
	return 200, one(g)
}

func addGroupInvites(c *call) (int, any) {
	_, g := c.org.find("/groups", c.params["groupId"])
	if g == nil {
		return notFound("/groups", c.params["groupId"])
	}
	invites, _ := g["user_invites"].([]any)
	ids, _ := c.body["userInviteIds"].([]any)
	for _, id := range ids {
		_, inv := c.org.find("/user_invites", fmt.Sprint(id))
		if inv == nil {
			return notFound("/user_invites", fmt.Sprint(id))
		}
		invites = append(invites, deepCopy(inv))
	}
	g["user_invites"] = invites
	return 200, one(g)
}

func removeGroupInvite(c *call) (int, any) {
	_, g := c.org.find("/groups", c.params["groupId"])
	if g == nil {
		return notFound("/groups", c.params["groupId"])
	}
	invites, _ := g["user_invites"].([]any)
	kept := []any{}
	for _, inv := range invites {
		if fmt.Sprint(inv.(map[string]any)["id"]) != c.params["userInviteId"] {
			kept = append(kept, inv)
		}
	}
	if len(kept) == len(invites) {
		return notFound("/user_invites", c.params["userInviteId"])
	}
	g["user_invites"] = kept
	return 204, nil
}

func (o *org) addFolder(name, typ string, parent any, system bool, at time.Time) obj {
	id := kinds.FolderID(typ, o.next(folderSeq(typ)))
	f := obj{"id": id, "legacy_id": id, "name": name, "parent_folder_id": parent, "is_system_folder": system,
		"folder_type": typ, "created_at": stamp(at), "updated_at": stamp(at)}
	o.Collections["/folders"] = append(o.Collections["/folders"], f)
	return f
}

// folderSeq is the counter a folder type's ids come from: the live API numbers
// resource folders apart (resource_1, resource_2 beside app_1 ... workflow_11).
func folderSeq(typ string) string {
	if typ == "resource" {
		return resourceFolderSeq
	}
	return "/folders"
}

const resourceFolderSeq = "/folders:resource"

// addPersonalFolders gives a user who has signed in what the live API creates
// then: "(legacy_id) First Last's Drafts" under personalRoot, its Trash under
// it; and the sign-in shows as last_active.
func (o *org) addPersonalFolders(u obj, at time.Time) {
	owner := fmt.Sprintf("(%v) %v %v's", u["legacy_id"], u["first_name"], u["last_name"])
	drafts := o.addFolder(owner+" Drafts", "app", o.topFolder("app", personalRootName), true, at)
	o.addFolder(owner+" Trash", "app", drafts["id"], true, at)
	u["last_active"] = stamp(at)
}

// personalRootName is the parentless app folder that holds every user's Drafts.
const personalRootName = "personalRoot"

func (o *org) rootFolder(typ string) any { return o.topFolder(typ, "root") }

// topFolder is the id of the parentless folder of a type with that name (root, personalRoot).
func (o *org) topFolder(typ, name string) any {
	for _, f := range o.Collections["/folders"] {
		if f["folder_type"] == typ && f["parent_folder_id"] == nil && f["name"] == name {
			return f["id"]
		}
	}
	return nil
}

func createFolder(c *call) (int, any) {
	typ := fmt.Sprint(c.body["folder_type"])
	parent := c.body["parent_folder_id"]
	if parent == nil {
		parent = c.org.rootFolder(typ)
	} else {
		_, p := c.org.find("/folders", fmt.Sprint(parent))
		if p == nil {
			return notFound("/folders", fmt.Sprint(parent))
		}
		if p["folder_type"] != typ {
			return 422, errBody(`"parent_folder_id" %v is a %v folder, not a %s folder`, parent, p["folder_type"], typ)
		}
	}
	for _, f := range c.org.Collections["/folders"] {
		if f["name"] == c.body["name"] && f["parent_folder_id"] == parent && f["folder_type"] == typ {
			return 409, errBody("A folder named %q already exists in this parent folder", c.body["name"])
		}
	}
	return 200, one(c.org.addFolder(fmt.Sprint(c.body["name"]), typ, parent, false, c.now))
}

func patchFolder(c *call) (int, any) {
	i, f := c.org.find("/folders", c.params["folderId"])
	if f == nil {
		return notFound("/folders", c.params["folderId"])
	}
	if f["is_system_folder"] == true {
		return 422, errBody("System folder %q cannot be changed", f["id"])
	}
	next, msg := applyPatch(f, c.body)
	if msg != "" {
		return 400, errBody("%s", msg)
	}
	if p := next["parent_folder_id"]; p != nil && p != f["parent_folder_id"] {
		_, pf := c.org.find("/folders", fmt.Sprint(p))
		if pf == nil {
			return notFound("/folders", fmt.Sprint(p))
		}
		if pf["folder_type"] != f["folder_type"] || p == f["id"] {
			return 422, errBody(`"parent_folder_id" %v cannot hold this folder`, p)
		}
	}
	touch(next, c.now)
	c.org.Collections["/folders"][i] = next
	return 200, one(next)
}

func deleteFolder(c *call) (int, any) {
	i, f := c.org.find("/folders", c.params["folderId"])
	if f == nil {
		return notFound("/folders", c.params["folderId"])
	}
	if f["is_system_folder"] == true {
		return 422, errBody("System folder %q cannot be deleted", f["id"])
	}
	for _, ch := range c.org.Collections["/folders"] {
		if ch["parent_folder_id"] == f["id"] && c.q.Get("recursive") != "true" {
			return 409, errBody("Folder %q is not empty; pass recursive=true to delete it with its contents", f["id"])
		}
	}
	fs := c.org.Collections["/folders"]
	c.org.Collections["/folders"] = append(fs[:i:i], fs[i+1:]...)
	return 204, nil
}

func createSpace(c *call) (int, any) {
	if c.space != "" {
		return 403, errBody("Forbidden: spaces can only be created from the primary organization")
	}
	name := fmt.Sprint(c.body["name"])
	if strings.ContainsAny(name, "/?#% ") {
		return 400, errBody(`"name" must be usable in a URL path (no '/', '?', '#', '%%' or spaces)`)
	}
	if c.s.st.Orgs[name] != nil {
		return 409, errBody("Space %q already exists", name)
	}
	sp := c.newObject("/spaces", c.rt.key, c.body)
	c.org.Collections["/spaces"] = append(c.org.Collections["/spaces"], sp)
	o := newOrg(name)
	seedOrgBasics(o, c.now)
	owner := c.s.st.Orgs[""].userByEmail(c.tok.OwnerEmail)
	first, last := "Space", "Admin"
	if owner != nil {
		first, last = fmt.Sprint(owner["first_name"]), fmt.Sprint(owner["last_name"])
	}
	o.addUser(c.tok.OwnerEmail, first, last, true, true, c.now)
	if opts, ok := c.body["options"].(map[string]any); ok {
		emails, _ := opts["users_to_copy_as_admins"].([]any)
		for _, e := range emails {
			if o.userByEmail(fmt.Sprint(e)) == nil {
				o.addUser(fmt.Sprint(e), "Space", "Admin", true, true, c.now)
			}
		}
	}
	c.s.st.Orgs[name] = o
	return 200, one(c.present("/spaces", sp))
}

func renameSpace(c *call) (int, any) {
	i, sp := c.org.find("/spaces", c.params["spaceId"])
	if sp == nil {
		return notFound("/spaces", c.params["spaceId"])
	}
	oldName := fmt.Sprint(sp["name"])
	if n, ok := c.body["name"].(string); ok && n != oldName {
		if c.s.st.Orgs[n] != nil {
			return 409, errBody("Space %q already exists", n)
		}
		o := c.s.st.Orgs[oldName]
		delete(c.s.st.Orgs, oldName)
		o.Name = n
		c.s.st.Orgs[n] = o
		sp["name"] = n
	}
	if d, ok := c.body["domain"]; ok {
		sp["domain"] = d
	}
	touch(sp, c.now)
	c.org.Collections["/spaces"][i] = sp
	return 200, one(c.present("/spaces", sp))
}

func deleteSpace(c *call) (int, any) {
	i, sp := c.org.find("/spaces", c.params["spaceId"])
	if sp == nil {
		return notFound("/spaces", c.params["spaceId"])
	}
	delete(c.s.st.Orgs, fmt.Sprint(sp["name"]))
	ss := c.org.Collections["/spaces"]
	c.org.Collections["/spaces"] = append(ss[:i:i], ss[i+1:]...)
	return 204, nil
}

// knownScopes are the scope strings tokens may carry; others are ignored at creation, as published.
var knownScopes = lazy.Value[map[string]bool]{New: func() map[string]bool {
	m := map[string]bool{"data_security:read": true, "usage": true, "usage:organization": true,
		"usage:spaces": true, "usage:license": true}
	for _, s := range spec.Scopes() {
		m[s] = true
		if base, ok := strings.CutSuffix(s, ":read"); ok {
			m[base+":write"] = true
		}
	}
	return m
}}

// AllScopes lists every scope string the sandbox knows, sorted.
func AllScopes() []string {
	out := make([]string, 0, len(knownScopes.Get()))
	for s := range knownScopes.Get() {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func (c *call) tokenView(t *token) obj {
	var legacy any = float64(0)
	if u := c.org.userByEmail(t.OwnerEmail); u != nil {
		legacy = u["legacy_id"]
	}
	var desc any
	if t.Description != nil {
		desc = *t.Description
	}
	scopes := make([]any, len(t.Scopes))
	for i, s := range t.Scopes {
		scopes[i] = s
	}
	return obj{"id": t.ID, "label": t.Label, "description": desc, "last4": t.Value[len(t.Value)-4:],
		"owner_legacy_id": legacy, "scopes": scopes, "created_at": t.CreatedAt, "updated_at": t.CreatedAt}
}

func listTokens(c *call) (int, any) {
	var all []any
	for _, t := range c.org.Tokens {
		all = append(all, c.tokenView(t))
	}
	return c.page(all)
}

func getToken(c *call) (int, any) {
	for _, t := range c.org.Tokens {
		if t.ID == c.params["accessTokenId"] {
			return 200, one(c.tokenView(t))
		}
	}
	return notFound("/access_tokens", c.params["accessTokenId"])
}

func createToken(c *call) (int, any) {
	if u := c.org.userByEmail(c.tok.OwnerEmail); u == nil || u["is_admin"] != true {
		return 403, errBody("Forbidden: only organization admins can create access tokens")
	}
	var scopes []string
	raw, _ := c.body["scopes"].([]any)
	for _, s := range raw {
		if str, ok := s.(string); ok && knownScopes.Get()[str] {
			scopes = append(scopes, str)
		}
	}
	var desc *string
	if d, ok := c.body["description"].(string); ok {
		desc = &d
	}
	t := c.org.mint(fmt.Sprint(c.body["label"]), desc, c.tok.OwnerEmail, scopes, c.now)
	v := c.tokenView(t)
	v["access_token"] = t.Value
	return 200, one(v)
}

// checkTSQL enforces the service's allowlist of paramsFromConnectionString keys on Windows-auth mssql
// resources, so scripts meet the rejection here before they meet it in production.
func checkTSQL(typ any, options any) string {
	opts, _ := options.(map[string]any)
	if typ != "mssql" || opts == nil {
		return ""
	}
	if v, ok := opts["connector_version"]; ok && v != "1.0" && v != "2.0" && v != "3.0" {
		return `"options.connector_version" must be one of: 1.0, 2.0, 3.0`
	}
	if v, ok := opts["windows_auth"]; ok {
		if _, isBool := v.(bool); !isBool {
			return `"options.windows_auth" must be a boolean`
		}
	}
	params, present := opts["params_from_connection_string"]
	pm, isMap := params.(map[string]any)
	if present && params != nil && !isMap {
		return `"options.params_from_connection_string" must be an object`
	}
	if opts["windows_auth"] != true {
		return ""
	}
	keys := make([]string, 0, len(pm))
	for k := range pm {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := changes.CheckODBCKey(k); !ok {
			return fmt.Sprintf(`Unsupported ODBC connection string parameter "%s". Only a fixed set of ODBC attributes may be supplied via connection params.`, k)
		}
	}
	return ""
}

func createResource(c *call) (int, any) {
	if msg := checkTSQL(c.body["type"], c.body["options"]); msg != "" {
		return 400, errBody("%s", msg)
	}
	r := c.newObject("/resources", c.rt.key, c.body)
	r["folder_id"] = c.body["folder_id"]
	if opts, ok := c.body["options"].(map[string]any); ok {
		r["options"] = opts
	}
	c.org.Collections["/resources"] = append(c.org.Collections["/resources"], r)
	return 200, one(r)
}

func (o *org) findResource(id string) (int, obj) {
	if i, r := o.find("/resources", id); r != nil {
		return i, r
	}
	for i, r := range o.Collections["/resources"] {
		if r["display_name"] == id {
			return i, r
		}
	}
	return -1, nil
}

func getResource(c *call) (int, any) {
	_, r := c.org.findResource(c.params["resourceId"])
	if r == nil {
		return notFound("/resources", c.params["resourceId"])
	}
	return 200, one(c.present("/resources", r))
}

// deleteResource accepts a name as well as an id, as the published resourceId does.
func deleteResource(c *call) (int, any) {
	i, r := c.org.findResource(c.params["resourceId"])
	if r == nil {
		return notFound("/resources", c.params["resourceId"])
	}
	c.org.Collections["/resources"] = append(c.org.Collections["/resources"][:i:i], c.org.Collections["/resources"][i+1:]...)
	return 204, nil
}

func patchResource(c *call) (int, any) {
	i, r := c.org.findResource(c.params["resourceId"])
	if r == nil {
		return notFound("/resources", c.params["resourceId"])
	}
	if _, ok := r["options"]; !ok {
		r["options"] = obj{}
	}
	next, msg := applyPatch(r, c.body)
	if msg != "" {
		return 400, errBody("%s", msg)
	}
	if msg := checkTSQL(next["type"], next["options"]); msg != "" {
		return 400, errBody("%s", msg)
	}
	touch(next, c.now)
	c.org.Collections["/resources"][i] = next
	return 200, one(next)
}

func createEnvironment(c *call) (int, any) {
	for _, e := range c.org.Collections["/environments"] {
		if e["name"] == c.body["name"] {
			return 409, errBody("Environment with name %q already exists", c.body["name"])
		}
	}
	e := c.newObject("/environments", c.rt.key, c.body)
	e["default"] = false
	if _, ok := c.body["description"]; !ok {
		e["description"] = ""
	}
	c.org.Collections["/environments"] = append(c.org.Collections["/environments"], e)
	return 200, one(e)
}

// createUserAttribute stores the published body's dataType and defaultValue under the names
// the published list shows (data_type, default_value).
func createUserAttribute(c *call) (int, any) {
	for _, a := range c.org.Collections["/user_attributes"] {
		if a["name"] == c.body["name"] {
			return 409, errBody("User attribute %q already exists", c.body["name"])
		}
	}
	a := c.newObject("/user_attributes", c.rt.key, c.body)
	a["data_type"], a["default_value"] = c.body["dataType"], c.body["defaultValue"]
	c.org.Collections["/user_attributes"] = append(c.org.Collections["/user_attributes"], a)
	return 200, one(a)
}

func saveConfigVar(c *call) (int, any) {
	vals, _ := c.body["values"].([]any)
	for _, v := range vals {
		env := fmt.Sprint(v.(map[string]any)["environment_id"])
		if _, e := c.org.find("/environments", env); e == nil {
			return 400, errBody("Environment with id %q does not exist", env)
		}
	}
	if c.rt.Method == "POST" {
		cv := c.newObject("/configuration_variables", c.rt.key, c.body)
		if _, ok := c.body["description"]; !ok {
			cv["description"] = ""
		}
		c.org.Collections["/configuration_variables"] = append(c.org.Collections["/configuration_variables"], cv)
		return 200, one(cv)
	}
	return c.generic("/configuration_variables", "id")
}

func createApp(c *call) (int, any) {
	folder := c.body["folder_id"]
	if folder == nil {
		folder = c.org.rootFolder("app")
	} else if _, f := c.org.find("/folders", fmt.Sprint(folder)); f == nil {
		return notFound("/folders", fmt.Sprint(folder))
	}
	a := c.newObject("/apps", c.rt.key, c.body)
	a["folder_id"] = folder
	if _, ok := c.body["description"]; !ok {
		a["description"] = ""
	}
	a["shortlink"] = nil
	a["release_version"] = ""
	c.org.Collections["/apps"] = append(c.org.Collections["/apps"], a)
	return 200, one(a)
}

func cloneApp(c *call) (int, any) {
	_, src := c.org.find("/apps", fmt.Sprint(c.body["app_id"]))
	if src == nil {
		return notFound("/apps", fmt.Sprint(c.body["app_id"]))
	}
	folder := src["folder_id"]
	if f, ok := c.body["folder_id"]; ok {
		if _, fo := c.org.find("/folders", fmt.Sprint(f)); fo == nil {
			return notFound("/folders", fmt.Sprint(f))
		}
		folder = f
	}
	a := deepCopy(src).(map[string]any)
	a["id"] = collectionAt("/apps").id(c.org.next("/apps"))
	a["name"], a["folder_id"], a["protected"], a["synced"] = c.body["new_app_name"], folder, false, false
	a["created_at"], a["updated_at"] = stamp(c.now), stamp(c.now)
	c.org.Collections["/apps"] = append(c.org.Collections["/apps"], a)
	return 200, one(a)
}

func patchAccessRequest(c *call) (int, any) {
	i, ar := c.org.find("/access_requests", c.params["accessRequestId"])
	if ar == nil {
		return notFound("/access_requests", c.params["accessRequestId"])
	}
	next, msg := applyPatch(ar, c.body)
	if msg != "" {
		return 400, errBody("%s", msg)
	}
	switch next["status"] {
	case "PENDING", "APPROVED", "DENIED":
	default:
		return 400, errBody(`"status" must be one of: APPROVED, DENIED`)
	}
	if ar["status"] != "PENDING" && next["status"] != ar["status"] {
		return 409, errBody("Access request %v was already %v", ar["id"], ar["status"])
	}
	if u := c.org.userByEmail(c.tok.OwnerEmail); u != nil {
		next["updated_by_id"] = u["id"]
	}
	touch(next, c.now)
	c.org.Collections["/access_requests"][i] = next
	return 200, one(next)
}

// grants are stored as {subject_type, subject_id, type, id, access_level} in "/permissions".
func grant(c *call) (int, any) {
	subj, obj_ := c.body["subject"].(map[string]any), c.body["object"].(map[string]any)
	if msg := c.checkSubject(subj); msg != "" {
		return 404, errBody("%s", msg)
	}
	if msg := c.checkObject(obj_); msg != "" {
		return 404, errBody("%s", msg)
	}
	g := obj{"subject_type": subj["type"], "subject_id": fmt.Sprint(subj["id"]), "type": obj_["type"],
		"id": obj_["id"], "access_level": c.body["access_level"]}
	ps := c.org.Collections["/permissions"]
	kept := ps[:0:0]
	for _, p := range ps {
		if !(p["subject_type"] == g["subject_type"] && p["subject_id"] == g["subject_id"] && p["type"] == g["type"] && p["id"] == g["id"]) {
			kept = append(kept, p)
		}
	}
	c.org.Collections["/permissions"] = append(kept, g)
	return 200, one(c.objectsFor(subj, fmt.Sprint(obj_["type"])))
}

func revoke(c *call) (int, any) {
	subj, obj_ := c.body["subject"].(map[string]any), c.body["object"].(map[string]any)
	c.checkObject(obj_) // a resource's name becomes its id; revoking nothing is no error
	ps := c.org.Collections["/permissions"]
	kept := ps[:0:0]
	for _, p := range ps {
		if !(p["subject_type"] == subj["type"] && p["subject_id"] == fmt.Sprint(subj["id"]) && p["type"] == obj_["type"] && p["id"] == obj_["id"]) {
			kept = append(kept, p)
		}
	}
	c.org.Collections["/permissions"] = kept
	return 200, one(c.objectsFor(subj, fmt.Sprint(obj_["type"])))
}

func (c *call) objectsFor(subj map[string]any, typ string) []any {
	out := []any{}
	for _, p := range c.org.Collections["/permissions"] {
		if p["subject_type"] == subj["type"] && p["subject_id"] == fmt.Sprint(subj["id"]) && p["type"] == typ {
			out = append(out, obj{"type": p["type"], "id": p["id"], "access_level": p["access_level"]})
		}
	}
	return out
}

func (c *call) checkSubject(s map[string]any) string {
	coll := "/groups"
	if s["type"] == "user" {
		coll = "/users"
	}
	if _, it := c.org.find(coll, fmt.Sprint(s["id"])); it == nil {
		return fmt.Sprintf("%s %v not found", s["type"], s["id"])
	}
	return ""
}

// checkObject reports an object that does not exist; a resource named by
// its name (which the published API accepts) gets its id in o.
func (c *call) checkObject(o map[string]any) string {
	coll := map[string]string{"folder": "/folders", "app": "/apps", "resource": "/resources",
		"resource_configuration": "/resource_configurations"}[fmt.Sprint(o["type"])]
	if coll == "" {
		return ""
	}
	if coll == "/resources" {
		if _, r := c.org.findResource(fmt.Sprint(o["id"])); r != nil {
			o["id"] = r["id"]
			return ""
		}
	} else if _, it := c.org.find(coll, fmt.Sprint(o["id"])); it != nil {
		return ""
	}
	return fmt.Sprintf("%s %v not found", o["type"], o["id"])
}

func listObjects(c *call) (int, any) {
	subj := c.body["subject"].(map[string]any)
	if msg := c.checkSubject(subj); msg != "" {
		return 404, errBody("%s", msg)
	}
	typ := fmt.Sprint(c.body["object_type"])
	if c.body["include_inherited_access"] == true {
		return c.page(c.effectiveObjects(subj, typ))
	}
	return c.page(c.objectsFor(subj, typ))
}

func accessList(c *call) (int, any) {
	typ, id := c.params["objectType"], c.params["objectId"]
	o := obj{"type": typ, "id": id}
	if msg := c.checkObject(o); msg != "" {
		return 404, errBody("%s", msg)
	}
	coll := objectColl(typ)
	if coll == "" {
		return 200, one(obj{"group": []any{}, "user": []any{}, "userInvite": []any{}})
	}
	_, it := c.org.find(coll, fmt.Sprint(o["id"]))
	if it == nil {
		return notFound(coll, id)
	}
	ix := c.org.accessIndex()
	return 200, one(ix.accessList(ix.object(typ, it)))
}
