package access

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// smallOrg is an org of three users and two groups, named without a
// request: ana is in support (universal app use), dev in editor (universal
// app edit), and cy, who is disabled, in none.
func smallOrg() *Org {
	o := &Org{
		Users: []User{
			{ID: "u_ana", Email: "ana@x", Active: true},
			{ID: "u_dev", Email: "dev@x", Active: true, IsAdmin: true},
			{ID: "u_cy", Email: "cy@x"},
		},
		Groups: []Group{
			{ID: json.RawMessage("7"), Name: "support", App: "use", Members: []Member{{ID: "u_ana"}}},
			{ID: json.RawMessage(`"8"`), Name: "editor", App: "edit", Members: []Member{{ID: "u_dev"}, {ID: "u_ana"}}},
		},
		names: map[string]map[string]string{
			"app":    {"a1": "Lookup", "a2": "Refunds"},
			"folder": {"app_3": "app:/Ops", "app_9": "app:~/ana"},
		},
		Objects: map[string][]string{"app": {"a1", "a2"}, "folder": {"app_3"}},
	}
	o.userByID, o.ByEmail, o.groupByID = map[string]*User{}, map[string]*User{}, map[string]*Group{}
	for i := range o.Users {
		o.userByID[o.Users[i].ID] = &o.Users[i]
		o.ByEmail[o.Users[i].Email] = &o.Users[i]
	}
	for i := range o.Groups {
		o.groupByID[GroupID(o.Groups[i])] = &o.Groups[i]
	}
	return o
}

func lines(rows []Row, keys ...string) []string {
	var out []string
	for _, r := range rows {
		var f []string
		for _, k := range keys {
			f = append(f, r[k])
		}
		out = append(out, strings.Join(f, "|"))
	}
	return out
}

func TestOrgNames(t *testing.T) {
	o := smallOrg()
	for _, tc := range []struct{ got, want string }{
		{o.Name("app", "a1"), "Lookup"},
		{o.Name("app", "zz"), "zz"},
		{o.Name("workflow", "w1"), "w1"},
		{o.GroupName("7"), "support"},
		{o.GroupName("8"), "editor"},
		{o.GroupName("99"), "group 99"},
		{o.UserEmail("u_dev"), "dev@x"},
		{o.UserEmail("u_zz"), "u_zz"},
		{o.NameOf("groups", "7"), "support"},
		{o.NameOf("folders", "app_3"), "app:/Ops"},
		{o.NameOf("users", "u_ana"), "ana@x"},
		{o.NameOf("spaces", "s1"), "s1"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	var in []string
	for _, g := range o.GroupsOf("u_ana") {
		in = append(in, g.Name)
	}
	if strings.Join(in, ",") != "support,editor" || len(o.GroupsOf("u_cy")) != 0 {
		t.Errorf("ana is in %v, cy in %v", in, o.GroupsOf("u_cy"))
	}
}

// Read by access lists: each listed user's level and way on each object; a
// subject the user list does not hold is left out, and a user who reaches
// nothing has one row of level none.
func TestRowsFromAccessLists(t *testing.T) {
	o := smallOrg()
	reads := o.AccessListReads([]string{"app", "folder"})
	if got := lines(readRows(reads), "key", "path"); strings.Join(got, "\n") != strings.Join([]string{
		"app Lookup|/permissions/accessList/app/a1",
		"app Refunds|/permissions/accessList/app/a2",
		"folder app:/Ops|/permissions/accessList/folder/app_3",
	}, "\n") {
		t.Fatalf("reads:\n%s", strings.Join(got, "\n"))
	}
	answers := []json.RawMessage{
		json.RawMessage(`{"group":[{"subject":{"id":7,"type":"group"},"sources":{"universal":true},"accessLevel":"use"}],
		  "user":[{"subject":{"id":"u_ana","type":"user"},"sources":{"universal":true,"groups":[{"id":7}]},"accessLevel":"use"},
		          {"subject":{"id":"u_gone","type":"user"},"sources":{"direct":true},"accessLevel":"own"}]}`),
		json.RawMessage(`{"user":[{"subject":{"id":"u_dev","type":"user"},"sources":{"direct":true,"groups":[{"id":"8"}]},"accessLevel":"own"}]}`),
		json.RawMessage(`{"user":[{"subject":{"id":"u_ana","type":"user"},"sources":{"inherited":{"id":"app_3","type":"folder"}},"accessLevel":"edit"}]}`),
	}
	rows, err := o.Rows(reads, answers)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"ana@x|true|false|app|Lookup|use|universal through support",
		"ana@x|true|false|folder|app:/Ops|edit|inherited from app:/Ops",
		"cy@x|false|false|||none|",
		"dev@x|true|true|app|Refunds|own|direct; member of editor",
	}
	if got := lines(rows, "user", "active", "admin", "object_type", "object", "level", "via"); !reflect.DeepEqual(got, want) {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	answers[1] = json.RawMessage(`[]`)
	if _, err := o.Rows(reads, answers); err == nil || !strings.Contains(err.Error(), "/permissions/accessList/app/a2: unexpected answer") {
		t.Errorf("an answer that is no access list: %v", err)
	}
}

// readRows shows reads as rows, for comparing them.
func readRows(reads []Read) []Row {
	var out []Row
	for _, r := range reads {
		out = append(out, Row{"key": r.Key, "path": r.Req.Path})
	}
	return out
}

// Read by listObjects: the answers say no way, which is told from the
// user's own grants and what the user's groups reach: universal when the
// group's universal access gives at least what it reaches, else its grant.
func TestRowsFromListObjects(t *testing.T) {
	o := smallOrg()
	o.Objects["workflow"] = []string{"w1"}
	o.names["folder"]["resource_1"] = "resource:/"
	o.Objects["folder"] = append(o.Objects["folder"], "resource_1")
	reads := o.ListObjectsReads()
	// per user: effective and own of 3 types; per group: effective of 3;
	// then the workflow's access list and the roots'
	if n := len(o.Users)*3*2 + len(o.Groups)*3 + 2; len(reads) != n {
		t.Fatalf("%d reads, want %d", len(reads), n)
	}
	last := reads[len(reads)-2:]
	if last[0].Req.Path != "/permissions/accessList/workflow/w1" || last[1].Req.Path != "/permissions/accessList/folder/resource_1" {
		t.Errorf("the last reads are %s and %s, want the workflow's and the root's access lists", last[0].Req.Path, last[1].Req.Path)
	}
	for _, r := range reads[:len(reads)-2] {
		body := r.Req.Body.(map[string]any)
		subject := body["subject"].(map[string]any)
		if r.Req.Method != "POST" || r.Req.Path != "/permissions/listObjects" || body["object_type"] != r.ObjType ||
			subject["type"] != r.SubjType || (body["include_inherited_access"] == true) != r.Inherited {
			t.Errorf("%s: %s %s %v", r.Key, r.Req.Method, r.Req.Path, body)
		}
		if id, ok := subject["id"].(json.Number); r.SubjType == "group" && (!ok || id.String() != r.SubjID) {
			t.Errorf("%s: a group's id is sent as a number: %#v", r.Key, subject["id"])
		}
	}
	answer := map[string]string{
		"user u_ana effective apps":    `[{"type":"app","id":"a1","access_level":"use"},{"type":"app","id":"a2","access_level":"edit"}]`,
		"user u_ana effective folders": `[{"type":"folder","id":"app_3","access_level":"edit"},{"type":"folder","id":"app_9","access_level":"own"}]`,
		"user u_dev effective apps":    `[{"type":"app","id":"a2","access_level":"own"}]`,
		"user u_dev direct apps":       `[{"type":"app","id":"a2","access_level":"own"}]`,
		"group 7 effective apps":       `[{"type":"app","id":"a1","access_level":"use"}]`,
		"group 8 effective apps":       `[{"type":"app","id":"a2","access_level":"own"},{"type":"app","id":"a1","access_level":"edit"}]`,
		"group 8 effective folders":    `[{"type":"folder","id":"app_3","access_level":"edit"}]`,
	}
	answers := make([]json.RawMessage, len(reads))
	for i, r := range reads {
		if a, ok := answer[r.Key]; ok {
			answers[i] = json.RawMessage(a)
		} else if r.SubjType == "" {
			answers[i] = json.RawMessage(`{}`)
		} else {
			answers[i] = json.RawMessage(`[]`)
		}
	}
	rows, err := o.Rows(reads, answers)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		// support's universal use covers Lookup; editor reaches it too, at
		// its universal edit
		"ana@x|app|Lookup|use|universal through support; universal through editor",
		// editor's grant (own) is above its universal edit
		"ana@x|app|Refunds|edit|member of editor",
		// a folder's universal access is its own type's: editor's app edit
		"ana@x|folder|app:/Ops|edit|universal through editor",
		// ana's personal folder (app_9) is not in the review
		"cy@x|||none|",
		"dev@x|app|Refunds|own|direct; member of editor",
	}
	if got := lines(rows, "user", "object_type", "object", "level", "via"); !reflect.DeepEqual(got, want) {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestWhyWithoutAnySourceSaysAFolder(t *testing.T) {
	if got := why("u1", nil, "app", "a1", nil, nil); got != "inherited from a folder" {
		t.Errorf("got %q", got)
	}
}

func TestChangesMatchUsersWhateverTheirCase(t *testing.T) {
	prev := []Row{row("Ana@X", "true", "false", "app", "Lookup", "use", "direct")}
	now := []Row{row("ana@x", "true", "false", "app", "Lookup", "use", "direct")}
	if c := Changes(prev, now); len(c) != 0 {
		t.Errorf("an email in other case is the same user: %v", c)
	}
}

func TestChanges(t *testing.T) {
	for _, tc := range []struct {
		name      string
		prev, now []Row
		want      []string // change|user|object|level_before|level_after
	}{
		{name: "a level of none is no grant",
			prev: []Row{row("a@x", "true", "false", "", "", "none", "")},
			now:  []Row{row("a@x", "true", "false", "", "", "none", "")}},
		{name: "a user who left takes their grants",
			prev: []Row{row("a@x", "true", "false", "app", "Lookup", "use", "direct"), row("b@x", "true", "false", "", "", "none", "")},
			now:  []Row{row("b@x", "true", "false", "", "", "none", "")},
			want: []string{"revoked|a@x|Lookup|use|"}},
		{name: "a new user who is an admin",
			now:  []Row{row("n@x", "true", "true", "app", "Lookup", "own", "universal through admin")},
			want: []string{"granted|n@x|Lookup||own", "new admin|n@x|||"}},
		{name: "re-enabled, an admin no more: neither is news",
			prev: []Row{row("a@x", "false", "true", "", "", "none", "")},
			now:  []Row{row("a@x", "true", "false", "", "", "none", "")}},
		{name: "a disabled admin keeps being one: disabled only",
			prev: []Row{row("a@x", "true", "true", "", "", "none", "")},
			now:  []Row{row("a@x", "false", "true", "", "", "none", "")},
			want: []string{"disabled|a@x|||"}},
		{name: "the same object of another type is another grant",
			prev: []Row{row("a@x", "true", "false", "app", "Ops", "use", "direct")},
			now:  []Row{row("a@x", "true", "false", "folder", "Ops", "use", "direct")},
			want: []string{"granted|a@x|Ops||use", "revoked|a@x|Ops|use|"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := lines(Changes(tc.prev, tc.now), "change", "user", "object", "level_before", "level_after")
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestStampAddsProvenanceToCopies(t *testing.T) {
	at := time.Date(2026, 4, 1, 9, 30, 0, 0, time.FixedZone("CEST", 2*3600))
	rows := []Row{row("a@x", "true", "false", "app", "Lookup", "use", "direct")}
	fields, stamped := Provenance{At: at, Org: "https://acme.example.com", Version: "1.2.3"}.Stamp(ReportFields, rows)
	if len(fields) != len(ReportFields)+3 || fields[len(fields)-3].Header != "REPORTED AT" || len(ReportFields) != 7 {
		t.Errorf("fields %v", fields)
	}
	r := stamped[0]
	if r["reported_at"] != "2026-04-01T07:30:00Z" || r["org"] != "https://acme.example.com" || r["orgctl"] != "1.2.3" || r["object"] != "Lookup" {
		t.Errorf("stamped %v", r)
	}
	if _, ok := rows[0]["org"]; ok {
		t.Error("Stamp changed the rows it was given")
	}
}

func TestReadCSV(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, file string
		err        string
		want       []string // user|object|level|via|profile
	}{
		{name: "a report with provenance columns",
			file: "USER,ACTIVE,ADMIN,OBJECT TYPE,OBJECT,LEVEL,VIA,REPORTED AT,ORG,ORGCTL\na@x,true,false,app,'=SUM(1),use,direct,2026-01-01T00:00:00Z,https://x,1.0\n",
			want: []string{"a@x|=SUM(1)|use|direct|"}},
		{name: "columns in any order, padded headers, no VIA",
			file: " LEVEL ,OBJECT,USER,ACTIVE,ADMIN,OBJECT TYPE\nown,Lookup,b@x,true,true,app\n",
			want: []string{"b@x|Lookup|own||"}},
		{name: "several Spaces",
			file: "PROFILE,USER,ACTIVE,ADMIN,OBJECT TYPE,OBJECT,LEVEL,VIA\nprod,a@x,true,false,app,Lookup,use,direct\n",
			want: []string{"a@x|Lookup|use|direct|prod"}},
		{name: "a header only", file: "USER,ACTIVE,ADMIN,OBJECT TYPE,OBJECT,LEVEL\n"},
		{name: "empty", file: "", err: "empty file"},
		{name: "a missing column", file: "USER,ACTIVE,ADMIN,OBJECT,LEVEL\n", err: "no OBJECT TYPE column in the header"},
		{name: "not CSV", file: "USER,\"ACTIVE\nx", err: "not a CSV report"},
		{name: "rows of other widths", file: "USER,ACTIVE,ADMIN,OBJECT TYPE,OBJECT,LEVEL\na,b\n", err: "not a CSV report"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := write(strings.ReplaceAll(tc.name, " ", "_")+".csv", tc.file)
			rows, err := ReadCSV(p)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), p) {
					t.Errorf("err %v, want one naming %s and saying %q", err, p, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := lines(rows, "user", "object", "level", "via", "profile"); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("rows %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := ReadCSV(filepath.Join(dir, "nope.csv")); err == nil || !strings.HasPrefix(err.Error(), "--since: ") {
		t.Errorf("a missing file: %v", err)
	}
}

func TestOfProfile(t *testing.T) {
	rows := []Row{{"user": "a", "profile": "prod"}, {"user": "b", "profile": "staging"}, {"user": "c", "profile": "prod"}, {"user": "d", "profile": "eu"}}
	got, err := OfProfile("q.csv", rows, "prod")
	if err != nil || len(got) != 2 || got[0]["user"] != "a" || got[1]["user"] != "c" {
		t.Errorf("prod: %v %v", got, err)
	}
	if _, err := OfProfile("q.csv", rows, "dev"); err == nil || !strings.Contains(err.Error(), `no row of profile "dev": its PROFILE column names prod, staging, eu`) {
		t.Errorf("a profile not in the file: %v", err)
	}
	plain := []Row{{"user": "a"}}
	if got, err := OfProfile("q.csv", plain, "dev"); err != nil || len(got) != 1 {
		t.Errorf("a report of one Space is taken as it is: %v %v", got, err)
	}
	if got, err := OfProfile("q.csv", nil, "dev"); err != nil || len(got) != 0 {
		t.Errorf("an empty report: %v %v", got, err)
	}
}
