package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
)

// knownDeviations are responses that differ from the published schema on purpose (see doc.go).
var knownDeviations = map[string]string{
	"GET /folders":            "the demo org has a folder_type \"file\" folder, outside the published enum, as the recorded live org does",
	"GET /folders/{folderId}": "the swept folder is the demo's \"file\" folder (outside the published enum, as recorded)",
	"POST /resources":         "returns options, like GET /resources/{resourceId}",
	"GET /resource_configurations/{configurationId}": "enveloped, as the recorded 4.0 instance answers; the 4.0 description has a bare configuration",
	"GET /resources/{resourceId}":                    "returns options (connector_version, windows_auth, params_from_connection_string), which the published Resource schema does not list",
}

func demoIDs(t *testing.T, s *Server) map[string]string {
	tok := s.AdminToken()
	first := func(path string) string {
		r := send(t, s, tok, "GET", "/api/v2"+path, nil)
		items, _ := r.body["data"].([]any)
		if len(items) == 0 {
			return "none"
		}
		return fmt.Sprint(items[len(items)-1].(map[string]any)["id"])
	}
	return map[string]string{
		"userId": first("/users"), "groupId": first("/groups"), "folderId": first("/folders"),
		"spaceId": first("/spaces"), "id": first("/app_themes"), "appId": first("/apps"),
		"accessRequestId": first("/access_requests"), "accessTokenId": first("/access_tokens"),
		"userInviteId": first("/user_invites"), "resourceId": first("/resources"),
		"configurationId": first("/resource_configurations"), "environmentId": first("/environments"),
		"libraryId": first("/custom_component_libraries"), "workflowId": first("/workflows"),
		"manifestName": "example", "appUuid": first("/apps"), "elementUuid": first("/workflows"),
		"objectType": "folder", "objectId": first("/folders"), "subjectType": "user", "subjectId": first("/users"),
		"revisionId": uuidFor(22, 1), "taskId": "1", "configId": "1", "provider": "datadog",
	}
}

// TestConformanceSweep checks an answer of every GET (and a few POSTs) against the 4.0
// description, which the sandbox answers as by default.
func TestConformanceSweep(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromFile(sandboxtest.SharedFile(t, "api", "openapi-4.0.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc.Servers = openapi3.Servers{{URL: "http://sandbox.test/api/v2"}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{Points: 1 << 30})
	ids := demoIDs(t, s)
	// The config var route needs a valid id for the configuration_variables family.
	r := send(t, s, s.AdminToken(), "GET", "/api/v2/configuration_variables", nil)
	cvID := fmt.Sprint(r.body["data"].([]any)[0].(map[string]any)["id"])
	paramRE := regexp.MustCompile(`\{(\w+)\}`)

	var fails, checked []string
	for _, rt := range routes.Get() {
		if rt.Method != "GET" && !(rt.Method == "POST" && sweepBodies[rt.key] != nil) {
			continue
		}
		path := paramRE.ReplaceAllStringFunc(rt.Path, func(m string) string {
			name := strings.Trim(m, "{}")
			if strings.HasPrefix(rt.Path, "/configuration_variables") {
				return cvID
			}
			return ids[name]
		})
		var body []byte
		if b := sweepBodies[rt.key]; b != nil {
			body, _ = json.Marshal(b)
		}
		req := httptest.NewRequest(rt.Method, "http://sandbox.test/api/v2"+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+s.AdminToken())
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		checked = append(checked, rt.key)
		vreq := httptest.NewRequest(rt.Method, "http://sandbox.test/api/v2"+path, bytes.NewReader(body))
		route, params, err := router.FindRoute(vreq)
		if err != nil {
			vreq = httptest.NewRequest(rt.Method, "http://sandbox.test/api/v2"+path+"/", bytes.NewReader(body))
			route, params, err = router.FindRoute(vreq)
		}
		if err != nil && (rt.key == "POST /apps" || rt.key == "GET /access_tokens/{accessTokenId}") {
			t.Logf("not in the published spec as served: %s (unpublished POST /apps; the spec writes /access_tokens/:accessTokenId literally)", rt.key)
			continue
		}
		if err != nil {
			fails = append(fails, fmt.Sprintf("%s: spec route not found (%v)", rt.key, err))
			continue
		}
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route,
				Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
			Status: rec.Code, Header: rec.Header(), Options: &openapi3filter.Options{IncludeResponseStatus: true},
		}
		in.SetBodyBytes(rec.Body.Bytes())
		if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
			msg := fmt.Sprintf("%s -> %d: %s", rt.key, rec.Code, firstLine(err.Error()))
			if why, ok := knownDeviations[rt.key]; ok {
				t.Logf("known deviation %s (%s)", msg, why)
				continue
			}
			fails = append(fails, msg)
		}
	}
	t.Logf("checked %d operations", len(checked))
	sort.Strings(fails)
	for _, f := range fails {
		t.Error(f)
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// sweepBodies are valid request bodies for the POST operations included in the sweep.
var sweepBodies = map[string]any{
	"POST /users":                   map[string]any{"email": "sweep@example.com", "first_name": "Sweep", "last_name": "User"},
	"POST /groups":                  map[string]any{"name": "sweep-group"},
	"POST /folders":                 map[string]any{"name": "sweep-folder", "folder_type": "app"},
	"POST /environments":            map[string]any{"name": "sweep-env", "color": "#00FF00"},
	"POST /user_attributes":         map[string]any{"name": "sweep_attr", "label": "Sweep", "dataType": "string"},
	"POST /user_invites":            map[string]any{"email": "sweep-invite@example.com"},
	"POST /access_tokens":           map[string]any{"label": "sweep", "scopes": []string{"users:read"}},
	"POST /spaces":                  map[string]any{"name": "sweep", "domain": "sweep"},
	"POST /resources":               map[string]any{"type": "restapi", "display_name": "sweep-api", "options": map[string]any{"base_url": "https://api.example.com"}},
	"POST /apps":                    map[string]any{"name": "Sweep App"},
	"POST /permissions/listObjects": map[string]any{"subject": map[string]any{"type": "group", "id": 1}, "object_type": "folder"},
	"POST /role_permissions/roles":  map[string]any{"name": "sweep-role", "object_scopes": []string{}, "organization_scopes": []string{}},
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	}
	return "object"
}

// shapes collects, per operation and status ("GET /folders/{folderId} 200"), every key path of the
// answers' bodies with the JSON types seen there: `data[].members[].email` is a key of an element of
// the members array of an element of data. A null value only says the key is there.
type shapes map[string]map[string]map[string]bool

func (sh shapes) add(op, body string) {
	var v any
	if json.Unmarshal([]byte(body), &v) != nil {
		return
	}
	if sh[op] == nil {
		sh[op] = map[string]map[string]bool{}
	}
	walkShape(sh[op], "", v)
}

func walkShape(into map[string]map[string]bool, path string, v any) {
	if into[path] == nil {
		into[path] = map[string]bool{}
	}
	into[path][jsonType(v)] = true
	if strings.HasSuffix(path, ".metadata") {
		return // a user's attributes: its keys are the org's data, not the API's shape
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			walkShape(into, path+"."+k, e)
		}
	case []any:
		for _, e := range x {
			walkShape(into, path+"[]", e)
		}
	}
}

// parent is the path that holds p: the object a key belongs to, the array an element belongs to.
func parent(p string) string {
	if s, ok := strings.CutSuffix(p, "[]"); ok {
		return s
	}
	return p[:strings.LastIndex(p, ".")]
}

// diffShapes lists how the sandbox's answers (have) differ from the recorded ones (want) for the
// operations both answered: a recorded key the sandbox lacks, a key of another type, and a key the
// sandbox adds to an object whose keys the recording shows.
func diffShapes(want, have shapes) []string {
	var out []string
	for op, w := range want {
		h := have[op]
		if h == nil {
			out = append(out, fmt.Sprintf("%s: the sandbox never answered so", op))
			continue
		}
		for p, wt := range w {
			ht, ok := h[p]
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("%s: %s missing (recorded %s)", op, p, typeList(wt)))
			case !typesAgree(wt, ht):
				out = append(out, fmt.Sprintf("%s: %s is %s, recorded %s", op, p, typeList(ht), typeList(wt)))
			}
		}
		for p := range h {
			if _, ok := w[p]; ok || p == "" {
				continue
			}
			if pt, known := w[parent(p)]; known && pt["object"] && !addedIn40[lastKey(p)] {
				out = append(out, fmt.Sprintf("%s: %s not in the recording", op, p))
			}
		}
	}
	sort.Strings(out)
	return out
}

// addedIn40 are fields the 4.0 description adds to objects the
// recordings, made against a 2.12 instance, hold without them.
var addedIn40 = map[string]bool{"seat_type": true}

func lastKey(p string) string { return p[strings.LastIndex(p, ".")+1:] }

// typesAgree: every non-null type recorded is one the sandbox sent, unless the sandbox only sent null there.
func typesAgree(want, have map[string]bool) bool {
	onlyNull := true
	for t := range have {
		if t != "null" {
			onlyNull = false
		}
	}
	if onlyNull {
		return true
	}
	for t := range want {
		if t != "null" && !have[t] {
			return false
		}
	}
	return true
}

func typeList(ts map[string]bool) string {
	var l []string
	for t := range ts {
		l = append(l, t)
	}
	sort.Strings(l)
	return strings.Join(l, "|")
}

// TestConformanceCassettes replays every exchange recorded against a 2.12 instance, in order,
// against a demo sandbox (a new one per recording, so what one recording creates the next does not
// see) and compares the shape of the sandbox's answers with the recorded ones, per operation.
func TestConformanceCassettes(t *testing.T) {
	replayCassettes(t, sandboxtest.LoadCassettes(t), Options{APIVersion: "2.12"})
}

// TestConformanceCassettes40 does the same with the exchanges recorded against a 4.0 instance, which
// the sandbox answers as by default: resources, resource configurations, SSO, source control and
// Spaces as well as the families the 2.12 recordings cover.
func TestConformanceCassettes40(t *testing.T) {
	cs := sandboxtest.LoadCassettesFrom(t, "recordings-4.0")
	if len(cs) != 11 {
		t.Errorf("%d recordings of a 4.0 instance, want the 11 in ../shared/api/recordings-4.0", len(cs))
	}
	replayCassettes(t, cs, Options{})
}

func replayCassettes(t *testing.T, cs []sandboxtest.Cassette, o Options) {
	want, have := shapes{}, shapes{}
	replayed := 0
	o.Points = 1 << 30
	for _, c := range cs {
		s := New(o)
		// The recordings start with source control unconfigured; the demo org has it configured.
		send(t, s, s.AdminToken(), "DELETE", "/api/v2/source_control/config", nil)
		idmap := recordedNames(t, s, cs)
		for n, it := range c.Interactions {
			u := it.Request.URL
			p := u[strings.Index(u, "/api/v2"):]
			body := it.Request.Body
			for from, to := range idmap {
				p = replaceID(p, from, to)
				body = strings.ReplaceAll(body, `"`+from+`"`, `"`+to+`"`)
			}
			req := httptest.NewRequest(it.Request.Method, "http://sandbox.test"+p, strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+s.AdminToken())
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			replayed++
			got, _ := io.ReadAll(rec.Body)
			if rec.Code != it.Response.Code {
				t.Errorf("%s #%d %s %s: status %d, recorded %d (%s)", c.Name, n, it.Request.Method, p, rec.Code, it.Response.Code, firstLine(string(got)))
				continue
			}
			if it.Request.Method == "POST" {
				rid := dataID(it.Response.Body)
				sid := dataID(string(got))
				if rid != "" && sid != "" {
					idmap[rid] = sid
				}
			}
			apiPath, _, _ := strings.Cut(strings.TrimPrefix(p, "/api/v2"), "?")
			rt, _ := matchRoute(it.Request.Method, apiPath)
			if rt == nil {
				t.Errorf("%s #%d %s %s: no sandbox route", c.Name, n, it.Request.Method, p)
				continue
			}
			if rb := it.Response.Body; rb != "" && (len(got) == 0 || got[len(got)-1] != rb[len(rb)-1]) {
				t.Errorf("%s #%d %s %s: the body ends %q, recorded %q", c.Name, n, it.Request.Method, p, got[max(0, len(got)-2):], rb[len(rb)-2:])
			}
			op := fmt.Sprintf("%s %d", rt.key, rec.Code)
			want.add(op, it.Response.Body)
			have.add(op, string(got))
		}
	}
	t.Logf("replayed %d interactions of %d recordings over %d operations", replayed, len(cs), len(want))
	for _, d := range diffShapes(want, have) {
		if why := shapeDeviation(d); why != "" {
			t.Logf("known deviation %s (%s)", d, why)
			continue
		}
		t.Error(d)
	}
}

// shapeDeviation is why a difference from a recording is on purpose, "" when it is not.
func shapeDeviation(diff string) string {
	if strings.HasPrefix(diff, "GET /resources/{resourceId} ") || strings.HasPrefix(diff, "PATCH /resources/{resourceId} ") ||
		strings.HasPrefix(diff, "POST /resources ") {
		if strings.HasSuffix(diff, ": .data.options not in the recording") {
			return knownDeviations["GET /resources/{resourceId}"]
		}
	}
	return ""
}

func replaceID(p, from, to string) string {
	if strings.HasSuffix(p, "/"+from) {
		return strings.TrimSuffix(p, from) + to
	}
	return strings.ReplaceAll(p, "/"+from+"/", "/"+to+"/")
}

func dataID(body string) string {
	var env map[string]any
	if json.Unmarshal([]byte(body), &env) != nil {
		return ""
	}
	if d, ok := env["data"].(map[string]any); ok && d["id"] != nil {
		return fmt.Sprint(d["id"])
	}
	return ""
}

// recordedNames maps ids seen in recorded list responses to sandbox ids of objects with the same name.
func recordedNames(t *testing.T, s *Server, cs []sandboxtest.Cassette) map[string]string {
	out := map[string]string{}
	for _, c := range cs {
		for _, it := range c.Interactions {
			if it.Request.Method != "GET" {
				continue
			}
			var env struct{ Data []map[string]any }
			if json.Unmarshal([]byte(it.Response.Body), &env) != nil || len(env.Data) == 0 {
				continue
			}
			u := it.Request.URL
			p := u[strings.Index(u, "/api/v2"):]
			mine := send(t, s, s.AdminToken(), "GET", p, nil)
			items, _ := mine.body["data"].([]any)
			for _, rec := range env.Data {
				for _, it := range items {
					m := it.(map[string]any)
					if rec["name"] != nil && m["name"] == rec["name"] && m["folder_type"] == rec["folder_type"] {
						out[fmt.Sprint(rec["id"])] = fmt.Sprint(m["id"])
					}
				}
			}
		}
	}
	return out
}

func TestDiffShapesFindsWhatDiffers(t *testing.T) {
	want, have := shapes{}, shapes{}
	want.add("GET /x 200", `{"data":[{"id":"a","n":1,"tags":[{"k":"v"}],"meta":null,"metadata":{"team":"x"}}]}`)
	have.add("GET /x 200", `{"data":[{"id":"a","n":"1","tags":[{"k":"v","extra":true}],"meta":{"a":1},"metadata":{}}]}`)
	want.add("GET /y 200", `{"data":{}}`)
	got := strings.Join(diffShapes(want, have), "\n")
	for _, w := range []string{
		"GET /x 200: .data[].n is string, recorded number",
		"GET /x 200: .data[].tags[].extra not in the recording",
		"GET /y 200: the sandbox never answered so",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("diff lacks %q; got:\n%s", w, got)
		}
	}
	for _, unwanted := range []string{".meta.a", "metadata"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("diff reports %s (null recorded; free-form attributes):\n%s", unwanted, got)
		}
	}
	delete(have["GET /x 200"], ".data[].id")
	if got := strings.Join(diffShapes(want, have), "\n"); !strings.Contains(got, ".data[].id missing (recorded string)") {
		t.Errorf("a recorded key the sandbox lacks is not reported:\n%s", got)
	}
}

// folderRole names what a system folder is, the user's name left out: "app personalRoot",
// "app Drafts in personalRoot", "app Trash in Drafts".
func folderRole(f map[string]any, byID map[string]map[string]any) string {
	role := func(f map[string]any) string {
		name := fmt.Sprint(f["name"])
		if m := regexp.MustCompile(`^\(\d+\) .+'s (Drafts|Trash)$`).FindStringSubmatch(name); m != nil {
			return m[1]
		}
		return name
	}
	r := fmt.Sprint(f["folder_type"]) + " " + role(f)
	if p := byID[fmt.Sprint(f["parent_folder_id"])]; p != nil {
		r += " in " + role(p)
	}
	return r
}

func systemFolderRoles(t *testing.T, folders []any) map[string]bool {
	t.Helper()
	byID := map[string]map[string]any{}
	for _, f := range folders {
		m := f.(map[string]any)
		byID[fmt.Sprint(m["id"])] = m
	}
	roles := map[string]bool{}
	idRE := regexp.MustCompile(`^(app|resource|workflow|file)_\d+$`)
	for _, m := range byID {
		if m["is_system_folder"] != true {
			continue
		}
		if !idRE.MatchString(fmt.Sprint(m["id"])) || m["legacy_id"] != m["id"] || !strings.HasPrefix(fmt.Sprint(m["id"]), fmt.Sprint(m["folder_type"])+"_") {
			t.Errorf("system folder %v: id %v, legacy_id %v, want TYPE_N twice", m["name"], m["id"], m["legacy_id"])
		}
		roles[folderRole(m, byID)] = true
	}
	return roles
}

// The demo org has every system folder the recorded live org has: each type's root, archive under
// the app and workflow roots, personalRoot, and a signed-in user's Drafts and its Trash.
func TestSystemFoldersAsRecorded(t *testing.T) {
	cs := sandboxtest.LoadCassettes(t, "TestAccFoldersDataSource")
	var recorded struct{ Data []any }
	if err := json.Unmarshal([]byte(cs[0].Interactions[0].Response.Body), &recorded); err != nil {
		t.Fatal(err)
	}
	want := systemFolderRoles(t, recorded.Data)
	if len(want) < 8 {
		t.Fatalf("the recording shows %d kinds of system folder, expected root, archive, personalRoot, Drafts, Trash", len(want))
	}
	s := New(Options{})
	r := send(t, s, s.AdminToken(), "GET", "/api/v2/folders", nil)
	have := systemFolderRoles(t, r.body["data"].([]any))
	for role := range want {
		if !have[role] {
			t.Errorf("the demo org lacks the recorded system folder %q", role)
		}
	}
	for role := range have {
		if !want[role] {
			t.Errorf("the demo org has a system folder %q the recording does not show", role)
		}
	}
}
