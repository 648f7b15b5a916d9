package bulkjob_test

import (
	"reflect"
	"strings"
	"testing"
)

// A file that names, among what its rows delete (or rename, where such
// objects keep their names), an object the org cannot do without is
// refused whole before its first row, every such row by line: one list per
// kind says which ids are protected, and nothing is changed.
func TestAJobNamingAnObjectTheOrgCannotDoWithoutIsRefusedWhole(t *testing.T) {
	for _, c := range []struct {
		name, cmd, text string
		args            []string
		want            []string
		reads           []string
	}{{
		name: "built-in groups by id",
		cmd:  "groups delete", args: []string{"--yes"},
		text: "group\nsupport\n4\n5\n1\n",
		want: []string{
			`in.csv:3: refusing to delete group 4 (All Users): "All Users" is a built-in group every org has, and the org cannot do without it (nothing was changed)`,
			`in.csv:5: refusing to delete group 1 (admin): "admin" is a built-in group every org has, and the org cannot do without it (nothing was changed)`,
			"orgctl: in.csv: 2 rows name an object the org cannot do without; nothing was changed",
		},
		reads: []string{"GET /api/v2/groups"},
	}, {
		name: "a built-in group by its name: the name says so at the check",
		cmd:  "groups delete", args: []string{"--yes"},
		text: "group\nsupport\nAll Users\n",
		want: []string{
			`in.csv:3: refusing to delete group All Users: "All Users" is a built-in group every org has, and the org cannot do without it (nothing was changed)`,
			"orgctl: in.csv: 1 problem; nothing was sent",
		},
	}, {
		// the lookup finds a name that matches no group exactly by the one
		// that matches it but for case: the list says it is the built-in
		name: "a built-in group by its name in another case",
		cmd:  "groups delete", args: []string{"--yes"},
		text: "group\nsupport\nall users\nADMIN\n",
		want: []string{
			`in.csv:3: refusing to delete group All Users: "All Users" is a built-in group every org has, and the org cannot do without it (nothing was changed)`,
			`in.csv:4: refusing to delete group admin: "admin" is a built-in group every org has, and the org cannot do without it (nothing was changed)`,
			"orgctl: in.csv: 2 rows name an object the org cannot do without; nothing was changed",
		},
		reads: []string{"GET /api/v2/groups"},
	}, {
		name: "system folders by id",
		cmd:  "folders delete", args: []string{"--yes"},
		text: "folder\napp_7\napp_1\napp_12\n",
		want: []string{
			"in.csv:3: refusing to delete folder app_1 (app:/): it is a system folder, and the org cannot do without it (nothing was changed)",
			"in.csv:4: refusing to delete folder app_12 (app:~/(1) Sandbox Admin's Drafts): it is a system folder, and the org cannot do without it (nothing was changed)",
			"orgctl: in.csv: 2 rows name an object the org cannot do without; nothing was changed",
		},
		reads: []string{"GET /api/v2/folders"},
	}, {
		name: "a built-in group renamed; its other settings may change",
		cmd:  "groups update",
		text: "group,name,universal-app-access\n4,Everyone,use\n3,,edit\nsupport,Helpdesk,\n",
		want: []string{
			`in.csv:2: refusing to rename group 4 (All Users): "All Users" is a built-in group every org has, and keeps its name (its other settings may change; nothing was changed)`,
			"orgctl: in.csv: 1 row names an object the org cannot do without; nothing was changed",
		},
		reads: []string{"GET /api/v2/groups"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			o := newOrg(t)
			o.write("in.csv", c.text)
			r := o.run(c.cmd, append([]string{"--from", "in.csv"}, c.args...)...)
			if r.code != 2 {
				t.Errorf("exit %d", r.code)
			}
			if got := lines(r.err); !reflect.DeepEqual(got, c.want) {
				t.Errorf("stderr\n%s\nwant\n%s", r.err, strings.Join(c.want, "\n"))
			}
			if got := o.sent(); !reflect.DeepEqual(got, c.reads) {
				t.Errorf("sent %q, want %q", got, c.reads)
			}
		})
	}
}

// Without --yes, nobody can confirm a destructive job when stdin is no
// terminal: it is refused before any request, the protected check's read
// included.
func TestADestructiveJobNobodyCanConfirmIsRefusedFirst(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "group\n4\n")
	r := o.run("groups delete", "--from", "in.csv")
	if r.code != 2 || len(o.sent()) != 0 {
		t.Fatalf("exit %d, sent %q\n%s", r.code, o.sent(), r.err)
	}
	if !strings.Contains(r.err, "orgctl groups delete on the 1 row of in.csv") || !strings.Contains(r.err, "--dry-run") {
		t.Errorf("stderr\n%s", r.err)
	}
}

// A name that some group has exactly names that group, as the row's
// lookup finds it, even when a built-in matches it but for case.
func TestAGroupNamedLikeABuiltInButForCaseIsNotProtected(t *testing.T) {
	o := newOrg(t)
	if r := o.run("groups create", "--name", "all users"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	o.write("in.csv", "group\nall users\n")
	r := o.run("groups delete", "--from", "in.csv", "--yes")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	if d := o.changes(); len(d) != 1 || d[0] == "DELETE /api/v2/groups/4" {
		t.Errorf("sent %q", d)
	}
}
