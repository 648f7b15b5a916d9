package bulkjob_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const (
	adminID = "user_0000000000000000005a4d0000000001"
	priyaID = "user_0000000000000000005a4d0000000002"
	devID   = "user_0000000000000000005a4d0000000003"
	anaID   = "user_0000000000000000005a4d0000000004"
)

// A row whose object exists follows --on-exists: fail reports it and goes
// on, skip passes it, update changes it with the row's other values. A
// user's email answers 409, so the create is sent and the key looked up
// after it.
func TestOnExistsOfAUser(t *testing.T) {
	for _, c := range []struct {
		mode         string
		code         int
		outcome, msg string
		patches      int
	}{
		{"fail", 1, "failed", `already exists (the API said: User with email "Priya.Ops@sandbox.example" already exists): --on-exists skip or update lets the job go on past it`, 0},
		{"skip", 0, "skipped", `already exists (the API said: User with email "Priya.Ops@sandbox.example" already exists)`, 0},
		{"update", 0, "updated", "", 1},
	} {
		t.Run(c.mode, func(t *testing.T) {
			o := newOrg(t)
			o.write("in.csv", "email,first-name,last-name\nPriya.Ops@sandbox.example,Priya,Raman-Shah\nnew@e.example,New,One\n")
			r := o.run("users create", "--from", "in.csv", "--on-exists", c.mode, "--parallel", "1")
			if r.code != c.code {
				t.Fatalf("exit %d\n%s", r.code, r.err)
			}
			got := fields(r.out)
			if len(got) != 2 {
				t.Fatalf("stdout %q", r.out)
			}
			want := []string{"1", "2", "Priya.Ops@sandbox.example", c.outcome, priyaID, c.msg}
			if !reflect.DeepEqual(got[0], want) {
				t.Errorf("row 1: %q\nwant    %q", got[0], want)
			}
			if got[1][3] != "created" {
				t.Errorf("row 2: %q", got[1])
			}
			if n := o.count("PATCH /api/v2/users/" + priyaID); n != c.patches {
				t.Errorf("%d updates sent, want %d", n, c.patches)
			}
			if c.patches > 0 {
				b := o.bodies("PATCH", "/api/v2/users/"+priyaID)
				if s := fmt.Sprint(b[0]); !strings.Contains(s, "path:/last_name value:Raman-Shah") {
					t.Errorf("update sent %s", s)
				}
			}
		})
	}
}

// --on-exists update runs the family's update, which must take every
// column of the file: the check says which it cannot apply, before
// anything is sent.
func TestOnExistsUpdateRefusesAColumnTheUpdateHasNot(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "email,first-name,last-name,group\nnew@e.example,New,One,support\n")
	r := o.run("users create", "--from", "in.csv", "--on-exists", "update")
	if r.code != 2 || len(o.sent()) != 0 {
		t.Fatalf("exit %d, sent %q\n%s", r.code, o.sent(), r.err)
	}
	if !strings.Contains(r.err, "in.csv:2: --on-exists update cannot apply group: `orgctl users update` has no such field\n") {
		t.Errorf("stderr\n%s", r.err)
	}
	// without update the column is the create's own
	if r := o.run("users create", "--from", "in.csv"); r.code != 0 {
		t.Errorf("exit %d\n%s", r.code, r.err)
	}
}

// A family that accepts duplicates is looked at first, in one list read
// for the whole job, whatever the number of rows.
func TestAFamilyWithoutConflictsIsListedOnce(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "name\nCustomer Lookup\nNew One\nNew Two\ncustomer lookup\n")
	r := o.run("apps create", "--from", "in.csv", "--on-exists", "skip", "--parallel", "4")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	if n := o.count("GET /api/v2/apps"); n != 1 {
		t.Errorf("%d lists of apps, want 1", n)
	}
	var skipped, created []string
	for _, f := range fields(r.out) {
		switch f[3] {
		case "skipped":
			skipped = append(skipped, f[2])
		case "created":
			created = append(created, f[2])
		}
	}
	slices.Sort(created)
	// app names compare with their case: "customer lookup" is another app
	if !reflect.DeepEqual(skipped, []string{"Customer Lookup"}) || !reflect.DeepEqual(created, []string{"New One", "New Two", "customer lookup"}) {
		t.Errorf("skipped %q, created %q", skipped, created)
	}
}

// A group's new members go in one request for all its rows; a member
// already there is found in the one list of groups and left out of it.
func TestMembersOfAGroupGoInOneRequest(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "user\nana.viewer@sandbox.example\ndev.lee@sandbox.example\npriya.ops@sandbox.example\n")
	r := o.run("groups members add", "support", "--from", "in.csv", "--on-exists", "skip")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	if n := o.count("GET /api/v2/groups"); n != 1 {
		t.Errorf("%d lists of groups, want 1", n)
	}
	posts := o.bodies("POST", "/api/v2/groups/6/members")
	if len(posts) != 1 {
		t.Fatalf("%d adds sent, want 1: %q", len(posts), o.sent())
	}
	var ids []string
	for _, m := range posts[0]["members"].([]any) {
		ids = append(ids, fmt.Sprint(m.(map[string]any)["id"]))
	}
	slices.Sort(ids)
	if want := []string{priyaID, devID}; !reflect.DeepEqual(ids, want) {
		t.Errorf("members sent %q, want %q (ana is a member already)", ids, want)
	}
	outcomes := map[string]string{}
	for _, f := range fields(r.out) {
		outcomes[f[2]] = f[3] + " " + f[4]
	}
	want := map[string]string{
		"support ana.viewer@sandbox.example": "skipped " + anaID,
		"support dev.lee@sandbox.example":    "created " + devID,
		"support priya.ops@sandbox.example":  "created " + priyaID,
	}
	if !reflect.DeepEqual(outcomes, want) {
		t.Errorf("outcomes %q\nwant %q", outcomes, want)
	}
}

// --on-exists update of a membership writes every row as it is: nothing
// is read to look first, and each row is "updated", since nothing told
// whether it was there.
func TestOnExistsUpdateOfMembersReadsNothingFirst(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "user\n"+anaID+"\n"+devID+"\n")
	r := o.run("groups members add", "6", "--from", "in.csv", "--on-exists", "update", "--admin")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	for _, s := range o.sent() {
		if strings.HasPrefix(s, "GET /api/v2/groups") {
			t.Errorf("read %s first", s)
		}
	}
	if n := o.count("POST /api/v2/groups/6/members"); n != 1 {
		t.Errorf("%d adds sent, want 1", n)
	}
	for _, f := range fields(r.out) {
		if f[3] != "updated" {
			t.Errorf("row %q", f)
		}
	}
}

// A batch the API refuses fails each of its rows with the API's reason,
// saying the request was theirs together.
func TestABatchRefusedFailsEachOfItsRows(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "user\n"+anaID+"\n"+devID+"\n")
	r := o.run("groups members add", "999", "--from", "in.csv")
	if r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	got := fields(r.out)
	if len(got) != 2 || o.count("POST /api/v2/groups/999/members") != 1 {
		t.Fatalf("stdout %q, sent %q", r.out, o.sent())
	}
	for _, f := range got {
		if f[3] != "failed" || !strings.HasPrefix(f[5], "the request for the 2 rows of this batch was refused: ") {
			t.Errorf("row %q", f)
		}
	}
}

// A new user's group (a column) is joined after the rows: one request per
// group for all its new users, named by the group as the rows named it.
func TestNewUsersJoinTheirGroupsInOneRequestPerGroup(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "email,first-name,last-name,group\n"+
		"j1@e.example,J,One,support\nj2@e.example,J,Two,Support\nj3@e.example,J,Three,2\n")
	r := o.run("users create", "--from", "in.csv")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	ids := map[string]string{}
	for _, f := range fields(r.out) {
		ids[f[2]] = f[4]
	}
	members := func(group string) []string {
		var out []string
		for _, b := range o.bodies("POST", "/api/v2/groups/"+group+"/members") {
			for _, m := range b["members"].([]any) {
				out = append(out, fmt.Sprint(m.(map[string]any)["id"]))
			}
		}
		slices.Sort(out)
		return out
	}
	want := []string{ids["j1@e.example"], ids["j2@e.example"]}
	slices.Sort(want)
	if got := members("6"); !reflect.DeepEqual(got, want) {
		t.Errorf("support got %q, want %q", got, want)
	}
	if got := members("2"); !reflect.DeepEqual(got, []string{ids["j3@e.example"]}) {
		t.Errorf("editor got %q", got)
	}
	if o.count("POST /api/v2/groups/6/members") != 1 {
		t.Errorf("sent %q", o.sent())
	}
	for _, want := range []string{
		"orgctl: group support: the new members of 2 rows added in one request (POST /groups/6/members)",
		"orgctl: group 2: the new members of 1 row added in one request (POST /groups/2/members)",
	} {
		if !strings.Contains(r.err, want+"\n") {
			t.Errorf("stderr lacks %q:\n%s", want, r.err)
		}
	}
}
