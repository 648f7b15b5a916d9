package bulkjob_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
)

var jobRE = regexp.MustCompile(`; job ([0-9a-f]+)\n`)

// journal is the journal of the job the last run's summary names.
func (o *org) journal(r result) (string, *bulk.State) {
	o.t.Helper()
	m := jobRE.FindStringSubmatch(r.err)
	if m == nil {
		o.t.Fatalf("no job in stderr:\n%s", r.err)
	}
	st, err := bulk.Load(cli.JobStore().JournalPath(m[1]))
	if err != nil {
		o.t.Fatal(err)
	}
	return m[1], st
}

// rowStates are the journal's rows as "status outcome key".
func rowStates(st *bulk.State) map[int]bulk.RowState {
	out := map[int]bulk.RowState{}
	st.EachRow(func(n int, r bulk.RowState) { out[n] = r })
	return out
}

// The journal keeps each row's fate by its key: a rerun of the same file
// sends nothing for the rows that were applied and runs the failed ones
// again.
func TestTheJournalKeepsEachRowsFate(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "email,first-name,last-name\nnew@j.example,New,One\nadmin@sandbox.example,Sandbox,Admin\n")
	r := o.run("users create", "--from", "in.csv")
	if r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	id, st := o.journal(r)
	rows := rowStates(st)
	if len(rows) != 2 || rows[1].Status != bulk.Done || rows[1].Outcome != bulk.Created || rows[1].Key != "new@j.example" ||
		!strings.HasPrefix(rows[1].ID, "user_") || rows[2].Status != bulk.FailedRow || rows[2].Key != "admin@sandbox.example" {
		t.Errorf("journal rows %+v", rows)
	}
	// the input's absolute path is how a run on the file once edited finds this job
	if st.Header.Rows != 2 || st.Header.Input != "in.csv" || st.Header.Path != filepath.Join(o.dir, "in.csv") || !st.Ended {
		t.Errorf("journal header %+v, ended %v", st.Header, st.Ended)
	}
	if !strings.Contains(r.err, "orgctl: 1 row failed (see the results, or `orgctl jobs show "+id+"`); run the same command again to retry them\n") {
		t.Errorf("stderr\n%s", r.err)
	}
	// again: the applied row is not sent; the failed one is, and fails again
	r = o.run("users create", "--from", "in.csv", "--on-exists", "skip")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	// a new flag is a new job: both rows are looked at
	if n := o.count("POST /api/v2/users"); n != 2 {
		t.Errorf("--on-exists skip is another job: %d creates sent, want 2", n)
	}
	r = o.run("users create", "--from", "in.csv")
	if n := o.count("POST /api/v2/users"); n != 1 {
		t.Errorf("the rerun sent %d creates, want 1 (the failed row)", n)
	}
	if !strings.Contains(r.err, "resuming job "+id+": 1 of 2 rows applied by earlier runs, 0 to settle by a lookup") {
		t.Errorf("stderr\n%s", r.err)
	}
	if !strings.Contains(r.err, "orgctl: 2 of 2 rows of in.csv: 1 created, 1 failed (1 of them by earlier runs)") {
		t.Errorf("summary\n%s", r.err)
	}
	// the earlier run's row is in the summary, not printed again
	if got := fields(r.out); len(got) != 1 || got[0][2] != "admin@sandbox.example" || got[0][3] != "failed" {
		t.Errorf("stdout %q", r.out)
	}
}

// A row sent without an answer is unknown (exit 6), never sent blindly
// again: the next run settles it first, by its key where the family can
// look it up, and sends it only when it is provably not there.
func TestARowSentWithoutAnAnswerIsSettledBeforeItIsSentAgain(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "email,first-name,last-name\napplied@j.example,A,A\n")
	o.write("lost.csv", "email,first-name,last-name\nlost@j.example,L,L\n")
	o.drop("POST /api/v2/users")
	r := o.run("users create", "--from", "in.csv")
	if r.code != 6 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	if got := fields(r.out); len(got) != 1 || got[0][3] != "unknown" || !strings.HasPrefix(got[0][5], "POST /users was sent but no answer came") {
		t.Errorf("stdout %q", r.out)
	}
	if !strings.Contains(r.err, "orgctl: 1 row sent without an answer may have been applied; run the same command again to look them up") {
		t.Errorf("stderr\n%s", r.err)
	}
	_, st := o.journal(r)
	if rows := rowStates(st); rows[1].Status != bulk.Sent || rows[1].Key != "applied@j.example" {
		t.Errorf("journal %+v", rows)
	}
	o.heal()
	o.lose("POST /api/v2/users")
	if r := o.run("users create", "--from", "lost.csv"); r.code != 6 {
		t.Fatalf("lost: exit %d\n%s", r.code, r.err)
	}
	o.heal()

	// the request that arrived was applied: found by its key, not sent again
	r = o.run("users create", "--from", "in.csv")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	if n := o.count("POST /api/v2/users"); n != 0 {
		t.Errorf("%d creates sent for a row that was applied", n)
	}
	got := fields(r.out)
	if len(got) != 1 || got[0][3] != "created" || !strings.HasPrefix(got[0][4], "user_") ||
		got[0][5] != "an earlier run sent it without an answer; it is there, found by its key" {
		t.Errorf("stdout %q", r.out)
	}
	// the one that never arrived is not there: it is sent, once
	r = o.run("users create", "--from", "lost.csv")
	if r.code != 0 || o.count("POST /api/v2/users") != 1 {
		t.Fatalf("exit %d, sent %q\n%s", r.code, o.sent(), r.err)
	}
	if got := fields(r.out); len(got) != 1 || got[0][3] != "created" || got[0][5] != "" {
		t.Errorf("stdout %q", r.out)
	}
}

// A change that leaves the same whether sent once or twice (a user's
// names, set from flags) is sent again after its answer was lost.
func TestALostReplayableChangeIsSentAgain(t *testing.T) {
	o := newOrg(t)
	const dev = "user_0000000000000000005a4d0000000003"
	o.write("in.csv", "user,last-name\n"+dev+",Lee-Park\n")
	o.drop("PATCH /api/v2/users/" + dev)
	if r := o.run("users update", "--from", "in.csv"); r.code != 6 || o.count("PATCH /api/v2/users/"+dev) != 1 {
		t.Fatalf("exit %d, sent %q\n%s", r.code, o.sent(), r.err)
	}
	o.heal()
	r := o.run("users update", "--from", "in.csv")
	if r.code != 0 || o.count("PATCH /api/v2/users/"+dev) != 1 {
		t.Fatalf("exit %d, sent %q\n%s", r.code, o.sent(), r.err)
	}
	if got := fields(r.out); len(got) != 1 || got[0][3] != "updated" || got[0][4] != dev {
		t.Errorf("stdout %q", r.out)
	}
	if b := o.bodies("PATCH", "/api/v2/users/"+dev); len(b) != 1 || !strings.Contains(fmt.Sprint(b[0]), "Lee-Park") {
		t.Errorf("sent %v", b)
	}
}

// A DELETE whose every attempt lost its answer may have been applied:
// the row is unknown (exit 6), not failed, and the rerun settles it (the
// group is gone: it was deleted) instead of reporting "not found".
func TestALostDeleteIsUnknownThenSettled(t *testing.T) {
	o := newOrg(t)
	r := o.run("groups list", "-o", "json", "--jq", `.[] | select(.name == "support") | .id`)
	id := strings.TrimSpace(r.out)
	if r.code != 0 || id == "" {
		t.Fatalf("support's id: exit %d %q\n%s", r.code, r.out, r.err)
	}
	o.write("in.csv", "group-id\n"+id+"\n")
	o.drop("DELETE /api/v2/groups/" + id)
	if r := o.run("groups delete", "--from", "in.csv", "--yes"); r.code != 6 {
		t.Fatalf("lost answers: exit %d, want 6 (outcome unknown)\n%s", r.code, r.err)
	}
	o.heal()
	r = o.run("groups delete", "--from", "in.csv", "--yes")
	if r.code != 0 {
		t.Fatalf("rerun: exit %d, sent %q\n%s", r.code, o.sent(), r.err)
	}
	if got := fields(r.out); len(got) != 1 || got[0][3] != "deleted" {
		t.Errorf("rerun stdout %q", r.out)
	}
}

// What cannot be looked up, nor sent twice to the same effect, stays
// unknown: an invite is never sent a second time.
func TestALostInviteStaysUnknown(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "email\nx@j.example\n")
	o.drop("POST /api/v2/user_invites")
	if r := o.run("invites create", "--from", "in.csv"); r.code != 6 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	o.heal()
	r := o.run("invites create", "--from", "in.csv")
	if r.code != 6 || len(o.changes()) != 0 {
		t.Fatalf("exit %d, sent %q\n%s", r.code, o.changes(), r.err)
	}
	got := fields(r.out)
	if len(got) != 1 || got[0][3] != "unknown" ||
		got[0][5] != "an earlier run sent it without an answer, and orgctl has no way to look it up, so it is not sent again: check it by hand" {
		t.Errorf("stdout %q", r.out)
	}
	// --restart forgets the journal: the user asked for it to be sent
	if r := o.run("invites create", "--from", "in.csv", "--restart"); r.code != 0 || o.count("POST /api/v2/user_invites") != 1 {
		t.Errorf("--restart: exit %d, sent %q", r.code, o.changes())
	}
}

// An edited file is matched to the earlier job on it by key: what that
// job applied is not sent again, what it sent without an answer is
// looked up first.
func TestAnEditedFileCarriesTheEarlierJobsRowsByKey(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "email,first-name,last-name\na@j.example,A,A\nb@j.example,B,B\n")
	if r := o.run("users create", "--from", "in.csv"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	// reordered, one changed case, one new row
	o.write("in.csv", "email,first-name,last-name\nc@j.example,C,C\nB@J.example,B,B\na@j.example,A,A\n")
	r := o.run("users create", "--from", "in.csv")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	if bodies := o.bodies("POST", "/api/v2/users"); len(bodies) != 1 || bodies[0]["email"] != "c@j.example" {
		t.Errorf("creates sent %v, want c@j.example's alone", bodies)
	}
	if !strings.Contains(r.err, "by their keys, 2 of this file's rows were applied then and are not sent again, 0 were sent without an answer") {
		t.Errorf("stderr\n%s", r.err)
	}
}

// An earlier job whose rows cannot be told apart by key is not guessed
// at: the run refuses, saying how to choose.
func TestAnEditedFileWhoseEarlierRowsShareAKeyIsRefused(t *testing.T) {
	o := newOrg(t)
	// invites carry no key check: the same email twice is two rows
	o.write("in.csv", "email\nsame@j.example\nSame@j.example\n")
	if r := o.run("invites create", "--from", "in.csv"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	o.write("in.csv", "email\nsame@j.example\nSame@j.example\nother@j.example\n")
	r := o.run("invites create", "--from", "in.csv")
	if r.code != 2 || len(o.changes()) != 0 {
		t.Fatalf("exit %d, sent %q\n%s", r.code, o.changes(), r.err)
	}
	if !strings.Contains(r.err, "cannot be matched to this file's rows by key: `--restart` runs every row") || !strings.Contains(r.err, "row 2") {
		t.Errorf("stderr\n%s", r.err)
	}
}
