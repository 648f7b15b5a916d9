package access

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
)

// demo serves the sandbox's demo org on loopback and returns a client with
// token (the admin's when "") and the sandbox.
func demo(t *testing.T, token string) (*client.Client, *sandbox.Server) {
	t.Helper()
	api := sandbox.New(sandbox.Options{Points: 100000})
	hs := httptest.NewServer(api)
	t.Cleanup(hs.Close)
	if token == "" {
		token = api.AdminToken()
	}
	cl, err := client.New(client.Options{BaseURL: hs.URL, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	return cl, api
}

// review reads the demo org's effective access with reads and returns its rows.
func review(t *testing.T, cl *client.Client, reads func(*Org) []Read) (*Org, []Row) {
	t.Helper()
	ctx := context.Background()
	o := NewOrg(cl)
	if err := o.Load(ctx, "", ReportTypes...); err != nil {
		t.Fatal(err)
	}
	rs := reads(o)
	answers := make([]json.RawMessage, len(rs))
	for i, r := range rs {
		resp, err := cl.Do(ctx, r.Req)
		if err != nil {
			t.Fatalf("%s: %v", r.Key, err)
		}
		answers[i] = resp.Data
	}
	rows, err := o.Rows(rs, answers)
	if err != nil {
		t.Fatal(err)
	}
	return o, rows
}

// The two ways to read an org's access give every user the same level on
// every object, by the same route: a report read one way compares with
// one read the other (the report picks the cheaper way, which changes as
// the org grows), so --since finds no "via" change where none was made.
func TestBothWaysOfReadingAgreeOnLevels(t *testing.T) {
	cl, _ := demo(t, "")
	_, byLists := review(t, cl, func(o *Org) []Read { return o.AccessListReads(ReportTypes) })
	_, byObjects := review(t, cl, (*Org).ListObjectsReads)
	levels := func(rows []Row) []string {
		return lines(rows, "user", "active", "admin", "object_type", "object", "level", "via")
	}
	a, b := levels(byLists), levels(byObjects)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("access lists:\n%s\nlistObjects:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	want := map[string]bool{
		// a direct grant beside a group's
		"dev.lee@sandbox.example|true|false|app|Refund Console|own|direct; member of editor; universal through All Users": true,
		// a disabled user keeps what they reach: a review must show it
		"former.employee@sandbox.example|false|false|folder|app:/Finance|edit|direct; universal through All Users; universal through support": true,
		// each type's root is reviewed
		"admin@sandbox.example|true|true|folder|workflow:/|own|universal through admin; universal through All Users": true,
	}
	for _, l := range a {
		delete(want, l)
		if strings.Contains(l, "|folder|file:") || strings.Contains(l, ":~") {
			t.Errorf("a file folder or a personal folder is in the review: %s", l)
		}
	}
	for l := range want {
		t.Errorf("missing: %s", l)
	}
	for _, rows := range [][]Row{byLists, byObjects} {
		for _, r := range rows {
			if r["user"] == "dev.lee@sandbox.example" && r["object"] == "Refund Console" && r["via"] != "direct; member of editor; universal through All Users" {
				t.Errorf("dev.lee's Refund Console via %q", r["via"])
			}
		}
	}
}

func TestLoadObjectsReadsEachListOnce(t *testing.T) {
	cl, api := demo(t, "")
	o := NewOrg(cl)
	ctx := context.Background()
	for range 2 {
		if err := o.Load(ctx, "", "folder", "workflow"); err != nil {
			t.Fatal(err)
		}
	}
	got := sent(api)
	want := []string{"GET /users", "GET /groups", "GET /folders", "GET /workflows"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	points := 0
	for _, p := range []string{"/users", "/groups", "/folders", "/workflows"} {
		points += o.Prices.Cost(p)
	}
	if o.Reqs != 4 || o.Points != points {
		t.Errorf("counted %d requests, %d points", o.Reqs, o.Points)
	}
	var folders []string
	for _, id := range o.Objects["folder"] {
		folders = append(folders, o.Name("folder", id))
	}
	if !sort.StringsAreSorted(folders) {
		t.Errorf("folders not in path order: %v", folders)
	}
	for _, f := range folders {
		if strings.HasPrefix(f, "file:") || strings.Contains(f, "~") {
			t.Errorf("reviewed %s", f)
		}
	}
	for _, f := range []string{"app:/", "app:/Operations/Escalations", "resource:/Databases", "workflow:/"} {
		if !slices.Contains(folders, f) {
			t.Errorf("%s is not reviewed: %v", f, folders)
		}
	}
	if len(o.Objects["workflow"]) != 1 || o.Name("workflow", o.Objects["workflow"][0]) != "Nightly invoice sync" {
		t.Errorf("workflows %v", o.Objects["workflow"])
	}
}

// sent lists the sandbox's requests as "METHOD /path".
func sent(api *sandbox.Server) []string {
	var out []string
	for _, r := range api.Requests() {
		out = append(out, r.Method+" "+strings.TrimPrefix(r.Path, "/api/v2"))
	}
	return out
}

// A token that may read some lists and not others: every scope it lacks is
// named at once, with the scope the reads after need.
func TestLoadNamesEveryMissingScope(t *testing.T) {
	api := sandbox.New(sandbox.Options{Points: 100000})
	tok, err := sandboxtest.MintToken(api, "users:read", "apps:read")
	if err != nil {
		t.Fatal(err)
	}
	cl, _ := demoWith(t, api, tok)
	err = NewOrg(cl).Load(context.Background(), "Permissions > Read", ReportTypes...)
	var ms *MissingScopesError
	if !errors.As(err, &ms) {
		t.Fatalf("%v, want a MissingScopesError", err)
	}
	if want := []string{"Groups > Read", "Folders > Read", "Resources > Read", "Workflows > Read"}; !reflect.DeepEqual(ms.Scopes, want) {
		t.Errorf("scopes %v, want %v", ms.Scopes, want)
	}
	var ae *client.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 403 {
		t.Errorf("the API's refusal is not kept: %v", err)
	}
	want := `missing scopes: this command needs a token with the "Groups > Read", "Folders > Read", "Resources > Read" and "Workflows > Read" scopes (HTTP 403) (the reads that follow need "Permissions > Read" too); add them`
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q\nwant it to start %q", err, want)
	}
	one := &MissingScopesError{Scopes: []string{"Users > Read"}}
	if got := one.Error(); !strings.HasPrefix(got, `missing scopes: this command needs a token with the "Users > Read" scope (HTTP 403); add them`) {
		t.Errorf("one scope: %q", got)
	}
}

func demoWith(t *testing.T, api *sandbox.Server, token string) (*client.Client, *sandbox.Server) {
	t.Helper()
	hs := httptest.NewServer(api)
	t.Cleanup(hs.Close)
	cl, err := client.New(client.Options{BaseURL: hs.URL, Token: token, RetryMax: -1})
	if err != nil {
		t.Fatal(err)
	}
	return cl, api
}

func TestRefuseLockout(t *testing.T) {
	api := sandbox.New(sandbox.Options{Points: 100000})
	usersOnly, err := sandboxtest.MintToken(api, "users:read")
	if err != nil {
		t.Fatal(err)
	}
	none, err := sandboxtest.MintToken(api)
	if err != nil {
		t.Fatal(err)
	}
	// ids of the demo org's users by email
	cl, _ := demoWith(t, api, api.AdminToken())
	o := NewOrg(cl)
	if err := o.LoadUsers(context.Background()); err != nil {
		t.Fatal(err)
	}
	id := func(email string) string { return o.ByEmail[email].ID }
	admin, priya, dev := id("admin@sandbox.example"), id("priya.ops@sandbox.example"), id("dev.lee@sandbox.example")

	for _, tc := range []struct {
		name     string
		token    string
		ids      []string
		refused  string // "" for allowed
		lockout  bool
		requests []string
	}{
		{name: "nobody", token: api.AdminToken(), requests: []string{}},
		{name: "a user who is no admin", token: api.AdminToken(), ids: []string{dev}, requests: []string{"GET /users"}},
		{name: "a user the org does not have", token: api.AdminToken(), ids: []string{"user_nobody"}, requests: []string{"GET /users"}},
		{name: "an admin while another stays", token: api.AdminToken(), ids: []string{priya},
			requests: []string{"GET /users", "GET /access_tokens"}},
		{name: "the token's own user", token: api.AdminToken(), ids: []string{admin},
			refused: "refusing to disable admin@sandbox.example: the API token in use is this user's", lockout: true},
		{name: "whose the token is cannot be read", token: usersOnly, ids: []string{priya},
			refused: "refusing to disable priya.ops@sandbox.example: cannot tell whose the API token in use is"},
		{name: "the users cannot be read", token: none, ids: []string{priya},
			refused: "refusing to disable user " + priya + ": cannot read the org's users"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cl, _ := demoWith(t, api, tc.token)
			api.ResetRequests()
			err := RefuseLockout(context.Background(), cl, tc.token, "disable", tc.ids)
			var le *LockoutError
			switch {
			case tc.refused == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.refused != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.refused) || !strings.HasSuffix(err.Error(), "(nothing was changed)")):
				t.Errorf("%v\nwant a refusal starting %q", err, tc.refused)
			case err != nil && errors.As(err, &le) != tc.lockout:
				t.Errorf("a LockoutError: %v, want %v", errors.As(err, &le), tc.lockout)
			}
			if tc.requests != nil {
				if got := sent(api); !reflect.DeepEqual(append([]string{}, got...), tc.requests) {
					t.Errorf("sent %v, want %v", got, tc.requests)
				}
			}
		})
	}
}

func TestOwnerUnknownNamesTheAdmins(t *testing.T) {
	cause := errors.New("GET /access_tokens: HTTP 403")
	a, b, c := &User{Email: "a@x", IsAdmin: true}, &User{Email: "b@x", IsAdmin: true}, &User{Email: "c@x"}
	err := OwnerUnknown("offboard", []*User{a, c}, cause)
	if !strings.HasPrefix(err.Error(), "refusing to offboard a@x: GET /access_tokens: HTTP 403, and it may be this user's;") || !errors.Is(err, cause) {
		t.Errorf("one admin: %v", err)
	}
	if err := OwnerUnknown("offboard", []*User{a, b, c}, cause); !strings.HasPrefix(err.Error(), "refusing to offboard a@x, b@x: GET /access_tokens: HTTP 403, and it may be one of theirs;") {
		t.Errorf("two admins: %v", err)
	}
}

func TestRefuseLosingAdminsCountsOnlyActiveAdmins(t *testing.T) {
	o := &Org{Users: []User{
		{ID: "u1", Email: "a@x", Active: true, IsAdmin: true},
		{ID: "u2", Email: "b@x", IsAdmin: true}, // disabled
		{ID: "u3", Email: "c@x", Active: true},  // no admin
	}}
	if err := o.RefuseOffboarding([]*User{&o.Users[0]}, ""); err == nil || !strings.Contains(err.Error(), "refusing to offboard a@x: the org's last active admin;") {
		t.Errorf("a disabled admin administers nothing: %v", err)
	}
	if err := o.RefuseOffboarding([]*User{&o.Users[1], &o.Users[2]}, ""); err != nil {
		t.Errorf("no active admin leaves: %v", err)
	}
	empty := &Org{}
	if err := empty.RefuseOffboarding(nil, ""); err != nil {
		t.Errorf("an org without admins refuses nothing it cannot make worse: %v", err)
	}
}

func TestSubject(t *testing.T) {
	cl, api := demo(t, "")
	ctx := context.Background()
	for _, tc := range []struct {
		name, user, group string
		typ, shown        string
		notFound          bool
		requests          []string
	}{
		{name: "a user id is sent as it is", user: "user_123", typ: "user", shown: "user_123", requests: []string{}},
		{name: "an email, in any case", user: "Dev.Lee@Sandbox.Example", typ: "user", shown: "dev.lee@sandbox.example", requests: []string{"GET /users"}},
		{name: "an email the org does not have", user: "nobody@x", notFound: true, requests: []string{"GET /users"}},
		{name: "a group id is sent as a number", group: "0042", typ: "group", shown: "0042", requests: []string{}},
		{name: "a group name, in any case", group: "SUPPORT", typ: "group", shown: "support", requests: []string{"GET /groups"}},
		{name: "a group the org does not have", group: "nope", notFound: true, requests: []string{"GET /groups"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := NewOrg(cl)
			api.ResetRequests()
			subj, shown, err := o.Subject(ctx, tc.user, tc.group)
			var nf *resolve.NotFoundError
			if tc.notFound {
				if !errors.As(err, &nf) {
					t.Errorf("err %v, want not found", err)
				}
			} else if err != nil || subj["type"] != tc.typ || shown != tc.shown {
				t.Errorf("%v %q %v, want a %s shown as %q", subj, shown, err, tc.typ, tc.shown)
			}
			if got := sent(api); !reflect.DeepEqual(append([]string{}, got...), tc.requests) {
				t.Errorf("sent %v, want %v", got, tc.requests)
			}
			if tc.group == "0042" {
				if id, ok := subj["id"].(json.Number); !ok || id != "42" {
					t.Errorf("group id %#v, want the number 42", subj["id"])
				}
			}
		})
	}
}

// What dev.lee reaches before offboarding, where each comes from, and what
// is left after: nothing once the groups are left and the grants revoked,
// the group's ways while a group is kept.
func TestReachThenAfter(t *testing.T) {
	cl, _ := demo(t, "")
	ctx := context.Background()
	o := NewOrg(cl)
	if err := o.Load(ctx, "", "folder", "app", "resource"); err != nil {
		t.Fatal(err)
	}
	dev := o.ByEmail["dev.lee@sandbox.example"]
	rows, direct, err := o.Reach(ctx, dev, "before")
	if err != nil {
		t.Fatal(err)
	}
	if len(direct) != 1 || direct[0].Type != "app" || direct[0].Level != "edit" {
		t.Errorf("dev.lee's own grants %+v, want the edit on Refund Console", direct)
	}
	var refunds Row
	types := []string{}
	for _, r := range rows {
		if r["object"] == "Refund Console" {
			refunds = r
		}
		if len(types) == 0 || types[len(types)-1] != r["type"] {
			types = append(types, r["type"])
		}
	}
	// the direct edit and universal edit give less than own: a group's
	// grant (editor's) gives the rest
	if refunds["level"] != "own" || refunds["via"] != "direct; universal through editor; universal through All Users; a group's or a folder's grant" {
		t.Errorf("Refund Console: %v", refunds)
	}
	if strings.Join(types, ",") != "folder,app,resource" {
		t.Errorf("rows by type %v, want folder, app, resource in order", types)
	}
	if left := After(rows, nil, true); len(left) != 0 {
		t.Errorf("after leaving every group with every grant revoked: %v", lines(left, "object", "via"))
	}
	var editor []*Group
	for _, g := range o.GroupsOf(dev.ID) {
		if g.Name == "editor" {
			editor = append(editor, g)
		}
	}
	for _, r := range After(rows, editor, true) {
		if r["stage"] != "after" || strings.Contains(r["via"], "All Users") || strings.Contains(r["via"], "direct") {
			t.Errorf("kept in editor: %v", r)
		}
		if r["object"] == "Refund Console" && r["via"] != "universal through editor; a group's or a folder's grant" {
			t.Errorf("Refund Console after: %q", r["via"])
		}
	}
	after, _, err := o.Reach(ctx, dev, "after")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range after {
		if strings.Contains(r["via"], "direct") {
			t.Errorf("without the before stage's own grants read, nothing is direct: %v", r)
		}
	}
}
