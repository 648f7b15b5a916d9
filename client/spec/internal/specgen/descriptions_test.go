package main

import (
	"strings"
	"testing"
)

// A 4.0-shaped description: YAML, schemas behind $ref, token scopes in backquotes, x-badges, a
// deprecated operation naming its replacement relative to its family.
const yamlDoc = `
openapi: 3.0.0
info: {version: 4.0.0}
paths:
  /things/{thingId}:
    get:
      tags: [Things]
      summary: Get a thing
      description: Returns a thing. Requires the ` + "`things:read`" + ` scope.
      x-badges: [{label: Business}, {label: Enterprise}]
      parameters:
      - {in: path, name: thingId, required: true, schema: {type: string}}
      - {in: query, name: expand, schema: {type: boolean}}
      responses:
        "200":
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
  /things/old/{thingId}:
    get:
      tags: [Things]
      deprecated: true
      description: "NOTE: This endpoint is deprecated. Use the GET /{thingId} endpoint instead. Requires the ` + "`things:read`" + ` or ` + "`stuff:read`" + ` scope."
      responses: {"200": {}}
  /resources:
    get:
      tags: [Resources]
      responses:
        "200":
          content:
            application/json:
              schema:
                properties:
                  data:
                    items:
                      properties:
                        type: {enum: [pg, mcp]}
components:
  schemas:
    Thing:
      type: object
      properties:
        id: {type: string, example: t1}
        parent: {$ref: '#/components/schemas/Thing'}
`

// The same API a version earlier: console labels, a version note, one operation 4.0 dropped.
const oldDoc = `{"info":{"version":"2.12.0"},"paths":{
	"/things/{thingId}":{"get":{"tags":["Things"],"description":"Available from API version 2.4.0+. The token must have the \"Things > Read\" scope.",
		"parameters":[{"in":"path","name":"thingId"}],"responses":{"200":{}}}},
	"/gone":{"delete":{"tags":["Things"],"description":"The \"Things > Write\" scope.","responses":{"204":{}}}},
	"/resources":{"get":{"tags":["Resources"],"responses":{"200":{"content":{"application/json":{"schema":{"properties":{"data":{"items":{"properties":{"type":{"enum":["pg"]}}}}}}}}}}}}}}`

func TestGenerateFromTwoDescriptions(t *testing.T) {
	doc, err := decodeYAML(strings.NewReader(yamlDoc))
	if err == nil {
		doc, err = inline(doc)
	}
	if err != nil {
		t.Fatal(err)
	}
	old, err := inline(mustDecode(t, oldDoc))
	if err != nil {
		t.Fatal(err)
	}
	out, err := generate(doc, old)
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{
		// 4.0's token scopes (any of them will do); the console label from 2.12.
		`{Method: "GET", Path: "/things/{thingId}", Tag: "Things", Scope: "things:read", Status: 200,`,
		`Scopes:    []string{"things:read", "stuff:read"},`,
		`ScopeName: "Things > Read",`,
		`Badges:    []string{"Business", "Enterprise"},`,
		// The 2.12 note says when it came; the query value 2.12 lacks came with 4.0.
		`Since:     "2.4.0",`,
		`{Name: "expand", Type: "boolean", Since: "4.0.0"},`,
		// $ref written out; the recursive reference is an empty schema, with no example.
		"Example: `{\"id\":\"t1\",\"parent\":null}`,",
		`Deprecated: true,`,
		`Alternate:  "GET /things/{thingId}",`,
		// 2.12's dropped operation stays, marked, with its derived scope.
		`{Method: "DELETE", Path: "/gone", Tag: "Things", Scope: "things:write", Status: 204,`,
		`Dropped:   true,`,
		`var ResourceTypes = []string{"pg", "mcp"}`,
		`var scopeNames = []string{"stuff:read", "things:read"}`,
		`const Version = "4.0.0"`,
		`const OlderVersion = "2.12.0"`,
	} {
		if !strings.Contains(src, strings.Join(strings.Fields(want), " ")) {
			t.Errorf("generated source lacks %s\n%s", want, src)
		}
	}
}

func TestDeprecatedForNoOperationIsAnError(t *testing.T) {
	doc := mustDecode(t, `{"info":{"version":"4.0.0"},"paths":{
		"/a":{"get":{"tags":["A"],"deprecated":true,"description":"Use the GET /nowhere endpoint instead.","responses":{"200":{}}}},
		"/resources":{"get":{"tags":["R"],"responses":{"200":{"content":{"application/json":{"schema":{"properties":{"data":{"items":{"properties":{"type":{"enum":["pg"]}}}}}}}}}}}}}}`)
	if _, err := generate(doc, nil); err == nil || !strings.Contains(err.Error(), "/nowhere") {
		t.Errorf("generate = %v, want an error naming the missing replacement", err)
	}
}

func TestInlineRefusesARemoteRef(t *testing.T) {
	if _, err := inline(mustDecode(t, `{"a":{"$ref":"other.yaml#/x"}}`)); err == nil {
		t.Error("a reference to another file must be an error")
	}
}
