package access

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/output"
)

func TestNewCmdListObjectsParsesTheSubjectAndTypes(t *testing.T) {
	f, _, _ := clitest.Buffered(t, "")
	for _, tc := range []struct {
		args []string
		want *ListObjectsOptions
		err  string
	}{
		{args: []string{"--user", "ana@x.example"}, want: &ListObjectsOptions{User: "ana@x.example", Types: access.ObjectTypes}},
		{args: []string{"--group", "support", "--type", "app", "--type", "folder", "--direct"}, want: &ListObjectsOptions{Group: "support", Types: []string{"app", "folder"}, Direct: true}},
		{args: []string{"--user", "a", "--json", "type,access_level"}, want: &ListObjectsOptions{User: "a", Types: access.ObjectTypes, Selection: []string{"type", "access_level"}}},
		{args: nil, err: "pass --user USER or --group GROUP"},
		{args: []string{"--user", "a", "--group", "b"}, err: "pass --user USER or --group GROUP"},
		{args: []string{"--user", "a", "--type", "workflow"}, err: `invalid --type "workflow"`},
	} {
		got := clitest.ParseOptions(t, f, NewCmdListObjects, tc.err, tc.args...)
		if tc.err != "" {
			continue
		}
		if got.Factory != f || got.User != tc.want.User || got.Group != tc.want.Group || !slices.Equal(got.Types, tc.want.Types) ||
			got.Direct != tc.want.Direct || !slices.Equal(got.Selection, tc.want.Selection) {
			t.Errorf("%v: options %+v, want %+v", tc.args, got, tc.want)
		}
	}
}

func TestListObjectsHelpStatesScopeAndCost(t *testing.T) {
	f, _, _ := clitest.Buffered(t, "")
	c := NewCmdListObjects(f, nil)
	for _, want := range []string{"\nScope:  permissions:read (Permissions > Read)\n", "\nCost:   10 points per request", "\n\nRequests: one POST /permissions/listObjects per type"} {
		if !strings.Contains(c.Long, want) {
			t.Errorf("help lacks %q:\n%s", want, c.Long)
		}
	}
	if c.Annotations["scope"] != "Permissions > Read" || c.Annotations["cost"] != "10" {
		t.Errorf("annotations = %v", c.Annotations)
	}
}

func TestListObjectsRunNamesWhatAUserReaches(t *testing.T) {
	f, out, errOut, _ := clitest.SandboxFactory(t, "")
	o := &ListObjectsOptions{Factory: f, User: "former.employee@sandbox.example", Types: access.ObjectTypes}
	if err := listObjectsRun(context.Background(), o); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	// piped: TYPE OBJECT LEVEL, objects named, not ids
	if !strings.Contains(out.String(), "folder\tapp:/Finance\tedit\n") || !strings.Contains(out.String(), "app\tCustomer Lookup\tedit\n") {
		t.Errorf("stdout:\n%s", out)
	}

	out.Reset()
	o.Direct, o.Types = true, []string{"folder"}
	if err := listObjectsRun(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if out.String() != "folder\tapp:/Finance\tuse\n" {
		t.Errorf("--direct --type folder:\n%s", out)
	}
}

func TestListObjectsRunPrintsTheAPIsItemsAsJSON(t *testing.T) {
	f, out, errOut, api := clitest.SandboxFactory(t, "json")
	o := &ListObjectsOptions{Factory: f, User: "former.employee@sandbox.example", Types: []string{"folder"}, Direct: true}
	if err := listObjectsRun(context.Background(), o); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var items []map[string]any
	if err := json.Unmarshal(out.Bytes(), &items); err != nil || len(items) != 1 || items[0]["access_level"] != "use" || items[0]["type"] != "folder" {
		t.Errorf("-o json = %s (%v)", out, err)
	}
	// ids, as the API gives them: no list is read to name the objects
	if sent := clitest.Sent(api); slices.Contains(sent, "GET /api/v2/folders") {
		t.Errorf("-o json read the folders to name them: %v", sent)
	}
}

// On a narrow terminal the OBJECT column, which says what the row is
// about, stays whole, as a list's key column does.
func TestListObjectsKeepsTheObjectWhole(t *testing.T) {
	var out bytes.Buffer
	p := &output.Printer{IO: &output.IO{Out: &out, Err: io.Discard, OutTTY: true, Width: 50}, Opts: output.Options{Format: "table"}}
	long := "app:/Finance/Quarterly reports/Archive 2025"
	if err := p.Print([]byte(`[{"type":"folder","object":"`+long+`","level":"use"}]`), objectRowColumns); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), long) {
		t.Errorf("the object was cut at 50 columns:\n%s", out.String())
	}
}
