package orgfiles

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/orgcode"
	"github.com/orgctl/orgctl/ratebudget"
)

// A pull-request comment holds 65,536 characters: the change table stops
// at markdownRows and says how many rows it left out; a cell's | and line
// breaks cannot break the table.
func TestMarkdownCapsTheTableAndKeepsCellsInside(t *testing.T) {
	p := &orgcode.Plan{}
	for i := range markdownRows + 10 {
		p.Changes = append(p.Changes, orgcode.Change{Kind: "groups", Key: fmt.Sprintf("g%03d", i), Action: orgcode.Update,
			Fields: []orgcode.FieldChange{{Field: "universal_app_access", Old: "a|b\nc", New: "use", HasOld: true, HasNew: true}}})
	}
	var b bytes.Buffer
	writeMarkdown(&b, p, ratebudget.DefaultConfig())
	rows := 0
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "| ~ | groups |") {
			rows++
			if n := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|"); n != 8 {
				t.Fatalf("a row with %d cell borders, want 8: %q", n, l)
			}
		}
	}
	if rows != markdownRows {
		t.Errorf("%d change rows, want %d", rows, markdownRows)
	}
	if !strings.Contains(b.String(), "… and 10 more rows") {
		t.Errorf("the cut is not said:\n%s", b.String()[len(b.String())-300:])
	}
}
