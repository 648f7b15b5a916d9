package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
)

// specRouter loads the published spec for validating answers against it.
func specRouter(t *testing.T) routers.Router {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromFile(sandboxtest.SharedFile(t, "api", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc.Servers = openapi3.Servers{{URL: "http://sandbox.test/api/v2"}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return router
}

// conformingCall sends one request and fails the test unless the answer is
// 200 and valid under the published schema; it returns the envelope's data.
func conformingCall(t *testing.T, s *Server, router routers.Router, method, path string, body any) any {
	t.Helper()
	var b []byte
	if body != nil {
		b, _ = json.Marshal(body)
	}
	req := httptest.NewRequest(method, "http://sandbox.test/api/v2"+path, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+s.AdminToken())
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("%s %s -> %d: %s", method, path, rec.Code, rec.Body)
	}
	vreq := httptest.NewRequest(method, "http://sandbox.test/api/v2"+path, bytes.NewReader(b))
	vreq.Header.Set("Content-Type", "application/json")
	route, params, err := router.FindRoute(vreq)
	if err != nil {
		t.Fatalf("%s %s: not in the spec: %v", method, path, err)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status: rec.Code, Header: rec.Header(), Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	in.SetBodyBytes(rec.Body.Bytes())
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Errorf("%s %s: answer outside the published schema: %s", method, path, firstLine(err.Error()))
	}
	// The request must be one the spec accepts too, or the test proves nothing.
	rin := &openapi3filter.RequestValidationInput{Request: httptest.NewRequest(method, "http://sandbox.test/api/v2"+path, bytes.NewReader(b)),
		PathParams: params, Route: route, Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	rin.Request.Header.Set("Content-Type", "application/json")
	if err := openapi3filter.ValidateRequest(context.Background(), rin); err != nil {
		t.Errorf("%s %s: request outside the published schema: %s", method, path, firstLine(err.Error()))
	}
	var env struct {
		Data any `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatal(err)
	}
	return env.Data
}

func idOf(t *testing.T, s *Server, coll, field, value string) string {
	t.Helper()
	for _, it := range s.st.Orgs[""].Collections[coll] {
		if fmt.Sprint(it[field]) == value {
			return fmt.Sprint(it["id"])
		}
	}
	t.Fatalf("no %s with %s %q in the demo org", coll, field, value)
	return ""
}

// entry finds a subject's entry in an access list.
func entry(data any, kind, id string) map[string]any {
	for _, e := range data.(map[string]any)[kind].([]any) {
		m := e.(map[string]any)
		if m["subject"].(map[string]any)["id"] == id {
			return m
		}
	}
	return nil
}

func TestAccessListAnswersAsTheSpecSays(t *testing.T) {
	router := specRouter(t)
	s := New(Options{Points: 1 << 30})
	lookup := idOf(t, s, "/apps", "name", "Customer Lookup")
	refunds := idOf(t, s, "/apps", "name", "Refund Console")
	ops := idOf(t, s, "/folders", "name", "Operations")
	esc := idOf(t, s, "/folders", "name", "Escalations")
	viewer := idOf(t, s, "/groups", "name", "viewer")
	support := idOf(t, s, "/groups", "name", "support")
	allUsers := idOf(t, s, "/groups", "name", "All Users")
	ana := idOf(t, s, "/users", "email", "ana.viewer@sandbox.example")
	dev := idOf(t, s, "/users", "email", "dev.lee@sandbox.example")
	gone := idOf(t, s, "/users", "email", "former.employee@sandbox.example")
	invite := idOf(t, s, "/user_invites", "invited_email", "invitee@sandbox.example")

	al := conformingCall(t, s, router, "GET", "/permissions/accessList/app/"+lookup, nil)
	v := entry(al, "group", viewer)
	if v == nil || v["accessLevel"] != "use" || v["sources"].(map[string]any)["inherited"].(map[string]any)["id"] != ops {
		t.Errorf("viewer on Customer Lookup = %v, want use inherited from folder %s", v, ops)
	}
	for _, g := range []string{support, allUsers} {
		if e := entry(al, "group", g); e == nil || e["sources"].(map[string]any)["universal"] != true {
			t.Errorf("group %s on Customer Lookup = %v, want universal access", g, e)
		}
	}
	a := entry(al, "user", ana)
	if a == nil || a["accessLevel"] != "edit" || len(a["sources"].(map[string]any)["groups"].([]any)) != 3 {
		t.Errorf("ana on Customer Lookup = %v, want edit through viewer, All Users and support", a)
	}
	if e := entry(al, "user", gone); e == nil {
		t.Errorf("a disabled user still in groups is missing from the access list")
	}
	if e := entry(al, "userInvite", invite); e == nil || e["accessLevel"] != "use" {
		t.Errorf("the invite into support = %v, want use through support", e)
	}

	al = conformingCall(t, s, router, "GET", "/permissions/accessList/app/"+refunds, nil)
	d := entry(al, "user", dev)
	if d == nil || d["sources"].(map[string]any)["direct"] != true {
		t.Errorf("dev.lee on Refund Console = %v, want a direct grant", d)
	}
	if e := entry(al, "user", ana); e["sources"].(map[string]any)["direct"] != false {
		t.Errorf("ana has no direct grant on Refund Console, got %v", e)
	}

	// Nested folders: Escalations sits in Operations and inherits viewer's grant on it.
	al = conformingCall(t, s, router, "GET", "/permissions/accessList/folder/"+esc, nil)
	if v := entry(al, "group", viewer); v == nil || v["sources"].(map[string]any)["inherited"].(map[string]any)["id"] != ops {
		t.Errorf("viewer on Escalations = %v, want inherited from %s", v, ops)
	}
	if e := entry(al, "group", support); e == nil || e["accessLevel"] != "edit" || e["sources"].(map[string]any)["direct"] != true {
		t.Errorf("support on Escalations = %v, want edit, direct", e)
	}
	conformingCall(t, s, router, "GET", "/permissions/accessList/resource/"+idOf(t, s, "/resources", "display_name", "orders-postgres"), nil)
	conformingCall(t, s, router, "GET", "/permissions/accessList/workflow/"+idOf(t, s, "/workflows", "name", "Nightly invoice sync"), nil)
}

func TestListObjectsIncludesInheritedAccessOnlyWhenAsked(t *testing.T) {
	router := specRouter(t)
	s := New(Options{Points: 1 << 30})
	lookup := idOf(t, s, "/apps", "name", "Customer Lookup")
	ana := idOf(t, s, "/users", "email", "ana.viewer@sandbox.example")
	viewer := idOf(t, s, "/groups", "name", "viewer")
	var n float64
	fmt.Sscan(viewer, &n)
	has := func(data any, id, level string) bool {
		for _, it := range data.([]any) {
			m := it.(map[string]any)
			if m["id"] == id && (level == "" || m["access_level"] == level) {
				return true
			}
		}
		return false
	}
	direct := conformingCall(t, s, router, "POST", "/permissions/listObjects",
		map[string]any{"subject": map[string]any{"type": "user", "id": ana}, "object_type": "app"})
	if has(direct, lookup, "") {
		t.Errorf("without include_inherited_access, ana (no direct grant) lists Customer Lookup: %v", direct)
	}
	all := conformingCall(t, s, router, "POST", "/permissions/listObjects",
		map[string]any{"subject": map[string]any{"type": "user", "id": ana}, "object_type": "app", "include_inherited_access": true})
	if !has(all, lookup, "edit") {
		t.Errorf("with include_inherited_access, ana's apps = %v, want Customer Lookup at edit", all)
	}
	folders := conformingCall(t, s, router, "POST", "/permissions/listObjects",
		map[string]any{"subject": map[string]any{"type": "group", "id": n}, "object_type": "folder", "include_inherited_access": true})
	if !has(folders, idOf(t, s, "/folders", "name", "Escalations"), "use") {
		t.Errorf("viewer's folders = %v, want Escalations (nested in Operations) at use", folders)
	}
}

// The load org's access: groups share the synthetic users, folders nest ten
// deep, and a group's grant on a folder reaches the folders and apps below.
func TestLoadAccessNestsAndInherits(t *testing.T) {
	router := specRouter(t)
	s := New(Options{Points: 1 << 30, Users: 30, Groups: 3, Folders: 12})
	g0 := idOf(t, s, "/groups", "name", "load-group-000")
	top := idOf(t, s, "/folders", "name", "load-folder-0000")
	deep := idOf(t, s, "/folders", "name", "load-folder-0009")
	al := conformingCall(t, s, router, "GET", "/permissions/accessList/folder/"+deep, nil)
	e := entry(al, "group", g0)
	if e == nil || e["accessLevel"] != "use" || e["sources"].(map[string]any)["inherited"].(map[string]any)["id"] != top {
		t.Fatalf("load-group-000 on load-folder-0009 = %v, want use inherited from %s", e, top)
	}
	through := 0
	for _, u := range al.(map[string]any)["user"].([]any) {
		for _, g := range u.(map[string]any)["sources"].(map[string]any)["groups"].([]any) {
			if g.(map[string]any)["id"] == g0 {
				through++
			}
		}
	}
	if through != 10 { // user000003, 6, ..., 30
		t.Errorf("%d users reach load-folder-0009 through load-group-000, want its 10 members", through)
	}
	app := idOf(t, s, "/apps", "name", "load-app-0009")
	if e := entry(conformingCall(t, s, router, "GET", "/permissions/accessList/app/"+app, nil), "group", g0); e == nil {
		t.Errorf("the app in load-folder-0009 does not inherit load-group-000's access")
	}
	if e := entry(conformingCall(t, s, router, "GET", "/permissions/accessList/folder/"+idOf(t, s, "/folders", "name", "load-folder-0010"), nil), "group", g0); e != nil {
		t.Errorf("load-folder-0010 starts a new chain, yet inherits %v", e)
	}
}

// listObjects lists no root folder of any kind (each type's root, personalRoot) and nothing of a
// user's personal tree, as an access-list review skips them, so both ways of reading an org's
// access agree; the folders below a type's root it lists.
func TestListObjectsSkipsEveryRootFolder(t *testing.T) {
	s := New(Options{})
	r := send(t, s, s.AdminToken(), "POST", "/api/v2/permissions/listObjects", map[string]any{
		"subject": map[string]any{"type": "user", "id": userID(1)}, "object_type": "folder", "include_inherited_access": true})
	listed := map[string]bool{}
	for _, it := range r.body["data"].([]any) {
		listed[fmt.Sprint(it.(map[string]any)["id"])] = true
	}
	for _, id := range []string{"app_1", "app_3", "resource_1", "workflow_4"} {
		if listed[id] {
			t.Errorf("root folder %s listed", id)
		}
	}
	for _, id := range []string{"app_12", "app_13"} { // the admin's Drafts and Trash
		if listed[id] {
			t.Errorf("personal folder %s listed", id)
		}
	}
	for _, id := range []string{"app_2", "app_7"} { // archive, Operations
		if !listed[id] {
			t.Errorf("folder %s not listed", id)
		}
	}
}
