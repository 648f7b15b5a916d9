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

// A name is the org's members' words: in a pull-request comment it must
// not carry HTML (a tracking pixel, a </details> break-out), Markdown
// images or links, live mentions or issue references, or escape sequences.
func TestMarkdownNeutralisesNames(t *testing.T) {
	hostile := []string{
		`ops <img src="https://evil.example/p.png"> </details><script>x</script>`,
		"release @acme/security-team fixes #123 and acme/web#7",
		"![x](https://evil.example/p.png) [click](https://evil.example)",
		"bell\x07\x1b]52;c;aGk=\x07 \u202eevil",
	}
	p := &orgcode.Plan{}
	for _, h := range hostile {
		p.Changes = append(p.Changes, orgcode.Change{Kind: "groups", Key: h, Action: orgcode.Create, Note: h,
			Fields: []orgcode.FieldChange{{Field: h, New: h, HasNew: true}}})
	}
	p.Unmanaged = []orgcode.Unmanaged{{Kind: "groups", Key: hostile[0]}, {Kind: "groups", Key: hostile[1]}}
	var b bytes.Buffer
	writeMarkdown(&b, p, ratebudget.DefaultConfig())
	md := b.String()
	// the renderer's own HTML is <details open><summary> and </details>
	body := strings.NewReplacer("<details open><summary>Changes</summary>", "", "</details>\n", "").Replace(md)
	for _, bad := range []string{"<", ">", "\x1b", "\x07", "\u202e"} {
		if strings.Contains(body, bad) {
			t.Errorf("markdown holds %q:\n%s", bad, md)
		}
	}
	// outside code spans (where nothing is a mention or a link) nothing is live
	parts := strings.Split(body, "`")
	for i := 0; i < len(parts); i += 2 {
		for _, bad := range []string{"@acme", "#123", "#7", "[x]", "[click]"} {
			if strings.Contains(parts[i], bad) {
				t.Errorf("markdown holds %q outside code:\n%s", bad, parts[i])
			}
		}
	}
	for _, want := range []string{"&lt;img src=&quot;https://evil.example/p.png&quot;&gt;", "@&#8203;acme/security-team", "#&#8203;123", `!\[x\]`, `\u202eevil`} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if n := strings.Count(md, "</details>"); n != 1 {
		t.Errorf("%d </details>, want the renderer's one", n)
	}
	// an email is no mention: left as it reads
	if got := mdCell("ana@example.com"); got != "ana@example.com" {
		t.Errorf("mdCell(email) = %q", got)
	}
}
