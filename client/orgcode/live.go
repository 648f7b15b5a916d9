package orgcode

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// Doer sends one request: the orgctl client, paced by the budget.
type Doer interface {
	Do(ctx context.Context, r client.Request) (*client.Response, error)
	Pages(ctx context.Context, r client.Request, fn func(*client.Response) error) error
}

// Live is the org as its lists show it, mapped to documents.
type Live struct {
	Docs map[string][]*Doc // kind -> documents in key order
	// Keys of objects the files may refer to but do not manage: apps,
	// environments, system folders.
	Apps map[string]string // app name -> id
	// SameName are the app names more than one app has, with their ids:
	// org as code names apps by name, so such an app cannot be told apart.
	SameName map[string][]string
	// SystemFolders are folders every org has (roots, archives): they may
	// be referred to, and are never created or deleted.
	SystemFolders map[string]string // folder path -> id
	// Reads are the requests the read sent.
	Reads []client.Request

	mu       sync.Mutex
	ids      map[string]string // kind+"\x00"+folded key -> id
	progress *ReadProgress
	// accessListsExpected: the progress counts the access lists already,
	// from the folders and apps lists read first.
	accessListsExpected bool
}

// ReadProgress is where a read of the org stands: requests and points
// spent and (as far as known: the access lists are counted once the
// lists show the folders and apps) to spend.
type ReadProgress struct {
	// Cost prices a request's path.
	Cost func(path string) int

	mu                  sync.Mutex
	done, total         int
	points, pointsTotal int
	unexpected          int // requests sent before they were expected (further pages)
	// open: the access lists to read are not counted yet (the folders and
	// apps lists that say how many are still being read)
	open bool
}

// Open reports a total that does not count every read yet: the access
// lists are counted once the folders and apps lists are in.
func (p *ReadProgress) Open() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.open
}

func (p *ReadProgress) setOpen(open bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.open = open
	p.mu.Unlock()
}

// Now is requests done and in all, points spent and in all.
func (p *ReadProgress) Now() (done, total, points, pointsTotal int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done, max(p.total, p.done), p.points, max(p.pointsTotal, p.points)
}

func (p *ReadProgress) expect(paths ...string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, path := range paths {
		p.total++
		p.pointsTotal += p.Cost(path)
	}
}

func (p *ReadProgress) sent(path string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.points += p.Cost(path)
	if p.done > p.total { // a list's further pages
		p.total, p.pointsTotal = p.done, p.points
		p.unexpected++
	}
}

// readOrder is the order of the list requests; grants come after, one
// access list per folder and app (the API lists grants no other way).
var readOrder = []string{"user-attributes", "users", "groups", "folders", "apps", "environments", "config-vars", "themes", "organization"}

func (l *Live) record(r client.Request) {
	l.mu.Lock()
	l.Reads = append(l.Reads, r)
	l.mu.Unlock()
	l.progress.sent(r.Path)
}

func (l *Live) listAll(ctx context.Context, d Doer, kind string) ([]map[string]any, error) {
	li := kinds.Of(kind)
	req := client.Request{Method: http.MethodGet, Path: li.List, Scope: li.Scope}
	if li.Singleton {
		l.record(req)
		resp, err := d.Do(ctx, req)
		if err != nil {
			return nil, err
		}
		var one map[string]any
		dec := json.NewDecoder(bytes.NewReader(resp.Data))
		dec.UseNumber()
		if err := dec.Decode(&one); err != nil {
			return nil, fmt.Errorf("GET %s: expected an object: %w", li.List, err)
		}
		return []map[string]any{one}, nil
	}
	var all []map[string]any
	err := d.Pages(ctx, req, func(resp *client.Response) error {
		l.record(req)
		var page []map[string]any
		dec := json.NewDecoder(bytes.NewReader(resp.Data))
		dec.UseNumber()
		if err := dec.Decode(&page); err != nil {
			return fmt.Errorf("GET %s: expected a list: %w", li.List, err)
		}
		all = append(all, page...)
		return nil
	})
	return all, err
}

// ReadLive reads the org as r says: one list per kind it reads (every
// page), then, when it manages grants, one access list per folder and app.
// A reading of files checks their references (Check) between the two,
// and returns its Problems. prog, when not nil, follows the read.
func ReadLive(ctx context.Context, d Doer, r Reading, prog *ReadProgress) (*Live, error) {
	l := &Live{Docs: map[string][]*Doc{}, Apps: map[string]string{}, SystemFolders: map[string]string{}, ids: map[string]string{}, progress: prog}
	raw, err := l.readLists(ctx, d, r)
	if err != nil {
		return nil, err
	}
	lr := &liveRead{l: l, appName: map[string]string{}, envName: map[string]string{}, userEmail: map[string]string{},
		groupName: map[string]string{}, folderPath: map[string]string{}}
	for _, c := range converters {
		c.convert(lr, raw[c.kind])
	}
	if r.files != nil {
		if err := Check(r.files, l, r); err != nil {
			return nil, err
		}
	}
	if r.readsAccessLists() {
		g := &grantReader{ctx: ctx, d: d, l: l, names: lr, grants: map[string]map[string]any{}, ambiguous: map[string]*directRead{}}
		if err := g.readAll(r, lr.folderIDs); err != nil {
			return nil, err
		}
		for _, subj := range sortedKeys(g.grants) {
			l.add("grants", "", subj, g.grants[subj])
		}
	}
	for _, docs := range l.Docs {
		sort.Slice(docs, func(i, j int) bool { return docs[i].Key < docs[j].Key })
	}
	return l, nil
}

// liveRead maps the lists read to documents, and keeps the names by id
// that later kinds and the grants refer to.
type liveRead struct {
	l                                *Live
	appName, envName                 map[string]string // id -> name
	userEmail, groupName, folderPath map[string]string // id -> key
	folderIDs                        []string          // the org's folders, whose access lists are read
}

// converters turn each kind's list into documents, in this order: a
// converter may use the names an earlier one recorded (apps and
// environments first, the users before the groups that hold them).
var converters = []struct {
	kind    string
	convert func(*liveRead, []map[string]any)
}{
	{"apps", (*liveRead).apps},
	{"environments", (*liveRead).environmentNames},
	{"user-attributes", (*liveRead).userAttributes},
	{"users", (*liveRead).users},
	{"groups", (*liveRead).groups},
	{"folders", (*liveRead).folders},
	{"environments", (*liveRead).environments},
	{"config-vars", (*liveRead).configVars},
	{"themes", (*liveRead).themes},
	{"organization", (*liveRead).organization},
}

// naturalKey is a listed object's natural key as the registry names it, for the
// kinds whose key is one field of the object.
func naturalKey(kind string, obj map[string]any) string { return kinds.Of(kind).KeyOfObject(obj, nil) }

// apps are referred to, never managed: their names by id.
func (lr *liveRead) apps(list []map[string]any) {
	ids := map[string][]string{}
	for _, a := range list {
		name, id := naturalKey("apps", a), jsonscan.AsText(a["id"])
		lr.l.Apps[name] = id
		ids[name] = append(ids[name], id)
	}
	for name, same := range ids {
		if len(same) > 1 {
			if lr.l.SameName == nil {
				lr.l.SameName = map[string][]string{}
			}
			sort.Strings(same)
			lr.l.SameName[name] = same
		}
	}
	for n, id := range lr.l.Apps {
		lr.appName[id] = n
	}
}

func (lr *liveRead) environmentNames(list []map[string]any) {
	for _, e := range list {
		lr.envName[jsonscan.AsText(e["id"])] = naturalKey("environments", e)
	}
}

func (lr *liveRead) userAttributes(list []map[string]any) {
	for _, a := range list {
		lr.l.add("user-attributes", jsonscan.AsText(a["id"]), naturalKey("user-attributes", a), map[string]any{
			"label": jsonscan.AsText(a["label"]), "data_type": jsonscan.AsText(a["data_type"]), "default_value": jsonscan.AsText(a["default_value"])})
	}
}

func (lr *liveRead) users(list []map[string]any) {
	for _, u := range list {
		md, _ := norm(u["metadata"]).(map[string]any)
		if md == nil {
			md = map[string]any{}
		}
		d := lr.l.add("users", jsonscan.AsText(u["id"]), naturalKey("users", u), map[string]any{
			"first_name": jsonscan.AsText(u["first_name"]), "last_name": jsonscan.AsText(u["last_name"]),
			"active": u["active"] == true, "admin": u["is_admin"] == true, "attributes": md})
		d.Inactive = u["active"] != true
	}
	for _, d := range lr.l.Docs["users"] {
		lr.userEmail[d.ID] = d.Key
	}
}

func (lr *liveRead) groups(list []map[string]any) {
	for _, g := range list {
		f := map[string]any{}
		for _, name := range []string{"universal_app_access", "universal_resource_access", "universal_workflow_access", "universal_query_library_access"} {
			f[name] = jsonscan.AsText(g[name])
		}
		for _, b := range groupBoolFields {
			f[b] = g[b] == true
		}
		if id := jsonscan.AsText(g["landing_page_app_id"]); id != "" {
			f["landing_page_app"] = orID(lr.appName, id)
		} else {
			f["landing_page_app"] = nil
		}
		f["members"] = lr.members(g)
		d := lr.l.add("groups", jsonscan.AsText(g["id"]), naturalKey("groups", g), f)
		d.Builtin = kinds.Of("groups").Protected(g)
		lr.groupName[d.ID] = d.Key
	}
}

// members are a group's members by email, with their role.
func (lr *liveRead) members(g map[string]any) map[string]any {
	members := map[string]any{}
	ms, _ := g["members"].([]any)
	for _, m := range ms {
		mm, _ := m.(map[string]any)
		email := jsonscan.AsText(mm["email"])
		if email == "" {
			email = orID(lr.userEmail, jsonscan.AsText(mm["id"]))
		}
		role := "member"
		if mm["is_group_admin"] == true {
			role = "admin"
		}
		members[strings.ToLower(email)] = role
		if _, known := lr.l.ID("users", email); !known && email != "" {
			lr.l.setID("users", email, jsonscan.AsText(mm["id"])) // the users list, unread, would say the same
		}
	}
	return members
}

func (lr *liveRead) folders(list []map[string]any) {
	folders := kinds.Of("folders")
	paths := folders.Keys(list)
	for i, fo := range list {
		path := paths[i]
		id := jsonscan.AsText(fo["id"])
		// A user's personal folders (Drafts, Trash) are theirs, not the
		// org's: their grants are no org setting, and reading one access
		// list per signed-in user would cost more than the rest of the org.
		if kinds.UnderRoot(path) {
			lr.folderIDs = append(lr.folderIDs, id)
		}
		lr.folderPath[id] = path
		lr.l.setID("folders", path, id)
		// Users' personal folders and the org's system folders are
		// referred to, never managed.
		if folders.Protected(fo) != "" || !kinds.UnderRoot(path) || !kinds.CreatableFolderType(jsonscan.AsText(fo["folder_type"])) {
			lr.l.SystemFolders[path] = id
			continue
		}
		lr.l.add("folders", id, path, map[string]any{})
	}
}

func (lr *liveRead) environments(list []map[string]any) {
	for _, e := range list {
		lr.l.add("environments", jsonscan.AsText(e["id"]), naturalKey("environments", e), map[string]any{
			"description": jsonscan.AsText(e["description"]), "color": jsonscan.AsText(e["color"])})
	}
}

// configVars keep a secret's values out of the files: each is a
// variable the files name instead.
func (lr *liveRead) configVars(list []map[string]any) {
	for _, cv := range list {
		secret := cv["secret"] == true
		vals := map[string]any{}
		vs, _ := cv["values"].([]any)
		for _, v := range vs {
			vm, _ := v.(map[string]any)
			env := orID(lr.envName, jsonscan.AsText(vm["environment_id"]))
			if secret {
				vals[env] = SecretRef(naturalKey("config-vars", cv), env)
			} else {
				vals[env] = jsonscan.AsText(vm["value"])
			}
		}
		lr.l.add("config-vars", jsonscan.AsText(cv["id"]), naturalKey("config-vars", cv), map[string]any{
			"description": jsonscan.AsText(cv["description"]), "secret": secret, "values": vals})
	}
}

func (lr *liveRead) themes(list []map[string]any) {
	for _, t := range list {
		th, _ := norm(t["theme"]).(map[string]any)
		if th == nil {
			th = map[string]any{}
		}
		lr.l.add("themes", jsonscan.AsText(t["id"]), naturalKey("themes", t), map[string]any{"theme": th})
	}
}

func (lr *liveRead) organization(list []map[string]any) {
	for _, o := range list {
		f := map[string]any{}
		for _, n := range orgSettings {
			if v, ok := o[n]; ok {
				f[n] = norm(v)
			}
		}
		lr.l.add("organization", "", orgKey, f)
	}
}

// grantReader reads the grants: one access list per folder and per app,
// then, for a subject whose grant an access list could not tell from its
// effective level, the subject's own grants.
type grantReader struct {
	ctx   context.Context
	d     Doer
	l     *Live
	names *liveRead
	// subject -> {"folders": {...}, "apps": {...}}
	grants    map[string]map[string]any
	ambiguous map[string]*directRead
}

// readAll reads the access lists r manages, folders then apps, each in
// key order, then the subjects' own grants where needed.
func (g *grantReader) readAll(r Reading, folderIDs []string) error {
	folderPath, prog := g.names.folderPath, g.l.progress
	if g.l.accessListsExpected {
		prog = nil
	}
	for _, id := range folderIDs {
		if r.readsAccessList("folders", folderPath[id]) {
			prog.expect("/permissions/accessList/folder/" + id)
		}
	}
	var same Problems
	for _, name := range sortedKeys(g.l.SameName) {
		if r.readsAccessList("apps", name) {
			same = append(same, Problem{File: "the live org", Msg: g.l.sameNameProblem(name)})
		}
	}
	if len(same) > 0 {
		return same // before any access list is read: no points for a read that cannot be used
	}
	for name, id := range g.l.Apps {
		if r.readsAccessList("apps", name) {
			prog.expect("/permissions/accessList/app/" + id)
		}
	}
	g.l.progress.setOpen(false)
	sort.Strings(folderIDs)
	for _, id := range folderIDs {
		if !r.readsAccessList("folders", folderPath[id]) {
			continue
		}
		if err := g.accessList("folder", id, folderPath[id], "folders"); err != nil {
			return err
		}
	}
	for _, name := range sortedKeys(g.l.Apps) {
		if !r.readsAccessList("apps", name) {
			continue
		}
		if err := g.accessList("app", g.l.Apps[name], name, "apps"); err != nil {
			return err
		}
	}
	for _, k := range sortedKeys(g.ambiguous) {
		if err := g.directLevels(g.ambiguous[k]); err != nil {
			return err
		}
	}
	return nil
}

// accessList reads the access list of one object (objType and id), known
// in the files as key under field, and takes its direct grants.
func (g *grantReader) accessList(objType, id, key, field string) error {
	req := client.Request{Method: http.MethodGet, Path: client.Path("permissions", "accessList", objType, id), Scope: "Permissions > Read"}
	g.l.record(req)
	resp, err := g.d.Do(g.ctx, req)
	if err != nil {
		return err
	}
	al, err := access.DecodeAccessList(resp.Data)
	if err != nil {
		return fmt.Errorf("GET %s: %w", req.Path, err)
	}
	for _, typ := range []string{"group", "user"} {
		for _, e := range al[typ] {
			if e.Sources.Direct {
				g.take(typ, e, objType, id, key, field)
			}
		}
	}
	return nil
}

// take records a direct grant of an access list.
func (g *grantReader) take(typ string, e access.Entry, objType, id, key, field string) {
	var subj string
	if typ == "group" {
		subj = "group:" + orID(g.names.groupName, e.SubjectID())
	} else {
		subj = "user:" + strings.ToLower(orID(g.names.userEmail, e.SubjectID()))
	}
	gr := g.grants[subj]
	if gr == nil {
		gr = map[string]any{"folders": map[string]any{}, "apps": map[string]any{}}
		g.grants[subj] = gr
	}
	gr[field].(map[string]any)[key] = e.AccessLevel
	// accessLevel is the effective level: with another source
	// beside the grant, the grant's own level may be lower.
	if !e.Sources.Universal && len(e.Sources.Groups) == 0 && !e.Inherits() {
		return
	}
	k := subj + " " + objType
	if g.ambiguous[k] == nil {
		g.ambiguous[k] = &directRead{subj: subj, typ: typ, id: e.SubjectID(), objType: objType, field: field, keys: map[string]string{}}
		// its own read follows the access lists: counted once known
		g.l.progress.expect("/permissions/listObjects")
	}
	g.ambiguous[k].keys[id] = key
}

// directLevels reads a subject's own grants (listObjects without inherited
// access) where an access list could not tell them from the effective level.
func (g *grantReader) directLevels(a *directRead) error {
	var sid any = a.id
	if a.typ == "group" {
		sid = json.Number(a.id)
	}
	req := client.Request{Method: http.MethodPost, Path: "/permissions/listObjects", Scope: "Permissions > Read",
		Body: map[string]any{"subject": map[string]any{"type": a.typ, "id": sid}, "object_type": a.objType}}
	g.l.record(req)
	resp, err := g.d.Do(g.ctx, req)
	if err != nil {
		return err
	}
	var objs []struct {
		ID          anyID  `json:"id"`
		AccessLevel string `json:"access_level"`
	}
	if err := json.Unmarshal(resp.Data, &objs); err != nil {
		return fmt.Errorf("POST %s: %w", req.Path, err)
	}
	for _, o := range objs {
		if key, ok := a.keys[string(o.ID)]; ok {
			g.grants[a.subj][a.field].(map[string]any)[key] = o.AccessLevel
		}
	}
	return nil
}

// readLists reads the lists r reads, then the lazy ones those ask for,
// each in readOrder, by kind.
func (l *Live) readLists(ctx context.Context, d Doer, r Reading) (map[string][]map[string]any, error) {
	raw := map[string][]map[string]any{}
	for _, k := range readOrder {
		if r.reads(k) {
			l.progress.expect(kinds.Of(k).List)
		}
	}
	if r.readsAccessLists() {
		l.progress.setOpen(true)
	}
	read := func(k string) error {
		objs, err := l.listAll(ctx, d, k)
		raw[k] = objs
		return err
	}
	order := readOrder
	if r.readsAccessLists() && r.reads("folders") && r.reads("apps") {
		// the folders and apps lists first: they say how many access lists
		// follow, so the progress counts the whole read from the third
		// request on, not the lists and then the access lists
		order = append([]string{"folders", "apps"}, slices.DeleteFunc(slices.Clone(readOrder), func(k string) bool { return k == "folders" || k == "apps" })...)
	}
	for _, k := range order {
		if r.reads(k) {
			if err := read(k); err != nil {
				return nil, err
			}
		}
		if k == "apps" && order[0] == "folders" {
			l.expectAccessLists(r, raw["folders"], raw["apps"])
		}
	}
	for _, k := range readOrder {
		if !r.reads(k) && r.lazy[k] && r.wants(k, raw) {
			l.progress.expect(kinds.Of(k).List)
			if err := read(k); err != nil {
				return nil, err
			}
		}
	}
	return raw, nil
}

// expectAccessLists counts the access lists the grants will read, as
// readAll chooses them, from the folders and apps lists: a folder under
// the root, an app by its name.
func (l *Live) expectAccessLists(r Reading, folders, apps []map[string]any) {
	if l.progress == nil {
		return
	}
	for i, path := range kinds.Of("folders").Keys(folders) {
		if kinds.UnderRoot(path) && r.readsAccessList("folders", path) {
			l.progress.expect("/permissions/accessList/folder/" + jsonscan.AsText(folders[i]["id"]))
		}
	}
	names := map[string]string{}
	for _, a := range apps {
		names[naturalKey("apps", a)] = jsonscan.AsText(a["id"])
	}
	for name, id := range names {
		if r.readsAccessList("apps", name) {
			l.progress.expect("/permissions/accessList/app/" + id)
		}
	}
	l.accessListsExpected = true
	l.progress.setOpen(false)
}

// orID is the name an id maps to, or the id itself when the map lacks it
// (an object the lists did not show).
func orID(names map[string]string, id string) string {
	if n, ok := names[id]; ok {
		return n
	}
	return id
}

func (l *Live) add(kind, id, key string, fields map[string]any) *Doc {
	d := &Doc{Kind: KindNamed(kind), Key: key, ID: id, Fields: fields}
	l.Docs[kind] = append(l.Docs[kind], d)
	if id != "" {
		l.setID(kind, key, id)
	}
	return d
}

// ID is the id of the object of kind with this key, as the live read or
// a create during apply found it.
func (l *Live) ID(kind, key string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	id, ok := l.ids[kind+"\x00"+lower(kind, key)]
	return id, ok
}

func (l *Live) setID(kind, key, id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ids == nil {
		l.ids = map[string]string{}
	}
	l.ids[kind+"\x00"+lower(kind, key)] = id
}

func lower(kind, key string) string {
	if kind == "users" {
		return strings.ToLower(key)
	}
	return key
}

// sameNameProblem says why an app name that several apps have cannot be
// used, and what to do.
func (l *Live) sameNameProblem(name string) string {
	return fmt.Sprintf("%d apps are named %q (ids %s): org as code names apps by name, so their grants cannot be told apart; rename all but one in the org, then run again",
		len(l.SameName[name]), name, strings.Join(l.SameName[name], ", "))
}

// Exists reports whether the live org has an object of kind with key
// (managed or not: apps, system folders and environments count).
func (l *Live) Exists(kind, key string) bool {
	switch kind {
	case "apps":
		_, ok := l.Apps[key]
		return ok
	}
	_, ok := l.ID(kind, key)
	return ok
}

// Documents are every live document, kinds in dependency order.
func (l *Live) Documents() []*Doc {
	var out []*Doc
	for _, k := range Kinds() {
		out = append(out, l.Docs[k.Name]...)
	}
	return out
}

// anyID is an id as the API writes it: a string ("user_0a1b…", "7"), as the
// spec says subject ids are, or a number, as older answers give groups'.
// directRead is one subject's grants on one kind of object whose levels an
// access list left open, by object id to the key the files use.
type directRead struct {
	subj, typ, id, objType, field string
	keys                          map[string]string
}

type anyID string

func (a *anyID) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*a = anyID(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("an id must be a string or a number, not %s", b)
	}
	*a = anyID(n.String())
	return nil
}
