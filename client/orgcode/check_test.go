package orgcode

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/ratebudget"
)

func readFiles(t *testing.T, files map[string]string) *Files {
	t.Helper()
	f, err := ReadDir(context.Background(), writeFiles(t, files))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A reference to an object in no file is checked against the live org;
// what the org lacks and the API cannot make is blocked, not wrong.
func TestCheckReferences(t *testing.T) {
	users, groups, folders := KindNamed("users"), KindNamed("groups"), KindNamed("folders")
	live := liveOf(
		&Doc{Kind: users, Key: "ada@x.example", ID: "user_1", Fields: map[string]any{}},
		&Doc{Kind: groups, Key: "ops", ID: "7", Fields: map[string]any{}},
		&Doc{Kind: folders, Key: "app:/Finance", ID: "app_3", Fields: map[string]any{}},
	)
	live.Apps["Lookup"] = "a1"
	live.SameName = map[string][]string{"Twin": {"a2", "a3"}}
	live.SystemFolders["app:/"] = "app_1"
	for _, tc := range []struct {
		name  string
		files map[string]string
		says  []string // "" for none
	}{
		{"members in the org or the files", map[string]string{
			"groups/g.yaml":  "name: g\nmembers:\n  ADA@x.example: member\n  new@x.example: admin\n",
			"users/new.yaml": "email: new@x.example\n"}, nil},
		{"a member nowhere, at its line", map[string]string{
			"groups/g.yaml": "name: g\nmembers:\n  ada@x.example: member\n  nobody@x.example: member\n"},
			[]string{`g.yaml:4: members: no user named "nobody@x.example" in the files or the live org`}},
		{"a landing page the org lacks is blocked, not wrong", map[string]string{
			"groups/g.yaml": "name: g\nlanding_page_app: Elsewhere\n"}, nil},
		{"a landing page two apps are named", map[string]string{
			"groups/g.yaml": "name: g\nlanding_page_app: Twin\n"},
			[]string{`g.yaml:2: landing_page_app: 2 apps are named "Twin" (ids a2, a3)`}},
		{"a folder whose parent is nowhere", map[string]string{
			"folders/app/Ops/Q1.yaml": "folder: app:/Ops/Q1\n", "folders/app/Finance/Q1.yaml": "folder: app:/Finance/Q1\n"},
			[]string{`Q1.yaml:1: folder "app:/Ops/Q1": its parent "app:/Ops" is neither in the files nor in the live org`}},
		{"a grant's subject nowhere", map[string]string{
			"grants/group/nope.yaml": "subject: group:nope\nfolders:\n  app:/Finance: use\n",
			"grants/user/ada.yaml":   "subject: user:ada@x.example\nfolders:\n  app:/: use\n"},
			[]string{`nope.yaml:1: subject: no group named "nope" in the files or the live org`}},
		{"a grant on a folder nowhere, which the API can create", map[string]string{
			"grants/group/ops.yaml": "subject: group:ops\nfolders:\n  app:/Gone: use\n"},
			[]string{`ops.yaml:3: folders: no folder named "app:/Gone" in the files or the live org`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := readFiles(t, tc.files)
			r, _ := ReadingFor(f, nil)
			err := Check(f, live, r)
			if tc.says == nil {
				if err != nil {
					t.Errorf("problems: %v", err)
				}
				return
			}
			var probs Problems
			if !errors.As(err, &probs) {
				t.Fatalf("%v, want Problems", err)
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("problems lack %q:\n%v", s, err)
				}
			}
			if len(probs) != len(tc.says) {
				t.Errorf("%d problems, want %d:\n%v", len(probs), len(tc.says), err)
			}
		})
	}
}

func TestCheckFilesRefusesASecretWrittenOut(t *testing.T) {
	f := readFiles(t, map[string]string{
		"config-vars/KEY.yaml": "name: KEY\nsecret: true\nvalues:\n  production: sk_live_123\n  staging: ${ORGCTL_SECRET_KEY_STAGING}\n",
		"config-vars/URL.yaml": "name: URL\nsecret: false\nvalues:\n  production: https://x\n",
	})
	r, _ := ReadingFor(f, nil)
	err := CheckFiles(f, r)
	if err == nil || !strings.Contains(err.Error(), "KEY.yaml:4: values: production: a secret's value is written as ${ORGCTL_SECRET_<NAME>_<ENVIRONMENT>}, never as the value") ||
		strings.Contains(err.Error(), "staging") || strings.Contains(err.Error(), "URL.yaml") {
		t.Errorf("%v", err)
	}
	r, _ = ReadingFor(f, []string{"users"})
	if err := CheckFiles(f, r); err != nil {
		t.Errorf("a kind not managed is not checked: %v", err)
	}
}

func TestMissingSecrets(t *testing.T) {
	f := readFiles(t, map[string]string{
		"config-vars/KEY.yaml": "name: KEY\nsecret: true\nvalues:\n  production: ${ORGCTL_SECRET_KEY_PRODUCTION}\n  staging: ${ORGCTL_SECRET_KEY_STAGING}\n",
	})
	envs := KindNamed("environments")
	live := liveOf(&Doc{Kind: envs, Key: "production", ID: "e1", Fields: map[string]any{}}, &Doc{Kind: envs, Key: "staging", ID: "e2", Fields: map[string]any{}})
	r, _ := ReadingFor(f, nil)
	p := Diff(f, live, r, false, ratebudget.DefaultConfig())
	t.Setenv("ORGCTL_SECRET_KEY_STAGING", "s3cret")
	os.Unsetenv("ORGCTL_SECRET_KEY_PRODUCTION")
	probs := MissingSecrets(p)
	if len(probs) != 1 || probs[0].Line != 4 || !strings.Contains(probs[0].Msg, "values: production: the environment variable ORGCTL_SECRET_KEY_PRODUCTION is not set") {
		t.Errorf("%v", probs)
	}
	t.Setenv("ORGCTL_SECRET_KEY_PRODUCTION", "")
	if probs := MissingSecrets(p); len(probs) != 0 {
		t.Errorf("a variable set, even empty, is the secret: %v", probs)
	}
}

// A change's fields that need what the org lacks and the API cannot make
// are blocked; the rest of the change goes ahead.
func TestBlockedFields(t *testing.T) {
	groups := KindNamed("groups")
	live := liveOf(&Doc{Kind: groups, Key: "ops", ID: "7", Fields: map[string]any{"universal_app_access": "use"}})
	live.Apps["Lookup"] = "a1"
	f := readFiles(t, map[string]string{
		"groups/new.yaml":         "name: new\nlanding_page_app: Elsewhere\nuniversal_app_access: edit\n",
		"groups/ops.yaml":         "name: ops\nlanding_page_app: Elsewhere\nuniversal_app_access: use\n",
		"grants/group/ops.yaml":   "subject: group:ops\napps:\n  Elsewhere: use\n  Lookup: edit\n",
		"grants/group/other.yaml": "subject: group:new\napps:\n  Elsewhere: use\n",
	})
	p := Diff(f, live, Everything(), false, ratebudget.DefaultConfig())
	var blocked []string
	for _, b := range p.Blocked {
		blocked = append(blocked, b.Kind+" "+b.Key+" "+b.Field+" needs "+b.Needs)
		if !strings.Contains(b.Reason, "apps reach an org through source control") {
			t.Errorf("reason %q", b.Reason)
		}
	}
	want := []string{
		`groups new landing_page_app needs app "Elsewhere"`,
		`groups ops landing_page_app needs app "Elsewhere"`,
		`grants group:new apps.Elsewhere needs app "Elsewhere"`,
		`grants group:ops apps.Elsewhere needs app "Elsewhere"`,
	}
	if !sameSet(blocked, want) {
		t.Errorf("blocked %q\nwant %q", blocked, want)
	}
	// the new group is made without its landing page; ops changes nothing
	// else; the grant on Lookup goes; the grant of nothing but Elsewhere is
	// no change
	if got := changeLines(p); strings.Join(got, "\n") != strings.Join([]string{
		"create grants group:ops apps.Lookup", "create groups new universal_app_access"}, "\n") {
		t.Errorf("changes %q", got)
	}
	for _, s := range p.Steps {
		req, err := s.Request(live)
		if err == nil && strings.Contains(strings.ToLower(formatBody(req.Body)), "elsewhere") {
			t.Errorf("%s asks for the blocked app: %v", s.Describe(), req.Body)
		}
	}
	if p.Empty() {
		t.Error("a plan with blocked changes is not empty")
	}
}

func formatBody(b any) string { return strings.ToLower(strings.TrimSpace(toText(b))) }

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		m[s]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return len(a) == len(b)
}

func TestLoadPlanRefusesAnEditedPlan(t *testing.T) {
	for _, tc := range []struct{ body, says string }{
		{`{"format":"orgctl-plan/9","changes":[]}`, `a plan of format "orgctl-plan/9"; this orgctl applies "orgctl-plan/1"`},
		{`{"format":"orgctl-plan/1","changes":[{"kind":"robots","key":"r","action":"create","desired":{}}]}`, "change 1 (create robots r) is not one orgctl makes"},
		{`{"format":"orgctl-plan/1","changes":[{"kind":"users","key":"a@x","action":"rename","desired":{}}]}`, "change 1 (rename users a@x) is not one orgctl makes"},
		{`{"format":"orgctl-plan/1","changes":[{"kind":"users","key":"","action":"create","desired":{}}]}`, "is not one orgctl makes"},
		{`{"format":"orgctl-plan/1","changes":[{"kind":"users","key":"a@x","action":"update"}]}`, "change 1 (update users a@x) has no desired state"},
		{`{"format":"orgctl-plan/1","changes":[],"blocked":[{"kind":"grants","key":"group:g","field":"apps.X"}]}`, "blocked change 1 (grants group:g apps.X) is not one orgctl makes"},
		{`[]`, "p.plan is not a saved plan"},
		{`{}`, "p.plan is not a saved plan"},
	} {
		if _, err := LoadPlan("p.plan", []byte(tc.body)); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want %q", tc.body, err, tc.says)
		}
	}
	s, err := LoadPlan("p.plan", []byte(`{"format":"orgctl-plan/1","changes":[{"kind":"users","key":"a@x","action":"delete"}]}`))
	if err != nil || len(s.Changes) != 1 {
		t.Errorf("a delete needs no desired state: %v", err)
	}
}

// A saved plan against the sandbox: applied from its file as it was made,
// refused whole when someone changed an object it changes.
func TestSavedPlanAgainstTheSandbox(t *testing.T) {
	cl := demoOrg(t)
	dir := export(t, cl)
	replace(t, dir, "users/ana.viewer@sandbox.example.yaml", "first_name: Ana\n", "first_name: Anna\n")
	put(t, dir, "groups/auditors.yaml", "name: auditors\nmembers:\n  ana.viewer@sandbox.example: member\n")
	p, _ := planDir(t, cl, dir, false)
	b, err := p.Save("https://org.example", dir, []string{"users", "groups"}, time.Date(2026, 5, 1, 12, 0, 0, 0, time.FixedZone("X", 3600)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadPlan("p.plan", b)
	if err != nil {
		t.Fatal(err)
	}
	if s.Target != "https://org.example" || s.Dir != dir || !reflect.DeepEqual(s.Only, []string{"users", "groups"}) || !s.Created.Equal(time.Date(2026, 5, 1, 11, 0, 0, 0, time.UTC)) || len(s.Changes) != 2 {
		t.Errorf("saved %+v", s)
	}
	r := s.Reading()
	if !r.Manages("users") || !r.Manages("groups") || r.Manages("folders") || r.readsAccessLists() {
		t.Errorf("the saved plan reads %v", r.lists)
	}
	live, err := ReadLive(context.Background(), cl, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	again, done, err := s.Replan(live, Earlier{}, ratebudget.DefaultConfig())
	if err != nil || done != 0 || !reflect.DeepEqual(changeLines(again), changeLines(p)) || len(again.Steps) != len(p.Steps) {
		t.Fatalf("replanned %v (%d done, %v), want %v", changeLines(again), done, err, changeLines(p))
	}
	// someone else changes Ana first: the plan is refused whole
	replace(t, dir, "users/ana.viewer@sandbox.example.yaml", "first_name: Anna\n", "first_name: Anne\n")
	other, otherLive := planDir(t, cl, dir, false, "users")
	applySteps(t, cl, other, otherLive)
	live, err = ReadLive(context.Background(), cl, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = s.Replan(live, Earlier{}, ratebudget.DefaultConfig())
	var conflicts Conflicts
	if !errors.As(err, &conflicts) || len(conflicts) != 1 || conflicts[0].Kind != "users" || conflicts[0].Key != "ana.viewer@sandbox.example" ||
		!strings.HasPrefix(err.Error(), "the org changed since the plan was made:\n  users ana.viewer@sandbox.example: ") {
		t.Errorf("%v, want one conflict on ana", err)
	}
}

// What export writes reads back as the org it was read from.
func TestExportReadsBackAsTheOrg(t *testing.T) {
	cl := demoOrg(t)
	live, err := ReadLive(context.Background(), cl, Everything(), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "org")
	if err := WriteDir(dir, live.Documents()); err != nil {
		t.Fatal(err)
	}
	files, err := ReadDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds() {
		want := live.Docs[k.Name]
		got := files.Docs[k.Name]
		if len(got) != len(want) {
			t.Errorf("%s: %d files, %d live", k.Name, len(got), len(want))
			continue
		}
		byKey := map[string]*Doc{}
		for _, d := range got {
			byKey[d.Key] = d
		}
		for _, w := range want {
			g := byKey[w.Key]
			if g == nil {
				t.Errorf("%s %s: no file", k.Name, w.Key)
				continue
			}
			if !equal(g.Fields, w.Fields) {
				t.Errorf("%s %s: read back %v, live %v", k.Name, w.Key, g.Fields, w.Fields)
			}
		}
	}
	// what the org cannot do without, and who is disabled, is known
	flags := map[string]string{}
	for _, d := range live.Docs["groups"] {
		flags[d.Key] = d.Builtin
	}
	if flags["admin"] == "" || flags["All Users"] == "" || flags["support"] != "" {
		t.Errorf("built-in groups %v", flags)
	}
	for _, d := range live.Docs["users"] {
		if (d.Key == "former.employee@sandbox.example") != d.Inactive {
			t.Errorf("%s inactive %v", d.Key, d.Inactive)
		}
	}
	if _, ok := live.SystemFolders["app:/"]; !ok || !live.Exists("apps", "Refund Console") || live.Exists("apps", "Nope") {
		t.Errorf("system folders %v, apps %v", live.SystemFolders, live.Apps)
	}
}
