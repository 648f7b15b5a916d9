package families

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/output"
)

// printer is a piped printer in a format, writing to buffers.
func printer(format string) (*output.Printer, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &output.Printer{IO: &output.IO{Out: &out, Err: &errOut}, Opts: output.Options{Format: format}}, &out, &errOut
}

func TestViewsThatUnwrapOrSummarise(t *testing.T) {
	cols := []output.Column{{Header: "NAME", Field: "name"}}
	data := json.RawMessage(`{"manifests":[{"name":"prod"},{"name":"staging"}],"other":1}`)

	p, buf, _ := printer("table")
	if err := printInner("manifests")(p, &engine.Call{Columns: cols}, data); err != nil || buf.String() != "prod\nstaging\n" {
		t.Errorf("printInner table: %q %v", buf.String(), err)
	}
	p, buf, _ = printer("json")
	printInner("manifests")(p, &engine.Call{Columns: cols}, data)
	if strings.TrimSpace(buf.String()) != string(data) {
		t.Errorf("printInner -o json changed the data: %s", buf.String())
	}

	detail := json.RawMessage(`{"overall_summary":[{"name":"Refunds"}],"weekly":[1,2]}`)
	p, buf, _ = printer("table")
	if err := usageDetailPrint(p, &engine.Call{Columns: cols}, detail); err != nil || buf.String() != "Refunds\n" {
		t.Errorf("usage detail table: %q %v", buf.String(), err)
	}
	p, buf, _ = printer("yaml")
	usageDetailPrint(p, &engine.Call{Columns: cols}, detail)
	if !strings.Contains(buf.String(), "weekly:") {
		t.Errorf("usage detail -o yaml lost the breakdowns: %s", buf.String())
	}

	// VIA names each source: a user's universal group apart from a granted one.
	var lists map[string][]access.Entry
	json.Unmarshal([]byte(`{"group":[
		{"subject":{"id":"2","type":"group"},"sources":{"universal":true},"accessLevel":"edit"},
		{"subject":{"id":"3","type":"group"},"sources":{"universal":true,"inherited":{"id":"app_7","type":"folder"}},"accessLevel":"use"}],
	  "user":[{"subject":{"id":"user_a","type":"user"},"sources":{"direct":true,"groups":[{"id":"2","type":"group"},{"id":"3","type":"group"}]},"accessLevel":"edit"}]}`), &lists)
	groups := map[string]access.Entry{"2": lists["group"][0], "3": lists["group"][1]}
	n := &namer{c: &engine.Call{}, names: map[string]map[string]string{"groups": {"2": "All Users", "3": "viewer"}, "folders": {"app_7": "app:/Operations"}}}
	if got := access.Via(lists["user"][0], groups, n); got != "direct; universal through All Users; member of viewer" {
		t.Errorf("user VIA = %q", got)
	}
	if got := access.Via(lists["group"][1], groups, n); got != "universal; inherited from app:/Operations" {
		t.Errorf("group VIA = %q", got)
	}
}
