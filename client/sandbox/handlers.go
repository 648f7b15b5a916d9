package sandbox

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/output/lazy"
)

// call is one authenticated, validated request on its way to a handler.
type call struct {
	s      *Server
	org    *org
	space  string
	rt     *route
	params map[string]string
	q      url.Values
	body   obj
	host   string
	tok    *token
	now    time.Time
}

func errBody(format string, args ...any) obj {
	return obj{"success": false, "message": fmt.Sprintf(format, args...)}
}

func one(v any) obj { return obj{"success": true, "data": v} }

// collections lists the generic stores: list/create at the path, get/patch/put/delete at path/{id}.
// seed tells a collection's ids from every other's. The shape of the ids is the registry's for a
// collection that lists one of its kinds; shape gives it for the few the registry does not model.
// A table searched in place, not a map: a map literal would be built before every orgctl command.
var collections = []collection{
	{path: "/users", seed: 1}, {path: "/groups", seed: 2}, {path: "/folders", seed: 3}, {path: "/spaces", seed: 4},
	{path: "/app_themes", seed: 5}, {path: "/apps", seed: 6}, {path: "/user_attributes", seed: 7},
	{path: "/role_permissions/roles", seed: 8}, {path: "/access_tokens", seed: 9, shape: kinds.UUIDs},
	{path: "/role_permissions/role_grants", seed: 10, shape: kinds.UUIDs},
	{path: "/access_requests", seed: 11, shape: kinds.Numbers},
	{path: "/user_invites", seed: 12}, {path: "/resources", seed: 13}, {path: "/resource_configurations", seed: 14},
	{path: "/environments", seed: 15}, {path: "/custom_component_libraries", seed: 16},
	{path: "/configuration_variables", seed: 17}, {path: "/observability/config", seed: 18, shape: kinds.UUIDs},
	{path: "/workflows", seed: 19}, {path: "/user_tasks", seed: 20, shape: kinds.UUIDs},
	{path: "/organization/analytics_integrations", seed: 21, shape: kinds.UUIDs},
}

type collection struct {
	path  string
	seed  uint32
	shape kinds.IDShape
}

// lookupCollection is the generic store at path, if there is one.
func lookupCollection(path string) (collection, bool) {
	for _, c := range collections {
		if c.path == path {
			return c, true
		}
	}
	return collection{}, false
}

// collectionAt is the generic store at path; the zero collection if there is none.
func collectionAt(path string) collection {
	c, _ := lookupCollection(path)
	return c
}

// listedKind is the registry's kind listed at path; false when none is.
func listedKind(path string) (kinds.Kind, bool) {
	for _, k := range kinds.All() {
		if k.List == path {
			return k, true
		}
	}
	return kinds.Kind{}, false
}

// idShape is the shape of the collection's ids: its kind's, else its own
// (UUIDs when it says none).
func (c collection) idShape() kinds.IDShape {
	if k, ok := listedKind(c.path); ok {
		return k.ID
	}
	if c.shape == kinds.NoID {
		return kinds.UUIDs
	}
	return c.shape
}

// sandboxMark begins the seed of every id the sandbox mints ("ZM"), so its
// ids are told from a live org's.
const sandboxMark = 0x5a4d0000

// id is the n-th id of the collection, of the shape the real API gives that
// family's ids; numbers as JSON numbers, as the API answers them. Users'
// ids carry the mark alone, as they did before collections were seeded
// apart: recordings and test scripts hold them.
func (c collection) id(n int) any {
	switch shape := c.idShape(); shape {
	case kinds.Numbers:
		return float64(n)
	case kinds.UserIDs:
		return shape.Mint(sandboxMark>>16, n)
	default:
		return shape.Mint(sandboxMark+c.seed, n)
	}
}

// singleton tells the per-org objects read and written at a fixed path.
func singleton(path string) bool {
	switch path {
	case "/source_control/config", "/source_control/settings", "/sso/config",
		"/organization", "/organization/ai_settings":
		return true
	}
	return false
}

type handler func(c *call) (int, any)

// custom holds the handlers of requests the generic collections do not
// serve, built on the first request: a command line that never reaches the
// sandbox would otherwise pay for the table at start-up.
var custom = lazy.Value[map[string]handler]{New: func() map[string]handler {
	m := map[string]handler{}
	addFamilyHandlers(m)
	addOverrideHandlers(m)
	addRevisionHandlers(m)
	addV4Handlers(m)
	addUsageHandlers(m)
	return m
}}

func customHandler(key string) (handler, bool) {
	h, ok := custom.Get()[key]
	return h, ok
}

func dispatch(c *call) (int, any) {
	if h, ok := customHandler(c.rt.key); ok {
		return h(c)
	}
	if coll, id, ok := collectionOf(c.rt); ok {
		return c.generic(coll, id)
	}
	if singleton(c.rt.Path) {
		return c.singleton(c.rt.Path)
	}
	return c.rt.Status, c.template()
}

// collectionOf maps a route to its collection and, for item routes, the id parameter name.
func collectionOf(rt *route) (string, string, bool) {
	if _, ok := lookupCollection(rt.Path); ok {
		return rt.Path, "", true
	}
	i := strings.LastIndex(rt.Path, "/")
	if i > 0 && strings.HasPrefix(rt.Path[i+1:], "{") {
		if _, ok := lookupCollection(rt.Path[:i]); ok {
			return rt.Path[:i], strings.Trim(rt.Path[i+1:], "{}"), true
		}
	}
	return "", "", false
}

// template answers with the published response example for operations that keep no state.
func (c *call) template() any {
	if c.rt.Status == 204 || c.rt.tmpl == nil {
		if c.rt.Status == 204 {
			return nil
		}
		return one(obj{})
	}
	return deepCopy(c.rt.tmpl)
}

func deepCopy(v any) any {
	b, _ := encode(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// templateData is the data object of the route's (or another route's) example response.
func templateData(key string) obj {
	for _, rt := range routes.Get() {
		if rt.key != key {
			continue
		}
		m, _ := deepCopy(rt.tmpl).(map[string]any)
		if _, enveloped := m["success"]; !enveloped {
			return m
		}
		switch d := m["data"].(type) {
		case map[string]any:
			return d
		case []any:
			if len(d) > 0 {
				if o, ok := d[0].(map[string]any); ok {
					return o
				}
			}
		}
	}
	return obj{}
}

func (o *org) find(coll, id string) (int, obj) {
	for i, it := range o.Collections[coll] {
		if fmt.Sprint(it["id"]) == id {
			return i, it
		}
	}
	return -1, nil
}

func singular(coll string) string {
	name := coll[strings.LastIndex(coll, "/")+1:]
	name = strings.TrimSuffix(name, "s")
	return strings.ReplaceAll(name, "_", " ")
}

func notFound(coll, id string) (int, any) {
	return 404, errBody("%s %q not found", strings.ToUpper(singular(coll)[:1])+singular(coll)[1:], id)
}

// newObject builds a stored object from the create operation's example, the defaults and the body.
func (c *call) newObject(coll string, tmplKey string, body obj) obj {
	o := templateData(tmplKey)
	for k, v := range o {
		switch v.(type) {
		case []any:
			o[k] = []any{}
		case map[string]any:
			if k == "metadata" || k == "theme" {
				o[k] = obj{}
			}
		}
	}
	if c.rt.req != nil {
		for k, ps := range c.rt.req.Properties {
			if ps.Default != nil {
				if _, in := o[k]; in {
					o[k] = ps.Default
				}
			}
		}
	}
	for k, v := range body {
		if _, in := o[k]; in {
			o[k] = v
		}
	}
	n := c.org.next(coll)
	o["id"] = collectionAt(coll).id(n)
	if _, ok := o["legacy_id"]; ok {
		o["legacy_id"] = float64(n)
	}
	for _, k := range []string{"created_at", "updated_at"} {
		if _, ok := o[k]; ok {
			o[k] = stamp(c.now)
		}
	}
	return o
}

func (c *call) generic(coll, idParam string) (int, any) {
	o := c.org
	if idParam == "" {
		switch c.rt.Method {
		case "GET":
			return c.list(coll, o.Collections[coll])
		case "POST", "PUT":
			item := c.newObject(coll, c.rt.key, c.body)
			o.Collections[coll] = append(o.Collections[coll], item)
			return c.rt.Status, c.wrap(coll, item)
		}
		return c.rt.Status, c.template()
	}
	id := c.params[idParam]
	i, item := o.find(coll, id)
	if item == nil {
		return notFound(coll, id)
	}
	switch c.rt.Method {
	case "GET":
		return c.rt.Status, c.wrap(coll, item)
	case "DELETE":
		o.Collections[coll] = append(o.Collections[coll][:i:i], o.Collections[coll][i+1:]...)
		return 204, nil
	case "PATCH":
		next, msg := applyPatch(item, c.body)
		if msg != "" {
			return 400, errBody("%s", msg)
		}
		touch(next, c.now)
		o.Collections[coll][i] = next
		return c.rt.Status, c.wrap(coll, next)
	case "PUT":
		next := deepCopy(item).(map[string]any)
		for k, v := range c.body {
			if k == "id" || k == "legacy_id" {
				continue
			}
			next[k] = v
		}
		touch(next, c.now)
		o.Collections[coll][i] = next
		return c.rt.Status, c.wrap(coll, next)
	}
	return c.rt.Status, c.template()
}

func touch(o obj, now time.Time) {
	if _, ok := o["updated_at"]; ok {
		o["updated_at"] = stamp(now)
	}
}

// wrap presents an object in the envelope the route publishes (a few role routes are bare).
func (c *call) wrap(coll string, item obj) any {
	v := c.present(coll, item)
	if m, ok := c.rt.tmpl.(map[string]any); ok {
		if _, enveloped := m["success"]; !enveloped {
			return v
		}
	}
	return one(v)
}

// present hides internal fields and fills in per-request ones.
func (c *call) present(coll string, item obj) obj {
	v := deepCopy(item).(map[string]any)
	for k := range v {
		if strings.HasPrefix(k, "_") {
			delete(v, k)
		}
	}
	switch coll {
	case "/spaces":
		v["domain"] = c.host + "/space/" + fmt.Sprint(v["name"])
	case "/resources":
		if c.rt.Path == "/resources" {
			delete(v, "options") // lists stay within the published Resource schema; single reads carry options
		}
	}
	return v
}

// list filters by the query parameters that name fields, then pages with limit + next_token.
func (c *call) list(coll string, items []obj) (int, any) {
	var sel []any
	for _, it := range items {
		keep := true
		for _, q := range c.rt.Query {
			qp := q.Name
			field := qp
			if qp == "resource_type" {
				field = "type"
			}
			if qp == "limit" || qp == "next_token" || c.q.Get(qp) == "" {
				continue
			}
			if v, ok := it[field]; ok && fmt.Sprint(v) != c.q.Get(qp) {
				keep = false
			}
		}
		if keep {
			sel = append(sel, it)
		}
	}
	if coll == "/folders" {
		// The live API lists folders by id as text (app_1, app_10, app_2, ...): a folder
		// can come before its parent, and clients must not count on the opposite.
		sort.SliceStable(sel, func(i, j int) bool {
			a, _ := sel[i].(obj)["id"].(string)
			b, _ := sel[j].(obj)["id"].(string)
			return a < b
		})
	}
	// Only the page is presented (deep-copied): a list of 100,000 users must not copy them all.
	status, out := c.page(sel)
	if m, ok := out.(obj); ok {
		if data, ok := m["data"].([]any); ok {
			shown := make([]any, len(data))
			for i, it := range data {
				shown[i] = c.present(coll, it.(obj))
			}
			m["data"] = shown
		}
	}
	return status, out
}

func (c *call) page(all []any) (int, any) {
	if all == nil {
		all = []any{}
	}
	if !c.rt.paginated {
		return 200, obj{"success": true, "data": all}
	}
	total := len(all)
	start, limit := 0, total
	if l := c.q.Get("limit"); l != "" {
		limit, _ = strconv.Atoi(l)
		if t := c.q.Get("next_token"); t != "" {
			raw, err := base64.RawURLEncoding.DecodeString(t)
			off, ok := strings.CutPrefix(string(raw), "offset:")
			n, aerr := strconv.Atoi(off)
			if err != nil || !ok || aerr != nil || n < 0 || n > total {
				return 400, errBody(`"next_token" is invalid`)
			}
			start = n
		}
	}
	end := min(start+limit, total)
	var next any
	if end < total {
		next = base64.RawURLEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(end)))
	}
	return 200, obj{"success": true, "data": all[start:end], "total_count": total, "next_token": next, "has_more": end < total}
}

func (c *call) singleton(key string) (int, any) {
	o := c.org
	cur := o.Singletons[key]
	switch c.rt.Method {
	case "GET":
		if cur == nil {
			return 404, errBody("%s is not configured", strings.TrimPrefix(key, "/"))
		}
		return 200, one(cur)
	case "DELETE":
		if cur == nil {
			return 404, errBody("%s is not configured", strings.TrimPrefix(key, "/"))
		}
		delete(o.Singletons, key)
		return 204, nil
	case "PATCH":
		if cur == nil {
			cur = templateData("GET " + key)
		}
		next, msg := applyPatch(cur, c.body)
		if msg != "" {
			return 400, errBody("%s", msg)
		}
		o.Singletons[key] = next
		return 200, one(next)
	}
	next := cur
	if next == nil {
		next = templateData(c.rt.key)
	} else {
		next = deepCopy(next).(map[string]any)
	}
	src := c.body
	if inner, ok := src["data"].(map[string]any); ok && len(src) == 1 {
		src = inner
	}
	if inner, ok := src["settings"].(map[string]any); ok && len(src) == 1 {
		src = inner
	}
	for k, v := range src {
		next[k] = v
	}
	o.Singletons[key] = next
	return c.rt.Status, one(next)
}

// applyPatch applies RFC 6902 add/remove/replace operations to a copy of o.
func applyPatch(o obj, body obj) (obj, string) {
	next := deepCopy(o).(map[string]any)
	ops, _ := body["operations"].([]any)
	for i, raw := range ops {
		op, _ := raw.(map[string]any)
		kind, _ := op["op"].(string)
		path, _ := op["path"].(string)
		parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
		if !strings.HasPrefix(path, "/") || parts[0] == "" || parts[0] == "id" || parts[0] == "legacy_id" {
			return nil, fmt.Sprintf(`"operations[%d].path" %q is not a patchable path`, i, path)
		}
		if _, known := next[parts[0]]; !known && kind != "add" {
			return nil, fmt.Sprintf(`"operations[%d].path" %q does not name a field`, i, path)
		}
		parent := next
		for _, p := range parts[:len(parts)-1] {
			child, ok := parent[p].(map[string]any)
			if !ok {
				if kind == "remove" {
					return nil, fmt.Sprintf(`"operations[%d].path" %q does not exist`, i, path)
				}
				child = obj{}
				parent[p] = child
			}
			parent = child
		}
		last := parts[len(parts)-1]
		switch kind {
		case "add", "replace":
			parent[last] = op["value"]
		case "remove":
			delete(parent, last)
		default:
			return nil, fmt.Sprintf(`"operations[%d].op" must be one of: add, remove, replace`, i)
		}
	}
	return next, ""
}
