package orgcode

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/ratebudget"
)

// savedRoundTrip plans files against live, saves the plan and loads it.
func savedRoundTrip(t *testing.T, files map[string]string, live *Live) *Saved {
	t.Helper()
	f, err := ReadDir(context.Background(), writeFiles(t, files))
	if err != nil {
		t.Fatal(err)
	}
	return saveAndLoad(t, Diff(f, live, Everything(), false, ratebudget.DefaultConfig()))
}

// saveAndLoad saves p as plan --out does and loads it back.
func saveAndLoad(t *testing.T, p *Plan) *Saved {
	t.Helper()
	b, err := p.Save("https://org.example", "org", nil, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadPlan("org.plan", b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func opsGroup(access string, members map[string]any) *Doc {
	return &Doc{Kind: KindNamed("groups"), Key: "ops", ID: "7", Fields: map[string]any{"universal_app_access": access, "members": members}}
}

func ada() *Doc {
	return &Doc{Kind: KindNamed("users"), Key: "ada@x.example", ID: "user_1", Fields: map[string]any{"first_name": "Ada", "active": true}}
}

func TestSavedPlanAppliesOnlyWhatIsLeft(t *testing.T) {
	files := map[string]string{"groups/ops.yaml": "name: ops\nuniversal_app_access: edit\nmembers:\n  ada@x.example: admin\n"}
	s := savedRoundTrip(t, files, liveOf(ada(), opsGroup("use", map[string]any{})))
	if len(s.Changes) != 1 || len(s.Changes[0].Fields) != 2 {
		t.Fatalf("saved = %+v, want one update of two fields", s.Changes)
	}
	budget := ratebudget.DefaultConfig()

	// unchanged since: the whole change
	p, done, err := s.Replan(liveOf(ada(), opsGroup("use", map[string]any{})), nil, budget)
	if err != nil || done != 0 || len(p.Changes) != 1 || len(p.Changes[0].Fields) != 2 || len(p.Steps) != 2 {
		t.Fatalf("unchanged: %+v done %d err %v; want both fields, two steps", p, done, err)
	}
	// an earlier run made the access change, not the membership: one step left
	p, _, err = s.Replan(liveOf(ada(), opsGroup("edit", map[string]any{})), nil, budget)
	if err != nil || len(p.Steps) != 1 || p.Steps[0].What != "add members" {
		t.Fatalf("half made: %+v err %v; want only the members step", p, err)
	}
	// all made
	p, done, err = s.Replan(liveOf(ada(), opsGroup("edit", map[string]any{"ada@x.example": "admin"})), nil, budget)
	if err != nil || done != 1 || !p.Empty() {
		t.Fatalf("all made: %+v done %d err %v", p, done, err)
	}
	// someone else changed a field the plan changes, or one it does not
	for name, live := range map[string]*Live{
		"planned field": liveOf(ada(), opsGroup("own", map[string]any{})),
		"new member":    liveOf(ada(), opsGroup("use", map[string]any{"bo@x.example": "member"})),
		"deleted":       liveOf(ada()),
	} {
		_, _, err := s.Replan(live, nil, budget)
		var cs Conflicts
		if !errors.As(err, &cs) || len(cs) != 1 || cs[0].Key != "ops" {
			t.Errorf("%s: err = %v, want one conflict on ops", name, err)
		}
	}
}

func TestSavedPlanGrantsReadOnlyTheirObjects(t *testing.T) {
	files := map[string]string{"grants/group/ops.yaml": "subject: group:ops\nfolders:\n  app:/Finance: use\n  app:/Ops: edit\n"}
	grants := KindNamed("grants")
	live := liveOf(opsGroup("use", map[string]any{}),
		&Doc{Kind: grants, Key: "group:ops", Fields: map[string]any{"folders": map[string]any{"app:/Ops": "edit"}, "apps": map[string]any{}}})
	s := savedRoundTrip(t, files, live)
	r := s.Reading()
	if !r.readsAccessList("folders", "app:/Finance") || r.readsAccessList("folders", "app:/Ops") || r.readsAccessList("apps", "Lookup") {
		t.Errorf("the saved plan changes only app:/Finance's grants, and reads access lists %v", r.access)
	}
	// read again: only app:/Finance's access list, where ops has nothing yet
	fresh := liveOf(opsGroup("use", map[string]any{}))
	fresh.setID("folders", "app:/Finance", "app_3")
	p, _, err := s.Replan(fresh, nil, ratebudget.DefaultConfig())
	if err != nil || len(p.Steps) != 1 || p.Steps[0].What != "grant" {
		t.Fatalf("%+v %v: want one grant", p, err)
	}
	fresh.Docs["grants"] = []*Doc{{Kind: grants, Key: "group:ops", Fields: map[string]any{"folders": map[string]any{"app:/Finance": "own"}, "apps": map[string]any{}}}}
	if _, _, err := s.Replan(fresh, nil, ratebudget.DefaultConfig()); err == nil || !strings.Contains(err.Error(), `folders.app:/Finance is "own", not absent as planned`) {
		t.Errorf("a grant made by hand since: err = %v", err)
	}
}

func TestLoadPlanRefusesWhatIsNotOne(t *testing.T) {
	for name, body := range map[string]string{
		"not json":   "subject: group:ops\n",
		"no format":  `{"changes":[]}`,
		"other":      `{"format":"orgctl-plan/9","changes":[]}`,
		"bad kind":   `{"format":"orgctl-plan/1","changes":[{"kind":"widgets","key":"w","action":"create","desired":{}}]}`,
		"no desired": `{"format":"orgctl-plan/1","changes":[{"kind":"groups","key":"g","action":"create"}]}`,
		"bad action": `{"format":"orgctl-plan/1","changes":[{"kind":"groups","key":"g","action":"rename","desired":{}}]}`,
	} {
		if _, err := LoadPlan("p", []byte(body)); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}

func TestRisks(t *testing.T) {
	groups := KindNamed("groups")
	p := &Plan{Changes: []Change{
		{Kind: "users", Key: "a", Action: Create, Fields: []FieldChange{{Field: "admin", New: true, HasNew: true}}},
		{Kind: "users", Key: "b", Action: Update, Fields: []FieldChange{{Field: "admin", Old: true, New: false, HasOld: true, HasNew: true}}},
		{Kind: "groups", Key: "g", Action: Create, Fields: []FieldChange{{Field: "universal_app_access", New: "none", HasNew: true}}},
		{Kind: "groups", Key: "h", Action: Update, Fields: []FieldChange{
			{Field: "universal_app_access", Old: "use", New: "edit", HasOld: true, HasNew: true},
			{Field: "universal_resource_access", Old: "own", New: "use", HasOld: true, HasNew: true},
			// a level the live org left unset is none: setting none raises nothing
			{Field: "universal_query_library_access", Old: "", New: "none", HasOld: true, HasNew: true},
			{Field: "members.x", Old: "member", HasOld: true},
			{Field: "members.y", New: "member", HasNew: true}}},
		{Kind: "groups", Key: "old", Action: Delete, live: &Doc{Kind: groups}},
	}}
	got := p.RiskCounts()
	want := map[Risk]int{RiskNewAdmin: 1, RiskUniversal: 1, RiskMemberRemoved: 1, RiskDelete: 1}
	if len(got) != len(want) {
		t.Fatalf("risks = %v, want %v", got, want)
	}
	for r, n := range want {
		if got[r] != n {
			t.Errorf("%s: %d, want %d (all %v)", r, got[r], n, got)
		}
	}
}

func TestSavedCreateBindsToThisPlansRuns(t *testing.T) {
	files := map[string]string{
		"groups/beta.yaml": "name: beta\nuniversal_app_access: use\n",
		"groups/solo.yaml": "name: solo\n",
	}
	s := savedRoundTrip(t, files, liveOf())
	budget := ratebudget.DefaultConfig()
	beta := &Doc{Kind: KindNamed("groups"), Key: "beta", ID: "8", Fields: map[string]any{"universal_app_access": "own"}}
	solo := &Doc{Kind: KindNamed("groups"), Key: "solo", ID: "9", Fields: map[string]any{"universal_app_access": "none"}}

	// made by someone else since the plan: both named, even solo, which
	// the plan would leave as it is
	_, _, err := s.Replan(liveOf(beta, solo), nil, budget)
	var cs Conflicts
	if !errors.As(err, &cs) || len(cs) != 2 || cs[0].What != "created since the plan" || cs[1].Key != "solo" {
		t.Fatalf("err = %v, want beta and solo created since the plan", err)
	}
	// made by an earlier run of this plan: solo is done, beta's create
	// went through and is as planned once its access is "use"
	earlier := Earlier{"create groups beta": true, "create groups solo": true}
	p, done, err := s.Replan(liveOf(beta, solo), earlier, budget)
	if err != nil || done != 1 || len(p.Changes) != 1 || p.Changes[0].Key != "beta" || p.Changes[0].Action != Update {
		t.Fatalf("earlier run: %+v done %d err %v; want beta's access left, solo done", p, done, err)
	}
	// not there: both created, solo with no field at all
	p, _, err = s.Replan(liveOf(), nil, budget)
	if err != nil || len(p.Steps) != 2 {
		t.Fatalf("fresh: %+v err %v; want two creates", p, err)
	}
}

func TestSavedDeleteOfAGoneObject(t *testing.T) {
	old := &Doc{Kind: KindNamed("groups"), Key: "old", ID: "3", Fields: map[string]any{}}
	f, err := ReadDir(context.Background(), writeFiles(t, map[string]string{"groups/.keep": ""}))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := ReadingFor(f, nil)
	s := saveAndLoad(t, Diff(f, liveOf(old), r, true, ratebudget.DefaultConfig()))
	if len(s.Changes) != 1 || s.Changes[0].Action != Delete {
		t.Fatalf("%+v: want one delete", s)
	}
	if _, _, err := s.Replan(liveOf(), nil, ratebudget.DefaultConfig()); err == nil || !strings.Contains(err.Error(), "groups old: deleted since the plan") {
		t.Errorf("deleted by someone else: err = %v", err)
	}
	if p, done, err := s.Replan(liveOf(), Earlier{"delete groups old": true}, ratebudget.DefaultConfig()); err != nil || done != 1 || !p.Empty() {
		t.Errorf("deleted by an earlier run: %+v done %d err %v", p, done, err)
	}
}

func TestMissingAppBlocksOnlyItsFields(t *testing.T) {
	files := map[string]string{
		"groups/ops.yaml":        "name: ops\nuniversal_app_access: use\nlanding_page_app: Lookup\n",
		"grants/group/ops.yaml":  "subject: group:ops\nfolders:\n  app:/Ops: use\napps:\n  Lookup: edit\n  Here: use\n",
		"grants/group/only.yaml": "subject: group:ops2\napps:\n  Lookup: own\n",
		"groups/ops2.yaml":       "name: ops2\n",
	}
	f, err := ReadDir(context.Background(), writeFiles(t, files))
	if err != nil {
		t.Fatal(err)
	}
	live := liveOf()
	live.Apps["Here"] = "app_9"
	live.setID("folders", "app:/Ops", "f_1")
	if err := Check(f, live, Everything()); err != nil {
		t.Fatalf("a missing app is no problem of the files: %v", err)
	}
	p := Diff(f, live, Everything(), false, ratebudget.DefaultConfig())
	var blocked []string
	for _, b := range p.Blocked {
		blocked = append(blocked, b.Kind+" "+b.Key+" "+b.Field+" "+b.Needs)
	}
	want := `groups ops landing_page_app app "Lookup"|grants group:ops apps.Lookup app "Lookup"|grants group:ops2 apps.Lookup app "Lookup"`
	if got := strings.Join(blocked, "|"); got != want {
		t.Errorf("blocked = %s\nwant      %s", got, want)
	}
	var steps []string
	for _, s := range p.Steps {
		steps = append(steps, s.Describe())
	}
	// ops2's only grant is blocked: no change of its grants is left
	wantSteps := "create groups ops|create groups ops2|grant grants group:ops folder:app:/Ops|grant grants group:ops app:Here"
	if got := strings.Join(steps, "|"); got != wantSteps {
		t.Errorf("steps = %s\nwant    %s", got, wantSteps)
	}
	// the group's create leaves the landing page out
	for _, s := range p.Steps {
		if s.Describe() == "create groups ops" {
			live.setID("users", "x", "u")
			req, err := s.Request(live)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := req.Body.(map[string]any)["landing_page_app_id"]; ok {
				t.Errorf("create sends a landing page: %v", req.Body)
			}
		}
	}
	// a saved plan carries them, and its apply sends none of them
	again, _, err := saveAndLoad(t, p).Replan(live, nil, ratebudget.DefaultConfig())
	if err != nil || len(again.Blocked) != 3 || len(again.Steps) != 4 {
		t.Fatalf("saved: %d blocked, %d steps, err %v; want 3 and 4", len(again.Blocked), len(again.Steps), err)
	}
}
