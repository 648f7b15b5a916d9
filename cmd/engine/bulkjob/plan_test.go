package bulkjob_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/ratebudget"
)

// plan is a structured dry run.
type plan struct {
	Rows      int `json:"rows"`
	Requests  int `json:"requests"`
	Points    int `json:"points"`
	ByRequest []struct {
		Method string `json:"method"`
		Path   string `json:"path"`
		Count  int    `json:"count"`
		Points int    `json:"points"`
	} `json:"by_request"`
	Names *struct {
		Requests int `json:"requests"`
		Points   int `json:"points"`
		Failing  int `json:"failing_rows"`
	} `json:"names"`
}

// cost is what the requests sent cost at the price list's points.
func cost(sent []string) int {
	bc := ratebudget.DefaultConfig()
	n := 0
	for _, s := range sent {
		_, path, _ := strings.Cut(s, " ")
		path, _, _ = strings.Cut(strings.TrimPrefix(path, "/api/v2"), "?")
		n += bc.Cost(path)
	}
	return n
}

// A dry run counts the requests the job will send and their points: the
// run then sends exactly those, lookups included, for each shape of job
// (one request a row, rows joined in one request per group, a list read
// to look first, grants read by subject or by object, whichever is fewer).
func TestADryRunCountsWhatTheRunSends(t *testing.T) {
	for _, c := range []struct {
		name, cmd, text string
		args            []string
		look            string // a read the run sends, where the job chooses which
	}{
		{"a request a row", "users create", "email,first-name,last-name\na@p.example,A,A\nb@p.example,B,B\nc@p.example,C,C\n", nil, ""},
		{"new users joined to their groups", "users create", "email,first-name,last-name,group\na@p.example,A,A,support\nb@p.example,B,B,support\nc@p.example,C,C,editor\n", nil, ""},
		{"a group's members in one request", "groups members add", "user\ndev.lee@sandbox.example\npriya.ops@sandbox.example\n", []string{"support"}, ""},
		{"members of several groups", "groups members add", "group,user\nsupport,dev.lee@sandbox.example\neditor,ana.viewer@sandbox.example\nsupport,priya.ops@sandbox.example\n", nil, ""},
		{"a family listed once to look first", "apps create", "name\nOne\nTwo\n", nil, ""},
		{"users named by email", "users update", "user,last-name\ndev.lee@sandbox.example,Lee-Park\nana.viewer@sandbox.example,Souza-Lee\n", nil, ""},
		{"grants of one group on many folders", "permissions grant", "object-id\napp_7\napp_8\n", []string{"--group", "support", "--object-type", "folder", "--access-level", "own"}, "POST /api/v2/permissions/listObjects"},
		{"grants of many groups on one folder", "permissions grant", "group\nsupport\neditor\nviewer\n", []string{"--object-id", "app_8", "--object-type", "folder", "--access-level", "own"}, "GET /api/v2/permissions/accessList/folder/app_8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := newOrg(t)
			t.Setenv("ORGCTL_COMPLETION_CACHE_TTL", "0s") // the run as if cold: no list kept from the dry run
			o.write("in.csv", c.text)
			args := append([]string{"--from", "in.csv"}, c.args...)
			r := o.run(c.cmd, append(args, "--dry-run", "-o", "json")...)
			if r.code != 0 {
				t.Fatalf("dry run: exit %d\n%s", r.code, r.err)
			}
			var p plan
			if err := json.Unmarshal([]byte(r.out), &p); err != nil {
				t.Fatalf("%v: %s", err, r.out)
			}
			if len(o.changes()) != 0 {
				t.Errorf("the dry run sent %q", o.changes())
			}
			if p.Names != nil && (p.Names.Requests != len(o.sent()) || p.Names.Points != cost(o.sent()) || p.Names.Failing != 0) {
				t.Errorf("names looked up: %+v; sent %q", *p.Names, o.sent())
			}
			sum, points := 0, 0
			for _, b := range p.ByRequest {
				sum += b.Count
				points += b.Points
			}
			if sum != p.Requests || points != p.Points {
				t.Errorf("by request adds up to %d requests, %d points; the totals say %d, %d", sum, points, p.Requests, p.Points)
			}
			r = o.run(c.cmd, args...)
			if r.code != 0 {
				t.Fatalf("run: exit %d\n%s%s", r.code, r.out, r.err)
			}
			if c.look != "" && o.count(c.look) != 1 {
				t.Errorf("the run sent %q, want one %s", o.sent(), c.look)
			}
			if sent := o.sent(); len(sent) != p.Requests || cost(sent) != p.Points {
				t.Errorf("the dry run said %d requests, %d points; the run sent %d, %d points: %q\n%s", p.Requests, p.Points, len(sent), cost(sent), sent, r.err)
			}
		})
	}
}

// The dry run's text: the rows, the requests of each kind with their
// price, the total; rows an earlier run applied are not counted again,
// and rows --skip-invalid leaves out are said.
func TestADryRunSaysWhatAnEarlierRunAppliedAndWhatIsInvalid(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "email,first-name,last-name\na@p.example,A,A\nadmin@sandbox.example,S,A\nc@p.example,C,C\nd@p.example,D,D\n")
	r := o.run("users create", "--from", "in.csv", "--dry-run")
	want := []string{
		"in.csv: 4 rows, all valid",
		"would send:",
		"       4 x POST /api/v2/users   2 points each = 8",
		"total: 4 requests, 8 points; they fit in the budget (100000 points per 1m0s) now",
		"nothing sent (--dry-run)",
	}
	if got := lines(r.out); r.code != 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("exit %d, stdout\n%s\nwant\n%s", r.code, r.out, strings.Join(want, "\n"))
	}
	// three rows applied, one failed: the dry run of the rerun counts one
	if r := o.run("users create", "--from", "in.csv"); r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	r = o.run("users create", "--from", "in.csv", "--dry-run")
	if !strings.Contains(r.out, "3 rows were applied by an earlier run of this job and would be skipped\n") ||
		!strings.Contains(r.out, "       1 x POST /api/v2/users   2 points each = 2\n") {
		t.Errorf("stdout\n%s", r.out)
	}
	o.write("bad.csv", "email,first-name,last-name\na@q.example,A,A\nbad,B,B\n")
	r = o.run("users create", "--from", "bad.csv", "--dry-run", "--skip-invalid")
	if r.code != 0 || !strings.HasPrefix(r.out, "bad.csv: 2 rows, 1 invalid (not sent: --skip-invalid)\n") ||
		!strings.Contains(r.out, "       1 x POST /api/v2/users   2 points each = 2\n") {
		t.Errorf("exit %d, stdout\n%s", r.code, r.out)
	}
}

// A dry run looks the rows' names up as the run would, and the rows whose
// names find nothing are named by line, grouped by what they lack: the
// run would fail them, so the dry run exits 1.
func TestADryRunNamesTheRowsWhoseNamesFindNothing(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "group,user\nsupport,dev.lee@sandbox.example\nnope,dev.lee@sandbox.example\nnope,ana.viewer@sandbox.example\nsupport,ghost@sandbox.example\n")
	r := o.run("groups members add", "--from", "in.csv", "--dry-run")
	if r.code != 1 || len(o.changes()) != 0 {
		t.Fatalf("exit %d, sent %q\n%s%s", r.code, o.changes(), r.out, r.err)
	}
	got := lines(r.out)
	var tail []string
	for i, l := range got {
		if strings.HasPrefix(l, "names looked up now") {
			tail = got[i:]
		}
	}
	if len(tail) != 4 || !strings.HasSuffix(tail[0], "3 rows would fail:") ||
		!strings.HasPrefix(tail[1], "  in.csv:3,4: ") || !strings.Contains(tail[1], "nope") ||
		!strings.HasPrefix(tail[2], "  in.csv:5: ") || !strings.Contains(tail[2], "ghost@sandbox.example") ||
		tail[3] != "no change sent (--dry-run)" {
		t.Errorf("stdout\n%s", r.out)
	}
}
