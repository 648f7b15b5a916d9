package families

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/cmd/engine/opdef"
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
	if err := printInner("manifests")(p, &opdef.Call{Columns: cols}, data); err != nil || buf.String() != "prod\nstaging\n" {
		t.Errorf("printInner table: %q %v", buf.String(), err)
	}
	p, buf, _ = printer("json")
	printInner("manifests")(p, &opdef.Call{Columns: cols}, data)
	if strings.TrimSpace(buf.String()) != string(data) {
		t.Errorf("printInner -o json changed the data: %s", buf.String())
	}

	detail := json.RawMessage(`{"overall_summary":[{"name":"Refunds"}],"weekly":[1,2]}`)
	p, buf, _ = printer("table")
	if err := usageDetailPrint(p, &opdef.Call{Columns: cols}, detail); err != nil || buf.String() != "Refunds\n" {
		t.Errorf("usage detail table: %q %v", buf.String(), err)
	}
	p, buf, _ = printer("yaml")
	usageDetailPrint(p, &opdef.Call{Columns: cols}, detail)
	if !strings.Contains(buf.String(), "weekly:") {
		t.Errorf("usage detail -o yaml lost the breakdowns: %s", buf.String())
	}
}
