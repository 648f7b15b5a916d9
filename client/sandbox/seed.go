package sandbox

import (
	"fmt"
	"slices"
	"time"
)

// Demo data is deterministic: fixed timestamps and counter-based ids, so runs are comparable.

const (
	primaryAdminEmail = "admin@sandbox.example"
	demoSpace         = "eng"
)

func seedEmpty(st *state) {
	o := newOrg("")
	seedOrgBasics(o, fixedTime())
	o.addUser(primaryAdminEmail, "Sandbox", "Admin", true, true, fixedTime())
	o.Singletons["/organization"] = orgSettings("org_primary")
	o.mint(adminTokenLabel, strp("all scopes, created by the sandbox"), primaryAdminEmail, AllScopes(), fixedTime())
	st.Orgs[""] = o
}

func strp(s string) *string { return &s }

// seedLoadUsers adds n synthetic users for load rehearsals. Their emails are unique by construction,
// so nothing is looked up and seeding stays linear in n.
func seedLoadUsers(o *org, n int) {
	if n <= 0 {
		return
	}
	o.Collections["/users"] = slices.Grow(o.Collections["/users"], n)
	for i := 1; i <= n; i++ {
		o.addUser(fmt.Sprintf("user%06d@load.example", i), "Load", fmt.Sprintf("User%06d", i), false, true, fixedTime())
	}
}

// seedLoadAccess adds groups and app folders for load rehearsals of access
// reviews: folder i sits in folder i-1 unless i is a multiple of ten (so
// inheritance runs ten deep) and holds one app; group g has every
// synthetic user whose number is g modulo the group count, and use on
// folder g modulo the folder count.
func seedLoadAccess(o *org, groups, folders int) {
	var fs []obj
	root := o.rootFolder("app")
	for i := range folders {
		parent := root
		if i%10 != 0 {
			parent = fs[i-1]["id"]
		}
		f := o.addFolder(fmt.Sprintf("load-folder-%04d", i), "app", parent, false, fixedTime())
		fs = append(fs, f)
		o.add("/apps", "GET /apps/{appId}", obj{"name": fmt.Sprintf("load-app-%04d", i), "description": "",
			"folder_id": f["id"], "is_module": false, "shortlink": nil, "release_version": ""})
	}
	var gs []obj
	for g := range groups {
		gs = append(gs, o.addGroup(fmt.Sprintf("load-group-%03d", g), "none", "none", "none", "none", false, false, false, false, fixedTime()))
		if folders > 0 {
			o.grantTo("group", gs[g]["id"], "folder", fs[g%folders]["id"], "use")
		}
	}
	if groups == 0 {
		return
	}
	for _, u := range o.Collections["/users"] {
		email, _ := u["email"].(string)
		var n int
		if _, err := fmt.Sscanf(email, "user%06d@load.example", &n); err != nil {
			continue
		}
		g := gs[n%groups]
		g["members"] = append(g["members"].([]any), obj{"id": u["id"], "email": u["email"], "is_group_admin": false})
	}
}

func orgSettings(id string) obj {
	s := templateData("GET /organization")
	s["id"] = id
	s["preloaded_css"], s["preloaded_javascript"] = "", ""
	s["javascript_links"] = []any{}
	s["workflow_run_retention_period_mins"] = float64(43200)
	return s
}

// seedOrgBasics gives an org what every new org has: root folders, the default groups, environments.
func seedOrgBasics(o *org, at time.Time) {
	for _, typ := range []string{"app", "resource", "workflow", "file"} {
		root := o.addFolder("root", typ, nil, true, at)
		if typ == "app" || typ == "workflow" {
			o.addFolder("archive", typ, root["id"], true, at)
		}
		if typ == "app" {
			o.addFolder(personalRootName, typ, nil, true, at)
		}
	}
	for _, g := range []struct {
		name                     string
		app, res, wf, ql         string
		users, audit, unpub, use bool
	}{
		{"admin", "own", "own", "own", "edit", true, true, true, true},
		{"editor", "edit", "own", "edit", "edit", true, false, true, false},
		{"viewer", "use", "use", "use", "use", true, false, false, false},
		{"All Users", "edit", "own", "edit", "edit", false, false, false, false},
	} {
		o.addGroup(g.name, g.app, g.res, g.wf, g.ql, g.users, g.audit, g.unpub, g.use, at)
	}
	o.addEnv("production", "An environment to define the production configuration of your resources", "#3C92DC", true, at)
}

func (o *org) addGroup(name, app, res, wf, ql string, users, audit, unpub, usage bool, at time.Time) obj {
	n := o.next("/groups")
	g := obj{"id": float64(n), "legacy_id": float64(n), "name": name, "members": []any{},
		"universal_app_access": app, "universal_resource_access": res, "universal_workflow_access": wf,
		"universal_query_library_access": ql, "user_invites": []any{}, "user_list_access": users,
		"audit_log_access": audit, "unpublished_release_access": unpub, "usage_analytics_access": usage,
		"theme_access": name == "admin", "account_details_access": name != "app_admin_group",
		"landing_page_app_id": nil, "created_at": stamp(at), "updated_at": stamp(at)}
	o.Collections["/groups"] = append(o.Collections["/groups"], g)
	return g
}

func (o *org) addEnv(name, desc, color string, def bool, at time.Time) obj {
	e := obj{"id": collectionAt("/environments").id(o.next("/environments")), "name": name,
		"description": desc, "color": color, "default": def, "created_at": stamp(at), "updated_at": stamp(at)}
	o.Collections["/environments"] = append(o.Collections["/environments"], e)
	return e
}

func (o *org) groupByName(name string) obj {
	for _, g := range o.Collections["/groups"] {
		if g["name"] == name {
			return g
		}
	}
	return nil
}

func (o *org) appByName(name string) obj {
	for _, a := range o.Collections["/apps"] {
		if a["name"] == name {
			return a
		}
	}
	return nil
}

// grantTo stores a grant as POST /permissions/grant does.
func (o *org) grantTo(subjType string, subjID any, typ string, id any, level string) {
	o.Collections["/permissions"] = append(o.Collections["/permissions"], obj{"subject_type": subjType,
		"subject_id": fmt.Sprint(subjID), "type": typ, "id": fmt.Sprint(id), "access_level": level})
}

func (o *org) join(group string, u obj, admin bool) {
	g := o.groupByName(group)
	g["members"] = append(g["members"].([]any), obj{"id": u["id"], "email": u["email"], "is_group_admin": admin})
}

// add stores an object built from the example of the operation key, with fields overriding it.
func (o *org) add(coll, key string, fields obj) obj {
	it := templateData(key)
	n := o.next(coll)
	it["id"] = collectionAt(coll).id(n)
	if _, ok := it["legacy_id"]; ok {
		it["legacy_id"] = float64(n)
	}
	for _, k := range []string{"created_at", "updated_at"} {
		if _, ok := it[k]; ok {
			it[k] = stamp(fixedTime())
		}
	}
	for k, v := range fields {
		it[k] = v
	}
	o.Collections[coll] = append(o.Collections[coll], it)
	return it
}

func seedDemo(st *state) {
	seedEmpty(st)
	o := st.Orgs[""]
	at := fixedTime()
	admin := o.userByEmail(primaryAdminEmail)
	o.join("admin", admin, false)
	o.join("All Users", admin, false)
	ops := o.addUser("priya.ops@sandbox.example", "Priya", "Raman", true, true, at)
	dev := o.addUser("dev.lee@sandbox.example", "Dev", "Lee", false, true, at)
	ana := o.addUser("ana.viewer@sandbox.example", "Ana", "Souza", false, true, at)
	gone := o.addUser("former.employee@sandbox.example", "Former", "Employee", false, false, at)
	dev["metadata"] = obj{"department": "engineering"}
	dev["two_factor_auth_enabled"] = true
	ana["metadata"] = obj{"department": "finance"}
	for _, u := range []obj{ops, dev, ana, gone} {
		o.join("All Users", u, false)
	}
	o.join("admin", ops, false)
	o.join("editor", dev, true)
	o.join("viewer", ana, false)
	o.addGroup("app_admin_group", "own", "none", "none", "none", false, false, false, false, at)
	o.addGroup("support", "use", "use", "none", "use", false, false, false, false, at)
	o.join("support", ana, false)
	// Disabled, yet still a member: what offboarding and access reviews must catch.
	o.join("support", gone, false)

	appRoot := o.rootFolder("app")
	ops_ := o.addFolder("Operations", "app", appRoot, false, at)
	finance := o.addFolder("Finance", "app", appRoot, false, at)
	dbs := o.addFolder("Databases", "resource", o.rootFolder("resource"), false, at)
	o.addFolder("Nightly jobs", "workflow", o.rootFolder("workflow"), false, at)
	o.addFolder("Shared files", "file", o.rootFolder("file"), false, at)

	for _, a := range []struct {
		name, desc string
		folder     any
		module     bool
	}{
		{"Customer Lookup", "Search customers across CRM and billing", ops_["id"], false},
		{"Refund Console", "Approve and issue refunds", ops_["id"], false},
		{"Header Module", "Shared header", appRoot, true},
	} {
		o.add("/apps", "GET /apps/{appId}", obj{"name": a.name, "description": a.desc, "folder_id": a.folder,
			"is_module": a.module, "shortlink": nil, "release_version": ""})
	}
	// Every kind of access: group grants on a folder (inherited by what is in
	// it, nested folders too) and on an app, direct user grants, and the
	// universal access of the default groups and of support.
	escalations := o.addFolder("Escalations", "app", ops_["id"], false, at)
	refunds := o.appByName("Refund Console")
	o.grantTo("group", o.groupByName("viewer")["id"], "folder", ops_["id"], "use")
	o.grantTo("group", o.groupByName("support")["id"], "folder", escalations["id"], "edit")
	o.grantTo("group", o.groupByName("editor")["id"], "app", refunds["id"], "own")
	o.grantTo("group", o.groupByName("support")["id"], "folder", dbs["id"], "edit")
	o.grantTo("user", dev["id"], "app", refunds["id"], "edit")
	o.grantTo("user", gone["id"], "folder", finance["id"], "use")
	o.add("/app_themes", "GET /app_themes/{id}", obj{"name": "Sandbox Dark", "theme": obj{"primary": "#3C92DC", "canvas": "#1B1B1F"}})

	staging := o.addEnv("staging", "An environment to define the staging configuration of your resources", "#E9AB11", false, at)
	prod := o.Collections["/environments"][0]

	resFolder := o.rootFolder("resource")
	for _, r := range []struct {
		name, typ string
		options   obj
	}{
		{"orders-postgres", "postgresql", obj{"database_options": obj{"host": "pg.internal", "port": "5432", "name": "orders"}}},
		{"billing-api", "restapi", obj{"base_url": "https://billing.example.com/v1"}},
		{"legacy-mssql", "mssql", obj{"connector_version": "1.0", "windows_auth": false}},
		{"reporting-mssql", "mssql", obj{"connector_version": "2.0", "windows_auth": false}},
		{"ledger-mssql", "mssql", obj{"connector_version": "3.0", "windows_auth": false}},
		{"hr-mssql-winauth", "mssql", obj{"connector_version": "3.0", "windows_auth": true,
			"params_from_connection_string": obj{"ApplicationIntent": "ReadOnly", "MultiSubnetFailover": "Yes", "packetsize": "8192"}}},
		{"analytics-vertica", "vertica", obj{"database_options": obj{"host": "vertica.internal", "port": "5433"}}},
		{"governance-bigid", "bigid", obj{}},
		{"events-mongodb", "mongodb", obj{"database_options": obj{"connection_string": "mongodb://mongo.internal:27017/events"}}},
		{"warehouse-jdbc", "jdbc", obj{}},
		// Saved before the ODBC allowlist was enforced (disallowed keys then only logged a warning).
		{"payroll-mssql-winauth", "mssql", obj{"connector_version": "2.0", "windows_auth": true,
			"params_from_connection_string": obj{"Encrypt": "yes", "LoginRetryCount": "3", "Packet Size": "4096"}}},
		{"archive-mongodb", "mongodb", obj{"server_version": "3.4",
			"database_options": obj{"connection_string": "mongodb://mongo-old.internal:27017/archive"}}},
		{"notifications-email", "retoolEmail", obj{}},
	} {
		res := o.add("/resources", "GET /resources/{resourceId}", obj{"display_name": r.name, "type": r.typ,
			"folder_id": resFolder, "protected": false, "options": r.options})
		if r.typ == "postgresql" {
			for _, env := range []obj{prod, staging} {
				o.add("/resource_configurations", "GET /resource_configurations/{configurationId}", obj{
					"resource": obj{"id": res["id"], "type": res["type"], "display_name": res["display_name"],
						"folder_id": res["folder_id"], "protected": false, "created_at": res["created_at"], "updated_at": res["updated_at"]},
					"environment": obj{"id": env["id"], "name": env["name"], "description": env["description"],
						"color": env["color"], "default": env["default"], "created_at": env["created_at"], "updated_at": env["updated_at"]},
				})
			}
		}
	}

	o.add("/configuration_variables", "GET /configuration_variables/{id}", obj{"name": "SUPPORT_EMAIL",
		"description": "Where customer apps send support mail", "secret": false,
		"values": []any{obj{"environment_id": prod["id"], "value": "support@example.com"},
			obj{"environment_id": staging["id"], "value": "support-staging@example.com"}}})
	o.add("/configuration_variables", "GET /configuration_variables/{id}", obj{"name": "STRIPE_KEY",
		"description": "", "secret": true, "values": []any{obj{"environment_id": prod["id"], "value": "********"}}})

	o.add("/user_attributes", "GET /user_attributes", obj{"name": "department", "label": "Department",
		"data_type": "string", "default_value": nil, "intercom_attribute_name": nil})
	o.add("/access_requests", "GET /access_requests/{accessRequestId}", obj{"status": "PENDING",
		"requesting_email": "new.hire@sandbox.example", "updated_by_id": nil})
	o.add("/access_requests", "GET /access_requests/{accessRequestId}", obj{"status": "PENDING",
		"requesting_email": "contractor@partner.example", "updated_by_id": nil})
	inv := o.add("/user_invites", "GET /user_invites/{userInviteId}", obj{"invited_by": primaryAdminEmail,
		"invited_email": "invitee@sandbox.example", "expires_at": "2025-11-13T17:00:11.000Z", "claimed_by": nil,
		"claimed_at": nil, "metadata": obj{}, "groups": []any{}})
	inv["invite_link"] = fmt.Sprintf("https://sandbox.example/invite/%v", inv["id"])
	// Invited into support: the invite reaches what support reaches once accepted.
	support := o.groupByName("support")
	inv["groups"] = []any{obj{"id": support["id"], "legacy_id": support["legacy_id"], "name": support["name"]}}
	support["user_invites"] = []any{deepCopy(inv)}
	o.add("/role_permissions/roles", "GET /role_permissions/roles", obj{"organization_id": "org_primary",
		"name": "Release Manager", "description": "Can deploy releases", "object_scopes": []any{"app:read"},
		"organization_scopes": []any{"source_control:deploy"}, "added_dependent_scopes": []any{}})
	o.add("/workflows", "GET /workflows/{workflowId}", obj{"name": "Nightly invoice sync",
		"description": "Pushes invoices to the ledger", "crontab": "0 2 * * *", "timezone": "UTC",
		"is_enabled": true, "folder_id": o.rootFolder("workflow"), "created_by": admin["legacy_id"]})
	charts := o.add("/custom_component_libraries", "GET /custom_component_libraries/{libraryId}", obj{"name": "sandbox-charts"})
	o.addRevision(charts["id"].(string), "1.0.0", "index.js", "export const Chart = () => null\n", fixedTime())
	o.add("/observability/config", "GET /observability/config", obj{})
	o.add("/user_tasks", "GET /user_tasks", obj{})
	o.add("/organization/analytics_integrations", "GET /organization/analytics_integrations", obj{})

	o.Singletons["/source_control/config"] = templateData("GET /source_control/config")
	o.Singletons["/source_control/config"]["org"] = "sandbox-org"
	o.Singletons["/source_control/config"]["repo"] = "retool-apps"
	o.Singletons["/source_control/config"]["default_branch"] = "main"
	o.Singletons["/source_control/settings"] = templateData("GET /source_control/settings")
	o.Singletons["/source_control/settings"]["custom_pull_request_template"] = ""
	o.Singletons["/sso/config"] = templateData("GET /sso/config")
	o.Singletons["/organization/ai_settings"] = templateData("GET /organization/ai_settings")

	o.seedV4()

	// The admin has signed in (once the demo was set up, so the demo's folder
	// ids stay put); the others have not, so only the admin has Drafts.
	o.addPersonalFolders(admin, at.Add(19*time.Second))

	// The eng space: its own admin (who is not a primary admin) and data; the primary admin is also its admin.
	o.add("/spaces", "GET /spaces/{spaceId}", obj{"name": demoSpace, "domain": demoSpace})
	e := newOrg(demoSpace)
	seedOrgBasics(e, at)
	e.Singletons["/organization"] = orgSettings("org_eng")
	lead := e.addUser("eng.lead@sandbox.example", "Eng", "Lead", true, true, at)
	e.addUser(primaryAdminEmail, "Sandbox", "Admin", true, true, at)
	e.join("admin", lead, false)
	e.addFolder("Platform tools", "app", e.rootFolder("app"), false, at)
	e.add("/apps", "GET /apps/{appId}", obj{"name": "Deploy Dashboard", "description": "Build status",
		"folder_id": e.rootFolder("app"), "shortlink": nil, "release_version": ""})
	e.add("/resources", "GET /resources/{resourceId}", obj{"display_name": "eng-postgres", "type": "postgresql",
		"folder_id": e.rootFolder("resource"), "protected": false, "options": obj{}})
	e.mint("eng automation", strp("space admin token"), lead["email"].(string), AllScopes(), at)
	st.Orgs[demoSpace] = e
}
