package sandbox

import (
	"fmt"
	"strings"
)

// The operations and query parameters the 4.0 description added: a user's
// sessions ended, a workflow's limits changed or the workflow deleted, the
// org's Code Executor limits, source-control branches, Toolscript
// validation, and the apps and resources lists narrowed by name or by the
// resource an app uses. Each is answered only where the routes (from
// client/spec) publish it, as the live service does.

// addV4Handlers adds the handlers of the 4.0 operations to custom.
func addV4Handlers(custom map[string]handler) {
	for k, h := range map[string]handler{
		"POST /users/{userId}/logout":              logoutUser,
		"PATCH /workflows/{workflowId}":            patchWorkflow,
		"GET /organization/code_executor_settings": getCodeExecutor,
		"PUT /organization/code_executor_settings": putCodeExecutor,
		"POST /source_control/branches":            createBranch,
		"POST /source_control/branches/reset":      resetBranch,
		"POST /apps/toolscript/validate":           validateToolscript,
		"GET /apps":                                listApps,
		"GET /resources":                           listResources,
	} {
		custom[k] = h
	}
}

// appUses is the hidden field of a sandbox app that lists the ids of the
// resources its queries use: what GET /apps?using_resource= answers from.
const appUses = "_resources"

// seedV4 gives the demo org what the 4.0 operations read: apps that use
// its resources, and a branch to reset.
func (o *org) seedV4() {
	o.seedAppResources()
	if app := o.appByName("Refund Console"); app != nil {
		o.Collections[branchesKey] = append(o.Collections[branchesKey], obj{"branch_id": fmt.Sprintf("branch_%d", o.next(branchesKey)),
			"branch_name": "hotfix", "shared": true, "element": obj{"element_id": app["id"], "element_type": "PAGE", "element_name": app["name"]}})
	}
}

// seedAppResources makes the demo apps use the demo resources, so that the
// apps behind a resource (and behind an audit finding) can be listed.
func (o *org) seedAppResources() {
	uses := map[string][]string{
		"Customer Lookup": {"orders-postgres", "billing-api", "legacy-mssql", "analytics-vertica", "events-mongodb"},
		"Refund Console":  {"billing-api", "legacy-mssql", "reporting-mssql", "payroll-mssql-winauth"},
		"Header Module":   {"notifications-email"},
	}
	for app, names := range uses {
		a := o.appByName(app)
		if a == nil {
			continue
		}
		var ids []any
		for _, n := range names {
			for _, r := range o.Collections["/resources"] {
				if r["display_name"] == n {
					ids = append(ids, r["id"])
				}
			}
		}
		a[appUses] = ids
	}
}

// logoutUser ends a user's sessions. With sso_logout it also answers the
// URL the user's browser must visit to end the SSO provider's session,
// when the SSO configuration has one, and says why not otherwise.
func logoutUser(c *call) (int, any) {
	_, u := c.org.find("/users", c.params["userId"])
	if u == nil {
		return notFound("/users", c.params["userId"])
	}
	u["_sessions_ended_at"] = stamp(c.now)
	out := obj{"sso_logout": false}
	if c.body["sso_logout"] == true {
		end, _ := c.org.Singletons["/sso/config"]["oidc_end_session_url"].(string)
		if end == "" {
			out["warning"] = "SSO logout was not performed: the SSO configuration has no oidc_end_session_url"
		} else {
			url := end + "?client_id=sandbox"
			if r, ok := c.body["post_logout_redirect_uri"].(string); ok && r != "" {
				url += "&post_logout_redirect_uri=" + r
			}
			out["sso_logout"], out["sso_logout_url"] = true, url
		}
	} else if _, ok := c.body["post_logout_redirect_uri"]; ok {
		return 400, errBody(`"post_logout_redirect_uri" is only valid when "sso_logout" is true`)
	}
	return 200, one(out)
}

// patchWorkflow changes a workflow's resource limit overrides: the 4.0
// PATCH takes the fields themselves, not JSON Patch operations.
func patchWorkflow(c *call) (int, any) {
	i, w := c.org.find("/workflows", c.params["workflowId"])
	if w == nil {
		return notFound("/workflows", c.params["workflowId"])
	}
	next := deepCopy(w).(map[string]any)
	for k, v := range c.body {
		next[k] = v
	}
	if _, ok := next["code_executor_memory_limit_mbs"]; !ok {
		next["code_executor_memory_limit_mbs"] = nil
	}
	touch(next, c.now)
	c.org.Collections["/workflows"][i] = next
	return 200, c.wrap("/workflows", next)
}

const codeExecutorKey = "/organization/code_executor_settings"

// getCodeExecutor answers the org's Code Executor limits; an org that set
// none has the service's defaults (no limits, no circuit breaker).
func getCodeExecutor(c *call) (int, any) {
	cur := c.org.Singletons[codeExecutorKey]
	if cur == nil {
		cur = obj{"memoryLimitMbs": nil, "maxConcurrentProcesses": nil, "circuitBreakerEnabled": false}
	}
	return 200, one(cur)
}

func putCodeExecutor(c *call) (int, any) {
	next := obj{}
	for _, k := range []string{"memoryLimitMbs", "maxConcurrentProcesses", "circuitBreakerEnabled"} {
		next[k] = c.body[k]
	}
	c.org.Singletons[codeExecutorKey] = next
	return 200, one(next)
}

const branchesKey = "/source_control/branches"

// createBranch makes a Retool branch, optionally holding one element (an
// app page, a workflow ...) named by its id; a name already taken is a 409.
func createBranch(c *call) (int, any) {
	if c.org.Singletons["/source_control/config"] == nil {
		return 400, errBody("Source control is not configured")
	}
	name, _ := c.body["branch_name"].(string)
	for _, b := range c.org.Collections[branchesKey] {
		if b["branch_name"] == name {
			return 409, errBody("Branch %q already exists", name)
		}
	}
	shared, _ := c.body["shared"].(bool)
	b := obj{"branch_id": fmt.Sprintf("branch_%d", c.org.next(branchesKey)), "branch_name": name, "shared": shared, "element": nil}
	if id, ok := c.body["element_id"].(string); ok {
		typ, _ := c.body["element_type"].(string)
		if typ == "" {
			typ = "PAGE"
		}
		el := obj{"element_id": id, "element_type": typ, "element_name": id}
		if _, a := c.org.find("/apps", id); a != nil {
			el["element_name"] = a["name"]
		} else if _, w := c.org.find("/workflows", id); w != nil {
			el["element_name"] = w["name"]
		} else {
			return 404, errBody("Element %q not found", id)
		}
		b["element"] = el
	}
	c.org.Collections[branchesKey] = append(c.org.Collections[branchesKey], b)
	return 200, one(b)
}

// resetBranch reloads a branch from its remote: the apps on it are the ones
// reloaded; a branch reset twice in a row is already in sync.
func resetBranch(c *call) (int, any) {
	name, _ := c.body["branch_name"].(string)
	remote, _ := c.body["remote_branch_name"].(string)
	if remote == "" {
		remote = name
	}
	for _, b := range c.org.Collections[branchesKey] {
		if b["branch_name"] != name {
			continue
		}
		apps := []any{}
		status := "already_synced"
		if b["_reset_from"] != remote {
			status = "reset"
			if el, ok := b["element"].(map[string]any); ok && el["element_type"] == "PAGE" {
				apps = append(apps, obj{"app_uuid": el["element_id"], "app_name": el["element_name"]})
			}
		}
		b["_reset_from"] = remote
		return 200, one(obj{"branch_name": name, "remote_branch_name": remote, "status": status, "updated_apps": apps})
	}
	return 404, errBody("Branch %q not found", name)
}

// validateToolscript checks each file as the sandbox can: its brackets,
// braces and parentheses must balance outside strings. Each problem is a
// diagnostic naming the file, line and column.
func validateToolscript(c *call) (int, any) {
	files, _ := c.body["toolscript"].([]any)
	diags := []any{}
	for _, f := range files {
		fm, _ := f.(map[string]any)
		path, _ := fm["path"].(string)
		contents, _ := fm["contents"].(string)
		if d := bracketProblem(path, contents); d != nil {
			diags = append(diags, d)
		}
	}
	out := obj{"valid": len(diags) == 0, "diagnostics": diags}
	if len(diags) > 0 {
		out["error"] = fmt.Sprintf("%d file(s) could not be deserialized", len(diags))
	}
	return 200, one(out)
}

// bracketProblem is the diagnostic of the first unbalanced bracket in
// contents, nil when they balance.
func bracketProblem(path, contents string) obj {
	type open struct {
		ch             rune
		off, line, col int
	}
	var stack []open
	var quote rune
	line, col := 1, 0
	diag := func(msg string, off, l, cl int) obj {
		loc := obj{"line": float64(l), "column": float64(cl)}
		return obj{"severity": "error", "filename": path, "message": msg, "from": float64(off), "to": float64(off + 1), "fromLoc": loc, "toLoc": loc}
	}
	pairs := map[rune]rune{')': '(', ']': '[', '}': '{'}
	for off, ch := range contents {
		col++
		switch {
		case ch == '\n':
			line, col = line+1, 0
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'' || ch == '`':
			quote = ch
		case strings.ContainsRune("([{", ch):
			stack = append(stack, open{ch, off, line, col})
		case strings.ContainsRune(")]}", ch):
			if len(stack) == 0 || stack[len(stack)-1].ch != pairs[ch] {
				return diag(fmt.Sprintf("unexpected %q", ch), off, line, col)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if n := len(stack); n > 0 {
		o := stack[n-1]
		return diag(fmt.Sprintf("%q is never closed", o.ch), o.off, o.line, o.col)
	}
	return nil
}

// listApps narrows the apps by using_resource (a resource's id) and
// name_contains (any case), then lists them as every list is. A sandbox
// answering as a release whose description lacks a parameter ignores it,
// as such a release does: it lists every app.
func listApps(c *call) (int, any) {
	items := c.org.Collections["/apps"]
	if id := c.q.Get("using_resource"); id != "" && c.rt.QueryValue("using_resource") != nil {
		var sel []obj
		for _, a := range items {
			uses, _ := a[appUses].([]any)
			for _, u := range uses {
				if fmt.Sprint(u) == id {
					sel = append(sel, a)
					break
				}
			}
		}
		items = sel
	}
	if c.rt.QueryValue("name_contains") != nil {
		items = nameContains(items, "name", c.q.Get("name_contains"))
	}
	return c.list("/apps", items)
}

// listResources narrows the resources by name_contains (any case, on the
// display name); the generic list does the rest.
func listResources(c *call) (int, any) {
	items := c.org.Collections["/resources"]
	if c.rt.QueryValue("name_contains") != nil {
		items = nameContains(items, "display_name", c.q.Get("name_contains"))
	}
	return c.list("/resources", items)
}

func nameContains(items []obj, field, text string) []obj {
	if text == "" {
		return items
	}
	var sel []obj
	for _, it := range items {
		if strings.Contains(strings.ToLower(fmt.Sprint(it[field])), strings.ToLower(text)) {
			sel = append(sel, it)
		}
	}
	return sel
}
