package families

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/orgcode"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/output"
)

var reportColumns = []output.Column{
	{Header: "USER", Field: "user"},
	{Header: "ACTIVE", Field: "active"},
	{Header: "ADMIN", Field: "admin"},
	{Header: "OBJECT TYPE", Field: "object_type"},
	{Header: "OBJECT", Field: "object"},
	{Header: "LEVEL", Field: "level"},
	{Header: "VIA", Field: "via"},
}

var changeColumns = []output.Column{
	{Header: "CHANGE", Field: "change"},
	{Header: "USER", Field: "user"},
	{Header: "OBJECT TYPE", Field: "object_type"},
	{Header: "OBJECT", Field: "object"},
	{Header: "BEFORE", Field: "before"},
	{Header: "AFTER", Field: "after"},
}

type reportOptions struct {
	since, write, method  string
	csv, exitCode, dryRun bool
}

// reportTypes are the object types a review covers: every type with an
// access list that the API lists.
var reportTypes = []string{"folder", "app", "resource", "workflow"}

// listObjectsTypes are the types listObjects covers (workflows it does not).
var listObjectsTypes = []string{"folder", "app", "resource"}

func newReportCmd(f *cli.Factory) *cobra.Command {
	var o reportOptions
	c := &cobra.Command{
		Use:   "report",
		Short: "Report the whole org's effective access: one row per user and object",
		Long: `One row per user and object the user can reach: USER, ACTIVE, ADMIN, OBJECT TYPE,
OBJECT (name, or path for folders), LEVEL (effective) and VIA (direct; universal
through GROUP; member of GROUP; inherited from FOLDER PATH). Every user is in
it, disabled ones too (ACTIVE false); a user who reaches nothing has one row
with LEVEL none. Objects: folders, apps, resources and workflows.

The API allows two ways to read it; the report picks the cheaper for this org
and says what both cost, and the wait, before it starts (--dry-run stops there):
  access-lists  one GET /permissions/accessList per object
  list-objects  per type, one POST /permissions/listObjects per user (effective
                and direct) and per group, plus one access list per workflow
Both cost 10 points a request; the lists that name users, groups and objects
come first (a few points). --method forces one.

The reads run as a job: progress on stderr, and a run stopped by Ctrl-C or a
kill goes on from what it already read when run again with the same command
(see 'orgctl jobs list'). A finished run forgets its reads.

--csv writes RFC 4180 CSV with a header row, cells a spreadsheet would read as
a formula made inert (a leading '), for auditors. --since PREVIOUS.csv reads an
earlier report and prints what changed instead: granted, revoked, level changed,
via changed (the same level another way: a direct grant revoked that a group
still covers), new admin, disabled; --write FILE keeps this run's report as CSV at the same
time, and --exit-code exits 7 when anything changed.`,
		Example: `  orgctl permissions report --csv > access-2026-q3.csv
  orgctl permissions report --dry-run
  orgctl permissions report --since access-2026-q2.csv --write access-2026-q3.csv --exit-code`,
		Args:        cli.NoArgsGroup,
		Annotations: map[string]string{"scope": "Permissions > Read", "method": http.MethodGet, "path": "/permissions/accessList/{objectType}/{objectId}", "cost": "10"},
		RunE: func(c *cobra.Command, _ []string) error {
			switch o.method {
			case "auto", "access-lists", "list-objects":
			default:
				return cli.UsageErrorf("invalid --method %q: allowed values are auto, access-lists, list-objects", o.method)
			}
			if o.exitCode && o.since == "" {
				return cli.UsageErrorf("--exit-code needs --since PREVIOUS.csv: it says whether anything changed since then")
			}
			if o.write != "" && o.since == "" {
				return cli.UsageErrorf("--write goes with --since (without it, --csv prints the report: redirect it to a file)")
			}
			return reportRun(c.Context(), f, o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.since, "since", "", "print the changes since this earlier report (`PREVIOUS.csv`)")
	fl.StringVar(&o.write, "write", "", "with --since: also write this run's report as CSV to `FILE`")
	fl.BoolVar(&o.exitCode, "exit-code", false, "with --since: exit 7 when anything changed")
	fl.BoolVar(&o.csv, "csv", false, "print CSV (RFC 4180, header row, formula cells made inert)")
	fl.BoolVar(&o.dryRun, "dry-run", false, "say what the report would read and cost, and stop")
	fl.StringVar(&o.method, "method", "auto", "how to read: auto (the cheaper), access-lists or list-objects")
	return c
}

type reportRow map[string]string

func reportRun(parent context.Context, f *cli.Factory, o reportOptions) error {
	var prev []reportRow
	if o.since != "" {
		var err error
		if prev, err = readReportCSV(o.since); err != nil {
			return &cli.UsageError{Err: err}
		}
	}
	cfg, p, err := cli.PrinterFor(f)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	conn, err := f.JobConnection(ctx, 1)
	if err != nil {
		return err
	}
	org := newAccessOrg(conn.Client)
	if err := org.loadUsers(ctx); err != nil {
		return cli.Explain(cfg, err)
	}
	if err := org.loadGroups(ctx); err != nil {
		return cli.Explain(cfg, err)
	}
	if err := org.loadObjects(ctx, reportTypes...); err != nil {
		return cli.Explain(cfg, err)
	}

	byLists, byObjects := org.accessListReads(reportTypes), org.listObjectsReads()
	reads, method := byLists, "access-lists"
	if o.method == "list-objects" || (o.method == "auto" && len(byObjects) < len(byLists)) {
		reads, method = byObjects, "list-objects"
	}
	points := 0
	for _, r := range reads {
		points += r.cost()
	}
	nObjects := 0
	for _, t := range reportTypes {
		nObjects += len(org.objects[t])
	}
	wait := "?"
	if st, err := conn.Ledger.Status(); err == nil {
		wait = st.TimeFor(points).Round(100 * time.Millisecond).String()
	}
	bc := cfg.Budget
	if !f.Quiet() || o.dryRun {
		f.IO.Notice("permissions report: %d users, %d groups, %d objects; read so far: %d requests, %d points", len(org.users), len(org.groups), nObjects, org.reqs, org.points)
		f.IO.Notice("  access-lists: %d requests, %d points; list-objects: %d requests, %d points", len(byLists), 10*len(byLists), len(byObjects), 10*len(byObjects))
		f.IO.Notice("reading by %s: %d requests, %d points; the budget (%d points per %s) needs at least %s for them, %s as it stands", method, len(reads), points,
			bc.Points-bc.Reserve, bc.Window, orgcode.MinTime(bc, points), wait)
	}
	if o.dryRun {
		return nil
	}
	job := &readJob{command: "orgctl permissions report", reqs: reads, points: points, conn: conn, f: f}
	id := bulk.JobID(job.command, []string{method}, conn.Target.BaseURL, jobSum(reads))
	answers, err := job.run(ctx, id, []string{"--method", method})
	if err != nil {
		return err
	}
	rows, err := org.reportRows(reads, answers)
	if err != nil {
		return err
	}
	if o.since == "" {
		return printRows(p, o.csv, rows, reportColumns)
	}
	if o.write != "" {
		fh, err := os.Create(o.write)
		if err != nil {
			return err
		}
		err = writeCSV(fh, reportColumns, rows)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", o.write, err)
		}
	}
	changes := reportChanges(prev, rows)
	if len(changes) == 0 {
		if !f.Quiet() {
			f.IO.Notice("no change since %s", o.since)
		}
		return nil
	}
	if err := printRows(p, o.csv, changes, changeColumns); err != nil {
		return err
	}
	if o.exitCode {
		return &cli.ExitError{Code: cli.ExitFindings}
	}
	return nil
}

func (r readReq) cost() int { return 10 }

func (o *accessOrg) accessListReq(typ, id string) readReq {
	return readReq{key: typ + " " + o.name(typ, id), typ: typ, id: id,
		req: client.Request{Method: http.MethodGet, Path: "/permissions/accessList/" + typ + "/" + url.PathEscape(id), Scope: "Permissions > Read"}}
}

func (o *accessOrg) accessListReads(types []string) []readReq {
	var out []readReq
	for _, t := range types {
		for _, id := range o.objects[t] {
			out = append(out, o.accessListReq(t, id))
		}
	}
	return out
}

// listObjectsReads reads per subject: each user's effective and direct
// objects and each group's effective objects, type by type, and the access
// list of each workflow (listObjects has no workflows).
func (o *accessOrg) listObjectsReads() []readReq {
	var out []readReq
	add := func(st, sid string, id any, t string, inherited bool) {
		body := map[string]any{"subject": map[string]any{"type": st, "id": id}, "object_type": t}
		what := "direct"
		if inherited {
			body["include_inherited_access"] = true
			what = "effective"
		}
		out = append(out, readReq{key: fmt.Sprintf("%s %s %s %ss", st, sid, what, t), typ: t, subjType: st, subjID: sid, inherited: inherited,
			req: client.Request{Method: http.MethodPost, Path: "/permissions/listObjects", Scope: "Permissions > Read", Body: body}})
	}
	for _, u := range o.users {
		for _, t := range listObjectsTypes {
			add("user", u.ID, u.ID, t, true)
			add("user", u.ID, u.ID, t, false)
		}
	}
	for _, g := range o.groups {
		for _, t := range listObjectsTypes {
			add("group", groupID(g), json.Number(groupID(g)), t, true)
		}
	}
	for _, id := range o.objects["workflow"] {
		out = append(out, o.accessListReq("workflow", id))
	}
	return out
}

// kindOf is the kind whose universal access reaches an object: a folder's
// own type (app_7 is an app folder), else the object's type.
func kindOf(typ, id string) string {
	if typ == "resource_configuration" {
		return "resource"
	}
	if typ == "folder" {
		k, _, _ := strings.Cut(id, "_")
		return k
	}
	return typ
}

func (o *accessOrg) nameOf(kind, id string) string {
	switch kind {
	case "groups":
		return o.groupName(id)
	case "folders":
		return o.name("folder", id)
	case "users":
		return o.userEmail(id)
	}
	return id
}

type orgNamer struct{ o *accessOrg }

func (n orgNamer) name(kind, id string) string { return n.o.nameOf(kind, id) }

// reportRows turns the answers into one row per user and object, and one
// row (level none) for each user who reaches nothing.
func (o *accessOrg) reportRows(reads []readReq, answers []json.RawMessage) ([]reportRow, error) {
	type key struct{ user, typ, id string }
	level, via := map[key]string{}, map[key]string{}
	eff := map[string]map[string]string{} // "user/ID/type" or "group/ID/type" -> object -> level
	direct := map[string]map[string]string{}
	for i, r := range reads {
		if r.subjType == "" {
			var lists map[string][]accessEntry
			if err := json.Unmarshal(answers[i], &lists); err != nil {
				return nil, fmt.Errorf("%s: unexpected answer: %w", r.req.Path, err)
			}
			groups := map[string]accessEntry{}
			for _, e := range lists["group"] {
				groups[engine.IDText(e.Subject.ID)] = e
			}
			for _, e := range lists["user"] {
				k := key{engine.IDText(e.Subject.ID), r.typ, r.id}
				level[k], via[k] = e.AccessLevel, accessVia(e, groups, orgNamer{o})
			}
			continue
		}
		var objs []listedObject
		if err := json.Unmarshal(answers[i], &objs); err != nil {
			return nil, fmt.Errorf("%s: unexpected answer: %w", r.req.Path, err)
		}
		m := map[string]string{}
		for _, ob := range objs {
			m[engine.IDText(ob.ID)] = ob.Level
		}
		k := r.subjType + "/" + r.subjID + "/" + r.typ
		if r.inherited {
			eff[k] = m
		} else {
			direct[k] = m
		}
	}
	// listObjects says no "why": it is told from the user's own grants and
	// what each of the user's groups reaches.
	for _, u := range o.users {
		groups := o.groupsOfUser(u.ID)
		for _, t := range listObjectsTypes {
			for id, l := range eff["user/"+u.ID+"/"+t] {
				var parts []string
				if _, ok := direct["user/"+u.ID+"/"+t][id]; ok {
					parts = append(parts, "direct")
				}
				for _, g := range groups {
					gl, ok := eff["group/"+groupID(*g)+"/"+t][id]
					switch {
					case !ok:
					case levelRank[g.universal(kindOf(t, id))] >= levelRank[gl]:
						parts = append(parts, "universal through "+g.Name)
					default:
						parts = append(parts, "member of "+g.Name)
					}
				}
				if len(parts) == 0 {
					parts = append(parts, "inherited from a folder")
				}
				k := key{u.ID, t, id}
				level[k], via[k] = l, strings.Join(parts, "; ")
			}
		}
	}
	var rows []reportRow
	reached := map[string]bool{}
	for k, l := range level {
		u := o.userByID[k.user]
		if u == nil {
			continue // an access list may name a user the user list does not hold; the report is per listed user
		}
		reached[k.user] = true
		rows = append(rows, o.userRow(u, reportRow{"object_type": k.typ, "object": o.name(k.typ, k.id), "level": l, "via": via[k]}))
	}
	for i := range o.users {
		if u := &o.users[i]; !reached[u.ID] {
			rows = append(rows, o.userRow(u, reportRow{"object_type": "", "object": "", "level": "none", "via": ""}))
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		for _, f := range []string{"user", "object_type", "object"} {
			if rows[i][f] != rows[j][f] {
				return rows[i][f] < rows[j][f]
			}
		}
		return false
	})
	return rows, nil
}

func (o *accessOrg) userRow(u *accessUser, r reportRow) reportRow {
	r["user"], r["active"], r["admin"] = u.Email, fmt.Sprint(u.Active), fmt.Sprint(u.IsAdmin)
	return r
}

// reportChanges compares two reports: grants that appeared or went, levels
// that changed, users who became admins or were disabled.
func reportChanges(prev, now []reportRow) []reportRow {
	type key struct{ user, typ, obj string }
	index := func(rows []reportRow) (map[key]string, map[key]string, map[string]reportRow) {
		grants, vias, users := map[key]string{}, map[key]string{}, map[string]reportRow{}
		for _, r := range rows {
			users[strings.ToLower(r["user"])] = r
			if r["object"] != "" && r["level"] != "none" {
				k := key{strings.ToLower(r["user"]), r["object_type"], r["object"]}
				grants[k], vias[k] = r["level"], r["via"]
			}
		}
		return grants, vias, users
	}
	pg, pv, pu := index(prev)
	ng, nv, nu := index(now)
	var out []reportRow
	email := func(k key, rows map[string]reportRow) string { return rows[k.user]["user"] }
	for k, l := range ng {
		switch old, ok := pg[k]; {
		case !ok:
			out = append(out, reportRow{"change": "granted", "user": email(k, nu), "object_type": k.typ, "object": k.obj, "before": "", "after": l})
		case old != l:
			out = append(out, reportRow{"change": "level changed", "user": email(k, nu), "object_type": k.typ, "object": k.obj, "before": old, "after": l})
		case pv[k] != nv[k]:
			// The same level another way: a revoked direct grant that a group
			// still covers, say.
			out = append(out, reportRow{"change": "via changed", "user": email(k, nu), "object_type": k.typ, "object": k.obj, "before": pv[k], "after": nv[k]})
		}
	}
	for k, l := range pg {
		if _, ok := ng[k]; !ok {
			out = append(out, reportRow{"change": "revoked", "user": email(k, pu), "object_type": k.typ, "object": k.obj, "before": l, "after": ""})
		}
	}
	for id, r := range nu {
		old, known := pu[id]
		if r["admin"] == "true" && (!known || old["admin"] != "true") {
			out = append(out, reportRow{"change": "new admin", "user": r["user"], "before": old["admin"], "after": "true"})
		}
		if known && old["active"] == "true" && r["active"] == "false" {
			out = append(out, reportRow{"change": "disabled", "user": r["user"], "before": "true", "after": "false"})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		for _, f := range []string{"user", "change", "object_type", "object"} {
			if out[i][f] != out[j][f] {
				return out[i][f] < out[j][f]
			}
		}
		return false
	})
	return out
}

func printRows(p *output.Printer, asCSV bool, rows []reportRow, cols []output.Column) error {
	if asCSV || p.Opts.Format == "csv" {
		return writeCSV(p.IO.Out, cols, rows)
	}
	if rows == nil {
		rows = []reportRow{}
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	return p.Print(b, cols)
}

// writeCSV writes RFC 4180 CSV with a header row. A cell that a spreadsheet
// would take for a formula (= + - @, or a tab or carriage return first) gets
// a leading ' so that it stays text.
func writeCSV(w io.Writer, cols []output.Column, rows []reportRow) error {
	cw := csv.NewWriter(w)
	rec := make([]string, len(cols))
	for i, c := range cols {
		rec[i] = c.Header
	}
	cw.Write(rec)
	for _, r := range rows {
		for i, c := range cols {
			rec[i] = inertCell(r[c.Field])
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

func inertCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// readReportCSV reads a report written by --csv (or --write), by its header.
func readReportCSV(path string) ([]reportRow, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--since: %w", err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("--since %s: not a CSV report: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("--since %s: empty file: expected a report written by 'orgctl permissions report --csv'", path)
	}
	field := map[string]string{}
	for _, c := range reportColumns {
		field[c.Header] = c.Field
	}
	cols := make([]string, len(recs[0]))
	seen := map[string]bool{}
	for i, h := range recs[0] {
		cols[i] = field[strings.TrimSpace(h)]
		seen[cols[i]] = true
	}
	for _, c := range reportColumns {
		if !seen[c.Field] && c.Field != "via" {
			return nil, fmt.Errorf("--since %s: no %s column in the header: expected a report written by 'orgctl permissions report --csv'", path, c.Header)
		}
	}
	rows := make([]reportRow, 0, len(recs)-1)
	for _, rec := range recs[1:] {
		r := reportRow{}
		for i, v := range rec {
			if i < len(cols) && cols[i] != "" {
				if len(v) > 1 && v[0] == '\'' && strings.ContainsRune("=+-@\t\r", rune(v[1])) {
					v = v[1:]
				}
				r[cols[i]] = v
			}
		}
		rows = append(rows, r)
	}
	return rows, nil
}
