package bulkjob_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/engine/bulkjob"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/engine/send"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

// testJob is a job of the real family command path, whose names are
// found as a command line's are.
func testJob(t *testing.T, path string, given []string, base map[string][]string, format bulk.Format) *bulkjob.BulkJob {
	return bulkjob.NewTestJob(nil, familytest.Op(t, strings.Fields(path)...), "orgctl "+path, given, base, format)
}

func TestColumnsAreFlagsKeysOrArgumentNames(t *testing.T) {
	j := testJob(t, "users update", nil, map[string][]string{"active": {"false"}}, bulk.CSV)
	in, probs, ok := j.RowInput(bulk.Row{N: 1, Line: 2, Values: map[string][]string{
		"USER_ID": {"ada@example.com"}, "First_Name": {"Ada"}, "is_admin": {"true"}, "metadata": {`{"team":"ops","level":3}`},
	}})
	if len(probs) != 0 || !ok {
		t.Fatalf("problems %q", probs)
	}
	want := opdef.Input{Command: "orgctl users update", Args: []string{"ada@example.com"}, Values: map[string][]string{
		"active": {"false"}, "first-name": {"Ada"}, "admin": {"true"}, "metadata": {"level=3", "team=ops"}}}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("input %+v\nwant  %+v", in, want)
	}
	for _, name := range []string{"user", "user-id", "user_id", "userId"} {
		if field, arg, ok := j.ColumnTarget(name); !ok || field != nil || arg != 0 {
			t.Errorf("%q does not name the USER_ID argument", name)
		}
	}
}

func TestArgumentsFromTheCommandLineAndTheFile(t *testing.T) {
	j := testJob(t, "groups members remove", []string{"7"}, nil, bulk.CSV)
	if p := j.Header([]string{"user-id"}); len(p) != 0 {
		t.Errorf("header problems %q", p)
	}
	p := j.Header([]string{"group-id", "nickname"})
	if len(p) != 3 || !strings.Contains(p[0], `column "group-id" gives group-id, which the command line gives already`) ||
		p[1] != `unknown column "nickname"` || p[2] != `missing column "user"` {
		t.Errorf("header problems %q", p)
	}
	in, probs, ok := j.RowInput(bulk.Row{Values: map[string][]string{}})
	if ok || len(probs) != 1 || probs[0] != "user is missing or empty: every row needs one" || in.Args[0] != "7" {
		t.Errorf("row without user: %q %v %+v", probs, ok, in)
	}
}

// A user column is "user" in every command, its older names read as it.
func TestAUserColumnIsUserEverywhere(t *testing.T) {
	for _, path := range []string{"users delete", "groups members remove", "groups members add"} {
		j := testJob(t, path, nil, nil, bulk.CSV)
		for _, name := range []string{"user", "User", "email", "user-id", "user_id"} {
			if _, _, ok := j.ColumnTarget(name); !ok {
				t.Errorf("%s: column %q names nothing", path, name)
			}
		}
	}
	// where a command has a field of its own called email, the column is that field
	for _, path := range []string{"users create", "users update"} {
		j := testJob(t, path, nil, nil, bulk.CSV)
		if field, _, ok := j.ColumnTarget("email"); !ok || field == nil || field.Flag != "email" {
			t.Errorf("%s: email is %+v", path, field)
		}
	}
}

func TestLikelyMapsOfAnHRHeader(t *testing.T) {
	j := testJob(t, "users create", nil, nil, bulk.CSV)
	got := j.LikelyMaps([]string{"Email Address", "Given Name", "Surname", "Cost Center", "email;first-name"})
	want := map[string]string{"Email Address": "email", "Given Name": "first-name", "Surname": "last-name"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("users create: %q", got)
	}
	m := testJob(t, "groups members add", []string{"support"}, nil, bulk.CSV)
	if got := m.LikelyMaps([]string{"Work E-mail", "Admin?"}); !reflect.DeepEqual(got, map[string]string{"Work E-mail": "user", "Admin?": "admin"}) {
		t.Errorf("groups members add: %q", got)
	}
}

func TestJSONLinesReportUnknownFieldsPerRow(t *testing.T) {
	j := testJob(t, "users create", nil, nil, bulk.JSONL)
	_, probs, ok := j.RowInput(bulk.Row{Values: map[string][]string{"email": {"a@x"}, "shoe": {"44"}}})
	if !ok || len(probs) != 1 || !strings.HasPrefix(probs[0], `unknown field "shoe"`) {
		t.Errorf("problems %q", probs)
	}
}

func TestBuildProblemsReadAsColumns(t *testing.T) {
	j := testJob(t, "users create", nil, nil, bulk.CSV)
	_, probs := j.CheckRow(opdef.Input{Command: j.Command(), Values: map[string][]string{
		"email": {"a@x"}, "active": {"maybe"}, "user-type": {"robot"}}})
	want := []string{
		`invalid value "a@x" for email: expected an email address such as ada@example.com`,
		`invalid value "maybe" for active: expected true or false`,
		"first-name, last-name are missing or empty: they are required",
	}
	if !reflect.DeepEqual(probs, want) {
		t.Errorf("problems\n%q\nwant\n%q", probs, want)
	}
}

func TestRowKeys(t *testing.T) {
	users := testJob(t, "users create", nil, nil, bulk.CSV)
	if k := users.RowKeys(opdef.Input{Values: map[string][]string{"email": {"Ada@Example.com"}}}); !reflect.DeepEqual(k, []string{"ada@example.com"}) {
		t.Errorf("users: %q", k)
	}
	upd := testJob(t, "users update", nil, nil, bulk.CSV)
	a := upd.RowKeys(opdef.Input{Args: []string{"user_1"}, Values: map[string][]string{"first-name": {"A"}}})
	b := upd.RowKeys(opdef.Input{Args: []string{"user_1"}, Values: map[string][]string{"last-name": {"B"}}})
	if !reflect.DeepEqual(a, b) {
		t.Errorf("two changes to one user must collide: %q %q", a, b)
	}
	set := testJob(t, "users attributes set", nil, nil, bulk.CSV)
	a = set.RowKeys(opdef.Input{Args: []string{"user_1"}, Values: map[string][]string{"name": {"dept"}, "value": {"x"}}})
	b = set.RowKeys(opdef.Input{Args: []string{"user_1"}, Values: map[string][]string{"name": {"title"}, "value": {"x"}}})
	if reflect.DeepEqual(a, b) {
		t.Errorf("two attributes of one user are different rows: %q", a)
	}
	members := testJob(t, "groups members add", []string{"7"}, nil, bulk.CSV)
	if k := members.RowKeys(opdef.Input{Args: []string{"7"}, Values: map[string][]string{"user": {"a@x, b@x"}}}); len(k) != 2 {
		t.Errorf("members: %q", k)
	}
}

// Checking a row finds its names once: the refusal to delete a built-in
// and the build with stand-ins both work from what was found.
func TestCheckingARowFindsItsNamesOnce(t *testing.T) {
	n := 0
	count := func(op *opdef.Placed, in opdef.Input) send.Found {
		n++
		return send.Find(op, in)
	}
	j := bulkjob.NewTestJob(count, familytest.Op(t, "groups", "delete"), "orgctl groups delete", nil, nil, bulk.CSV)
	c, probs := j.CheckRow(familytest.Input("orgctl groups delete", []string{"support"}))
	if c == nil || len(probs) != 0 {
		t.Fatalf("call %v, problems %q", c, probs)
	}
	if id := c.Req.Params["groupId"]; id == "" || id == "support" {
		t.Errorf("built for group %q: want the name's stand-in in its place", id)
	}
	if n != 1 {
		t.Errorf("the row's names were found %d times, want once", n)
	}
}

func TestDelimiterByNameOrCharacter(t *testing.T) {
	for in, want := range map[string]rune{",": ',', " Comma ": ',', ";": ';', "semicolon": ';', "tab": '\t', "TAB": '\t', `\t`: '\t', "\t": '\t'} {
		if got, err := bulkjob.ParseDelimiter(in); err != nil || got != want {
			t.Errorf("--delimiter %q: %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "|", "pipe", " \t "} {
		if got, err := bulkjob.ParseDelimiter(in); err == nil || !strings.Contains(err.Error(), "use comma, semicolon or tab") {
			t.Errorf("--delimiter %q: %q, %v; want it refused", in, got, err)
		}
	}
}
