package access

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/csvguard"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// Read is one request of a review: an object's access list (ObjType, ObjID),
// or a subject's objects of a type (SubjType, SubjID; effective with
// Inherited, else its own grants).
type Read struct {
	Key string
	Req client.Request

	ObjType, ObjID   string
	SubjType, SubjID string
	Inherited        bool
}

// ReportTypes are the object types a review covers: every type with an
// access list that the API lists.
var ReportTypes = []string{"folder", "app", "resource", "workflow"}

// ListObjectsTypes are the types listObjects covers (workflows it does not).
var ListObjectsTypes = []string{"folder", "app", "resource"}

// Row is one row of a review (or of the changes between two), by the keys
// of ReportFields (or ChangeFields).
type Row map[string]string

func (o *Org) accessListReq(typ, id string) Read {
	return Read{Key: typ + " " + o.Name(typ, id), ObjType: typ, ObjID: id,
		Req: client.Request{Method: http.MethodGet, Path: client.Path("permissions", "accessList", typ, id), Scope: "Permissions > Read"}}
}

// AccessListReads are one access list per object of the types.
func (o *Org) AccessListReads(types []string) []Read {
	var out []Read
	for _, t := range types {
		for _, id := range o.Objects[t] {
			out = append(out, o.accessListReq(t, id))
		}
	}
	return out
}

// listObjectsReads reads per subject: each user's effective and direct
// objects and each group's effective objects, type by type, and the access
// list of each workflow and each type's root (listObjects has neither).
func (o *Org) ListObjectsReads() []Read {
	var out []Read
	add := func(st, sid string, id any, t string, inherited bool) {
		body := map[string]any{"subject": map[string]any{"type": st, "id": id}, "object_type": t}
		what := "direct"
		if inherited {
			body["include_inherited_access"] = true
			what = "effective"
		}
		out = append(out, Read{Key: fmt.Sprintf("%s %s %s %ss", st, sid, what, t), ObjType: t, SubjType: st, SubjID: sid, Inherited: inherited,
			Req: client.Request{Method: http.MethodPost, Path: "/permissions/listObjects", Scope: "Permissions > Read", Body: body}})
	}
	for _, u := range o.Users {
		for _, t := range ListObjectsTypes {
			add("user", u.ID, u.ID, t, true)
			add("user", u.ID, u.ID, t, false)
		}
	}
	for _, g := range o.Groups {
		for _, t := range ListObjectsTypes {
			add("group", GroupID(g), json.Number(GroupID(g)), t, true)
		}
	}
	for _, id := range o.Objects["workflow"] {
		out = append(out, o.accessListReq("workflow", id))
	}
	// listObjects leaves the types' roots out: their access lists say it.
	for _, id := range o.Objects["folder"] {
		if kinds.IsRoot(o.Name("folder", id)) {
			out = append(out, o.accessListReq("folder", id))
		}
	}
	return out
}

// KindOf is the kind whose universal access reaches an object: a folder's
// own type (app_7 is an app folder), else the object's type.
func KindOf(typ, id string) string {
	if typ == "resource_configuration" {
		return "resource"
	}
	if typ == "folder" {
		k, _, _ := strings.Cut(id, "_")
		return k
	}
	return typ
}

// NameOf names an id of a kind as Via asks: "groups", "folders", "users".
func (o *Org) NameOf(kind, id string) string {
	switch kind {
	case "groups":
		return o.GroupName(id)
	case "folders":
		return o.Name("folder", id)
	case "users":
		return o.UserEmail(id)
	}
	return id
}

type orgNamer struct{ o *Org }

func (n orgNamer) Name(kind, id string) string { return n.o.NameOf(kind, id) }

// Rows turns the answers into one row per user and object, and one
// row (level none) for each user who reaches nothing.
func (o *Org) Rows(reads []Read, answers []json.RawMessage) ([]Row, error) {
	type key struct{ user, typ, id string }
	level, via := map[key]string{}, map[key]string{}
	eff := map[string]map[string]string{} // "user/ID/type" or "group/ID/type" -> object -> level
	direct := map[string]map[string]string{}
	for i, r := range reads {
		if r.SubjType == "" {
			lists, err := DecodeAccessList(answers[i])
			if err != nil {
				return nil, fmt.Errorf("%s: unexpected answer: %w", r.Req.Path, err)
			}
			groups := map[string]Entry{}
			for _, e := range lists["group"] {
				groups[e.SubjectID()] = e
			}
			for _, e := range lists["user"] {
				k := key{e.SubjectID(), r.ObjType, r.ObjID}
				level[k], via[k] = e.AccessLevel, o.via(e, groups, r.ObjType, r.ObjID)
			}
			continue
		}
		var objs []Object
		if err := json.Unmarshal(answers[i], &objs); err != nil {
			return nil, fmt.Errorf("%s: unexpected answer: %w", r.Req.Path, err)
		}
		m := map[string]string{}
		for _, ob := range objs {
			m[jsonscan.AsText(ob.ID)] = ob.Level
		}
		k := r.SubjType + "/" + r.SubjID + "/" + r.ObjType
		if r.Inherited {
			eff[k] = m
		} else {
			direct[k] = m
		}
	}
	// A review covers the objects it lists (o.Objects): listObjects may
	// also answer users' personal folders, which the access lists leave out.
	covered := map[string]map[string]bool{}
	for t, ids := range o.Objects {
		covered[t] = map[string]bool{}
		for _, id := range ids {
			covered[t][id] = true
		}
	}
	// listObjects says no "why": it is told from the user's own grants and
	// what each of the user's groups reaches.
	for _, u := range o.Users {
		groups := o.GroupsOf(u.ID)
		for _, t := range ListObjectsTypes {
			for id, l := range eff["user/"+u.ID+"/"+t] {
				if covered[t] != nil && !covered[t][id] {
					continue
				}
				k := key{u.ID, t, id}
				level[k], via[k] = l, why(u.ID, groups, t, id, eff, direct)
			}
		}
	}
	var rows []Row
	reached := map[string]bool{}
	for k, l := range level {
		u := o.userByID[k.user]
		if u == nil {
			continue // an access list may name a user the user list does not hold; the report is per listed user
		}
		reached[k.user] = true
		rows = append(rows, o.userRow(u, Row{"object_type": k.typ, "object": o.Name(k.typ, k.id), "level": l, "via": via[k]}))
	}
	for i := range o.Users {
		if u := &o.Users[i]; !reached[u.ID] {
			rows = append(rows, o.userRow(u, Row{"object_type": "", "object": "", "level": "none", "via": ""}))
		}
	}
	sortRows(rows)
	return rows, nil
}

// via is Via for a review's access list of object id of type t: a
// group's universal level is the org's, so that the wording is why's.
func (o *Org) via(e Entry, groups map[string]Entry, t, id string) string {
	return via(e, groups, orgNamer{o}, func(gid string) string {
		if g := o.groupByID[gid]; g != nil {
			return g.Universal(KindOf(t, id))
		}
		return ""
	})
}

// why tells how a user reaches object id of type t, which listObjects
// does not say: from the user's own grants (direct) and what each of the
// user's groups reaches (eff).
func why(userID string, groups []*Group, t, id string, eff, direct map[string]map[string]string) string {
	var parts []string
	if _, ok := direct["user/"+userID+"/"+t][id]; ok {
		parts = append(parts, "direct")
	}
	for _, g := range groups {
		gl, ok := eff["group/"+GroupID(*g)+"/"+t][id]
		switch {
		case !ok:
		case universalGives(g.Universal(KindOf(t, id)), gl):
			parts = append(parts, "universal through "+g.Name)
		default:
			parts = append(parts, "member of "+g.Name)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "inherited from a folder")
	}
	return strings.Join(parts, "; ")
}

// sortRows orders a report by user, then object type and object.
func sortRows(rows []Row) {
	sort.Slice(rows, func(i, j int) bool {
		for _, f := range []string{"user", "object_type", "object"} {
			if rows[i][f] != rows[j][f] {
				return rows[i][f] < rows[j][f]
			}
		}
		return false
	})
}

func (o *Org) userRow(u *User, r Row) Row {
	r["user"], r["active"], r["admin"] = u.Email, fmt.Sprint(u.Active), fmt.Sprint(u.IsAdmin)
	return r
}

// Changes compares two reports: grants that appeared or went, levels
// that changed, users who became admins or were disabled.
func Changes(prev, now []Row) []Row {
	type key struct{ user, typ, obj string }
	index := func(rows []Row) (map[key]string, map[key]string, map[string]Row) {
		grants, vias, users := map[key]string{}, map[key]string{}, map[string]Row{}
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
	var out []Row
	email := func(k key, rows map[string]Row) string { return rows[k.user]["user"] }
	for k, l := range ng {
		switch old, ok := pg[k]; {
		case !ok:
			out = append(out, Row{"change": "granted", "user": email(k, nu), "object_type": k.typ, "object": k.obj, "level_after": l, "via_after": nv[k]})
		case old != l:
			out = append(out, Row{"change": "level changed", "user": email(k, nu), "object_type": k.typ, "object": k.obj,
				"level_before": old, "level_after": l, "via_before": pv[k], "via_after": nv[k]})
		case pv[k] != nv[k]:
			// The same level another way: a revoked direct grant that a group
			// still covers, say.
			out = append(out, Row{"change": "via changed", "user": email(k, nu), "object_type": k.typ, "object": k.obj,
				"level_before": l, "level_after": l, "via_before": pv[k], "via_after": nv[k]})
		}
	}
	for k, l := range pg {
		if _, ok := ng[k]; !ok {
			out = append(out, Row{"change": "revoked", "user": email(k, pu), "object_type": k.typ, "object": k.obj, "level_before": l, "via_before": pv[k]})
		}
	}
	for id, r := range nu {
		old, known := pu[id]
		if r["admin"] == "true" && (!known || old["admin"] != "true") {
			out = append(out, Row{"change": "new admin", "user": r["user"]})
		}
		if known && old["active"] == "true" && r["active"] == "false" {
			out = append(out, Row{"change": "disabled", "user": r["user"]})
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

// ReportColumn is one column of a report: its header and its key in a Row.
type ReportColumn struct{ Header, Key string }

// ReportFields are the report's columns; ChangeFields those of the changes
// between two reports.
var (
	ReportFields = []ReportColumn{{"USER", "user"}, {"ACTIVE", "active"}, {"ADMIN", "admin"},
		{"OBJECT TYPE", "object_type"}, {"OBJECT", "object"}, {"LEVEL", "level"}, {"VIA", "via"}}
	// A change's level and its way each have their columns, before and
	// after, so that an auditor can keep the level changes alone; a user's
	// own change (new admin, disabled) is said by CHANGE and leaves them empty.
	ChangeFields = []ReportColumn{{"CHANGE", "change"}, {"USER", "user"}, {"OBJECT TYPE", "object_type"},
		{"OBJECT", "object"}, {"LEVEL BEFORE", "level_before"}, {"LEVEL AFTER", "level_after"},
		{"VIA BEFORE", "via_before"}, {"VIA AFTER", "via_after"}}
)

// Provenance is where and when a report was read, and by what: an
// auditor's CSV carries it in columns of its own on every row, which keep
// the file CSV (a leading "# comment" line is data to a spreadsheet and to
// csv readers) and survive sorting, filtering and joining quarters, where
// a sidecar file would be lost.
type Provenance struct {
	At      time.Time
	Org     string // the base URL, without user info
	Version string // orgctl's
}

// ProvenanceFields are the columns Stamp adds.
var ProvenanceFields = []ReportColumn{{"REPORTED AT", "reported_at"}, {"ORG", "org"}, {"ORGCTL", "orgctl"}}

// Stamp returns fields and rows with the provenance columns added.
func (p Provenance) Stamp(fields []ReportColumn, rows []Row) ([]ReportColumn, []Row) {
	fs := append(append([]ReportColumn(nil), fields...), ProvenanceFields...)
	at := p.At.UTC().Format(time.RFC3339)
	out := make([]Row, len(rows))
	for i, r := range rows {
		c := make(Row, len(r)+3)
		for k, v := range r {
			c[k] = v
		}
		c["reported_at"], c["org"], c["orgctl"] = at, p.Org, p.Version
		out[i] = c
	}
	return fs, out
}

// WriteCSV writes RFC 4180 CSV with a header row. A cell that a spreadsheet
// would take for a formula (= + - @, or a tab or carriage return first) gets
// a leading ' so that it stays text.
func WriteCSV(w io.Writer, cols []ReportColumn, rows []Row) error {
	return WriteTable(output.NewCSVWriter(w), cols, nil, rows)
}

// WriteTable writes the rows as -o csv prints them, through cw; marks
// (nil, or one per column) are the columns' as a terminal table has them.
func WriteTable(cw output.TableWriter, cols []ReportColumn, marks []output.Mark, rows []Row) error {
	rec := make([]string, len(cols))
	for i, c := range cols {
		rec[i] = c.Header
	}
	cw.Header(rec, marks)
	for _, r := range rows {
		for i, c := range cols {
			rec[i] = r[c.Key]
		}
		cw.Write(rec)
	}
	return cw.Flush()
}

// ProfileColumn leads each row of a report of several Spaces (--profiles)
// with the profile of the row's Space; ReadCSV reads it into the key
// "profile".
const ProfileColumn = "PROFILE"

// OfProfile is rows, read by ReadCSV, as a report of one Space: when the
// file holds several (a PROFILE column), the rows of profile name, which
// must be there; else rows as they are.
func OfProfile(path string, rows []Row, name string) ([]Row, error) {
	var mine []Row
	var others []string
	for _, r := range rows {
		p, ok := r["profile"]
		if !ok {
			return rows, nil
		}
		if p == name {
			mine = append(mine, r)
		} else if !slices.Contains(others, p) {
			others = append(others, p)
		}
	}
	if len(mine) == 0 && len(rows) > 0 {
		return nil, fmt.Errorf("--since %s: no row of profile %q: its PROFILE column names %s; compare a Space with a report of its own", path, name, strings.Join(others, ", "))
	}
	return mine, nil
}

// ReadCSV reads a report written by -o csv (or --write), by its header.
func ReadCSV(path string) ([]Row, error) {
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
		return nil, fmt.Errorf("--since %s: empty file: expected a report written by 'orgctl permissions report -o csv'", path)
	}
	field := map[string]string{ProfileColumn: "profile"}
	for _, c := range ReportFields {
		field[c.Header] = c.Key
	}
	cols := make([]string, len(recs[0]))
	seen := map[string]bool{}
	for i, h := range recs[0] {
		cols[i] = field[strings.TrimSpace(h)]
		seen[cols[i]] = true
	}
	for _, c := range ReportFields {
		if !seen[c.Key] && c.Key != "via" {
			return nil, fmt.Errorf("--since %s: no %s column in the header: expected a report written by 'orgctl permissions report -o csv'", path, c.Header)
		}
	}
	rows := make([]Row, 0, len(recs)-1)
	for _, rec := range recs[1:] {
		r := Row{}
		for i, v := range rec {
			if i < len(cols) && cols[i] != "" {
				r[cols[i]] = csvguard.Text(v)
			}
		}
		rows = append(rows, r)
	}
	return rows, nil
}
