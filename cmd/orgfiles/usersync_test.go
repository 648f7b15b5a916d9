package orgfiles

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/orgcode"
	"github.com/orgctl/orgctl/cmd/cli"
)

func hrFile(t *testing.T, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hr.csv")
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadHRFile(t *testing.T) {
	for _, tc := range []struct {
		name     string
		file     string
		maps     map[string]string
		groupCol string
		users    []string // key|first|last|attributes
		groups   []string // email|value|line
		err      string
	}{
		{name: "names and an attribute",
			file:  "email,first_name,last_name,Department\nana@x,Ana,Souza,finance\n",
			users: []string{"ana@x|Ana|Souza|map[department:finance]"}},
		{name: "a byte-order mark, padding and an empty name",
			file:  "\ufeffemail , first_name\n  ana@x  ,  \n",
			users: []string{"ana@x|||map[]"}},
		{name: "a mapped column",
			file: "Work Email,Given\nana@x,Ana\n", maps: map[string]string{"Work Email": "email", "Given": "first_name"},
			users: []string{"ana@x|Ana||map[]"}},
		{name: "a group column by the file's name, not an attribute",
			file: "email,Dept\nana@x,Finance\ndev@x,\ncy@x\n", groupCol: "dept",
			users:  []string{"ana@x|||map[]", "dev@x|||map[]", "cy@x|||map[]"},
			groups: []string{"ana@x|Finance|2", "dev@x||3", "cy@x||4"}},
		{name: "a group column by the field it is mapped to",
			file: "email,Abteilung\nana@x,Finance\n", maps: map[string]string{"Abteilung": "department"}, groupCol: "department",
			users: []string{"ana@x|||map[]"}, groups: []string{"ana@x|Finance|2"}},
		{name: "no email column", file: "mail,first_name\nana@x,Ana\n", err: "no email column (the header is mail,first_name)"},
		{name: "a row without an email", file: "email,first_name\nana@x,Ana\n,Dev\n", err: ":3: no email"},
		{name: "not an email", file: "email\nana.x\n", err: `:2: "ana.x" is not an email`},
		{name: "the same user twice, in any case", file: "email\nana@x\ndev@x\nANA@x\n", err: ":4: ANA@x is on line 2 too"},
		{name: "no such group column", file: "email,dept\na@x,b\n", groupCol: "team", err: "--group-column team: the file has no such column"},
		{name: "no header", file: "", err: "no header row"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := hrFile(t, tc.file)
			files, groups, err := readHRFile(p, tc.maps, tc.groupCol)
			if tc.err != "" {
				var ue *cli.UsageError
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.As(err, &ue) {
					t.Errorf("err %v, want a usage error saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var users []string
			for _, d := range files.Docs["users"] {
				attrs, _ := d.Fields["attributes"].(map[string]any)
				first, _ := d.Fields["first_name"].(string)
				last, _ := d.Fields["last_name"].(string)
				if _, has := d.Fields["first_name"]; has && first == "" {
					t.Errorf("%s: an empty first_name is set", d.Key)
				}
				users = append(users, strings.Join([]string{d.Key, first, last, formatMap(attrs)}, "|"))
			}
			if !reflect.DeepEqual(users, tc.users) {
				t.Errorf("users %q, want %q", users, tc.users)
			}
			var gs []string
			for _, g := range groups {
				gs = append(gs, g.email+"|"+g.value+"|"+strconv.Itoa(g.line))
			}
			if !reflect.DeepEqual(gs, tc.groups) {
				t.Errorf("groups %q, want %q", gs, tc.groups)
			}
			if !files.Kinds["users"] || files.Dir != p {
				t.Errorf("files manage %v from %s", files.Kinds, files.Dir)
			}
		})
	}
}

func formatMap(m map[string]any) string {
	var ks []string
	for k, v := range m {
		ks = append(ks, k+":"+v.(string))
	}
	sort.Strings(ks)
	return "map[" + strings.Join(ks, " ") + "]"
}

func TestRefuseBuiltinGroups(t *testing.T) {
	rows := []hrGroup{{"a@x", "Finance", 2}, {"b@x", "ADMIN", 3}, {"c@x", "", 4}, {"d@x", "all users", 5}}
	err := refuseBuiltinGroups(rows, "hr.csv", "dept")
	if err == nil || !strings.Contains(err.Error(), `hr.csv:3: dept: "ADMIN" is a built-in group`) || !strings.Contains(err.Error(), `hr.csv:5: dept: "all users" is a built-in group`) {
		t.Errorf("err %v", err)
	}
	if err := refuseBuiltinGroups(rows[:1], "hr.csv", "dept"); err != nil {
		t.Errorf("Finance refused: %v", err)
	}
	if docs := placeholderGroups([]hrGroup{{"a@x", "Finance", 2}, {"b@x", "Finance", 3}, {"c@x", "", 4}, {"d@x", "Ops", 5}}); len(docs) != 2 || docs[0].Key != "Finance" || docs[1].Key != "Ops" {
		t.Errorf("placeholders %v", docs)
	}
}

func liveGroups(groups map[string]map[string]any, builtin ...string) *orgcode.Live {
	l := &orgcode.Live{Docs: map[string][]*orgcode.Doc{}}
	var names []string
	for n := range groups {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		d := &orgcode.Doc{Kind: orgcode.KindNamed("groups"), Key: n, Fields: map[string]any{"members": groups[n]}}
		for _, b := range builtin {
			if b == n {
				d.Builtin = "built in"
			}
		}
		l.Docs["groups"] = append(l.Docs["groups"], d)
	}
	return l
}

func TestGroupNamed(t *testing.T) {
	live := liveGroups(map[string]map[string]any{"support": {}, "Ops": {}, "ops": {}, "admin": {}, "finance": {}}, "admin")
	byName := map[string]*orgcode.Doc{}
	var names []string
	for _, d := range live.Docs["groups"] {
		byName[d.Key] = d
		names = append(names, d.Key)
	}
	for _, tc := range []struct{ value, key, why string }{
		{"support", "support", ""},
		{"Support", "support", ""},
		{"ops", "ops", ""}, // exact wins over the one differing in case
		{"OPS", "", `"OPS" names 2 groups but for case ("Ops", "ops"): name one exactly`},
		{"admin", "", "built in, which users sync never governs"},
		{"finanse", "", `no group named "finanse"; did you mean finance?`},
		{"zzz", "", `no group named "zzz" (create it first`},
	} {
		g, why := groupNamed(byName, names, tc.value)
		key := ""
		if g != nil {
			key = g.Key
		}
		if key != tc.key || !strings.HasPrefix(why, tc.why) || (tc.why == "") != (why == "") {
			t.Errorf("%q: %q, %q; want %q, %q", tc.value, key, why, tc.key, tc.why)
		}
	}
}

// A group column governs the groups its rows name: each row's user is in
// the group the row names and in no other governed group; members the file
// does not cover, and groups no row names, stay as they are.
func TestGovernGroups(t *testing.T) {
	live := liveGroups(map[string]map[string]any{
		"finance": {"ana@x": "member", "old@x": "admin", "kept@x": "member"},
		"ops":     {"Dev@x": "admin", "ana@x": "member"},
		"legal":   {"ana@x": "member"},
	})
	rows := []hrGroup{{"ana@x", "Finance", 2}, {"dev@x", "ops", 3}, {"new@x", "finance", 4}, {"old@x", "", 5}}
	files := &orgcode.Files{Docs: map[string][]*orgcode.Doc{}}
	if err := governGroups(files, live, rows, "hr.csv", "dept"); err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for _, d := range files.Docs["groups"] {
		got[d.Key] = d.Fields["members"]
		if d.File != "hr.csv" {
			t.Errorf("%s is from %q", d.Key, d.File)
		}
	}
	want := map[string]any{
		// ana's row names it; new@x joins as a member; old@x's row names
		// none: out; kept@x is in no row: stays
		"finance": map[string]any{"ana@x": "member", "new@x": "member", "kept@x": "member"},
		// dev keeps their role; ana's row names finance: out of ops
		"ops": map[string]any{"dev@x": "admin"},
		// no row names legal: its document changes nothing
		"legal": nil,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("groups %v\nwant %v", got, want)
	}
	for _, d := range files.Docs["groups"] {
		if d.Key == "finance" && d.Line != 2 {
			t.Errorf("finance is said to come from line %d, want 2 (the first row naming it)", d.Line)
		}
	}
	err := governGroups(&orgcode.Files{Docs: map[string][]*orgcode.Doc{}}, live, []hrGroup{{"a@x", "nope", 2}, {"b@x", "nope", 3}, {"c@x", "leagl", 4}}, "hr.csv", "dept")
	if err == nil || strings.Count(err.Error(), `no group named "nope"`) != 1 || !strings.Contains(err.Error(), "hr.csv:4: dept: no group named \"leagl\"; did you mean legal?") {
		t.Errorf("unknown groups, each said once: %v", err)
	}
}

func TestLossVerb(t *testing.T) {
	a, b := &access.User{Email: "a@x"}, &access.User{Email: "B@x"}
	for _, tc := range []struct {
		users    []*access.User
		disabled []string
		want     string
	}{
		{[]*access.User{a}, nil, "demote"},
		{[]*access.User{a, b}, []string{"a@x", "b@x"}, "disable"},
		{[]*access.User{a, b}, []string{"b@x"}, "disable or demote"},
	} {
		if got := lossVerb(tc.users, tc.disabled); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.disabled, got, tc.want)
		}
	}
}

func TestPlanAgainKeepsWhatNarrowedThePlan(t *testing.T) {
	for _, tc := range []struct {
		saved orgcode.Saved
		want  string
	}{
		{orgcode.Saved{Dir: "org"}, "orgctl plan --dir org --out p.plan"},
		{orgcode.Saved{Dir: "org", Only: []string{"groups", "grants"}, Prune: true}, "orgctl plan --dir org --out p.plan --only groups,grants --prune"},
	} {
		if got := planAgain(&tc.saved, "p.plan"); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
}

func TestWorst(t *testing.T) {
	job, blocked := errors.New("job"), errors.New("blocked")
	if worst(job, blocked) != job || worst(nil, blocked) != blocked || worst(nil, nil) != nil {
		t.Error("the job's error comes first, then the blocked changes'")
	}
}
