package sandbox

import (
	"fmt"
	"strings"

	"github.com/orgctl/orgctl/client/spec"
)

// applyOverrides adjusts published schemas where the sandbox must accept more than is published,
// and answers where a recorded 4.0 instance differs from its description.
func applyOverrides(rt *route) {
	if rt.key == "GET /resource_configurations/{configurationId}" {
		// 4.0 describes a bare configuration; the recorded instance wraps it as every other answer.
		if m, ok := rt.tmpl.(map[string]any); ok && m["success"] == nil {
			rt.tmpl = map[string]any{"success": true, "data": m}
		}
	}
	if strings.HasPrefix(rt.Path, "/resources") || strings.HasPrefix(rt.Path, "/resource_configurations") {
		// The recorded 4.0 instance sends no data_access_enforced (the provider notes 4.34+ does).
		dropTemplateField(rt.tmpl, "data_access_enforced")
	}
	if rt.key == "POST /app_themes" || rt.key == "PUT /app_themes" {
		// The published body is the stored theme (id, timestamps required); a create cannot know those,
		// so only name and theme are required, and PUT finds the theme by id or name.
		rt.req.Required = []string{"name", "theme"}
		return
	}
	if rt.key != "POST /resources" {
		return
	}
	// Creating mssql, vertica, bigid, ... resources needs the full type list; the T-SQL fields ride in
	// options, which the published options schemas would reject.
	if p := rt.req.Properties["type"]; p != nil {
		p.Enum = nil
		for _, t := range spec.ResourceTypes {
			p.Enum = append(p.Enum, t)
		}
	}
	rt.req.Properties["options"] = &spec.Schema{Type: "object"}
}

// addOverrideHandlers adds the handlers of requests whose published
// schema the sandbox widens.
func addOverrideHandlers(custom map[string]handler) {
	custom["POST /app_themes"] = createTheme
	custom["PUT /app_themes"] = putTheme
	custom["PATCH /role_permissions/roles/{roleId}"] = patchRole
	custom["POST /role_permissions/role_grants"] = createRoleGrant
	custom["GET /role_permissions/role_grants/{subjectType}/{subjectId}"] = subjectRoleGrants
	custom["POST /source_control/config"] = saveSourceControlConfig
	custom["PUT /source_control/config"] = saveSourceControlConfig
	custom["POST /sso/config"] = setSSO
}

// setSSO replaces the configuration: merging a google one into an oidc one would match no published variant.
func setSSO(c *call) (int, any) {
	data, _ := c.body["data"].(map[string]any)
	c.org.Singletons["/sso/config"] = deepCopy(data).(map[string]any)
	return 200, one(data)
}

// replaceGroup is the generic PUT plus member emails, which the published group answer requires.
func replaceGroup(c *call) (int, any) {
	status, resp := c.generic("/groups", "groupId")
	_, g := c.org.find("/groups", c.params["groupId"])
	if status != 200 || g == nil {
		return status, resp
	}
	members, _ := g["members"].([]any)
	for _, m := range members {
		mm, _ := m.(map[string]any)
		if mm == nil || mm["email"] != nil {
			continue
		}
		if _, u := c.org.find("/users", fmt.Sprint(mm["id"])); u != nil {
			mm["email"] = u["email"]
		}
	}
	return 200, c.wrap("/groups", g)
}

// saveSourceControlConfig unwraps the published {"config": {provider, ..., "config": {...}}} body, which
// the generic singleton cannot tell from the inner credentials "config"; POST refuses to overwrite,
// and a PUT that configures source control for the first time answers 201, as recorded on 4.0.
func saveSourceControlConfig(c *call) (int, any) {
	const key = "/source_control/config"
	existed := c.org.Singletons[key] != nil
	if c.rt.Method == "POST" && existed {
		return 409, errBody("Source control is already configured; use PUT to overwrite it")
	}
	inner, _ := c.body["config"].(map[string]any)
	c.org.Singletons[key] = deepCopy(inner).(map[string]any)
	if c.rt.Method == "PUT" && !existed {
		return 201, one(inner)
	}
	return 200, one(inner)
}

// createRoleGrant stores the posted grant: the published answer has no schema to start from.
func createRoleGrant(c *call) (int, any) {
	if _, r := c.org.find("/role_permissions/roles", fmt.Sprint(c.body["role_id"])); r == nil {
		return notFound("/role_permissions/roles", fmt.Sprint(c.body["role_id"]))
	}
	g := obj{"role_id": c.body["role_id"], "subject_type": c.body["subject_type"], "subject_id": c.body["subject_id"],
		"object_type": c.body["object_type"], "object_id": c.body["object_id"],
		"id":         collectionAt("/role_permissions/role_grants").id(c.org.next("/role_permissions/role_grants")),
		"created_at": stamp(c.now), "updated_at": stamp(c.now)}
	c.org.Collections["/role_permissions/role_grants"] = append(c.org.Collections["/role_permissions/role_grants"], g)
	return 201, one(g)
}

func subjectRoleGrants(c *call) (int, any) {
	out := []any{}
	for _, g := range c.org.Collections["/role_permissions/role_grants"] {
		if fmt.Sprint(g["subject_type"]) == c.params["subjectType"] && fmt.Sprint(g["subject_id"]) == c.params["subjectId"] {
			out = append(out, g)
		}
	}
	return 200, one(out)
}

// patchRole merges the given fields: this PATCH publishes a plain partial role, not JSON Patch.
func patchRole(c *call) (int, any) {
	i, r := c.org.find("/role_permissions/roles", c.params["roleId"])
	if r == nil {
		return notFound("/role_permissions/roles", c.params["roleId"])
	}
	for _, k := range []string{"name", "description", "object_scopes", "organization_scopes"} {
		if v, ok := c.body[k]; ok {
			r[k] = v
		}
	}
	touch(r, c.now)
	c.org.Collections["/role_permissions/roles"][i] = r
	return 200, c.wrap("/role_permissions/roles", r)
}

// findTheme matches PUT /app_themes bodies to a stored theme: by id when given, else by name.
func findTheme(c *call) (int, obj) {
	if id, ok := c.body["id"]; ok {
		return c.org.find("/app_themes", fmt.Sprint(id))
	}
	for i, t := range c.org.Collections["/app_themes"] {
		if t["name"] == c.body["name"] {
			return i, t
		}
	}
	return -1, nil
}

// createTheme refuses a duplicate name with 409, as published.
func createTheme(c *call) (int, any) {
	for _, t := range c.org.Collections["/app_themes"] {
		if t["name"] == c.body["name"] {
			return 409, errBody("App theme %q already exists", c.body["name"])
		}
	}
	return c.generic("/app_themes", "")
}

// putTheme is "creates or updates": an existing theme gets the new name and theme (200), else 201.
func putTheme(c *call) (int, any) {
	_, t := findTheme(c)
	if t == nil {
		item := c.newObject("/app_themes", c.rt.key, c.body)
		c.org.Collections["/app_themes"] = append(c.org.Collections["/app_themes"], item)
		return 201, c.wrap("/app_themes", item)
	}
	t["name"], t["theme"] = c.body["name"], c.body["theme"]
	touch(t, c.now)
	return 200, c.wrap("/app_themes", t)
}

// dropTemplateField removes a field from an answer template's data (each item's, for a list).
func dropTemplateField(tmpl any, field string) {
	env, ok := tmpl.(map[string]any)
	if !ok {
		return
	}
	drop := func(m map[string]any) {
		delete(m, field)
		if r, ok := m["resource"].(map[string]any); ok {
			delete(r, field) // a resource configuration's resource
		}
	}
	switch d := env["data"].(type) {
	case map[string]any:
		drop(d)
	case []any:
		for _, it := range d {
			if m, ok := it.(map[string]any); ok {
				drop(m)
			}
		}
	}
}
