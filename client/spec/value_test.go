package spec

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValueBrokenNamesTheRule(t *testing.T) {
	email := &Value{Type: "string", Format: "email"}
	folder := &Value{Type: "string", Pattern: `^(app|workflow|resource|agent|library)_([0-9]\d*)$`}
	limit := &Value{Type: "integer", Min: 1, HasMin: true, Max: 100, HasMax: true}
	kind := &Value{Type: "string", Enum: []string{"app", "folder"}}
	name := &Value{Type: "string", MinLength: 1, MaxLength: 3}
	for _, tc := range []struct {
		r    *Value
		v    any
		text bool
		want Rule
	}{
		{email, "ada@example.com", false, Fine},
		{email, "ada at example", false, RuleFormat},
		{email, 7.0, false, RuleType},
		{email, nil, false, RuleNull},
		{&Value{Type: "string", Nullable: true}, nil, false, Fine},
		{folder, "app_190", false, Fine},
		{folder, "190", false, RulePattern},
		{limit, "50", true, Fine},
		{limit, "fifty", true, RuleType},
		{limit, json.Number("0"), false, RuleMinimum},
		{limit, 101.0, false, RuleMaximum},
		{limit, 2.5, false, RuleInteger},
		{limit, int64(7), false, Fine},
		{kind, "folder", false, Fine},
		{kind, "Folder", false, RuleEnum},
		{name, "", false, RuleShort},
		{name, "abcd", false, RuleLong},
		{name, "héé", false, Fine}, // characters, not bytes
		{&Value{Type: "boolean"}, "true", true, Fine},
		{&Value{Type: "boolean"}, "yes", true, RuleType},
		{&Value{Type: "string", Format: "uuid"}, "5a4d0006-0000-4000-8000-000000000001", false, Fine},
		{&Value{Type: "string", Format: "date-time"}, "2025-01-15", false, RuleFormat},
		{nil, "anything", false, Fine},
	} {
		if got := tc.r.Broken(tc.v, tc.text); got != tc.want {
			t.Errorf("%+v on %#v: %q, want %q", tc.r, tc.v, got, tc.want)
		}
	}
	if !kind.Loosely("Folder", false) || kind.Loosely("file", false) {
		t.Error("Loosely should ignore an enum's case, and nothing more")
	}
	if got := limit.Invalid(0, "--limit"); got != "invalid value 0 for --limit: expected a whole number from 1 to 100" {
		t.Errorf("Invalid: %q", got)
	}
}

// The schema validator checks the structure (required, unknown fields,
// items) and words each broken rule of a value as the API does.
func TestSchemaValidate(t *testing.T) {
	var s Schema
	if err := json.Unmarshal([]byte(`{"type":"object","required":["email"],"additionalProperties":false,
		"properties":{"email":{"type":"string","format":"email"},"ids":{"type":"array","minItems":1,"items":{"type":"integer"}},
		"role":{"type":"string","enum":["admin","viewer"]},"note":{"type":"string","nullable":true}}}`), &s); err != nil {
		t.Fatal(err)
	}
	for body, want := range map[string]string{
		`{"email":"a@b.co"}`:                         "",
		`{"email":"a@b.co","note":null,"ids":[1,2]}`: "",
		`{}`:                                `"email" is required`,
		`{"email":"nope"}`:                  `"email" must be a valid email`,
		`{"email":"a@b.co","x":1}`:          `"x" is not an allowed field`,
		`{"email":"a@b.co","ids":[]}`:       `"ids" must have at least 1 items`,
		`{"email":"a@b.co","ids":[1,"2"]}`:  `"ids[1]" must be a number`,
		`{"email":"a@b.co","ids":[1.5]}`:    `"ids[0]" must be an integer`,
		`{"email":"a@b.co","role":"owner"}`: `"role" must be one of: admin, viewer`,
		`{"email":"a@b.co","role":null}`:    `"role" must not be null`,
		`[1]`:                               `"body" must be an object`,
	} {
		var v any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		if got := s.Validate(v, ""); got != want {
			t.Errorf("%s: %q, want %q", body, got, want)
		}
	}
}

func TestFindAndKeys(t *testing.T) {
	if Key("get", "/access_tokens/:accessTokenId") != "GET /access_tokens/{}" || Key("GET", "/organization/") != "GET /organization" {
		t.Errorf("Key: %q %q", Key("get", "/access_tokens/:accessTokenId"), Key("GET", "/organization/"))
	}
	o := Find("GET", "/users/{id}")
	if o == nil || o.Path != "/users/{userId}" || o.Param("/users/{id}", "id") == nil || o.Param("/users/{id}", "id").Pattern == "" {
		t.Fatalf("GET /users/{id}: %+v", o)
	}
	if Find("GET", "/no/such/thing") != nil {
		t.Error("found an unpublished operation")
	}
	if Collection("/users/{userId}") != "/users" || !strings.Contains(strings.Join(PathParams("/a/{x}/b/:y"), ","), "x,y") {
		t.Error("Collection or PathParams")
	}
}
