package families_test

import (
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

// req is the main request of a call, with its body as JSON text.
type req struct {
	Method, Path, Query, Body string
}

func requestOf(t *testing.T, c *opdef.Call) req {
	t.Helper()
	r := c.Request()
	out := req{Method: r.Method, Path: r.Path, Query: r.Query.Encode()}
	switch b := r.Body.(type) {
	case nil:
	case json.RawMessage:
		out.Body = string(b)
	default:
		out.Body = familytest.JSON(t, b)
	}
	return out
}

// shapeCase is one command line of a family and the request it must build,
// or the usage error it must give.
type shapeCase struct {
	name  string
	op    []string // command path below the root
	in    opdef.Input
	stdin string
	want  req    // when wantErr is ""
	err   string // a substring of the exit-2 message
	// notice, when set, is the one notice the call must carry (a value the
	// description does not list, sent anyway); otherwise it carries none.
	notice string
}

func runShapeCases(t *testing.T, cases []shapeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			op := familytest.Op(t, tc.op...)
			c, err := op.Build(tc.in, strings.NewReader(tc.stdin))
			if tc.err != "" {
				if err == nil {
					t.Fatalf("accepted: %+v", requestOf(t, c))
				}
				if !clitest.IsUsage(err) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %T %v, want a usage error (exit 2) with %q", err, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			if got := requestOf(t, c); got != tc.want {
				t.Errorf("request:\n got  %+v\n want %+v", got, tc.want)
			}
			switch {
			case tc.notice == "" && len(c.Notices) > 0:
				t.Errorf("notices %q, want none", c.Notices)
			case tc.notice != "" && (len(c.Notices) != 1 || !strings.Contains(c.Notices[0], tc.notice)):
				t.Errorf("notices %q, want one with %q", c.Notices, tc.notice)
			}
		})
	}
}

func withBody(input opdef.Input, path string) opdef.Input {
	input.Body = path
	return input
}

func TestShapeUsers(t *testing.T) {
	runShapeCases(t, []shapeCase{
		{name: "create without admin", op: []string{"users", "create"},
			in:   familytest.Input("users create", nil, "email", "a@b.c", "first-name", "A", "last-name", "L"),
			want: req{"POST", "/users", "", `{"email":"a@b.c","first_name":"A","last_name":"L"}`}},
		{name: "is_admin from --body leaves the create body", op: []string{"users", "create"},
			in:   withBody(familytest.Input("users create", nil), familytest.BodyFile(t, `{"email":"a@b.c","first_name":"A","last_name":"L","is_admin":true}`)),
			want: req{"POST", "/users", "", `{"email":"a@b.c","first_name":"A","last_name":"L"}`}},
		{name: "attribute value", op: []string{"users", "attributes", "set"},
			in:   familytest.Input("users attributes set", []string{"user_1"}, "name", "dept", "value", "Finance"),
			want: req{"POST", "/users/user_1/user_attributes", "", `{"name":"dept","value":"Finance"}`}},
		{name: "attribute null", op: []string{"users", "attributes", "set"},
			in:   familytest.Input("users attributes set", []string{"user_1"}, "name", "dept", "null", "true"),
			want: req{"POST", "/users/user_1/user_attributes", "", `{"name":"dept","value":null}`}},
		{name: "attribute value and null", op: []string{"users", "attributes", "set"},
			in:  familytest.Input("users attributes set", []string{"user_1"}, "name", "dept", "value", "x", "null", "true"),
			err: "--value and --null cannot be used together"},
		{name: "attribute without value", op: []string{"users", "attributes", "set"},
			in:  familytest.Input("users attributes set", []string{"user_1"}, "name", "dept"),
			err: "pass --value VALUE (or --null)"},
		{name: "invite attribute", op: []string{"invites", "attributes", "set"},
			in:   familytest.Input("invites attributes set", []string{"3"}, "name", "dept", "value", "7"),
			want: req{"POST", "/user_invites/3/user_attributes", "", `{"name":"dept","value":"7"}`}},
	})
}

func TestShapeUsersCreateAdminFollowUp(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input opdef.Input
		want  any
	}{
		{"--admin", familytest.Input("users create", nil, "email", "a@b.c", "first-name", "A", "last-name", "L", "admin", "true"), true},
		{"--admin=false", familytest.Input("users create", nil, "email", "a@b.c", "first-name", "A", "last-name", "L", "admin", "false"), false},
		{"is_admin in --body", withBody(familytest.Input("users create", nil), familytest.BodyFile(t, `{"email":"a@b.c","first_name":"A","last_name":"L","is_admin":true}`)), true},
	} {
		c := familytest.Build(t, familytest.Op(t, "users", "create"), tc.input)
		if len(c.Then) != 1 {
			t.Fatalf("%s: %d follow-ups", tc.name, len(c.Then))
		}
		r, err := c.Then[0].Build(json.RawMessage(`{"id":"user_new/1","email":"a@b.c"}`))
		if err != nil {
			t.Fatal(err)
		}
		if r.Method != http.MethodPatch || r.Path != "/users/user_new%2F1" {
			t.Errorf("%s: follow-up %s %s", tc.name, r.Method, r.Path)
		}
		want := `{"operations":[{"op":"replace","path":"/is_admin","value":` + familytest.JSON(t, tc.want) + `}]}`
		if got := familytest.JSON(t, r.Body); got != want {
			t.Errorf("%s: follow-up body %s, want %s", tc.name, got, want)
		}
		if _, err := c.Then[0].Build(json.RawMessage(`{"email":"a@b.c"}`)); err == nil || !strings.Contains(err.Error(), "orgctl users update ID --admin") {
			t.Errorf("%s: answer without id: %v", tc.name, err)
		}
	}
}

func TestShapeGroups(t *testing.T) {
	runShapeCases(t, []shapeCase{
		{name: "create with members", op: []string{"groups", "create"},
			in:   familytest.Input("groups create", nil, "name", "Ops", "user", "user_a,user_b", "admin", "true", "universal-app-access", "use"),
			want: req{"POST", "/groups", "", `{"members":[{"id":"user_a","is_group_admin":true},{"id":"user_b","is_group_admin":true}],"name":"Ops","universal_app_access":"use"}`}},
		{name: "create without members", op: []string{"groups", "create"},
			in:   familytest.Input("groups create", nil, "name", "Ops"),
			want: req{"POST", "/groups", "", `{"name":"Ops"}`}},
		{name: "members add", op: []string{"groups", "members", "add"},
			in:   familytest.Input("groups members add", []string{"7"}, "user", "user_a", "user", "user_b"),
			want: req{"POST", "/groups/7/members", "", `{"members":[{"id":"user_a","is_group_admin":false},{"id":"user_b","is_group_admin":false}]}`}},
		{name: "members add appends to --body members", op: []string{"groups", "members", "add"},
			in:   withBody(familytest.Input("groups members add", []string{"7"}, "user", "user_b"), familytest.BodyFile(t, `{"members":[{"id":"user_a","is_group_admin":true}]}`)),
			want: req{"POST", "/groups/7/members", "", `{"members":[{"id":"user_a","is_group_admin":true},{"id":"user_b","is_group_admin":false}]}`}},
		{name: "members add needs a user", op: []string{"groups", "members", "add"},
			in:  familytest.Input("groups members add", []string{"7"}),
			err: "pass at least one --user USER_ID"},
		{name: "replace strips read-only fields from a get answer", op: []string{"groups", "replace"},
			in: withBody(familytest.Input("groups replace", []string{"7"}), familytest.BodyFile(t,
				`{"id":7,"legacy_id":7,"created_at":"x","updated_at":"y","name":"Ops","members":[{"id":"user_a","email":"a@b.c","is_group_admin":false}]}`)),
			want: req{"PUT", "/groups/7", "", `{"members":[{"id":"user_a","is_group_admin":false}],"name":"Ops"}`}},
		{name: "replace --admin needs --user", op: []string{"groups", "replace"},
			in:  familytest.Input("groups replace", []string{"7"}, "name", "Ops", "admin", "true"),
			err: "--admin applies to --user members; pass --user too"},
		{name: "invites add as numbers", op: []string{"groups", "invites", "add"},
			in:   familytest.Input("groups invites add", []string{"7"}, "invite", "1,2"),
			want: req{"POST", "/groups/7/user_invites", "", `{"userInviteIds":[1,2]}`}},
		{name: "invites add with leading zeros", op: []string{"groups", "invites", "add"},
			in:   familytest.Input("groups invites add", []string{"7"}, "invite", "007"),
			want: req{"POST", "/groups/7/user_invites", "", `{"userInviteIds":[7]}`}},
		{name: "invites add keeps --body numbers", op: []string{"groups", "invites", "add"},
			in:   withBody(familytest.Input("groups invites add", []string{"7"}), familytest.BodyFile(t, `{"userInviteIds":[3]}`)),
			want: req{"POST", "/groups/7/user_invites", "", `{"userInviteIds":[3]}`}},
		{name: "invites add refuses a non-number", op: []string{"groups", "invites", "add"},
			in:  familytest.Input("groups invites add", []string{"7"}, "invite", "x1"),
			err: `invalid value "x1" for --invite: expected a number`},
		{name: "invite create groups as numbers", op: []string{"invites", "create"},
			in:   familytest.Input("invites create", nil, "email", "a@b.c", "group", "2", "group", "3"),
			want: req{"POST", "/user_invites", "", `{"defaultGroupIds":[2,3],"email":"a@b.c"}`}},
		{name: "invite create without groups", op: []string{"invites", "create"},
			in:   familytest.Input("invites create", nil, "email", "a@b.c"),
			want: req{"POST", "/user_invites", "", `{"email":"a@b.c"}`}},
	})
}

func TestShapePermissions(t *testing.T) {
	runShapeCases(t, []shapeCase{
		{name: "grant to a group on a folder", op: []string{"permissions", "grant"},
			in:   familytest.Input("permissions grant", nil, "group", "2", "object-type", "folder", "object-id", "app_7", "access-level", "edit"),
			want: req{"POST", "/permissions/grant", "", `{"access_level":"edit","object":{"id":"app_7","type":"folder"},"subject":{"id":2,"type":"group"}}`}},
		{name: "grant to a group with leading zeros", op: []string{"permissions", "grant"},
			in:   familytest.Input("permissions grant", nil, "group", "02", "object-type", "app", "object-id", "A", "access-level", "use"),
			want: req{"POST", "/permissions/grant", "", `{"access_level":"use","object":{"id":"A","type":"app"},"subject":{"id":2,"type":"group"}}`}},
		{name: "grant to a user on a screen", op: []string{"permissions", "grant"},
			in:   familytest.Input("permissions grant", nil, "user", "user_abc", "object-type", "screen", "object-id", "S", "app", "A", "access-level", "use"),
			want: req{"POST", "/permissions/grant", "", `{"access_level":"use","object":{"appId":"A","id":"S","type":"screen"},"subject":{"id":"user_abc","type":"user"}}`}},
		{name: "subject and object from --body", op: []string{"permissions", "revoke"},
			in:   withBody(familytest.Input("permissions revoke", nil), familytest.BodyFile(t, `{"subject":{"type":"group","id":2},"object":{"type":"app","id":"A"}}`)),
			want: req{"POST", "/permissions/revoke", "", `{"object":{"id":"A","type":"app"},"subject":{"id":2,"type":"group"}}`}},
		{name: "both subjects", op: []string{"permissions", "revoke"},
			in:  familytest.Input("permissions revoke", nil, "group", "2", "user", "user_a", "object-type", "app", "object-id", "A"),
			err: "pass --group or --user, not both"},
		{name: "no subject", op: []string{"permissions", "revoke"},
			in:  familytest.Input("permissions revoke", nil, "object-type", "app", "object-id", "A"),
			err: "pass --group GROUP_ID or --user USER_ID"},
		{name: "group not a number", op: []string{"permissions", "revoke"},
			in:  familytest.Input("permissions revoke", nil, "group", "ops", "object-type", "app", "object-id", "A"),
			err: `invalid --group "ops": group ids are numbers`},
		{name: "user not a user id", op: []string{"permissions", "revoke"},
			in:  familytest.Input("permissions revoke", nil, "user", "ada@example.com", "object-type", "app", "object-id", "A"),
			err: `invalid --user "ada@example.com": user ids look like user_abc123`},
		{name: "no object", op: []string{"permissions", "revoke"},
			in:  familytest.Input("permissions revoke", nil, "group", "2"),
			err: "pass --object-type and --object-id"},
		{name: "half an object", op: []string{"permissions", "revoke"},
			in:  familytest.Input("permissions revoke", nil, "group", "2", "object-id", "A"),
			err: "--object-type and --object-id go together"},
		{name: "screen without app", op: []string{"permissions", "revoke"},
			in:  familytest.Input("permissions revoke", nil, "group", "2", "object-type", "screen", "object-id", "S"),
			err: "a screen needs --app APP_UUID"},
		{name: "app on a folder", op: []string{"permissions", "revoke"},
			in:  familytest.Input("permissions revoke", nil, "group", "2", "object-type", "folder", "object-id", "app_1", "app", "A"),
			err: "--app is only for --object-type screen"},
		{name: "access list", op: []string{"permissions", "access-list"},
			in:   familytest.Input("permissions access-list", []string{"folder", "7"}),
			want: req{"GET", "/permissions/accessList/folder/7", "", ""}},
		{name: "access list of a type this orgctl does not know", op: []string{"permissions", "access-list"},
			in:     familytest.Input("permissions access-list", []string{"screen", "7"}),
			want:   req{"GET", "/permissions/accessList/screen/7", "", ""},
			notice: `OBJECT_TYPE "screen" is not a value this orgctl knows; sending it anyway`},
		{name: "role create sends both lists", op: []string{"permissions", "roles", "create"},
			in:   familytest.Input("permissions roles create", nil, "name", "Deployer", "org-scope", "source_control:deploy"),
			want: req{"POST", "/role_permissions/roles", "", `{"name":"Deployer","object_scopes":[],"organization_scopes":["source_control:deploy"]}`}},
		{name: "role update with nothing", op: []string{"permissions", "roles", "update"},
			in:  familytest.Input("permissions roles update", []string{"5a4d0099-0000-4000-8000-000000000001"}),
			err: "nothing to change"},
		{name: "role update", op: []string{"permissions", "roles", "update"},
			in:   familytest.Input("permissions roles update", []string{"5a4d0099-0000-4000-8000-000000000001"}, "description", "d"),
			want: req{"PATCH", "/role_permissions/roles/5a4d0099-0000-4000-8000-000000000001", "", `{"description":"d"}`}},
	})
}

func TestShapeConfigVars(t *testing.T) {
	runShapeCases(t, []shapeCase{
		{name: "create", op: []string{"config-vars", "create"},
			in:   familytest.Input("config-vars create", nil, "name", "SUPPORT", "value", "prod=a@b.c", "value", "stg=x=y"),
			want: req{"POST", "/configuration_variables", "", `{"name":"SUPPORT","secret":false,"values":[{"environment_id":"prod","value":"a@b.c"},{"environment_id":"stg","value":"x=y"}]}`}},
		{name: "create keeps --body values and secret", op: []string{"config-vars", "create"},
			in:   withBody(familytest.Input("config-vars create", nil), familytest.BodyFile(t, `{"name":"K","secret":true,"values":[{"environment_id":"prod","value":"s"}]}`)),
			want: req{"POST", "/configuration_variables", "", `{"name":"K","secret":true,"values":[{"environment_id":"prod","value":"s"}]}`}},
		{name: "create without values", op: []string{"config-vars", "create"},
			in:  familytest.Input("config-vars create", nil, "name", "N"),
			err: "pass at least one --value ENVIRONMENT_ID=VALUE"},
		{name: "value without =", op: []string{"config-vars", "create"},
			in:  familytest.Input("config-vars create", nil, "name", "N", "value", "prod"),
			err: `invalid --value "prod": expected ENVIRONMENT_ID=VALUE`},
		{name: "environment twice", op: []string{"config-vars", "create"},
			in:  familytest.Input("config-vars create", nil, "name", "N", "value", "prod=a", "value", "prod=b"),
			err: "--value: environment prod given twice"},
		{name: "update with nothing", op: []string{"config-vars", "update"},
			in:  familytest.Input("config-vars update", []string{"5a4d0099-0000-4000-8000-000000000001"}),
			err: "nothing to change: pass --name, --description, --secret, --value or --body"},
		{name: "update from --body is sent as is", op: []string{"config-vars", "update"},
			in:   withBody(familytest.Input("config-vars update", []string{"5a4d0099-0000-4000-8000-000000000001"}), familytest.BodyFile(t, `{"name":"N","secret":false,"values":[]}`)),
			want: req{"PUT", "/configuration_variables/5a4d0099-0000-4000-8000-000000000001", "", `{"name":"N","secret":false,"values":[]}`}},
	})
}

func TestShapeConfigVarsUpdateReadsAndMerges(t *testing.T) {
	c := familytest.Build(t, familytest.Op(t, "config-vars", "update"),
		familytest.Input("config-vars update", []string{"5a4d0099-0000-4000-8000-000000000001"}, "value", "stg=new", "value", "qa=added", "description", "Support inbox"))
	if len(c.Reads) != 1 || c.Reads[0].Method != http.MethodGet || c.Reads[0].Path != "/configuration_variables/5a4d0099-0000-4000-8000-000000000001" {
		t.Fatalf("reads = %+v", c.Reads)
	}
	// Before the merge the body holds only what changes (the dry run shows it).
	if got := familytest.JSON(t, c.Req.Body); got != `{"description":"Support inbox","values":[{"environment_id":"stg","value":"new"},{"environment_id":"qa","value":"added"}]}` {
		t.Errorf("body before merge = %s", got)
	}
	current := json.RawMessage(`{"id":"5a4d0099-0000-4000-8000-000000000001","name":"SUPPORT","description":"old","secret":true,"created_at":"t",
		"values":[{"environment_id":"prod","value":"p"},{"environment_id":"stg","value":"old"}]}`)
	if err := c.Op.Hooks.Merge(c, []json.RawMessage{current}); err != nil {
		t.Fatal(err)
	}
	want := `{"description":"Support inbox","name":"SUPPORT","secret":true,"values":[{"environment_id":"prod","value":"p"},{"environment_id":"stg","value":"new"},{"environment_id":"qa","value":"added"}]}`
	if got := familytest.JSON(t, c.Request().Body); got != want {
		t.Errorf("merged body = %s\nwant          %s", got, want)
	}
	if err := c.Op.Hooks.Merge(c, []json.RawMessage{json.RawMessage(`[]`)}); err == nil || !strings.Contains(err.Error(), "unexpected answer reading the variable") {
		t.Errorf("merge of a non-object: %v", err)
	}
}

func TestShapeOrg(t *testing.T) {
	dir := t.TempDir()
	css := filepath.Join(dir, "brand.css")
	os.WriteFile(css, []byte("body { color: red; }\n"), 0o600)
	runShapeCases(t, []shapeCase{
		{name: "file options become replace operations", op: []string{"org", "update"},
			in:    familytest.Input("org update", nil, "preloaded-css-file", css, "preloaded-javascript-file", "-", "two-factor-auth-required", "true", "javascript-link", "https://a/x.js,https://a/y.js"),
			stdin: "console.log(1)",
			want: req{"PATCH", "/organization", "", `{"operations":[` +
				`{"op":"replace","path":"/javascript_links","value":["https://a/x.js","https://a/y.js"]},` +
				`{"op":"replace","path":"/two_factor_auth_required","value":true},` +
				`{"op":"replace","path":"/preloaded_css","value":"body { color: red; }\n"},` +
				`{"op":"replace","path":"/preloaded_javascript","value":"console.log(1)"}]}`}},
		{name: "missing file", op: []string{"org", "update"},
			in:  familytest.Input("org update", nil, "preloaded-css-file", filepath.Join(dir, "nope.css")),
			err: "--preloaded-css-file:"},
		{name: "nothing to change", op: []string{"org", "update"},
			in:  familytest.Input("org update", nil),
			err: "nothing to change"},
		{name: "retention minutes", op: []string{"org", "update"},
			in:   familytest.Input("org update", nil, "workflow-run-retention-mins", "60"),
			want: req{"PATCH", "/organization", "", `{"operations":[{"op":"replace","path":"/workflow_run_retention_period_mins","value":60}]}`}},
		{name: "all AI settings: no read", op: []string{"org", "ai-settings", "set"},
			in:   familytest.Input("org ai-settings set", nil, "retool-ai", "true", "ai-actions", "false", "vectors", "true", "ask-ai", "false"),
			want: req{"PUT", "/organization/ai_settings", "", `{"retoolAI":true,"retoolAIActions":false,"retoolAskAI":false,"retoolVector":true}`}},
		{name: "no AI setting", op: []string{"org", "ai-settings", "set"},
			in:  familytest.Input("org ai-settings set", nil),
			err: "nothing to change: pass --retool-ai, --ai-actions, --vectors or --ask-ai"},
	})

	c := familytest.Build(t, familytest.Op(t, "org", "ai-settings", "set"), familytest.Input("org ai-settings set", nil, "ask-ai", "false"))
	if len(c.Reads) != 1 || c.Reads[0].Path != "/organization/ai_settings" {
		t.Fatalf("one setting: reads = %+v", c.Reads)
	}
	if err := c.Op.Hooks.Merge(c, []json.RawMessage{json.RawMessage(`{"retoolAI":true,"retoolAIActions":true,"retoolVector":false,"retoolAskAI":true}`)}); err != nil {
		t.Fatal(err)
	}
	if got := familytest.JSON(t, c.Req.Body); got != `{"retoolAI":true,"retoolAIActions":true,"retoolAskAI":false,"retoolVector":false}` {
		t.Errorf("merged AI settings = %s", got)
	}
	if err := c.Op.Hooks.Merge(c, []json.RawMessage{json.RawMessage(`"x"`)}); err == nil {
		t.Error("merge of a non-object succeeded")
	}
}

func TestShapeReleases(t *testing.T) {
	const el = "2ab90f76-c234-428e-9896-40c3a9bdbb2b"
	runShapeCases(t, []shapeCase{
		{name: "list an element", op: []string{"releases", "list"},
			in:   familytest.Input("releases list", nil, "element", el, "type", "PAGE"),
			want: req{"GET", "/source_control/releases/" + el, "elementType=PAGE", ""}},
		{name: "list --app takes the deprecated path", op: []string{"releases", "list"},
			in:   familytest.Input("releases list", nil, "app", el),
			want: req{"GET", "/source_control/releases/apps/" + el, "", ""}},
		{name: "create --app takes the deprecated path", op: []string{"releases", "create"},
			in:   familytest.Input("releases create", nil, "app", el, "version", "1.2.0", "description", "Dark mode"),
			want: req{"POST", "/source_control/releases/apps/" + el, "", `{"release_description":"Dark mode","release_version":"1.2.0"}`}},
		{name: "create an element release", op: []string{"releases", "create"},
			in:   familytest.Input("releases create", nil, "element", el, "type", "WORKFLOW", "version", "0.1.0", "message", "m"),
			want: req{"POST", "/source_control/releases/" + el, "elementType=WORKFLOW", `{"commit_message":"m","release_version":"0.1.0"}`}},
		{name: "element and app", op: []string{"releases", "list"},
			in:  familytest.Input("releases list", nil, "element", el, "app", el, "type", "PAGE"),
			err: "pass --element or --app, not both"},
		{name: "element without type", op: []string{"releases", "list"},
			in:  familytest.Input("releases list", nil, "element", el),
			err: "--element needs --type {PAGE|WORKFLOW}"},
		{name: "type with app", op: []string{"releases", "list"},
			in:  familytest.Input("releases list", nil, "app", el, "type", "PAGE"),
			err: "--type goes with --element, not --app"},
		{name: "no target", op: []string{"releases", "list"},
			in:  familytest.Input("releases list", nil),
			err: "pass --element UUID --type {PAGE|WORKFLOW} (or the deprecated --app UUID)"},
		{name: "version not semver", op: []string{"releases", "create"},
			in:  familytest.Input("releases create", nil, "element", el, "type", "PAGE", "version", "v1.2"),
			err: `invalid value "v1.2" for --version: expected a version such as 1.2.0`},
		{name: "latest is no version to create", op: []string{"releases", "create"},
			in:  familytest.Input("releases create", nil, "element", el, "type", "PAGE", "version", "latest"),
			err: `invalid value "latest" for --version`},
		{name: "hidden create-app", op: []string{"releases", "create-app"},
			in:   familytest.Input("releases create-app", []string{el}, "version", "2.0.0"),
			want: req{"POST", "/source_control/releases/apps/" + el, "", `{"release_version":"2.0.0"}`}},
		{name: "manifest set from flags", op: []string{"releases", "manifests", "set"},
			in:   familytest.Input("releases manifests set", []string{"prod"}, "app", el+"=latest", "workflow", "5a4d0099-0000-4000-8000-000000000001=1.0.5"),
			want: req{"PUT", "/source_control/manifests/prod", "", `{"manifest":{"apps":[{"release":"latest","uuid":"` + el + `"}],"workflows":[{"release":"1.0.5","uuid":"5a4d0099-0000-4000-8000-000000000001"}]}}`}},
		{name: "manifest set: flags replace one list of --body", op: []string{"releases", "manifests", "set"},
			in:   withBody(familytest.Input("releases manifests set", []string{"prod"}, "workflow", "5a4d0099-0000-4000-8000-000000000002=2.0.0"), familytest.BodyFile(t, `{"manifest":{"apps":[{"uuid":"5a4d0099-0000-4000-8000-000000000001","release":"1.0.0"}],"workflows":[]}}`)),
			want: req{"PUT", "/source_control/manifests/prod", "", `{"manifest":{"apps":[{"release":"1.0.0","uuid":"5a4d0099-0000-4000-8000-000000000001"}],"workflows":[{"release":"2.0.0","uuid":"5a4d0099-0000-4000-8000-000000000002"}]}}`}},
		{name: "manifest entry without release", op: []string{"releases", "manifests", "set"},
			in:  familytest.Input("releases manifests set", []string{"prod"}, "app", el),
			err: "invalid --app",
		},
		{name: "manifest entry with a bad release", op: []string{"releases", "manifests", "set"},
			in:  familytest.Input("releases manifests set", []string{"prod"}, "workflow", "w=1.0"),
			err: `invalid --workflow "w=1.0": expected UUID=RELEASE (x.y.z or latest)`},
		{name: "empty manifest", op: []string{"releases", "manifests", "set"},
			in:  familytest.Input("releases manifests set", []string{"prod"}),
			err: "pass --app/--workflow UUID=RELEASE or --body"},
		{name: "set element to latest", op: []string{"releases", "manifests", "set-element"},
			in:   familytest.Input("releases manifests set-element", []string{"prod", el}, "type", "PAGE", "release", "latest"),
			want: req{"PUT", "/source_control/manifests/prod/" + el, "elementType=PAGE", `{"release":"latest"}`}},
		{name: "set app with a bad release", op: []string{"releases", "manifests", "set-app"},
			in:  familytest.Input("releases manifests set-app", []string{"prod", el}, "release", "newest"),
			err: `expected MAJOR.MINOR.PATCH, e.g. 1.2.0, or "latest"`},
	})
}

func TestShapeSourceControl(t *testing.T) {
	flags := []string{"provider", "GitHub", "org", "acme", "repo", "apps", "default-branch", "main",
		"credential", "type=Personal", "credential", "personal_access_token=tok,with,commas"}
	wantFromFlags := `{"config":{"config":{"personal_access_token":"tok,with,commas","type":"Personal"},"default_branch":"main","org":"acme","provider":"GitHub","repo":"apps"}}`
	runShapeCases(t, []shapeCase{
		{name: "config set from flags", op: []string{"source-control", "config", "set"},
			in:   familytest.Input("source-control config set", nil, flags...),
			want: req{"PUT", "/source_control/config", "", wantFromFlags}},
		{name: "config create from flags", op: []string{"source-control", "config", "create"},
			in:   familytest.Input("source-control config create", nil, flags...),
			want: req{"POST", "/source_control/config", "", wantFromFlags}},
		{name: "a bare --body is wrapped and flags override it", op: []string{"source-control", "config", "set"},
			in: withBody(familytest.Input("source-control config set", nil, "default-branch", "release", "credential", "project_id=42", "credential", "use_basic_auth=true"),
				familytest.BodyFile(t, `{"provider":"GitLab","org":"o","repo":"r","default_branch":"main","config":{"url":"https://gl"}}`)),
			want: req{"PUT", "/source_control/config", "", `{"config":{"config":{"project_id":42,"url":"https://gl","use_basic_auth":true},"default_branch":"release","org":"o","provider":"GitLab","repo":"r"}}`}},
		{name: "a wrapped --body stays wrapped", op: []string{"source-control", "config", "set"},
			in: withBody(familytest.Input("source-control config set", nil),
				familytest.BodyFile(t, `{"config":{"provider":"GitHub","org":"o","repo":"r","default_branch":"main","config":{"type":"App"}}}`)),
			want: req{"PUT", "/source_control/config", "", `{"config":{"config":{"type":"App"},"default_branch":"main","org":"o","provider":"GitHub","repo":"r"}}`}},
		{name: "nothing given", op: []string{"source-control", "config", "set"},
			in:  familytest.Input("source-control config set", nil),
			err: "pass --body FILE or --provider, --org, --repo, --default-branch and --credential"},
		{name: "missing credential", op: []string{"source-control", "config", "set"},
			in:  familytest.Input("source-control config set", nil, "provider", "GitHub", "org", "acme", "repo", "apps", "default-branch", "main"),
			err: `missing "config": pass --credential or set it in --body`},
		{name: "missing repo", op: []string{"source-control", "config", "set"},
			in:  familytest.Input("source-control config set", nil, "provider", "GitHub", "org", "acme"),
			err: `missing "repo": pass --repo`},
		{name: "credential without =", op: []string{"source-control", "config", "set"},
			in:  familytest.Input("source-control config set", nil, "credential", "token"),
			err: `invalid --credential "token": expected KEY=VALUE`},
		{name: "test deploy nests the commit", op: []string{"source-control", "test-deploy"},
			in:   familytest.Input("source-control test-deploy", nil, "commit", "3f2a", "full-sync", "true"),
			want: req{"POST", "/source_control/test_deploy", "", `{"deploy_params":{"commit_sha":"3f2a","is_full_sync":true}}`}},
		{name: "settings from flags", op: []string{"source-control", "settings", "set"},
			in:   familytest.Input("source-control settings set", nil, "version-control-locked", "false", "auto-branch-naming", "true"),
			want: req{"PUT", "/source_control/settings", "", `{"settings":{"auto_branch_naming_enabled":true,"version_control_locked":false}}`}},
		{name: "bare settings body is wrapped, flags win", op: []string{"source-control", "settings", "set"},
			in:   withBody(familytest.Input("source-control settings set", nil, "force-uuid-mapping", "true"), familytest.BodyFile(t, `{"force_uuid_mapping":false,"version_control_locked":true}`)),
			want: req{"PUT", "/source_control/settings", "", `{"settings":{"force_uuid_mapping":true,"version_control_locked":true}}`}},
		{name: "no settings", op: []string{"source-control", "settings", "set"},
			in:  familytest.Input("source-control settings set", nil),
			err: "nothing to set: pass setting flags or --body"},
	})
}

func TestShapeObservability(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "dd.key")
	os.WriteFile(key, []byte("  dd-secret-key\n"), 0o600)
	empty := filepath.Join(dir, "empty.key")
	os.WriteFile(empty, []byte("\n"), 0o600)
	ca := filepath.Join(dir, "ca.pem")
	os.WriteFile(ca, []byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"), 0o600)
	runShapeCases(t, []shapeCase{
		{name: "sentry, enabled by default", op: []string{"observability", "create"},
			in:   familytest.Input("observability create", nil, "provider", "Sentry", "dsn", "https://k@o1/42", "ca-cert", ca),
			want: req{"POST", "/observability/config", "", `{"config":{"ca_certs":["-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"],"dsn":"https://k@o1/42","provider":"Sentry"},"enabled":true}`}},
		{name: "datadog key from a file", op: []string{"observability", "create"},
			in:   familytest.Input("observability create", nil, "provider", "Datadog", "site", "EU1", "api-key-file", key, "enabled", "false"),
			want: req{"POST", "/observability/config", "", `{"config":{"api_key":"dd-secret-key","provider":"Datadog","site":"EU1"},"enabled":false}`}},
		{name: "datadog key from stdin", op: []string{"observability", "create"},
			in:    familytest.Input("observability create", nil, "provider", "Datadog", "site", "US5", "api-key-file", "-"),
			stdin: "from-stdin\n",
			want:  req{"POST", "/observability/config", "", `{"config":{"api_key":"from-stdin","provider":"Datadog","site":"US5"},"enabled":true}`}},
		{name: "empty key file", op: []string{"observability", "create"},
			in:  familytest.Input("observability create", nil, "provider", "Datadog", "site", "US5", "api-key-file", empty),
			err: "--api-key-file: " + empty + " is empty"},
		{name: "missing key file", op: []string{"observability", "create"},
			in:  familytest.Input("observability create", nil, "provider", "Datadog", "site", "US5", "api-key-file", filepath.Join(dir, "nope")),
			err: "--api-key-file:"},
		{name: "missing ca file", op: []string{"observability", "create"},
			in:  familytest.Input("observability create", nil, "provider", "Sentry", "dsn", "d", "ca-cert", filepath.Join(dir, "nope")),
			err: "--ca-cert:"},
		{name: "sentry without dsn", op: []string{"observability", "create"},
			in:  familytest.Input("observability create", nil, "provider", "Sentry"),
			err: "--provider Sentry needs --dsn"},
		{name: "sentry with a datadog site", op: []string{"observability", "create"},
			in:  familytest.Input("observability create", nil, "provider", "Sentry", "dsn", "d", "site", "EU1"),
			err: "--api-key-file and --site are for Datadog, not Sentry"},
		{name: "datadog without key", op: []string{"observability", "create"},
			in:  familytest.Input("observability create", nil, "provider", "Datadog", "site", "EU1"),
			err: "--provider Datadog needs --api-key-file and --site"},
		{name: "datadog with a dsn", op: []string{"observability", "create"},
			in:  familytest.Input("observability create", nil, "provider", "Datadog", "site", "EU1", "api-key-file", key, "dsn", "d"),
			err: "--dsn and --ca-cert are for Sentry, not Datadog"},
		{name: "provider settings without provider", op: []string{"observability", "update"},
			in:  familytest.Input("observability update", []string{"5a4d0099-0000-4000-8000-000000000001"}, "dsn", "d"),
			err: "provider settings need --provider (Sentry or Datadog)"},
		{name: "update only enabled", op: []string{"observability", "update"},
			in:   familytest.Input("observability update", []string{"5a4d0099-0000-4000-8000-000000000001"}, "enabled", "false"),
			want: req{"PUT", "/observability/config/5a4d0099-0000-4000-8000-000000000001", "", `{"enabled":false}`}},
		{name: "update with nothing", op: []string{"observability", "update"},
			in:  familytest.Input("observability update", []string{"5a4d0099-0000-4000-8000-000000000001"}),
			err: "nothing to change: pass provider flags, --enabled or --body"},
		{name: "test provider in any case", op: []string{"observability", "test"},
			in:   familytest.Input("observability test", []string{"datadog"}),
			want: req{"POST", "/observability/provider/Datadog/test", "", ""}},
		{name: "test a provider this orgctl does not know", op: []string{"observability", "test"},
			in:     familytest.Input("observability test", []string{"Honeycomb"}),
			want:   req{"POST", "/observability/provider/Honeycomb/test", "", ""},
			notice: `PROVIDER "Honeycomb" is not a value this orgctl knows; sending it anyway`},
		{name: "test a mistyped provider", op: []string{"observability", "test"},
			in:     familytest.Input("observability test", []string{"Sentyr"}),
			want:   req{"POST", "/observability/provider/Sentyr/test", "", ""},
			notice: `(did you mean Sentry?)`},
	})
}

func TestShapeResourceConfigsAndResources(t *testing.T) {
	runShapeCases(t, []shapeCase{
		{name: "options from --option dot paths", op: []string{"resource-configs", "create"},
			in: familytest.Input("resource-configs create", nil, "resource", "R", "environment", "5a4d0099-0000-4000-8000-000000000001",
				"option", "database_options.host=db", "option", "database_options.port=5432", "option", "ssl=true", "option", "extra={\"a\":1}", "option", "broken={"),
			want: req{"POST", "/resource_configurations", "", `{"environment_id":"5a4d0099-0000-4000-8000-000000000001","options":{"broken":"{","database_options":{"host":"db","port":"5432"},"extra":{"a":1},"ssl":true},"resource_id":"R"}`}},
		{name: "--option merges into --options", op: []string{"resource-configs", "create"},
			in:   familytest.Input("resource-configs create", nil, "resource", "R", "environment", "5a4d0099-0000-4000-8000-000000000001", "options", `{"base_url":"u"}`, "option", "timeout=null"),
			want: req{"POST", "/resource_configurations", "", `{"environment_id":"5a4d0099-0000-4000-8000-000000000001","options":{"base_url":"u","timeout":null},"resource_id":"R"}`}},
		{name: "no options", op: []string{"resource-configs", "create"},
			in:  familytest.Input("resource-configs create", nil, "resource", "R", "environment", "5a4d0099-0000-4000-8000-000000000001"),
			err: "options are required"},
		{name: "bad dot path", op: []string{"resource-configs", "create"},
			in:  familytest.Input("resource-configs create", nil, "resource", "R", "environment", "5a4d0099-0000-4000-8000-000000000001", "option", "a..b=1"),
			err: `invalid --option "a..b=1": expected KEY=VALUE with KEY a dot path`},
		{name: "update options as escaped replace operations", op: []string{"resource-configs", "update"},
			in: familytest.Input("resource-configs update", []string{"5a4d0099-0000-4000-8000-000000000001"}, "option", "database_options.host=db2", "option", "headers.a/b=1"),
			want: req{"PATCH", "/resource_configurations/5a4d0099-0000-4000-8000-000000000001", "", `{"operations":[` +
				`{"op":"replace","path":"/options/database_options/host","value":"db2"},` +
				`{"op":"replace","path":"/options/headers/a~1b","value":"1"}]}`}},
		{name: "resource create with ODBC params", op: []string{"resources", "create"},
			in: familytest.Input("resources create", nil, "name", "hr", "type", "mssql", "options", `{"database_options":{}}`,
				"connector-version", "3.0", "odbc-param", "ApplicationIntent=ReadOnly"),
			want: req{"POST", "/resources", "", `{"display_name":"hr","options":{"connector_version":"3.0","database_options":{},"params_from_connection_string":{"ApplicationIntent":"ReadOnly"}},"type":"mssql"}`}},
		{name: "options must be an object", op: []string{"resources", "create"},
			in:  familytest.Input("resources create", nil, "name", "hr", "type", "restapi", "options", `[1]`),
			err: "invalid value 1 for --options: expected a JSON object"},
		{name: "odbc param twice", op: []string{"resources", "update"},
			in:  familytest.Input("resources update", []string{"hr"}, "odbc-param", "a=1", "odbc-param", "a=2"),
			err: `--odbc-param "a" given twice`},
		{name: "odbc param without =", op: []string{"resources", "update"},
			in:  familytest.Input("resources update", []string{"hr"}, "odbc-param", "flag"),
			err: `invalid --odbc-param "flag": expected KEY=VALUE`},
		{name: "update ODBC params replace the set", op: []string{"resources", "update"},
			in: familytest.Input("resources update", []string{"hr"}, "odbc-param", "Packet Size=4096", "windows-auth", "false"),
			want: req{"PATCH", "/resources/hr", "", `{"operations":[` +
				`{"op":"replace","path":"/options/windows_auth","value":false},` +
				`{"op":"replace","path":"/options/params_from_connection_string","value":{"Packet Size":"4096"}}]}`}},
	})

	c := familytest.Build(t, familytest.Op(t, "resources", "update"), familytest.Input("resources update", []string{"hr"}, "connector-version", "1.0"))
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "deprecated") {
		t.Errorf("connector 1.0 warnings = %q", c.Warnings)
	}
	c = familytest.Build(t, familytest.Op(t, "resources", "create"), familytest.Input("resources create", nil, "name", "n", "type", "mssql", "options", `{"connector_version":"3.0"}`))
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "3.0 does not support object query parameters") {
		t.Errorf("connector 3.0 warnings = %q", c.Warnings)
	}
}

func TestShapeMisc(t *testing.T) {
	const uuid = "0b9f6c1e-2f1a-4c62-9a57-4f0f0f5a3b11"
	runShapeCases(t, []shapeCase{
		{name: "user attribute create", op: []string{"user-attributes", "create"},
			in:   familytest.Input("user-attributes create", nil, "name", "cost_center", "label", "Cost center", "type", "string"),
			want: req{"POST", "/user_attributes", "", `{"dataType":"string","label":"Cost center","name":"cost_center"}`}},
		{name: "user attribute bad name", op: []string{"user-attributes", "create"},
			in:  familytest.Input("user-attributes create", nil, "name", "Cost-Center", "label", "Cost", "type", "string"),
			err: `invalid value "Cost-Center" for --name: expected lowercase letters, digits and _ only`},
		{name: "user attribute short label", op: []string{"user-attributes", "create"},
			in:  familytest.Input("user-attributes create", nil, "name", "c", "label", "C", "type", "string"),
			err: `invalid value "C" for --label: expected text of at least 2 characters`},
		{name: "user attribute update --update-existing goes in the body", op: []string{"user-attributes", "update"},
			in:   familytest.Input("user-attributes update", []string{"5a4d0099-0000-4000-8000-000000000001"}, "label", "Dept", "update-existing", "true"),
			want: req{"PATCH", "/user_attributes/5a4d0099-0000-4000-8000-000000000001", "", `{"operations":[{"op":"replace","path":"/label","value":"Dept"}],"update_existing":true}`}},
		{name: "user attribute update with only --update-existing", op: []string{"user-attributes", "update"},
			in:  familytest.Input("user-attributes update", []string{"5a4d0099-0000-4000-8000-000000000001"}, "update-existing", "true"),
			err: "nothing to change"},
		{name: "user attribute update without --update-existing", op: []string{"user-attributes", "update"},
			in:   familytest.Input("user-attributes update", []string{"5a4d0099-0000-4000-8000-000000000001"}, "default", "Sales"),
			want: req{"PATCH", "/user_attributes/5a4d0099-0000-4000-8000-000000000001", "", `{"operations":[{"op":"replace","path":"/default_value","value":"Sales"}]}`}},
		{name: "theme create merges --set into --theme", op: []string{"themes", "create"},
			in:   familytest.Input("themes create", nil, "name", "Brand", "theme", `{"primary":"#000000","canvas":"#FFFFFF"}`, "set", "primary=#3C92DC", "set", "borderRadius=4"),
			want: req{"POST", "/app_themes", "", `{"name":"Brand","theme":{"borderRadius":4,"canvas":"#FFFFFF","primary":"#3C92DC"}}`}},
		{name: "theme create without theme", op: []string{"themes", "create"},
			in:  familytest.Input("themes create", nil, "name", "Brand"),
			err: "pass --theme JSON or --set KEY=VALUE"},
		{name: "theme update puts the id in the body", op: []string{"themes", "update"},
			in:   familytest.Input("themes update", []string{"12"}, "name", "Dark", "set", "primary=#FF6600"),
			want: req{"PUT", "/app_themes", "", `{"id":12,"name":"Dark","theme":{"primary":"#FF6600"}}`}},
		{name: "theme update id over the --body id", op: []string{"themes", "update"},
			in:   withBody(familytest.Input("themes update", []string{"3"}), familytest.BodyFile(t, `{"id":9,"name":"T","theme":{"a":1}}`)),
			want: req{"PUT", "/app_themes", "", `{"id":3,"name":"T","theme":{"a":1}}`}},
		{name: "theme update id not a number", op: []string{"themes", "update"},
			in:  familytest.Input("themes update", []string{"dark"}, "name", "Dark", "set", "a=1"),
			err: `invalid THEME_ID "dark": expected a number`},
		{name: "theme update without theme", op: []string{"themes", "update"},
			in:  familytest.Input("themes update", []string{"1"}, "name", "Dark"),
			err: "pass --theme JSON, --set KEY=VALUE or --body"},
		{name: "usage dates and orgs", op: []string{"usage", "summary"},
			in:   familytest.Input("usage summary", nil, "start", "2025-01-01", "end", "2025-01-31", "org", "o1,o2", "org", "o3"),
			want: req{"GET", "/usage", "end_date=2025-01-31&org_ids=o1%2Co2%2Co3&start_date=2025-01-01", ""}},
		{name: "usage bad start", op: []string{"usage", "apps"},
			in:  familytest.Input("usage apps", nil, "start", "01/02/2025"),
			err: `invalid --start "01/02/2025": expected YYYY-MM-DD`},
		{name: "usage bad end", op: []string{"usage", "users"},
			in:  familytest.Input("usage users", nil, "start", "2025-01-01", "end", "2025-02-30"),
			err: `invalid --end "2025-02-30": expected YYYY-MM-DD`},
		{name: "usage end before start", op: []string{"usage", "user-details"},
			in:  familytest.Input("usage user-details", nil, "start", "2025-02-01", "end", "2025-01-31", "email", "a@b.c"),
			err: "--end 2025-01-31 is before --start 2025-02-01"},
		{name: "usage start required", op: []string{"usage", "app-details"},
			in:  familytest.Input("usage app-details", nil, "app", "Refunds"),
			err: "required flag --start not set"},
		{name: "spaces copy sends empty lists", op: []string{"spaces", "copy"},
			in:   familytest.Input("spaces copy", nil, "to", "S", "app", "5a4d0099-0000-4000-8000-000000000001,5a4d0099-0000-4000-8000-000000000002"),
			want: req{"POST", "/spaces/copyElements", "", `{"app_ids":["5a4d0099-0000-4000-8000-000000000001","5a4d0099-0000-4000-8000-000000000002"],"destination_space_id":"S","query_library_query_ids":[],"resource_ids":[],"workflow_ids":[]}`}},
		{name: "spaces copy nothing", op: []string{"spaces", "copy"},
			in:  familytest.Input("spaces copy", nil, "to", "S"),
			err: "nothing to copy: pass --app, --workflow, --resource or --query"},
		{name: "spaces create nests options", op: []string{"spaces", "create"},
			in:   familytest.Input("spaces create", nil, "name", "eng", "domain", "eng", "copy-admin", "a@b.c", "copy-sso-settings", "true"),
			want: req{"POST", "/spaces", "", `{"domain":"eng","name":"eng","options":{"copy_sso_settings":true,"users_to_copy_as_admins":["a@b.c"]}}`}},
		{name: "token get uses the service's path", op: []string{"tokens", "get"},
			in:   familytest.Input("tokens get", []string{"T1"}),
			want: req{"GET", "/access_tokens/T1", "", ""}},
		{name: "token create", op: []string{"tokens", "create"},
			in:   familytest.Input("tokens create", nil, "label", "ci", "scope", "users:read,groups:read"),
			want: req{"POST", "/access_tokens", "", `{"label":"ci","scopes":["users:read","groups:read"]}`}},
		{name: "token label too short", op: []string{"tokens", "create"},
			in:  familytest.Input("tokens create", nil, "label", "c", "scope", "users:read"),
			err: `invalid value "c" for --label: expected text of at least 2 characters`},
		{name: "token with an empty scope list", op: []string{"tokens", "create"},
			in:  familytest.Input("tokens create", nil, "label", "ci", "scope", " , "),
			err: "pass at least one --scope"},
		{name: "custom component list by library", op: []string{"custom-components", "list"},
			in:   familytest.Input("custom-components list", nil, "library-id", uuid),
			want: req{"GET", "/custom_component_libraries", "libraryId=" + uuid, ""}},
		{name: "custom component list bad library", op: []string{"custom-components", "list"},
			in:  familytest.Input("custom-components list", nil, "library-id", "lib1"),
			err: `invalid value "lib1" for --library-id: expected a UUID`},
		{name: "custom component create sends a null description", op: []string{"custom-components", "create"},
			in:   familytest.Input("custom-components create", nil, "name", "charts", "label", "Charts"),
			want: req{"POST", "/custom_component_libraries", "", `{"description":null,"label":"Charts","name":"charts"}`}},
		{name: "custom component create bad id", op: []string{"custom-components", "create"},
			in:  familytest.Input("custom-components create", nil, "name", "charts", "label", "Charts", "id", "nope"),
			err: `invalid value "nope" for --id: expected a UUID`},
		{name: "apps clone puts the id in the body", op: []string{"apps", "clone"},
			in:   familytest.Input("apps clone", []string{"5a4d0099-0000-4000-8000-000000000001"}, "name", "Copy", "folder", "app_2"),
			want: req{"POST", "/apps/cloneApp", "", `{"app_id":"5a4d0099-0000-4000-8000-000000000001","folder_id":"app_2","new_app_name":"Copy"}`}},
		{name: "access request approve", op: []string{"access-requests", "approve"},
			in:   familytest.Input("access-requests approve", []string{"1"}),
			want: req{"PATCH", "/access_requests/1", "", `{"operations":[{"op":"replace","path":"/status","value":"APPROVED"}]}`}},
		{name: "access request deny", op: []string{"access-requests", "deny"},
			in:   familytest.Input("access-requests deny", []string{"2"}),
			want: req{"PATCH", "/access_requests/2", "", `{"operations":[{"op":"replace","path":"/status","value":"DENIED"}]}`}},
		{name: "user tasks reassign", op: []string{"user-tasks", "reassign"},
			in:   familytest.Input("user-tasks reassign", []string{"5a4d0099-0000-4000-8000-000000000001"}, "email", "a@b.c", "group", "7", "user", "user_a"),
			want: req{"PATCH", "/user_tasks/5a4d0099-0000-4000-8000-000000000001/reassign", "", `{"assignees":[{"id":7,"type":"group"},{"id":"user_a","type":"user"}],"email":"a@b.c"}`}},
		{name: "user tasks reassign bad group", op: []string{"user-tasks", "reassign"},
			in:  familytest.Input("user-tasks reassign", []string{"5a4d0099-0000-4000-8000-000000000001"}, "email", "a@b.c", "group", "ops"),
			err: `invalid --group "ops": group ids are numbers`},
		{name: "user tasks reassign nobody", op: []string{"user-tasks", "reassign"},
			in:  familytest.Input("user-tasks reassign", []string{"5a4d0099-0000-4000-8000-000000000001"}, "email", "a@b.c"),
			err: "pass at least one --user or --group"},
		{name: "user tasks submit output", op: []string{"user-tasks", "submit"},
			in:   familytest.Input("user-tasks submit", []string{"5a4d0099-0000-4000-8000-000000000001"}, "email", "a@b.c", "data", "approved=true", "data", "note=looks good"),
			want: req{"PATCH", "/user_tasks/5a4d0099-0000-4000-8000-000000000001/submit", "", `{"email":"a@b.c","output":{"approved":true,"note":"looks good"}}`}},
		{name: "environment colour", op: []string{"environments", "create"},
			in:  familytest.Input("environments create", nil, "name", "qa", "color", "orange"),
			err: `invalid value "orange" for --color: expected a colour such as #3C92DC`},
		{name: "environment colour in a patch", op: []string{"environments", "update"},
			in:  familytest.Input("environments update", []string{"5a4d0099-0000-4000-8000-000000000001"}, "color", "#FFF"),
			err: `invalid value "#FFF" for --color`},
		{name: "environment update", op: []string{"environments", "update"},
			in:   familytest.Input("environments update", []string{"5a4d0099-0000-4000-8000-000000000001"}, "color", "#00aa55"),
			want: req{"PATCH", "/environments/5a4d0099-0000-4000-8000-000000000001", "", `{"operations":[{"op":"replace","path":"/color","value":"#00aa55"}]}`}},
		{name: "sso set wraps flags in data", op: []string{"sso", "set"},
			in:   familytest.Input("sso set", nil, "type", "google", "google-client-id", "id", "jit-enabled", "false"),
			want: req{"POST", "/sso/config", "", `{"data":{"config_type":"google","google_client_id":"id","jit_enabled":false}}`}},
		{name: "sso set wraps a bare --body", op: []string{"sso", "set"},
			in:   withBody(familytest.Input("sso set", nil), familytest.BodyFile(t, `{"config_type":"saml","idp_metadata_xml":"md"}`)),
			want: req{"POST", "/sso/config", "", `{"data":{"config_type":"saml","idp_metadata_xml":"md"}}`}},
		{name: "sso set without type", op: []string{"sso", "set"},
			in:  familytest.Input("sso set", nil, "google-client-id", "id"),
			err: "the configuration has no config_type: pass --type {google, oidc, google & oidc, saml, google & saml}"},
		{name: "sso set unknown type in --body", op: []string{"sso", "set"},
			in:  withBody(familytest.Input("sso set", nil), familytest.BodyFile(t, `{"data":{"config_type":"ldap"}}`)),
			err: `invalid config_type "ldap": allowed values are google, oidc, google & oidc, saml, google & saml`},
		{name: "sso set nothing", op: []string{"sso", "set"},
			in:  familytest.Input("sso set", nil),
			err: "pass --body FILE or --type with its fields"},
	})
}

func TestShapeCustomComponentRevisionMultipart(t *testing.T) {
	dir := t.TempDir()
	zip := filepath.Join(dir, "dist.zip")
	content := "PK\x03\x04 binary \x00\xff content"
	os.WriteFile(zip, []byte(content), 0o600)
	const rev = "0b9f6c1e-2f1a-4c62-9a57-4f0f0f5a3b11"
	op := familytest.Op(t, "custom-components", "revisions", "create")
	c := familytest.Build(t, op, familytest.Input("custom-components revisions create", []string{"LIB"},
		"files", zip, "version-bump", "specify_version", "version", "2.0.0", "id", rev))
	r := c.Request()
	if r.Method != http.MethodPost || r.Path != "/custom_component_libraries/LIB/revisions" {
		t.Errorf("request %s %s", r.Method, r.Path)
	}
	mt, params, err := mime.ParseMediaType(r.ContentType)
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("content type %q: %v", r.ContentType, err)
	}
	mr := multipart.NewReader(strings.NewReader(string(r.Body.(json.RawMessage))), params["boundary"])
	fields := map[string]string{}
	var fileName string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p)
		fields[p.FormName()] = string(b)
		if p.FormName() == "files" {
			fileName = p.FileName()
		}
	}
	want := map[string]string{"id": rev, "version_bump": "specify_version", "version": "2.0.0", "files": content}
	if familytest.JSON(t, fields) != familytest.JSON(t, want) || fileName != "dist.zip" {
		t.Errorf("parts = %q (file %q), want %q", fields, fileName, want)
	}
	if got := familytest.JSON(t, c.Summary); got != `{"files":"@`+zip+` (`+strconv.Itoa(len(content))+` bytes)","id":"`+rev+`","version":"2.0.0","version_bump":"specify_version"}` {
		t.Errorf("dry-run summary = %s", got)
	}

	runShapeCases(t, []shapeCase{
		{name: "version without specify_version", op: []string{"custom-components", "revisions", "create"},
			in:  familytest.Input("x", []string{"LIB"}, "files", zip, "version-bump", "minor", "version", "2.0.0"),
			err: "--version needs --version-bump specify_version"},
		{name: "specify_version without version", op: []string{"custom-components", "revisions", "create"},
			in:  familytest.Input("x", []string{"LIB"}, "files", zip, "version-bump", "specify_version"),
			err: "--version-bump specify_version needs --version"},
		{name: "bad revision id", op: []string{"custom-components", "revisions", "create"},
			in:  familytest.Input("x", []string{"LIB"}, "files", zip, "version-bump", "minor", "id", "r1"),
			err: `invalid --id "r1": expected a UUID`},
		{name: "missing file", op: []string{"custom-components", "revisions", "create"},
			in:  familytest.Input("x", []string{"LIB"}, "files", filepath.Join(dir, "nope.zip"), "version-bump", "minor"),
			err: "nope.zip: no such file or directory"},
		{name: "required local flags", op: []string{"custom-components", "revisions", "create"},
			in:  familytest.Input("x", []string{"LIB"}),
			err: "required flags --files, --version-bump not set"},
	})
}

// Every op given only its arguments is refused as bad usage or builds a
// complete request: no panic, no other error, no unfilled path parameter.
func TestEveryShapeHandlesEmptyInput(t *testing.T) {
	var walk func(path []string, gs []engine.Group)
	walk = func(path []string, gs []engine.Group) {
		for _, g := range gs {
			p := append(append([]string(nil), path...), g.Name)
			for _, op := range g.Placed() {
				args := make([]string, len(op.Args.Params))
				for j := range args {
					args[j] = "1"
				}
				c, err := op.Build(opdef.Input{Command: strings.Join(p, " "), Args: args, Values: map[string][]string{}}, strings.NewReader(""))
				if err != nil && !clitest.IsUsage(err) {
					t.Errorf("%s %s: err %T %v, want a usage error", strings.Join(p, " "), op.Use, err, err)
				}
				if err == nil {
					r := c.Request()
					if r.Method != op.Method || !strings.HasPrefix(r.Path, "/") || strings.Contains(r.Path, "{") {
						t.Errorf("%s %s: request %s %s", strings.Join(p, " "), op.Use, r.Method, r.Path)
					}
				}
			}
			walk(p, g.Groups)
		}
	}
	walk(nil, families.All())
}
