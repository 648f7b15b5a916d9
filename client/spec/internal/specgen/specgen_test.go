package main

import (
	"strings"
	"testing"
)

func mustDecode(t *testing.T, s string) any {
	t.Helper()
	v, err := decode(strings.NewReader(s))
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

// The committed tables were written with Python's json.dumps; these are its answers.
func TestEncodeMatchesTheTablesFormat(t *testing.T) {
	for in, want := range map[string]string{
		"1.0": "1.0", "1e3": "1000.0", "1e16": "1e+16", "1e15": "1000000000000000.0", "0.0001": "0.0001",
		"1e-05": "1e-05", "-2.5": "-2.5", "123456789.125": "123456789.125", "1.5e300": "1.5e+300",
		"-0": "0", "10": "10", "1E2": "100.0", "0.1": "0.1", "100000000000000000000": "100000000000000000000",
		`{"a<b>&c":"é\u2028\ud83d\ude00\u007f\u0001\"\\/\n"}`: `{"a<b>&c":"\u00e9\u2028\ud83d\ude00\u007f\u0001\"\\/\n"}`,
		`{"z":1,"a":[true,null,{}],"m":{"y":"","x":[]}}`:      `{"z":1,"a":[true,null,{}],"m":{"y":"","x":[]}}`,
		`{"k":1,"j":2,"k":3}`:                                 `{"k":3,"j":2}`,
	} {
		if got := encode(mustDecode(t, in)); got != want {
			t.Errorf("encode(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestSubsetKeepsValidatedKeywordsInOrder(t *testing.T) {
	in := `{"description":"x","type":"object","required":["b"],"properties":{"b":{"type":"string","format":"uri","example":"e"},
		"a":{"type":"string","format":"email"}},"additionalProperties":{"type":"integer","title":"t"},
		"anyOf":[{"title":"only"},{"type":"null"}],"items":true}`
	want := `{"type":"object","required":["b"],"properties":{"b":{"type":"string"},"a":{"type":"string","format":"email"}},` +
		`"additionalProperties":{"type":"integer"},"anyOf":[{},{"type":"null"}],"items":true}`
	if got := encode(subset(mustDecode(t, in))); got != want {
		t.Errorf("subset:\n got %s\nwant %s", got, want)
	}
}

func TestExampleSatisfiesTheSchema(t *testing.T) {
	in := `{"type":"object","properties":{
		"id":{"type":"string","pattern":"user_([a-z0-9]+)"},
		"when":{"type":"string","format":"date-time"},
		"kind":{"type":"string","enum":["b","a"]},
		"n":{"type":"integer","minimum":5},
		"m":{"type":"number","example":2.50},
		"tags":{"type":"array","items":{"type":"string","example":"ex"}},
		"none":{"type":"array","items":{"nullable":true}},
		"merged":{"allOf":[{"properties":{"p":{"type":"boolean"}}},{"properties":{"q":{"type":"string"},"p":{"type":"integer"}}}]},
		"either":{"oneOf":[{"type":"string","format":"uuid"},{"type":"integer"}]},
		"ver":{"type":"string","pattern":"^(0|[1-9]\\d*)\\.x"}}}`
	want := `{"id":"user_0","when":"2025-01-15T10:00:00.000Z","kind":"b","n":5,"m":2.5,"tags":["ex"],"none":[],` +
		`"merged":{"p":1,"q":"example"},"either":"00000000-0000-4000-8000-000000000000","ver":"1.0.0"}`
	if got := encode(example(mustDecode(t, in))); got != want {
		t.Errorf("example:\n got %s\nwant %s", got, want)
	}
}

func TestScope(t *testing.T) {
	for _, c := range []struct{ desc, method, path, want string }{
		{`The token must have the "Users > Read" scope.`, "get", "/users", "users:read"},
		{`Needs the "User Attributes > Write" scope`, "post", "/user_attributes", "user_attributes:write"},
		{`the "Permissions > Read" scope`, "get", "/permissions", "permissions:all:read"},
		{`the "Environment > Write" scope`, "post", "/environments", "environments:write"},
		{`the "CustomComponent > Read" scope`, "get", "/custom_component_libraries", "custom_component_libraries:read"},
		{`the "Source control > Releases (Write)" scope`, "post", "/releases", "source_control:releases:write"},
		{`the "Source control > Test deploy" scope`, "post", "/x", "source_control:test_deploy"},
		{"", "get", "/user_invites", "users:read"},
		{"", "delete", "/user_invites/:id", "users:write"},
		{"", "get", "/usage/x", "usage"},
		{"", "post", "/organization/invalidate_sessions", "organizations:write"},
		{"", "get", "/info", ""},
	} {
		got, err := scope(c.desc, c.method, c.path)
		if err != nil || got != c.want {
			t.Errorf("scope(%q, %s %s) = %q, %v; want %q", c.desc, c.method, c.path, got, err, c.want)
		}
	}
	if _, err := scope(`the "A > B > C" scope`, "get", "/x"); err == nil {
		t.Error("a scope with two '>' must be an error, not a guess")
	}
}

func TestGenerate(t *testing.T) {
	doc := mustDecode(t, `{"info":{"version":"2.12.0"},"paths":{
		"/things/:thingId":{"parameters":[],"get":{"tags":["Things"],"description":"the \"Things > Read\" scope",
			"parameters":[{"in":"path","name":"thingId"},{"in":"query","name":"expand"}],
			"responses":{"404":{},"200":{"content":{"application/json":{"schema":{"type":"object","properties":{"s":{"type":"string","example":"a`+"`"+`b"}}}}}}}},
		 "delete":{"tags":["Things"],"responses":{"204":{}}},
		 "head":{"tags":["Things"],"responses":{"200":{}}}},
		"/resources":{"get":{"tags":["Resources"],"requestBody":{"content":{"application/json":{"schema":{}}}},
			"responses":{"200":{"content":{"application/json":{"schema":{"properties":{"data":{"items":{"properties":{"type":{"enum":["pg","s3"]}}}}}}}}}}}}}}`)
	src, err := generate(doc, nil)
	if err != nil {
		t.Fatal(err)
	}
	// HEAD is no method the API serves; an empty request schema adds no Schema; "data" without a
	// type has no example (null); a path parameter the operation does not describe is text.
	want := "// Code generated by specgen from the API descriptions; DO NOT EDIT.\n" +
		"\n" +
		"package spec\n" +
		"\n" +
		"// operations are in the description's order.\n" +
		"var operations = []Operation{\n" +
		"\t{Method: \"GET\", Path: \"/things/{thingId}\", Tag: \"Things\", Scope: \"things:read\", Status: 200,\n" +
		"\t\tScopeName: \"Things > Read\",\n" +
		"\t\tParams: []Value{\n" +
		"\t\t\t{Name: \"thingId\", Required: true},\n" +
		"\t\t},\n" +
		"\t\tQuery: []Value{\n" +
		"\t\t\t{Name: \"expand\"},\n" +
		"\t\t},\n" +
		"\t\tExample: `{\"s\":\"a` + \"`\" + `b\"}`,\n" +
		"\t},\n" +
		"\t{Method: \"DELETE\", Path: \"/things/{thingId}\", Tag: \"Things\", Scope: \"\", Status: 204,\n" +
		"\t\tParams: []Value{\n" +
		"\t\t\t{Name: \"thingId\", Type: \"string\", Required: true},\n" +
		"\t\t},\n" +
		"\t},\n" +
		"\t{Method: \"GET\", Path: \"/resources\", Tag: \"Resources\", Scope: \"\", Status: 200,\n" +
		"\t\tExample: `{\"data\":null}`,\n" +
		"\t},\n" +
		"}\n" +
		"\n" +
		"// ResourceTypes is the resource type enum of the described Resource schema.\n" +
		"var ResourceTypes = []string{\"pg\", \"s3\"}\n" +
		"\n" +
		"// scopeNames are the token scopes the operations' descriptions name, sorted.\n" +
		"var scopeNames = []string{\"things:read\"}\n" +
		"\n" +
		"// Version is the described API version (info.version).\n" +
		"const Version = \"2.12.0\"\n"
	if string(src) != want {
		t.Errorf("generate:\n%s\nwant:\n%s", src, want)
	}
}
