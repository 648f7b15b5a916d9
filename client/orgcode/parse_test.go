package orgcode

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// A file's problems are each told at its line, with what is expected.
func TestParseDocProblems(t *testing.T) {
	for _, tc := range []struct {
		kind, body string
		line       int
		says       string
	}{
		{"users", "email: a@x\nfirst_name: A\nfirst_name: B\n", 3, `field "first_name" given twice`},
		{"users", "first_name: A\n", 1, "missing email: every user file names its email"},
		{"users", "email: ''\n", 1, "email must be the user's natural key, a non-empty string"},
		{"users", "email: [a, b]\n", 1, "email must be the user's natural key"},
		{"users", "email: a@x\nadmin: yes please\n", 2, "admin: expected true or false"},
		{"users", "email: a@x\nfavourite: blue\n", 2, `unknown field "favourite" for users: expected email, first_name, last_name, active, admin, attributes`},
		{"users", "email: a@x\nattributes:\n  team: [a]\n", 3, "attributes: team: expected a single value"},
		{"users", "email: a@x\nattributes: text\n", 2, "attributes: expected a mapping"},
		{"groups", "name: g\nuniversal_app_access: owner\n", 2, "universal_app_access: expected one of none, use, edit, own"},
		{"groups", "name: g\nuniversal_query_library_access: own\n", 2, "universal_query_library_access: expected one of none, use, edit"},
		{"groups", "name: g\nmembers:\n  a@x: boss\n", 3, "members: a@x: expected one of"},
		{"groups", "name: g\nmembers:\n  a@x: admin\n  a@x: member\n", 3, `members: "a@x" given twice`},
		{"grants", "subject: group:g\nfolders:\n  app:/A: none\n", 3, "folders: app:/A: expected one of use, edit, own"},
		{"grants", "subject: team:g\n", 1, `subject "team:g": expected group:NAME or user:EMAIL`},
		{"grants", "subject: 'group:'\n", 1, `subject "group:": expected group:NAME or user:EMAIL`},
		{"folders", "folder: Finance\n", 1, `folder "Finance": expected TYPE:/PATH`},
		{"folders", "folder: app:/\n", 1, `folder "app:/": expected TYPE:/PATH`},
		{"folders", "folder: app:/A//B\n", 1, `folder "app:/A//B": expected TYPE:/PATH`},
		{"organization", "organization: acme\n", 1, "write organization: settings"},
		{"users", "- a\n- b\n", 1, "expected a mapping of user's fields"},
		{"users", "email: a@x\n---\nemail: b@x\n", 2, "a file holds one document"},
		{"users", "", 1, "invalid YAML: the file is empty"},
		{"users", "email: a@x\n  bad: indent\n", 2, "invalid YAML: "},
	} {
		_, probs := parseDoc(KindNamed(tc.kind), "f.yaml", []byte(tc.body))
		if len(probs) == 0 {
			t.Errorf("%s %q: no problem, want line %d: %s", tc.kind, tc.body, tc.line, tc.says)
			continue
		}
		p := probs[0]
		if p.Line != tc.line || !strings.Contains(p.Msg, tc.says) || p.File != "f.yaml" {
			t.Errorf("%s %q: %s:%d: %s\nwant line %d saying %q", tc.kind, tc.body, p.File, p.Line, p.Msg, tc.line, tc.says)
		}
	}
}

func TestParseDocValues(t *testing.T) {
	d, probs := parseDoc(KindNamed("users"), "u.yaml", []byte("email: Ada@X.example\nfirst_name:\nactive: false\nattributes:\n  level: 3\n  ratio: 0.5\n  nested:\n    a: 1\n"))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	attrs := d.Fields["attributes"].(map[string]any)
	if d.Key != "Ada@X.example" || d.Fields["first_name"] != "" || d.Fields["active"] != false ||
		attrs["level"] != int64(3) || attrs["ratio"] != 0.5 || !equal(attrs["nested"], map[string]any{"a": 1}) {
		t.Errorf("fields %#v", d.Fields)
	}
	if d.At("attributes") != "u.yaml:4" || d.At("nope") != "u.yaml:1" || d.Lines["attributes\x00ratio"] != 6 {
		t.Errorf("lines %v", d.Lines)
	}
	g, probs := parseDoc(KindNamed("groups"), "g.yaml", []byte("name: g\nmembers:\nlanding_page_app: null\n"))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	if m, ok := g.Fields["members"].(map[string]any); !ok || len(m) != 0 {
		t.Errorf("an empty mapping is no members, not no field: %#v", g.Fields["members"])
	}
	if v, ok := g.Fields["landing_page_app"]; !ok || v != nil {
		t.Errorf("a null reference clears the field: %#v", g.Fields)
	}
	c, probs := parseDoc(KindNamed("config-vars"), "c.yaml", []byte("name: X\nvalues:\n  production: 42\n  staging:\n"))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	if v := c.Fields["values"].(map[string]any); v["production"] != "42" || v["staging"] != "" {
		t.Errorf("an environment's value is text: %#v", v)
	}
}

func TestSuggestionsForTypos(t *testing.T) {
	_, err := ReadDir(context.Background(), writeFiles(t, map[string]string{
		"usres/a.yaml":  "email: a@x\n",
		"users/b.yaml":  "email: b@x\nfirts_name: B\n",
		"groups/g.yaml": "name: g\nuniversal_app_access: eidt\n",
	}))
	var probs Problems
	if !errors.As(err, &probs) || len(probs) != 3 {
		t.Fatalf("%v", err)
	}
	near := map[string]string{"usres": "users", "firts_name": "first_name", "eidt": "edit"}
	probs = probs.WithSuggestions(func(word string, known []string) string {
		for _, k := range known {
			if near[word] == k {
				return k
			}
		}
		return ""
	})
	got := probs.Error()
	for _, want := range []string{
		`unknown kind "usres": did you mean the folder users?`,
		`unknown field "firts_name" for users: did you mean "first_name"?`,
		`universal_app_access: "eidt" is not one of none, use, edit, own: did you mean edit?`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	// sorted by file and line, each as FILE:LINE
	if i, j := strings.Index(got, "groups/g.yaml:2"), strings.Index(got, "users/b.yaml:2"); i < 0 || j < 0 || i > j {
		t.Errorf("not FILE:LINE in order:\n%s", got)
	}
}

func TestReadDirFindsTheSameObjectTwice(t *testing.T) {
	_, err := ReadDir(context.Background(), writeFiles(t, map[string]string{
		"users/a.yaml":       "email: ada@x.example\n",
		"users/again.yaml":   "email: ADA@x.example\n",
		"users/README.md":    "not an object",
		".git/config.yaml":   "whatever: 1\n",
		"groups/g.yml":       "name: g\n",
		"groups/G copy.yaml": "name: G\n",
	}))
	var probs Problems
	if !errors.As(err, &probs) || len(probs) != 1 || !strings.Contains(probs[0].Msg, `user "ADA@x.example" is also defined at`) {
		t.Fatalf("%v", err)
	}
}

func TestNormAndEqual(t *testing.T) {
	for _, tc := range []struct {
		a, b any
		eq   bool
	}{
		{json.Number("3"), int64(3), true},
		{float64(3), 3, true},
		{json.Number("0.5"), 0.5, true},
		{float32(2), int64(2), true},
		{uint64(7), 7, true},
		{map[string]any{"a": float64(1)}, map[string]any{"a": int64(1)}, true},
		{[]any{float64(1), "x"}, []any{1, "x"}, true},
		{"3", 3, false},
		{nil, "", false},
		{true, "true", false},
		{float64(1 << 60), int64(1 << 60), false}, // beyond a float's whole numbers it stays a float
	} {
		if got := equal(tc.a, tc.b); got != tc.eq {
			t.Errorf("equal(%#v, %#v) = %v, want %v", tc.a, tc.b, got, tc.eq)
		}
	}
}

func TestDiffFields(t *testing.T) {
	users, groups, vars := KindNamed("users"), KindNamed("groups"), KindNamed("config-vars")
	for _, tc := range []struct {
		name string
		k    *FileKind
		file map[string]any
		live map[string]any
		want []string // field old->new, "-" where absent
	}{
		{"a field the file leaves out is not compared", users,
			map[string]any{"first_name": "A"}, map[string]any{"first_name": "A", "last_name": "B"}, nil},
		{"a value, and one the live org lacks", users,
			map[string]any{"first_name": "A", "admin": true}, map[string]any{"first_name": "B"}, []string{"first_name B->A", "admin <nil>->true"}},
		{"numbers are numbers however they came", users,
			map[string]any{"attributes": map[string]any{"level": int64(3)}}, map[string]any{"attributes": map[string]any{"level": float64(3)}}, nil},
		{"members by email in any case, entry by entry", groups,
			map[string]any{"members": map[string]any{"Ada@X.example": "admin", "new@x": "member"}},
			map[string]any{"members": map[string]any{"ada@x.example": "member", "old@x": "member"}},
			[]string{"members.Ada@X.example member->admin", "members.new@x -->member", "members.old@x member->-"}},
		{"a secret's value is set, never compared", vars,
			map[string]any{"secret": true, "values": map[string]any{"production": "${ORGCTL_SECRET_X}", "qa": "${ORGCTL_SECRET_Y}"}},
			map[string]any{"secret": true, "values": map[string]any{"production": "****"}},
			[]string{"values.qa -->${ORGCTL_SECRET_Y}"}},
		{"a plain value is compared", vars,
			map[string]any{"values": map[string]any{"production": "on"}}, map[string]any{"values": map[string]any{"production": "off"}},
			[]string{"values.production off->on"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, fc := range diffFields(tc.k, &Doc{Fields: tc.file}, &Doc{Fields: tc.live}) {
				old, nw := "-", "-"
				if fc.HasOld {
					old = strings.TrimSpace(strings.ReplaceAll(toText(fc.Old), "\n", ""))
				}
				if fc.HasNew {
					nw = toText(fc.New)
				}
				got = append(got, fc.Field+" "+old+"->"+nw)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func toText(v any) string {
	if v == nil {
		return "<nil>"
	}
	b, _ := json.Marshal(v)
	return strings.Trim(string(b), `"`)
}

func TestStepSentences(t *testing.T) {
	for _, tc := range []struct {
		s    Step
		want string
	}{
		{Step{What: "create", Kind: "users", Key: "ada@x"}, "Created user ada@x"},
		{Step{What: "update", Kind: "user-attributes", Key: "team"}, "Updated user attribute team"},
		{Step{What: "delete", Kind: "groups", Key: "ops"}, "Deleted group ops"},
		{Step{What: "disable", Kind: "users", Key: "ada@x"}, "Disabled user ada@x"},
		{Step{What: "make admin", Kind: "users", Key: "ada@x"}, "Made user ada@x an admin"},
		{Step{What: "add members", Kind: "groups", Key: "ops"}, "Added members to group ops"},
		{Step{What: "remove member", Kind: "groups", Key: "ops ada@x"}, "Removed ada@x from group ops"},
		{Step{What: "grant", Kind: "grants", Key: "group:ops", says: "Granted use on folder app:/A to group ops"}, "Granted use on folder app:/A to group ops"},
		{Step{What: "rename", Kind: "folders", Key: "app:/A"}, "rename folders app:/A"},
	} {
		if got := tc.s.Sentence(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.s.Describe(), got, tc.want)
		}
	}
	if a := (&Step{}).Action(); a != Update {
		t.Errorf("a step of no change of its own is part of an update: %q", a)
	}
}

// A change counts as applied only when every one of its steps is done.
func TestAppliedCountsWholeChanges(t *testing.T) {
	p := &Plan{Steps: []*Step{
		{What: "create", Kind: "groups", Key: "ops", action: Create, change: "groups ops"},
		{What: "add members", Kind: "groups", Key: "ops", action: Create, change: "groups ops"},
		{What: "update", Kind: "users", Key: "a@x", action: Update, change: "users a@x"},
		{What: "disable", Kind: "users", Key: "b@x", action: Delete, change: "users b@x"},
	}}
	done := map[string]bool{"create groups ops": true, "update users a@x": true, "disable users b@x": true}
	got := p.Applied(func(s *Step) bool { return done[s.Describe()] })
	if got[Create] != 0 || got[Update] != 1 || got[Delete] != 1 {
		t.Errorf("applied %v: the group's members were not added, so its create is not done", got)
	}
	done["add members groups ops"] = true
	if got := p.Applied(func(s *Step) bool { return done[s.Describe()] }); got[Create] != 1 {
		t.Errorf("applied %v", got)
	}
}

func TestReadingForOnly(t *testing.T) {
	f, err := ReadDir(context.Background(), writeFiles(t, map[string]string{
		"users/a.yaml":  "email: a@x\n",
		"groups/g.yaml": "name: g\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadingFor(f, []string{"users", "gropus"}); err == nil || !strings.Contains(err.Error(), `no kind "gropus": the kinds are user-attributes, users, groups`) {
		t.Errorf("an unknown kind: %v", err)
	}
	r, err := ReadingFor(f, []string{"groups"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Manages("users") || !r.Manages("groups") || r.Manages("folders") {
		t.Errorf("--only groups manages users %v, groups %v, folders %v", r.Manages("users"), r.Manages("groups"), r.Manages("folders"))
	}
	all, _ := ReadingFor(f, nil)
	if !all.Manages("users") || !all.Manages("groups") || all.Manages("grants") {
		t.Errorf("the directory's kinds: users %v groups %v grants %v", all.Manages("users"), all.Manages("groups"), all.Manages("grants"))
	}
}

// A group's members are each an admin of the group or a member: another
// role is refused, naming the member and the roles there are.
func TestGroupMembersTakeTheMemberRoles(t *testing.T) {
	_, err := ReadDir(context.Background(), writeFiles(t, map[string]string{
		"groups/g.yaml": "name: g\nmembers:\n  a@x.example: admin\n  b@x.example: member\n  c@x.example: owner\n",
	}))
	var probs Problems
	if !errors.As(err, &probs) || len(probs) != 1 {
		t.Fatalf("want one problem, got %v", err)
	}
	if got := probs.Error(); !strings.Contains(got, "c@x.example") || !strings.Contains(got, "one of admin, member") {
		t.Errorf("the problem names neither the member nor the roles there are: %s", got)
	}
}
