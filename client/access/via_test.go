package access

import (
	"encoding/json"
	"github.com/orgctl/orgctl/client/kinds"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/request"
)

// names is a Namer over fixed names; an id it does not know is named by
// kind and id, so a test sees which kind was asked.
type names map[string]string

func (n names) Name(kind, id string) string {
	if s, ok := n[kind+"/"+id]; ok {
		return s
	}
	return kind + "?" + id
}

// entry decodes one access list entry written as JSON.
func entry(t *testing.T, s string) Entry {
	t.Helper()
	var e Entry
	if err := json.Unmarshal([]byte(s), &e); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return e
}

func TestVia(t *testing.T) {
	n := names{"groups/7": "support", "groups/8": "All Users", "folders/app_3": "app:/Finance"}
	// The groups' own entries in the same list: 8 reaches the object by
	// universal access alone, 7 by a grant of its own.
	groups := map[string]Entry{
		"7": entry(t, `{"subject":{"id":7,"type":"group"},"sources":{"direct":true,"universal":true},"accessLevel":"edit"}`),
		"8": entry(t, `{"subject":{"id":8,"type":"group"},"sources":{"universal":true},"accessLevel":"use"}`),
		"9": entry(t, `{"subject":{"id":9,"type":"group"},"sources":{"universal":true,"inherited":{"id":"app_3","type":"folder"}},"accessLevel":"use"}`),
	}
	for _, tc := range []struct{ name, sources, want string }{
		{"nothing said", `{}`, "-"},
		{"a grant of its own", `{"direct":true}`, "direct"},
		{"a group's own universal access", `{"universal":true}`, "universal"},
		{"a user through a group's universal access", `{"universal":true,"groups":[{"id":8}]}`, "universal through All Users"},
		{"a user through a group's grant, even where the group also has universal access", `{"groups":[{"id":"7"}]}`, "member of support"},
		{"a group that inherits is a member's source, not universal", `{"groups":[{"id":9}]}`, "member of groups?9"},
		{"a group the list does not hold", `{"groups":[{"id":12}]}`, "member of groups?12"},
		{"inherited from a folder, named by its path", `{"inherited":{"id":"app_3","type":"folder"}}`, "inherited from app:/Finance"},
		{"inherited without a type is a folder", `{"inherited":{"id":"app_3"}}`, "inherited from app:/Finance"},
		{"inherited from something else keeps its id", `{"inherited":{"id":"x1","type":"app"}}`, "inherited from x1"},
		{"an empty inherited source is none", `{"inherited":{}}`, "-"},
		{"every way, in order", `{"direct":true,"universal":true,"groups":[{"id":8},{"id":7}],"inherited":{"id":"app_3","type":"folder"}}`,
			"direct; universal through All Users; member of support; inherited from app:/Finance"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := entry(t, `{"subject":{"id":"user_1","type":"user"},"sources":`+tc.sources+`,"accessLevel":"use"}`)
			if got := Via(e, groups, n); got != tc.want {
				t.Errorf("Via = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestKindOf(t *testing.T) {
	for _, tc := range []struct{ typ, id, want string }{
		{"folder", "app_7", "app"},
		{"folder", "resource_2", "resource"},
		{"folder", "workflow_1", "workflow"},
		{"app", "3f2a", "app"},
		{"resource_configuration", "rc1", "resource"},
		{"workflow", "w1", "workflow"},
	} {
		if got := KindOf(tc.typ, tc.id); got != tc.want {
			t.Errorf("KindOf(%s, %s) = %q, want %q", tc.typ, tc.id, got, tc.want)
		}
	}
}

func TestLevelRankOrdersLevels(t *testing.T) {
	order := []string{"none", "use", "edit", "own"}
	for i := 1; i < len(order); i++ {
		if kinds.LevelRank(order[i-1]) >= kinds.LevelRank(order[i]) {
			t.Errorf("%s ranks at or above %s", order[i-1], order[i])
		}
	}
	for _, l := range []string{"", "admin", "Own"} {
		if kinds.LevelRank(l) != 0 {
			t.Errorf("kinds.LevelRank(%q) = %d, want 0", l, kinds.LevelRank(l))
		}
	}
}

func TestGroupUniversal(t *testing.T) {
	g := Group{App: "edit", Res: "use", Wf: "own"}
	for typ, want := range map[string]string{"app": "edit", "resource": "use", "workflow": "own", "folder": "none", "": "none"} {
		if got := g.Universal(typ); got != want {
			t.Errorf("Universal(%q) = %q, want %q", typ, got, want)
		}
	}
}

func TestTakesAdminReadsThePathAndBodyAsTheAPIWould(t *testing.T) {
	type body struct {
		Operations []map[string]any `json:"operations"`
	}
	for _, tc := range []struct {
		name   string
		method string
		path   string
		body   any
		want   string
	}{
		{"an escaped id is the user's", "DELETE", "/users/user%5F1", nil, "user_1"},
		{"the users list itself", "DELETE", "/users/", nil, ""},
		{"an id that does not unescape", "DELETE", "/users/%zz", nil, ""},
		{"an op in capitals", "PATCH", "/users/u1", []byte(`{"operations":[{"op":"Replace","path":"/active","value":false}]}`), "u1"},
		{"false as text", "PATCH", "/users/u1", []byte(`{"operations":[{"op":"replace","path":"/is_admin","value":"false"}]}`), "u1"},
		{"an empty value", "PATCH", "/users/u1", []byte(`{"operations":[{"op":"add","path":"/active","value":""}]}`), "u1"},
		{"a body built as a struct", "PATCH", "/users/u1", body{[]map[string]any{{"op": "replace", "path": "/active", "value": false}}}, "u1"},
		{"a raw message", "PATCH", "/users/u1", json.RawMessage(`{"operations":[{"op":"remove","path":"/active"}]}`), "u1"},
		{"one op of several", "PATCH", "/users/u1", []byte(`{"operations":[{"op":"replace","path":"/first_name","value":"A"},{"op":"replace","path":"/active","value":false}]}`), "u1"},
		{"made active", "PATCH", "/users/u1", []byte(`{"operations":[{"op":"replace","path":"/active","value":true}]}`), ""},
		{"a test op", "PATCH", "/users/u1", []byte(`{"operations":[{"op":"test","path":"/active","value":false}]}`), ""},
		{"not JSON", "PATCH", "/users/u1", []byte(`operations`), ""},
		{"no body", "PATCH", "/users/u1", nil, ""},
		{"a body that cannot be JSON", "PATCH", "/users/u1", func() {}, ""},
		{"a POST", "POST", "/users/u1", []byte(`{"operations":[{"op":"remove","path":"/active"}]}`), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := requestOf(tc.method, tc.path, tc.body)
			if got := TakesAdmin(r); got != tc.want {
				t.Errorf("TakesAdmin = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestShortViaNeverCutsAWord(t *testing.T) {
	vias := []string{
		"direct; universal through All Users; member of support; inherited from app:/Finance/Reports",
		"member of viewer; member of support; member of editor",
		"universal through Ünïcödé Group; inherited from app:/Überblick",
	}
	words := map[string]bool{}
	for _, v := range vias {
		for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ';' || r == '(' || r == ')' }) {
			words[w] = true
		}
	}
	words["group"], words["folder"] = true, true
	for _, v := range vias {
		for w := 1; w <= 100; w++ {
			got := ShortVia(v, w)
			for _, word := range strings.FieldsFunc(got, func(r rune) bool { return r == ' ' || r == ';' || r == '(' || r == ')' }) {
				if !words[word] && !strings.HasPrefix(word, "+") {
					t.Errorf("ShortVia(%q, %d) = %q: %q is not a word of it", v, w, got, word)
				}
			}
			if w >= viaWidth(v) && got != v {
				t.Errorf("ShortVia(%q, %d) = %q: it fits as it is", v, w, got)
			}
		}
	}
}

func requestOf(method, path string, body any) request.Request {
	return request.Request{Method: method, Path: path, Body: body}
}
