package orgcode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/ratebudget"
)

func liveOf(docs ...*Doc) *Live {
	l := &Live{Docs: map[string][]*Doc{}, Apps: map[string]string{}, SystemFolders: map[string]string{}}
	for _, d := range docs {
		l.Docs[d.Kind.Name] = append(l.Docs[d.Kind.Name], d)
		if d.ID != "" {
			l.setID(d.Kind.Name, d.Key, d.ID)
		}
	}
	return l
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestEncodeIsDeterministicAndReadsBack(t *testing.T) {
	d := &Doc{Kind: KindNamed("groups"), Key: "support", Fields: map[string]any{
		"members":              map[string]any{"zed@x.example": "member", "ada@x.example": "admin", "mo@x.example": "member"},
		"universal_app_access": "use", "theme_access": false, "landing_page_app": nil,
	}}
	first := Encode(d)
	for range 20 { // map order varies run to run; the bytes must not
		if got := Encode(d); !bytes.Equal(got, first) {
			t.Fatalf("Encode differs between calls:\n%s\n---\n%s", first, got)
		}
	}
	want := "name: support\nuniversal_app_access: use\ntheme_access: false\nlanding_page_app: null\nmembers:\n  ada@x.example: admin\n  mo@x.example: member\n  zed@x.example: member\n"
	if string(first) != want {
		t.Errorf("Encode =\n%s\nwant\n%s", first, want)
	}
	back, probs := parseDoc(d.Kind, "groups/support.yaml", first)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	if back.Key != "support" || !equal(back.Fields, d.Fields) {
		t.Errorf("read back %v %v, want %v", back.Key, back.Fields, d.Fields)
	}
	if back.Lines["members\x00mo@x.example"] != 7 {
		t.Errorf("line of mo's membership = %d, want 7", back.Lines["members\x00mo@x.example"])
	}
}

func TestFileNames(t *testing.T) {
	for _, c := range []struct {
		kind, key, want string
	}{
		{"users", "ada@example.com", "users/ada@example.com.yaml"},
		{"folders", "app:/Finance/Reports", "folders/app/Finance/Reports.yaml"},
		{"folders", `app:/A\/B`, "folders/app/A%2FB.yaml"},
		{"grants", "group:support", "grants/group/support.yaml"},
		{"groups", "../etc", "groups/%2E.%2Fetc.yaml"},
	} {
		if got := filepath.ToSlash(FileName(&Doc{Kind: KindNamed(c.kind), Key: c.key})); got != c.want {
			t.Errorf("FileName(%s %q) = %q, want %q", c.kind, c.key, got, c.want)
		}
	}
}

func TestDiff(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"users/ada.yaml":  "email: Ada@X.example\nfirst_name: Ada\nattributes:\n  team: data\n",
		"users/new.yaml":  "email: new@x.example\nfirst_name: New\nlast_name: User\nadmin: true\n",
		"groups/ops.yaml": "name: ops\nuniversal_app_access: edit\nmembers:\n  ada@x.example: admin\n",
	})
	files, err := ReadDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	users, groups := KindNamed("users"), KindNamed("groups")
	live := liveOf(
		&Doc{Kind: users, Key: "ada@x.example", ID: "user_1", Fields: map[string]any{"first_name": "Ada", "last_name": "L",
			"active": true, "admin": false, "attributes": map[string]any{"team": "ml", "level": int64(3)}}},
		&Doc{Kind: users, Key: "old@x.example", ID: "user_2", Fields: map[string]any{"active": true}},
		&Doc{Kind: users, Key: "gone@x.example", ID: "user_3", Fields: map[string]any{"active": false}, Inactive: true},
		&Doc{Kind: groups, Key: "ops", ID: "7", Fields: map[string]any{"universal_app_access": "use",
			"members": map[string]any{"ada@x.example": "member", "old@x.example": "member"}}},
	)
	budget := ratebudget.DefaultConfig()
	p := Diff(files, live, Everything(), false, budget)
	got := map[string]Change{}
	for _, c := range p.Changes {
		got[c.Kind+" "+c.Key] = c
	}
	if len(p.Changes) != 3 {
		t.Fatalf("changes = %+v, want ada and ops updated, new created", p.Changes)
	}
	ada := got["users Ada@X.example"]
	if ada.Action != Update || len(ada.Fields) != 2 ||
		ada.Fields[0].Field != "attributes.level" || ada.Fields[0].HasNew ||
		ada.Fields[1].Field != "attributes.team" || ada.Fields[1].Old != "ml" || ada.Fields[1].New != "data" {
		t.Errorf("ada: %+v; want level removed and team ml -> data (fields the file leaves out are not compared)", ada)
	}
	ops := got["groups ops"]
	var fields []string
	for _, f := range ops.Fields {
		fields = append(fields, f.Field)
	}
	if strings.Join(fields, ",") != "universal_app_access,members.ada@x.example,members.old@x.example" {
		t.Errorf("ops fields = %v", fields)
	}
	if got["users new@x.example"].Action != Create {
		t.Errorf("new user: %+v, want a create", got["users new@x.example"])
	}
	if len(p.Unmanaged) != 2 {
		t.Errorf("unmanaged = %+v, want old and gone (disabled)", p.Unmanaged)
	}
	// phase by phase: users (ada, new), the admin flag, then the group, update ops, add ada as admin, remove old
	var steps []string
	points := 0
	for _, s := range p.Steps {
		steps = append(steps, s.Method+" "+s.Path)
		points += budget.Cost(s.Path)
	}
	want := "PATCH /users/{Ada@X.example},POST /users,PATCH /users/{new@x.example},PATCH /groups/{ops},POST /groups/{ops}/members,DELETE /groups/{ops}/members/{old@x.example}"
	if strings.Join(steps, ",") != want {
		t.Errorf("steps = %s\nwant    %s", strings.Join(steps, ","), want)
	}
	if p.Requests != 6 || p.Points != points || p.Points != 2+2+2+5+5+5 {
		t.Errorf("requests %d points %d, want 6 and 21", p.Requests, p.Points)
	}
	// priced and timed by the budget as configured: 27 points at 10 a minute
	tight := budget
	tight.Points, tight.Costs = 10, map[string]int{"groups": 7}
	if q := Diff(files, live, Everything(), false, tight); q.Points != 2+2+2+7+7+7 || q.Time != 2*time.Minute {
		t.Errorf("with groups at 7 points and 10 per minute: %d points in %v, want 27 in 2m0s", q.Points, q.Time)
	}

	pruned := Diff(files, live, Everything(), true, budget)
	var deletes []string
	for _, c := range pruned.Changes {
		if c.Action == Delete {
			deletes = append(deletes, c.Key)
		}
	}
	if strings.Join(deletes, ",") != "old@x.example" {
		t.Errorf("prune deletes %v, want only old (gone is already disabled)", deletes)
	}
}

func TestReadDirProblems(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"users/a.yaml":   "email: a@x.example\nadmin: yes please\n",
		"groups/g.yaml":  "name: g\nuniversal_app_access: all\n",
		"widgets/w.yaml": "name: w\n",
		"README.md":      "not read",
	})
	_, err := ReadDir(context.Background(), dir)
	var probs Problems
	if !errors.As(err, &probs) || len(probs) != 3 {
		t.Fatalf("err = %v, want 3 problems", err)
	}
	for i, want := range []string{"groups/g.yaml:2: universal_app_access: expected one of none, use, edit, own",
		"users/a.yaml:2: admin: expected true or false", "widgets/w.yaml:1: unknown kind \"widgets\""} {
		if !strings.HasPrefix(probs[i].Error(), filepath.Join(dir, want[:strings.Index(want, ":")])) ||
			!strings.Contains(probs[i].Error(), want[strings.Index(want, ":"):]) {
			t.Errorf("problem %d = %q, want %q", i, probs[i].Error(), want)
		}
	}
}

// A subject's id is a string in the spec ("user_…", "7"); a number, as
// older answers give a group's, reads the same.
func TestAnyIDReadsStringsAndNumbers(t *testing.T) {
	for in, want := range map[string]string{`"user_0a1b"`: "user_0a1b", `"7"`: "7", `7`: "7", `12345678901234567890`: "12345678901234567890"} {
		var id anyID
		if err := json.Unmarshal([]byte(in), &id); err != nil || string(id) != want {
			t.Errorf("%s: %q, %v; want %q", in, id, err, want)
		}
	}
	for _, in := range []string{`true`, `{}`, `[1]`} {
		var id anyID
		if err := json.Unmarshal([]byte(in), &id); err == nil {
			t.Errorf("%s read as %q", in, id)
		}
	}
}

// What the registry says of a kind (keys that fold, the org's own
// singleton) holds for the files' kinds too: every kind of object the
// files hold is one the registry knows.
func TestKindsTakeTheRegistrysRules(t *testing.T) {
	for _, k := range Kinds() {
		if _, ok := kinds.Lookup(k.Name); !ok && k.Name != "grants" {
			t.Errorf("%s: a kind the registry does not know", k.Name)
		}
		// A file names an object by the field the registry keys it by,
		// where that key is one field of the API's object.
		if k.KeyField == "" || k.reg.Key != "" && k.KeyField != k.reg.Key {
			t.Errorf("%s: files key by %q, the registry by %q", k.Name, k.KeyField, k.reg.Key)
		}
	}
	if got := foldKey(KindNamed("users"), "Ada@Example.com"); got != "ada@example.com" {
		t.Errorf("users key folds to %q, want it in lower case", got)
	}
	if got := foldKey(KindNamed("groups"), "Ops"); got != "Ops" {
		t.Errorf("groups key folds to %q, want it as written", got)
	}
	if !KindNamed("organization").reg.Singleton || KindNamed("users").reg.Singleton {
		t.Error("the organization, and only it, is the org's own singleton")
	}
}

// A step's request names its object by id in one path segment, whatever
// the id holds; the path shown names it by key.
func TestStepPathsKeepTheIDOneSegment(t *testing.T) {
	c := Change{Kind: "groups", Key: "ops", Action: Delete, live: &Doc{Kind: KindNamed("groups"), ID: ".."}}
	for _, st := range []*Step{deleteStep(c, 0, "delete", "/groups/{}"), patchStep(c, 0, "/groups/{}", nil)} {
		req, err := st.build(nil)
		if err != nil {
			t.Fatal(err)
		}
		if req.Path != "/groups/%2E%2E" || st.Path != "/groups/{ops}" {
			t.Errorf("%s: sends %q, shows %q; want /groups/%%2E%%2E and /groups/{ops}", st.What, req.Path, st.Path)
		}
	}
}

// A field with a fixed set of values takes those the API takes where it
// creates the kind's objects: a file accepts no value the API would
// refuse, and refuses none it would take or list.
func TestEnumFieldsTakeTheAPIsValues(t *testing.T) {
	checked := 0
	for _, k := range Kinds() {
		op := spec.Find("POST", k.reg.List)
		if op == nil {
			continue
		}
		for _, f := range k.Fields {
			if f.Type != tEnum {
				continue
			}
			v := op.BodyValue(f.Name)
			if v == nil {
				v = op.BodyValue(lowerCamel(f.Name))
			}
			if v == nil {
				continue
			}
			checked++
			if !slices.Equal(f.Enum, v.Enum) {
				t.Errorf("%s %s: files take %q, POST %s %q", k.Name, f.Name, f.Enum, k.reg.List, v.Enum)
			}
		}
	}
	if checked < 5 {
		t.Errorf("only %d fields checked against the API's values", checked)
	}
}

func lowerCamel(snake string) string {
	parts := strings.Split(snake, "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}
