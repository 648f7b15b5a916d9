package cli

import "testing"

// A description's operations and query parameters are read from the
// operation, from its path and through $ref, in YAML as in JSON.
func TestParseDescription(t *testing.T) {
	yamlDoc := `
openapi: 3.0.0
info: {version: 4.0.0}
paths:
  /apps:
    get:
      parameters:
      - {name: using_resource, in: query}
      - $ref: '#/components/parameters/limit'
  /users/{userId}:
    parameters:
    - {name: userId, in: path}
    - {name: includeGroups, in: query}
    get: {}
    post: {}
components:
  parameters:
    limit: {name: limit, in: query}
`
	d, err := ParseDescription([]byte(yamlDoc))
	if err != nil || d == nil {
		t.Fatalf("parse: %v %v", d, err)
	}
	if d.Version != "4.0.0" {
		t.Errorf("version %q", d.Version)
	}
	for _, c := range []struct {
		method, path, param string
		want                bool
	}{
		{"GET", "/apps", "using_resource", true},
		{"GET", "/apps", "limit", true},
		{"GET", "/apps", "name_contains", false},
		{"GET", "/users/:id", "includeGroups", true},
		{"GET", "/users/{x}", "userId", false},
	} {
		if got := d.HasQuery(c.method, c.path, c.param); got != c.want {
			t.Errorf("HasQuery(%s %s, %s) = %v", c.method, c.path, c.param, got)
		}
	}
	if !d.Has("POST", "/users/{id}") || d.Has("DELETE", "/users/{id}") || d.Has("GET", "/groups") {
		t.Error("Has: wrong operations")
	}
	j, err := ParseDescription([]byte(`{"info":{"version":"2.12.0"},"paths":{"/apps":{"get":{"parameters":[]}}}}`))
	if err != nil || j.Version != "2.12.0" || !j.Has("GET", "/apps") || j.HasQuery("GET", "/apps", "using_resource") {
		t.Errorf("JSON: %+v %v", j, err)
	}
	if none, err := ParseDescription([]byte(`{"message":"not here"}`)); none != nil || err != nil {
		t.Errorf("a body that is no description: %v %v", none, err)
	}
}

func TestVersionBefore(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"2.12.0", "4.0.0", true}, {"4.0.0", "2.12.0", false}, {"4.0.0", "4.0.0", false},
		{"2.9.0", "2.12.0", true}, {"4.0", "4.0.1", true}, {"4.1.0", "4.0.9", false},
	} {
		if got := VersionBefore(c.a, c.b); got != c.want {
			t.Errorf("VersionBefore(%s, %s) = %v", c.a, c.b, got)
		}
	}
}
