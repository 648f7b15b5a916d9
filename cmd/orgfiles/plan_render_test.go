package orgfiles

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/orgcode"
	"github.com/orgctl/orgctl/ratebudget"
)

// plainPlan is a plan of a few changes, each with a step (a plan without
// steps has nothing to do).
func plainPlan() *orgcode.Plan {
	p := &orgcode.Plan{
		Changes: []orgcode.Change{
			{Kind: "users", Key: "ana@x", Action: orgcode.Update, Fields: []orgcode.FieldChange{
				{Field: "first_name", Old: "Ana", New: "Anna", HasOld: true, HasNew: true},
				{Field: "admin", Old: false, New: true, HasOld: true, HasNew: true},
			}},
			{Kind: "groups", Key: "support", Action: orgcode.Update, Fields: []orgcode.FieldChange{
				{Field: "members.cy@x", Old: "member", HasOld: true},
				{Field: "universal_app_access", Old: "use", New: "edit", HasOld: true, HasNew: true},
				{Field: "universal_resource_access", Old: "edit", New: "use", HasOld: true, HasNew: true},
			}},
			{Kind: "groups", Key: "ops", Action: orgcode.Create, Fields: []orgcode.FieldChange{{Field: "universal_app_access", New: "use", HasNew: true}}},
			{Kind: "users", Key: "gone@x", Action: orgcode.Delete, Note: "disabled: the API keeps a user's record"},
			{Kind: "grants", Key: "group/support", Action: orgcode.Delete},
		},
		Requests: 6, Points: 22, ReadRequests: 3, ReadPoints: 12,
	}
	for range p.Changes {
		p.Steps = append(p.Steps, &orgcode.Step{})
	}
	return p
}

func TestSummary(t *testing.T) {
	for _, tc := range []struct {
		name string
		plan *orgcode.Plan
		want string
	}{
		{"nothing", &orgcode.Plan{}, "No changes: the org matches the files."},
		{"nothing but objects in no file", &orgcode.Plan{Unmanaged: []orgcode.Unmanaged{{Kind: "users", Key: "a@x"}}},
			"No changes to the objects the files hold; 1 live object is in no file (listed below)."},
		{"two in no file", &orgcode.Plan{Unmanaged: []orgcode.Unmanaged{{Kind: "users", Key: "a@x"}, {Kind: "groups", Key: "g"}}},
			"No changes to the objects the files hold; 2 live objects are in no file (listed below)."},
		{"changes", plainPlan(), "Plan: 1 to create, 2 to change, 2 to delete."},
		{"only blocked ones", &orgcode.Plan{Blocked: []orgcode.Blocked{{Kind: "grants", Key: "group/x"}}}, "Plan: 0 to create, 0 to change, 0 to delete, 1 blocked."},
	} {
		if got := summary(tc.plan); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestRiskLineCountsEachRiskOnce(t *testing.T) {
	n, what := riskLine(plainPlan())
	// ana made admin; cy removed from support; support's app access
	// raised (its resource access lowered is no risk) and ops made with
	// some; gone@x deleted (a grant's delete is a revoke, no delete risk)
	if n != 5 || what != "1 new admin, 1 member removed, 1 delete, 2 universal accesses raised" {
		t.Errorf("%d, %q", n, what)
	}
}

func TestRiskLineWordsMany(t *testing.T) {
	p := &orgcode.Plan{Changes: []orgcode.Change{
		{Kind: "users", Key: "a@x", Action: orgcode.Delete},
		{Kind: "users", Key: "b@x", Action: orgcode.Delete},
		{Kind: "users", Key: "c@x", Action: orgcode.Create, Fields: []orgcode.FieldChange{{Field: "admin", New: true, HasNew: true}}},
		{Kind: "users", Key: "d@x", Action: orgcode.Create, Fields: []orgcode.FieldChange{{Field: "admin", New: true, HasNew: true}}},
		{Kind: "groups", Key: "g", Action: orgcode.Update, Fields: []orgcode.FieldChange{
			{Field: "members.a@x", Old: "member", HasOld: true}, {Field: "members.b@x", Old: "admin", HasOld: true},
			{Field: "universal_workflow_access", New: "own", HasNew: true}, {Field: "universal_app_access", Old: "none", New: "use", HasOld: true, HasNew: true}}},
	}}
	n, what := riskLine(p)
	if n != 8 || what != "2 new admins, 2 members removed, 2 deletes, 2 universal accesses raised" {
		t.Errorf("%d, %q", n, what)
	}
}

func TestKindLine(t *testing.T) {
	for _, tc := range []struct {
		m    map[orgcode.Action]int
		want string
	}{
		{map[orgcode.Action]int{orgcode.Delete: 2, orgcode.Create: 1}, "1 to create, 2 to delete"},
		{map[orgcode.Action]int{orgcode.Update: 3}, "3 to change"},
		{map[orgcode.Action]int{}, ""},
	} {
		if got := kindLine(tc.m); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.m, got, tc.want)
		}
	}
}

func TestFieldText(t *testing.T) {
	for _, tc := range []struct {
		fc         orgcode.FieldChange
		sign, text string
	}{
		{orgcode.FieldChange{Field: "first_name", Old: "Ana", New: "Anna", HasOld: true, HasNew: true}, "~", `first_name: "Ana" -> "Anna"`},
		{orgcode.FieldChange{Field: "members.ana@x", New: "admin", HasNew: true}, "+", `members.ana@x: "admin"`},
		{orgcode.FieldChange{Field: "members.ana@x", Old: "member", HasOld: true}, "-", `members.ana@x: "member"`},
		// a value set to false or nothing is still a change of value
		{orgcode.FieldChange{Field: "admin", Old: true, New: false, HasOld: true, HasNew: true}, "~", "admin: true -> false"},
		{orgcode.FieldChange{Field: "description", Old: "x", New: nil, HasOld: true, HasNew: true}, "~", `description: "x" -> null`},
		{orgcode.FieldChange{Field: "attributes", New: map[string]any{"b": 1, "a": "x"}, HasNew: true}, "+", `attributes: {"a":"x","b":1}`},
		// what JSON cannot show is shown as Go prints it
		{orgcode.FieldChange{Field: "odd", New: func() {}, HasNew: true}, "+", "odd: "},
	} {
		if s, text := fieldSign(tc.fc), fieldText(tc.fc); s != tc.sign || !strings.HasPrefix(text, tc.text) {
			t.Errorf("%+v: %s %q, want %s %q", tc.fc, s, text, tc.sign, tc.text)
		}
	}
}

func TestListSome(t *testing.T) {
	vs := []string{"a", "b", "c", "d", "e", "f", "g"}
	for n, want := range map[int]string{7: "a, b, c, d, e, f, g", 10: "a, b, c, d, e, f, g", 5: "a, b, c, d, e and 2 more", 1: "a and 6 more"} {
		if got := listSome(vs, n); got != want {
			t.Errorf("listSome(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestWritePlan(t *testing.T) {
	var b bytes.Buffer
	writePlan(&b, plainPlan(), ratebudget.DefaultConfig(), false)
	got := b.String()
	for _, want := range []string{
		"Plan: 1 to create, 2 to change, 2 to delete.\n",
		"  users            1 to change, 1 to delete\n",
		"  groups           1 to create, 1 to change\n",
		"  grants           1 to delete\n",
		"Risky: 1 new admin, 1 member removed, 1 delete, 2 universal accesses raised (marked ! below).\n",
		"Cost: the read took 3 requests, 12 points; the changes are 6 requests, 22 points",
		"\nusers:\n  ~ update ana@x\n      ~ first_name: \"Ana\" -> \"Anna\"\n      ~ admin: false -> true  ! new admin\n",
		"  - delete gone@x (disabled: the API keeps a user's record)  ! delete\n",
		"      - members.cy@x: \"member\"  ! member removed\n",
		"      ~ universal_app_access: \"use\" -> \"edit\"  ! universal access raised\n",
		"      ~ universal_resource_access: \"edit\" -> \"use\"\n",
		"  + create ops\n      + universal_app_access: \"use\"  ! universal access raised\n",
		"\ngrants:\n  - delete group/support\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the plan lacks %q:\n%s", want, got)
		}
	}
	// kinds in the model's order, whatever the changes' order
	at := -1
	for _, k := range orgcode.Kinds() {
		if i := strings.Index(got, "\n"+k.Name+":\n"); i >= 0 {
			if i < at {
				t.Errorf("%s is not in the model's order of kinds:\n%s", k.Name, got)
			}
			at = i
		}
	}
	if strings.Contains(got, "\x1b[") {
		t.Errorf("colour without a colour terminal:\n%s", got)
	}
	b.Reset()
	writePlan(&b, plainPlan(), ratebudget.DefaultConfig(), true)
	if !strings.Contains(b.String(), "\x1b[") {
		t.Errorf("no colour on a colour terminal:\n%s", b.String())
	}
}

func TestWritePlanShowsHostileNamesSafely(t *testing.T) {
	p := &orgcode.Plan{Changes: []orgcode.Change{{Kind: "groups", Key: "evil\x1b]52;c;aGk=\x07", Action: orgcode.Create, Note: "n\x1b[2J",
		Fields: []orgcode.FieldChange{{Field: "description", New: "\x1b[31mred", HasNew: true}}}}, Steps: []*orgcode.Step{{}}}
	var b bytes.Buffer
	writePlan(&b, p, ratebudget.DefaultConfig(), false)
	if strings.ContainsAny(b.String(), "\x1b\x07") {
		t.Errorf("an escape sequence reached the terminal: %q", b.String())
	}
}

func unmanaged(kind string, n int) []orgcode.Unmanaged {
	var out []orgcode.Unmanaged
	for i := range n {
		out = append(out, orgcode.Unmanaged{Kind: kind, Key: fmt.Sprintf("%s%02d", kind, i)})
	}
	return out
}

// A few unmanaged objects per kind are named, then counted; never "and 1
// more", which takes the line the one would.
func TestUnmanagedAreCappedPerKind(t *testing.T) {
	for _, tc := range []struct {
		n     int
		named int
		more  string
	}{
		{5, 5, ""}, {6, 6, ""}, {7, 5, "and 2 more"}, {40, 5, "and 35 more"},
	} {
		p := plainPlan()
		p.Unmanaged = append(unmanaged("users", tc.n), orgcode.Unmanaged{Kind: "groups", Key: "admin", Note: orgcode.NoteBuiltin})
		var b bytes.Buffer
		writePlan(&b, p, ratebudget.DefaultConfig(), false)
		got := b.String()
		if n := strings.Count(got, "\n  users users"); n != tc.named {
			t.Errorf("%d unmanaged: %d named, want %d:\n%s", tc.n, n, tc.named, got)
		}
		if tc.more != "" && !strings.Contains(got, "  users: "+tc.more+" (-o json lists them all)\n") || tc.more == "" && strings.Contains(got, "more (-o json") {
			t.Errorf("%d unmanaged: want %q:\n%s", tc.n, tc.more, got)
		}
		if !strings.Contains(got, "  groups admin (built in: never deleted)\n") {
			t.Errorf("the built-in group's note is not shown:\n%s", got)
		}
		if !strings.Contains(got, fmt.Sprintf("Unmanaged: %d live objects are in no file (not counted as changes; --prune deletes them; listed below).", tc.n+1)) {
			t.Errorf("the summary's unmanaged line:\n%s", got)
		}
		var md bytes.Buffer
		writeMarkdown(&md, p, ratebudget.DefaultConfig())
		mdWant := fmt.Sprintf("users (%d): ", tc.n)
		if !strings.Contains(md.String(), mdWant) || strings.Count(md.String(), "users0") != tc.named ||
			tc.more != "" && !strings.Contains(md.String(), tc.more+"; groups (1): admin.") {
			t.Errorf("markdown, %d unmanaged:\n%s", tc.n, md.String())
		}
	}
}

func TestPruneSaysWhatItLeaves(t *testing.T) {
	p := plainPlan()
	p.Prune = true
	p.Unmanaged = []orgcode.Unmanaged{{Kind: "users", Key: "gone@x"}, {Kind: "groups", Key: "admin", Note: orgcode.NoteBuiltin}, {Kind: "groups", Key: "All Users", Note: orgcode.NoteBuiltin}}
	var b bytes.Buffer
	writePlan(&b, p, ratebudget.DefaultConfig(), false)
	for _, want := range []string{
		"Unmanaged: 3 live objects are in no file (this plan deletes them but 2 built-in objects, which prune leaves; listed below).",
		"\nunmanaged (live, in no file; this plan deletes them but 2 built-in objects, which prune leaves):\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("lacks %q:\n%s", want, b.String())
		}
	}
}

// A prune deletes what the plan has a delete for; what it leaves (a user
// already disabled, a built-in group, the org's own settings) the plan
// must not say it deletes, in any of its forms.
func TestPruneNeverClaimsToDeleteWhatItLeaves(t *testing.T) {
	for _, tc := range []struct {
		name      string
		changes   []orgcode.Change
		unmanaged []orgcode.Unmanaged
		want      string
	}{
		{"everything deleted", []orgcode.Change{{Kind: "users", Key: "a@x", Action: orgcode.Delete}},
			[]orgcode.Unmanaged{{Kind: "users", Key: "a@x"}}, "this plan deletes them"},
		{"a disabled user beside one deleted", []orgcode.Change{{Kind: "users", Key: "a@x", Action: orgcode.Delete}},
			[]orgcode.Unmanaged{{Kind: "users", Key: "a@x"}, {Kind: "users", Key: "old@x", Note: "disabled"}},
			"this plan deletes them but 1 user already disabled, which prune leaves"},
		{"nothing deleted", nil,
			[]orgcode.Unmanaged{{Kind: "users", Key: "old@x", Note: "disabled"}, {Kind: "groups", Key: "admin", Note: orgcode.NoteBuiltin},
				{Kind: "organization", Key: "organization", Note: "the org's own: never deleted"}},
			"prune leaves them: 1 built-in object, 1 user already disabled, 1 object of the org's own"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &orgcode.Plan{Prune: true, Changes: tc.changes, Unmanaged: tc.unmanaged}
			for range tc.changes {
				p.Steps = append(p.Steps, &orgcode.Step{})
			}
			if got := pruned(p); got != tc.want {
				t.Errorf("pruned = %q, want %q", got, tc.want)
			}
			var b, md bytes.Buffer
			writePlan(&b, p, ratebudget.DefaultConfig(), false)
			writeMarkdown(&md, p, ratebudget.DefaultConfig())
			if !strings.Contains(b.String(), "\nunmanaged (live, in no file; "+tc.want+"):\n") {
				t.Errorf("the unmanaged heading:\n%s", b.String())
			}
			if !p.Empty() && !strings.Contains(b.String(), "in no file ("+tc.want+"; listed below).") {
				t.Errorf("the summary:\n%s", b.String())
			}
			if !strings.Contains(md.String(), "in no file ("+tc.want+"):") {
				t.Errorf("the markdown:\n%s", md.String())
			}
		})
	}
}

func TestBlockedAreListedWithWhatTheyNeedOnce(t *testing.T) {
	p := plainPlan()
	p.Blocked = []orgcode.Blocked{
		{Kind: "grants", Key: "group/support", Field: "apps.Refund Console", New: "use", Needs: `app "Refund Console"`, Reason: "apps reach a Space through source control"},
		{Kind: "grants", Key: "group/ops", Field: "apps.Refund Console", New: "edit", Needs: `app "Refund Console"`, Reason: "apps reach a Space through source control"},
		{Kind: "groups", Key: "ops", Field: "landing_page", New: "Lookup", Needs: `app "Lookup"`, Reason: "landing pages are apps"},
	}
	if got := blockedNeeds(p); !reflect.DeepEqual(got, [][2]string{{`app "Refund Console"`, "apps reach a Space through source control"}, {`app "Lookup"`, "landing pages are apps"}}) {
		t.Errorf("needs %v", got)
	}
	var b bytes.Buffer
	writePlan(&b, p, ratebudget.DefaultConfig(), false)
	got := b.String()
	for _, want := range []string{
		"Plan: 1 to create, 2 to change, 2 to delete, 3 blocked.\n",
		"Blocked: 3 changes need what this org lacks and this API cannot create (listed below).\n",
		"\nblocked (apply sends the rest; plan again once what they need is there):\n",
		"  ! grants group/support apps.Refund Console: \"use\"  needs app \"Refund Console\"\n",
		"  (app \"Refund Console\": apps reach a Space through source control)\n  (app \"Lookup\": landing pages are apps)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	var md bytes.Buffer
	writeMarkdown(&md, p, ratebudget.DefaultConfig())
	for _, want := range []string{
		"<details open><summary>Blocked (apply sends the rest; plan again once what they need is there)</summary>",
		"| grants | group/support | apps.Refund Console | `\"use\"` | app &quot;Refund Console&quot; |\n",
		"- app &quot;Lookup&quot;: landing pages are apps\n",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	if one := (&orgcode.Plan{Blocked: p.Blocked[:1]}); blockedLine(one) != "Blocked: 1 change needs what this org lacks and this API cannot create (listed below)." {
		t.Errorf("one blocked: %q", blockedLine(one))
	}
}

func TestWriteMarkdown(t *testing.T) {
	var b bytes.Buffer
	writeMarkdown(&b, plainPlan(), ratebudget.DefaultConfig())
	got := b.String()
	for _, want := range []string{
		"### orgctl plan\n\n**Plan: 1 to create, 2 to change, 2 to delete.**\n\n",
		"| Kind | Create | Change | Delete |\n|:--|--:|--:|--:|\n",
		"| users | 0 | 1 | 1 |\n",
		"| groups | 1 | 1 | 0 |\n",
		"> [!WARNING]\n> **Risky changes:** 1 new admin, 1 member removed, 1 delete, 2 universal accesses raised.\n",
		"| ~ | users | ana@x | first_name | `\"Ana\"` | `\"Anna\"` |  |\n",
		"| ~ | users | ana@x | admin | `false` | `true` | new admin |\n",
		// a change without fields is one row with its note; a risky one
		// has a row of its own before its fields
		"| - | users | gone@x | disabled: the API keeps a user's record |  |  | delete |\n",
		"| - | groups | support | members.cy@x | `\"member\"` |  | member removed |\n",
		"| + | groups | ops | universal_app_access |  | `\"use\"` | universal access raised |\n",
		"Cost: the read took 3 requests, 12 points; the changes are 6 requests, 22 points",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("markdown lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "[!CAUTION]") || strings.Contains(got, "Unmanaged") {
		t.Errorf("a caution or unmanaged line for a plan with neither:\n%s", got)
	}
	b.Reset()
	writeMarkdown(&b, &orgcode.Plan{}, ratebudget.DefaultConfig())
	if got := b.String(); strings.Contains(got, "| Kind |") || strings.Contains(got, "<details") || !strings.Contains(got, "**No changes: the org matches the files.**") {
		t.Errorf("an empty plan:\n%s", got)
	}
}

// The built-in groups and the admins a plan disables are said in words,
// with the --only that leaves people alone.
func TestBuiltinWarnings(t *testing.T) {
	p := &orgcode.Plan{Changes: []orgcode.Change{
		{Kind: "groups", Key: "All Users", Action: orgcode.Update, Fields: []orgcode.FieldChange{
			{Field: "members.b@x", Old: "member", HasOld: true}, {Field: "members.a@x", Old: "member", HasOld: true}, {Field: "members.n@x", New: "member", HasNew: true}}},
		{Kind: "groups", Key: "admin", Action: orgcode.Update, Fields: []orgcode.FieldChange{{Field: "members.boss@x", Old: "member", HasOld: true}}},
		{Kind: "groups", Key: "support", Action: orgcode.Update, Fields: []orgcode.FieldChange{{Field: "members.c@x", Old: "member", HasOld: true}}},
	}}
	got := builtinWarnings(p)
	only := "--only " + strings.Join(orgcode.KindsBut("users", "groups"), ",")
	want := []string{
		"this plan removes 1 member from the built-in group admin (boss@x): they lose their admin rights; apply refuses to remove the API token's own user or the org's last admin.",
		"this plan removes 2 members from the built-in group All Users (a@x, b@x): they lose what All Users is granted.",
		"To leave this org's people as they are (a promotion from another Space usually should), plan with " + only + ".",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Contains(only, "users") || strings.Contains(only, "groups") || !strings.Contains(only, "grants") {
		t.Errorf("the --only leaves people in: %s", only)
	}
	if w := builtinWarnings(plainPlan()); len(w) != 0 {
		t.Errorf("warnings for a plan that touches no built-in group: %v", w)
	}
	var b bytes.Buffer
	writeMarkdown(&b, p, ratebudget.DefaultConfig())
	if !strings.Contains(b.String(), "> [!CAUTION]\n> this plan removes 1 member from the built-in group admin (boss@x)") {
		t.Errorf("markdown lacks the caution:\n%s", b.String())
	}
}

func TestMdCell(t *testing.T) {
	for in, want := range map[string]string{
		"plain":              "plain",
		"a|b":                `a\|b`,
		`back\slash`:         `back\\slash`,
		"line\r\nbreak":      "line break",
		"@team":              "@&#8203;team",
		"x @team":            "x @&#8203;team",
		"ana@example.com":    "ana@example.com",
		"#12 and #x":         "#&#8203;12 and #x",
		"a & <b>":            "a &amp; &lt;b&gt;",
		"`code`":             "\\`code\\`",
		"*bold* stays":       "*bold* stays",
		"[link](http://x.y)": `\[link\](http://x.y)`,
	} {
		if got := mdCell(in); got != want {
			t.Errorf("mdCell(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"": "", `"a|b"`: "`\"a\\|b\"`", "a`b": "`a'b`", "x\ny": "`x y`"} {
		if got := mdCode(in); got != want {
			t.Errorf("mdCode(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPlanData(t *testing.T) {
	p := plainPlan()
	p.Steps = []*orgcode.Step{{Kind: "users", Key: "ana@x", What: "update", Method: "PATCH", Path: "/users/{ana@x}"}}
	p.Unmanaged = []orgcode.Unmanaged{{Kind: "groups", Key: "admin", Note: orgcode.NoteBuiltin}, {Kind: "users", Key: "x@x"}}
	p.Blocked = []orgcode.Blocked{{Kind: "grants", Key: "group/ops", Field: "apps.X", New: "use", Needs: `app "X"`, Reason: "r"}}
	b, err := json.Marshal(planData(p))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Changes []struct {
			Kind, Key, Action string
			Note              *string
			Fields            []map[string]any
		}
		Unmanaged []map[string]any
		Blocked   []map[string]any
		Steps     []map[string]any
		Prune     bool
		Requests  int
		Points    int
		Read      int `json:"read_requests"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Changes) != 5 || got.Changes[0].Action != "update" || got.Changes[0].Note != nil || *got.Changes[3].Note == "" {
		t.Errorf("changes: %s", b)
	}
	removed := got.Changes[1].Fields[0] // members.cy@x: an old value, no new
	if _, has := removed["new"]; has || removed["old"] != "member" {
		t.Errorf("a removed field: %v", removed)
	}
	made := got.Changes[2].Fields[0]
	if _, has := made["old"]; has || made["new"] != "use" {
		t.Errorf("a new field: %v", made)
	}
	// a change with no fields still has a list, never null
	if got.Changes[3].Fields == nil || len(got.Changes[3].Fields) != 0 {
		t.Errorf("a change without fields: %s", b)
	}
	if got.Steps[0]["path"] != "/users/{ana@x}" || got.Steps[0]["step"] != "update" || got.Requests != 6 || got.Points != 22 || got.Read != 3 {
		t.Errorf("steps and totals: %s", b)
	}
	if _, has := got.Unmanaged[1]["note"]; has || got.Unmanaged[0]["note"] != orgcode.NoteBuiltin || got.Blocked[0]["needs"] != `app "X"` {
		t.Errorf("unmanaged and blocked: %s", b)
	}
	empty, _ := json.Marshal(planData(&orgcode.Plan{}))
	if !strings.Contains(string(empty), `"changes":[]`) || !strings.Contains(string(empty), `"steps":[]`) || !strings.Contains(string(empty), `"unmanaged":[]`) || !strings.Contains(string(empty), `"blocked":[]`) {
		t.Errorf("an empty plan's lists are not empty lists: %s", empty)
	}
}
