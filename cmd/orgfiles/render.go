package orgfiles

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/orgctl/orgctl/client/orgcode"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

// unmanagedShown is how many unmanaged objects of one kind a plan names
// before it counts the rest: an org's hand-made users must not bury the changes.
const unmanagedShown = 5

// markdownRows caps the change table of -o markdown: a pull-request
// comment holds 65,536 characters.
const markdownRows = 250

// sign marks a change's action in the plan: + create, ~ update, - delete.
func sign(a orgcode.Action) string {
	switch a {
	case orgcode.Create:
		return "+"
	case orgcode.Update:
		return "~"
	case orgcode.Delete:
		return "-"
	}
	return ""
}

func fieldSign(fc orgcode.FieldChange) string {
	switch {
	case fc.HasOld && fc.HasNew:
		return "~"
	case fc.HasNew:
		return "+"
	}
	return "-"
}

func showValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func fieldText(fc orgcode.FieldChange) string {
	switch {
	case fc.HasOld && fc.HasNew:
		return fmt.Sprintf("%s: %s -> %s", fc.Field, showValue(fc.Old), showValue(fc.New))
	case fc.HasNew:
		return fmt.Sprintf("%s: %s", fc.Field, showValue(fc.New))
	}
	return fmt.Sprintf("%s: %s", fc.Field, showValue(fc.Old))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// summary is the plan's first line.
func summary(p *orgcode.Plan) string {
	counts := map[orgcode.Action]int{}
	for _, c := range p.Changes {
		counts[c.Action]++
	}
	switch {
	case p.Empty() && len(p.Unmanaged) > 0:
		return fmt.Sprintf("No changes to the objects the files hold; %s in no file (listed below).",
			plural(len(p.Unmanaged), "live object is", "live objects are"))
	case p.Empty():
		return "No changes: the org matches the files."
	}
	blocked := ""
	if n := len(p.Blocked); n > 0 {
		blocked = fmt.Sprintf(", %d blocked", n)
	}
	return fmt.Sprintf("Plan: %d to create, %d to change, %d to delete%s.", counts[orgcode.Create], counts[orgcode.Update], counts[orgcode.Delete], blocked)
}

// blockedWhy is the heading of a plan's blocked changes.
const blockedWhy = "apply sends the rest; plan again once what they need is there"

// writeBlocked lists the blocked changes, then once each thing they need
// and why the plan cannot make it.
func writeBlocked(w io.Writer, p *orgcode.Plan, mark string) {
	if len(p.Blocked) == 0 {
		return
	}
	fmt.Fprintf(w, "\nblocked (%s):\n", blockedWhy)
	for _, b := range p.Blocked {
		fmt.Fprintf(w, "  %s %s %s %s: %s  needs %s\n", mark, b.Kind, b.Key, b.Field, showValue(b.New), b.Needs)
	}
	for _, n := range blockedNeeds(p) {
		fmt.Fprintf(w, "  (%s: %s)\n", n[0], n[1])
	}
}

// writeMarkdownBlocked is writeBlocked for a pull-request comment.
func writeMarkdownBlocked(w io.Writer, p *orgcode.Plan) {
	if len(p.Blocked) == 0 {
		return
	}
	fmt.Fprintf(w, "<details open><summary>Blocked (%s)</summary>\n\n", blockedWhy)
	fmt.Fprintln(w, "| Kind | Object | Field | New | Needs |")
	fmt.Fprintln(w, "|:--|:--|:--|:--|:--|")
	for i, b := range p.Blocked {
		if i == markdownRows {
			fmt.Fprintf(w, "\n… and %d more: run `orgctl plan` for the whole plan.\n", len(p.Blocked)-markdownRows)
			break
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", b.Kind, mdCell(b.Key), mdCell(b.Field), mdCode(showValue(b.New)), mdCell(b.Needs))
	}
	fmt.Fprintln(w)
	for _, n := range blockedNeeds(p) {
		fmt.Fprintf(w, "- %s: %s\n", mdCell(n[0]), mdCell(n[1]))
	}
	fmt.Fprintf(w, "\n</details>\n\n")
}

// blockedNeeds is each thing the blocked changes need, once, with why
// the plan cannot make it, in the order the changes first name them.
func blockedNeeds(p *orgcode.Plan) [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	for _, b := range p.Blocked {
		if !seen[b.Needs] {
			seen[b.Needs] = true
			out = append(out, [2]string{b.Needs, b.Reason})
		}
	}
	return out
}

// blockedLine is the summary's line on blocked changes ("" for none).
func blockedLine(p *orgcode.Plan) string {
	if len(p.Blocked) == 0 {
		return ""
	}
	return fmt.Sprintf("Blocked: %s what this org lacks and this API cannot create (listed below).",
		plural(len(p.Blocked), "change needs", "changes need"))
}

func kindLine(m map[orgcode.Action]int) string {
	var parts []string
	for _, a := range []orgcode.Action{orgcode.Create, orgcode.Update, orgcode.Delete} {
		if m[a] > 0 {
			parts = append(parts, fmt.Sprintf("%d to %s", m[a], strings.Replace(string(a), "update", "change", 1)))
		}
	}
	return strings.Join(parts, ", ")
}

func riskLine(p *orgcode.Plan) (int, string) {
	rc := p.RiskCounts()
	total := 0
	var parts []string
	for _, r := range orgcode.Risks {
		if n := rc[r]; n > 0 {
			total += n
			what := string(r)
			if n > 1 {
				what = map[orgcode.Risk]string{orgcode.RiskNewAdmin: "new admins", orgcode.RiskMemberRemoved: "members removed",
					orgcode.RiskDelete: "deletes", orgcode.RiskUniversal: "universal accesses raised"}[r]
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	return total, strings.Join(parts, ", ")
}

func costLine(p *orgcode.Plan, bc ratebudget.Config) string {
	return fmt.Sprintf("Cost: the read took %s; the changes are %s.",
		ratebudget.Tally(p.ReadRequests, p.ReadPoints), bc.CostSentence(p.Requests, p.Points, nil))
}

// builtinWarnings say, in words, what a plan takes from the built-in
// groups and the admins it disables: a promotion from another Space
// writes that Space's admins and All Users into this org's, a prune of an
// export without the admins' files disables them, and a reviewer must not
// find either only by a mark. Each names the people and the --only that
// leaves them alone.
func builtinWarnings(p *orgcode.Plan) []string {
	var out []string
	for _, r := range p.BuiltinRemovals() {
		what := "they lose what All Users is granted"
		if r.Group == "admin" {
			what = "they lose their admin rights; apply refuses to remove the API token's own user or the org's last admin"
		}
		out = append(out, fmt.Sprintf("this plan removes %s from the built-in group %s (%s): %s.",
			plural(len(r.Members), "member", "members"), r.Group, listSome(r.Members, 5), what))
	}
	if admins := p.DisabledAdmins(); len(admins) > 0 {
		out = append(out, fmt.Sprintf("this plan disables %s (%s), which no file holds (--prune): they lose the org; apply refuses to disable the API token's own user or the org's last admin.",
			plural(len(admins), "admin", "admins"), listSome(admins, 5)))
	}
	if len(out) > 0 {
		out = append(out, fmt.Sprintf("To leave this org's people as they are (a promotion from another Space usually should), plan with --only %s.",
			strings.Join(orgcode.KindsBut(orgcode.PeopleKinds...), ",")))
	}
	return out
}

// listSome lists at most n values, then how many more.
func listSome(vs []string, n int) string {
	if len(vs) <= n {
		return strings.Join(vs, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(vs[:n], ", "), len(vs)-n)
}

// writePlan prints the plan for people: the summary first (counts by
// kind, risky changes, unmanaged objects, the cost), then every change
// with a sign on each line, then the unmanaged objects, a few per kind.
// On a colour terminal the signs are green, yellow and red, the risk marks red.
func writePlan(w io.Writer, p *orgcode.Plan, bc ratebudget.Config, colour bool) {
	paint := map[string]string{"+": output.Green, "~": output.Yellow, "-": output.Red, "!": output.Red}
	mark := func(sign string) string { return output.Paint(colour, paint[sign], sign) }
	fmt.Fprintln(w, summary(p))
	kc := p.KindCounts()
	for _, k := range orgcode.Kinds() {
		if m := kc[k.Name]; m != nil {
			fmt.Fprintf(w, "  %-16s %s\n", k.Name, kindLine(m))
		}
	}
	if n, what := riskLine(p); n > 0 {
		fmt.Fprintf(w, "Risky: %s (marked ! below).\n", what)
	}
	for _, l := range builtinWarnings(p) {
		fmt.Fprintln(w, output.Paint(colour, output.Red, "Warning:")+" "+output.Safe(l))
	}
	if b := blockedLine(p); b != "" {
		fmt.Fprintln(w, b)
	}
	if len(p.Unmanaged) > 0 && !p.Empty() {
		what := "not counted as changes; --prune deletes them"
		if p.Prune {
			what = pruned(p)
		}
		fmt.Fprintf(w, "Unmanaged: %s in no file (%s; listed below).\n", plural(len(p.Unmanaged), "live object is", "live objects are"), what)
	}
	fmt.Fprintln(w, costLine(p, bc))

	byKind := map[string][]orgcode.Change{}
	for _, c := range p.Changes {
		byKind[c.Kind] = append(byKind[c.Kind], c)
	}
	for _, k := range orgcode.Kinds() {
		cs := byKind[k.Name]
		if len(cs) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", k.Name)
		for _, c := range cs {
			tail := ""
			if c.Note != "" {
				tail = " (" + output.Safe(c.Note) + ")"
			}
			if r := c.Risk(); r != "" {
				tail += "  " + mark("!") + " " + string(r)
			}
			fmt.Fprintf(w, "  %s %s %s%s\n", mark(sign(c.Action)), c.Action, output.Safe(c.Key), tail)
			for _, fc := range c.Fields {
				risk := ""
				if r := c.FieldRisk(fc); r != "" {
					risk = "  " + mark("!") + " " + string(r)
				}
				fmt.Fprintf(w, "      %s %s%s\n", mark(fieldSign(fc)), output.Safe(fieldText(fc)), risk)
			}
		}
	}
	writeBlocked(w, p, mark("!"))
	if len(p.Unmanaged) > 0 {
		what := "not counted as changes; --prune deletes them"
		if p.Prune {
			what = pruned(p)
		}
		fmt.Fprintf(w, "\nunmanaged (live, in no file; %s):\n", what)
		for _, group := range unmanagedByKind(p) {
			for i, u := range group {
				if i == unmanagedShown && len(group) > unmanagedShown+1 {
					fmt.Fprintf(w, "  %s: and %d more (-o json lists them all)\n", u.Kind, len(group)-unmanagedShown)
					break
				}
				note := ""
				if u.Note != "" {
					note = " (" + output.Safe(u.Note) + ")"
				}
				fmt.Fprintf(w, "  %s %s%s\n", u.Kind, output.Safe(u.Key), note)
			}
		}
	}
}

// pruned says what a prune does to the unmanaged objects: it deletes
// those the plan has a delete for and leaves the rest (the built-in
// groups, users already disabled, the org's own settings), which the
// plan must not claim to delete.
func pruned(p *orgcode.Plan) string {
	deleted := map[[2]string]bool{}
	for _, c := range p.Changes {
		if c.Action == orgcode.Delete {
			deleted[[2]string{c.Kind, c.Key}] = true
		}
	}
	builtin, disabled, other := 0, 0, 0
	for _, u := range p.Unmanaged {
		switch {
		case deleted[[2]string{u.Kind, u.Key}]:
		case u.Note == orgcode.NoteBuiltin:
			builtin++
		case u.Kind == "users":
			disabled++
		default:
			other++
		}
	}
	var left []string
	if builtin > 0 {
		left = append(left, plural(builtin, "built-in object", "built-in objects"))
	}
	if disabled > 0 {
		left = append(left, plural(disabled, "user already disabled", "users already disabled"))
	}
	if other > 0 {
		left = append(left, plural(other, "object of the org's own", "objects of the org's own"))
	}
	switch {
	case len(left) == 0:
		return "this plan deletes them"
	case builtin+disabled+other == len(p.Unmanaged):
		return "prune leaves them: " + strings.Join(left, ", ")
	}
	return fmt.Sprintf("this plan deletes them but %s, which prune leaves", strings.Join(left, ", "))
}

func unmanagedByKind(p *orgcode.Plan) [][]orgcode.Unmanaged {
	by := map[string][]orgcode.Unmanaged{}
	for _, u := range p.Unmanaged {
		by[u.Kind] = append(by[u.Kind], u)
	}
	var out [][]orgcode.Unmanaged
	for _, k := range orgcode.Kinds() {
		if len(by[k.Name]) > 0 {
			out = append(out, by[k.Name])
		}
	}
	return out
}

// mdCell makes text from the org or its files safe in a Markdown table
// cell of a pull-request comment: shown as output.Safe shows it on a
// terminal, HTML escaped (no tracking pixel, no </details> break-out),
// brackets, backticks and backslashes escaped (no link, image or code
// span; emphasis, which only styles, is left), and mentions and
// issue references (@team, #123, owner/repo#123) neutralised with a zero-
// width space written as an entity, as Dependabot and Renovate do, so the
// text reads the same and notifies nobody.
func mdCell(s string) string {
	s = oneLine(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '|', '\\', '[', ']', '`':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '@':
			b.WriteByte('@')
			if i == 0 || !wordByte(s[i-1]) {
				b.WriteString(zeroWidth)
			}
		case '#':
			b.WriteByte('#')
			if i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
				b.WriteString(zeroWidth)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// oneLine is text from the org or its files on one line, as output.Safe
// shows it.
func oneLine(s string) string { return output.Safe(lineBreaks(s)) }

// lineBreaks turns each line break (CR LF, LF or CR) into a space: a table
// cell is one line. A loop rather than a strings.Replacer, which would be
// built before every orgctl command.
func lineBreaks(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			b = append(b, ' ')
		case '\n':
			b = append(b, ' ')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// zeroWidth is U+200B as an HTML entity: it breaks a mention or an issue
// reference without a character a reader sees.
const zeroWidth = "&#8203;"

// wordByte reports an ASCII letter or digit: an @ after one is part of a
// word (an email), which is no mention.
func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// mdCode shows a value as code: nothing in it is Markdown, HTML or a
// mention; only the cell border, the backtick and line breaks need care.
func mdCode(s string) string {
	if s == "" {
		return ""
	}
	s = oneLine(s)
	return "`" + strings.NewReplacer("|", `\|`, "`", "'").Replace(s) + "`"
}

// writeMarkdown renders the plan for a pull-request comment: the summary
// and a table by kind, risky changes called out, every change as a row of
// one table (cut at markdownRows), the unmanaged objects and the cost.
func writeMarkdown(w io.Writer, p *orgcode.Plan, bc ratebudget.Config) {
	fmt.Fprintf(w, "### orgctl plan\n\n**%s**\n\n", mdCell(summary(p)))
	kc := p.KindCounts()
	if len(kc) > 0 {
		fmt.Fprintln(w, "| Kind | Create | Change | Delete |")
		fmt.Fprintln(w, "|:--|--:|--:|--:|")
		for _, k := range orgcode.Kinds() {
			if m := kc[k.Name]; m != nil {
				fmt.Fprintf(w, "| %s | %d | %d | %d |\n", k.Name, m[orgcode.Create], m[orgcode.Update], m[orgcode.Delete])
			}
		}
		fmt.Fprintln(w)
	}
	if n, what := riskLine(p); n > 0 {
		fmt.Fprintf(w, "> [!WARNING]\n> **Risky changes:** %s.\n\n", what)
	}
	if ws := builtinWarnings(p); len(ws) > 0 {
		fmt.Fprintf(w, "> [!CAUTION]\n")
		for _, l := range ws {
			fmt.Fprintf(w, "> %s\n", mdCell(l))
		}
		fmt.Fprintln(w)
	}
	if len(p.Changes) > 0 {
		fmt.Fprintf(w, "<details open><summary>Changes</summary>\n\n")
		fmt.Fprintln(w, "| | Kind | Object | Field | Old | New | Risk |")
		fmt.Fprintln(w, "|:-:|:--|:--|:--|:--|:--|:--|")
		rows := 0
		row := func(sign, kind, key, field, old, nw, risk string) {
			rows++
			if rows <= markdownRows {
				fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", sign, mdCell(kind), mdCell(key), mdCell(field), old, nw, mdCell(risk))
			}
		}
		for _, c := range p.Changes {
			if len(c.Fields) == 0 || c.Risk() != "" {
				row(sign(c.Action), c.Kind, c.Key, c.Note, "", "", string(c.Risk()))
				if len(c.Fields) == 0 {
					continue
				}
			}
			for _, fc := range c.Fields {
				old, nw := "", ""
				if fc.HasOld {
					old = mdCode(showValue(fc.Old))
				}
				if fc.HasNew {
					nw = mdCode(showValue(fc.New))
				}
				row(fieldSign(fc), c.Kind, c.Key, fc.Field, old, nw, string(c.FieldRisk(fc)))
			}
		}
		if rows > markdownRows {
			fmt.Fprintf(w, "\n… and %d more rows: run `orgctl plan` for the whole plan.\n", rows-markdownRows)
		}
		fmt.Fprintf(w, "\n</details>\n\n")
	}
	writeMarkdownBlocked(w, p)
	if len(p.Unmanaged) > 0 {
		what := "not counted as changes; `--prune` deletes them"
		if p.Prune {
			what = pruned(p)
		}
		fmt.Fprintf(w, "**Unmanaged:** %s in no file (%s):", plural(len(p.Unmanaged), "live object is", "live objects are"), what)
		for i, group := range unmanagedByKind(p) {
			sep := ";"
			if i == 0 {
				sep = ""
			}
			var keys []string
			for j, u := range group {
				if j == unmanagedShown && len(group) > unmanagedShown+1 {
					keys = append(keys, fmt.Sprintf("and %d more", len(group)-unmanagedShown))
					break
				}
				keys = append(keys, mdCell(u.Key))
			}
			fmt.Fprintf(w, "%s %s (%d): %s", sep, mdCell(group[0].Kind), len(group), strings.Join(keys, ", "))
		}
		fmt.Fprintf(w, ".\n\n")
	}
	fmt.Fprintln(w, mdCell(costLine(p, bc)))
}
