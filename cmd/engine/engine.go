package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/bulkjob"
	"github.com/orgctl/orgctl/cmd/engine/send"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/jsonscan"
	"github.com/orgctl/orgctl/ratebudget"
)

// Engine runs the phases after build for every declared operation:
// confirm, send (or dry-run) and print. Every request it makes goes through
// the Factory's one client, so every request is paced and priced alike.
type Engine struct {
	f       *cli.Factory
	cfg     *settings.Config
	Printer *output.Printer
	names   *resolve.Resolver
	cached  sync.Map // kinds whose names came from the cache, not the API
	// onChange is told the budget family of every successful mutation
	// (the completion and name caches forget it).
	onChange func(family string)
}

// New checks the output options before anything is sent.
func New(f *cli.Factory) (*Engine, error) {
	cfg, p, err := cli.PrinterFor(f)
	if err != nil {
		return nil, err
	}
	return &Engine{f: f, cfg: cfg, Printer: p, onChange: f.OnChange}, nil
}

// checkColumns refuses --columns names the call's table does not have,
// before anything is sent. Tables whose columns come from the data, and
// views that build their own, are checked when the answer arrives.
func (e *Engine) checkColumns(c *Call) error {
	if len(e.Printer.Opts.Columns) == 0 || c.Op.Hooks.View != nil || len(c.Columns) == 0 {
		return nil
	}
	if _, err := output.SelectColumns(c.Columns, e.Printer.Opts.Columns); err != nil {
		return &cli.UsageError{Err: err}
	}
	return nil
}

func (e *Engine) quiet() bool { return e.cfg.Quiet }

// getter lets a view read one more list (a user's groups from GET /groups)
// through the engine's client.
func (e *Engine) getter(ctx context.Context) func(path, scope string) (json.RawMessage, error) {
	return func(path, scope string) (json.RawMessage, error) {
		cl, err := e.apiClient()
		if err != nil {
			return nil, err
		}
		r, err := cl.Do(ctx, client.Request{Method: http.MethodGet, Path: path, Scope: scope})
		if err != nil {
			return nil, err
		}
		return r.Data, nil
	}
}

// sender is the send phase through the engine's client (package send,
// which a --from job uses as well).
func (e *Engine) sender() sendPhase { return sendPhase{e} }

// sendPhase sends one call as package send does, through the Factory's
// client, made when the first call is sent.
type sendPhase struct{ e *Engine }

func (s sendPhase) Send(ctx, mainCtx context.Context, c *Call, render func(*jsonscan.Reader) any) (*client.Response, error) {
	cl, err := s.e.apiClient()
	if err != nil {
		return nil, err
	}
	sd := send.Sender{Client: cl, OnChange: s.e.onChange}
	if !s.e.quiet() {
		sd.Notice = s.e.f.IO.Notice
	}
	return sd.Send(ctx, mainCtx, c, render)
}

// print is the print phase. An empty list on a terminal says so on
// stderr rather than showing a bare header; piped, it stays empty.
func (e *Engine) print(ctx context.Context, c *Call, resp *client.Response, o RunOptions) error {
	c.Run.Names = e.namesOf(ctx)
	c.Run.Get = e.getter(ctx)
	if keep := keeps(c); keep != nil {
		data, err := narrow(resp.Data, keep)
		if err != nil {
			return err
		}
		resp = &client.Response{Data: data}
	}
	if o.JSON != nil {
		return PrintSelected(e.Printer, resp.Data, o.JSON)
	}
	if (c.Op.List || strings.HasPrefix(c.Op.Use, "list")) && e.f.IO.OutTTY && !e.Printer.Opts.Structured() && isEmptyList(resp.Data) {
		if !e.quiet() && c.Op.Plural != "" {
			e.f.IO.Notice("no %s match", c.Op.Plural)
		}
		return nil
	}
	if c.Op.Hooks.View != nil {
		return c.Op.Hooks.View(e.Printer, c, resp.Data)
	}
	if e.showsEntries(c) {
		if entries, err := output.Entries(resp.Data, time.Now()); err == nil && entries != nil {
			return e.Printer.PrintEntries(entries)
		}
	}
	if x, ok := resp.Rendered(); ok {
		return e.Printer.WriteRendered(x.(*output.Rendered))
	}
	if data, ok := resp.CompactData(); ok {
		return e.Printer.PrintCompact(data, c.Columns)
	}
	return e.Printer.Print(resp.Data, c.Columns)
}

// showsEntries reports a get of one object shown to a person: key/value
// lines, every field the API sent, as users get and groups get show
// theirs (a one-row table hides the fields that do not fit). Piped, and
// with -o, --jq, --template or --columns, it prints as any answer.
func (e *Engine) showsEntries(c *Call) bool {
	op := c.Op
	return e.f.IO.OutTTY && !e.Printer.Opts.Structured() && len(e.Printer.Opts.Columns) == 0 &&
		op.Method == http.MethodGet && !op.List && (op.Use == "get" || strings.HasPrefix(op.Use, "get "))
}

// renderer is the print phase started early: when the main request's
// answer will be printed through the printer as it stands, a function that
// renders its data while it arrives, so that a large list is printed as
// soon as its last byte is in. The output waits in memory until print
// writes it, so an answer that turns out cut or invalid still prints
// nothing. nil when print does something else: selects fields, shows a
// view, or prints pages joined (--all) or a follow-up's answer.
func (e *Engine) renderer(c *Call, o RunOptions) func(*jsonscan.Reader) any {
	if o.JSON != nil || c.Op.Hooks.View != nil || keeps(c) != nil || c.Pages.All || len(c.Then) > 0 || e.namesShown(c) || e.showsEntries(c) {
		return nil
	}
	render := e.Printer.Renderer(c.Columns)
	if render == nil {
		return nil
	}
	return func(r *jsonscan.Reader) any {
		if x := render(r); x != nil {
			return x
		}
		return nil // not a nil *output.Rendered
	}
}

// keeps is the test the op narrows this call's list by (Hooks.Narrow), or nil.
func keeps(c *Call) func(json.RawMessage) bool {
	if c.Op.Hooks.Narrow == nil {
		return nil
	}
	return c.Op.Hooks.Narrow(c)
}

// narrow is a list answer with only the items keep passes; an answer that
// is no list stays as it came.
func narrow(data json.RawMessage, keep func(json.RawMessage) bool) (json.RawMessage, error) {
	var items []json.RawMessage
	if json.Unmarshal(data, &items) != nil {
		return data, nil
	}
	kept := make([]json.RawMessage, 0, len(items))
	for _, it := range items {
		if keep(it) {
			kept = append(kept, it)
		}
	}
	return json.Marshal(kept)
}

// confirm asks the person at the terminal (call has refused an
// unattended run already).
func (e *Engine) confirm(ctx context.Context, c *Call) error {
	if c.Op.Confirm.TypeToConfirm != nil {
		name, err := c.Op.Confirm.TypeToConfirm(ctx, org{e}, c)
		if err != nil {
			return err
		}
		question := fmt.Sprintf(c.Op.Confirm.Question, name) // the one object, by the name to type
		typed, _ := e.f.Ask().Input(fmt.Sprintf("%s\nType %s to confirm: ", question, name))
		if typed != name {
			return fmt.Errorf("%w: what was typed is not %s", cli.ErrCancelled, name)
		}
		return nil
	}
	return cli.ConfirmOrCancel(e.f.Ask(), e.question(ctx, c))
}

// org is what a type-to-confirm question reads of the org, through the
// engine's client.
type org struct{ e *Engine }

// Host is the host name of the org the profile targets.
func (o org) Host() (string, error) {
	conn, err := o.e.f.Connection()
	if err != nil {
		return "", err
	}
	u, err := url.Parse(conn.Client.URL(client.Request{Path: "/"}))
	if err != nil {
		return "", err
	}
	return u.Host, nil
}

// Get reads one object's data.
func (o org) Get(ctx context.Context, path, scope string) (json.RawMessage, error) {
	return o.e.getter(ctx)(path, scope)
}

// question is what a confirmation asks: the op's own question about the
// call's objects. A call on one object names it by its natural key and
// labels ("Disable user ana@x (Ana Souza)?"): the resolve phase found a
// name's object already; an id is looked up with one read, as a person is
// at the terminal and it may keep them from deleting the wrong thing. The
// name found also goes into the line that confirms the write.
func (e *Engine) question(ctx context.Context, c *Call) string {
	objs := argObjects(c)
	kind := ""
	if len(c.Op.Args.Params) == 1 && len(objs) == 1 {
		kind = c.Op.ArgKind(0)
		if _, named := c.Labels.Args[0]; !named {
			if o, ok := e.describe(ctx, kind, fmt.Sprint(objs[0])); ok {
				objs[0] = o.Describe()
				if c.Labels.Args == nil {
					c.Labels.Args = map[int]string{}
				}
				c.Labels.Args[0] = o.Describe()
				c.SetArgKey(0, o.Key)
			}
		}
	}
	if c.Op.Confirm.Question != "" {
		return confirmQuestion(c, objs)
	}
	verb := c.Op.Name()
	if kind != "" && kind != noCompletion && verb != "" {
		return fmt.Sprintf("%s%s %s %s? This cannot be undone.", strings.ToUpper(verb[:1]), verb[1:], kinds.Singular(kind), objs[0])
	}
	return confirmQuestion(c, objs)
}

// describe names the object an id stands for, with one read; false when
// the kind has no natural key or the read fails (the prompt then shows
// the id, and the call itself reports a missing object).
func (e *Engine) describe(ctx context.Context, kind, id string) (resolve.Object, bool) {
	rk, ok := resolveKind(kind)
	if !ok {
		return resolve.Object{}, false
	}
	r, err := e.resolver()
	if err != nil {
		return resolve.Object{}, false
	}
	k := kinds.Of(rk)
	var o resolve.Object
	if r.ListRequest(k) == nil {
		// The list is at hand (a guard read it): it names the object.
		o, ok, err = r.ByID(ctx, k, id)
		if !ok {
			err = &resolve.NotFoundError{Kind: k.Name, Name: id}
		}
	} else {
		o, err = r.Describe(ctx, k, id)
	}
	if err != nil || o.Key == "" || o.Key == id {
		return resolve.Object{}, false
	}
	return o, true
}

// confirmQuestion is the op's question about the call's objects, one per
// positional argument (%s, or %[N]s for the Nth); after them come the
// arguments' natural keys (argKeys), which hints quote.
func confirmQuestion(c *Call, objs []any) string {
	if strings.Contains(c.Op.Confirm.Question, "%[") {
		objs = append(objs, argKeys(c)...)
	}
	if c.Op.Confirm.Question == "" {
		what := c.Command
		for _, o := range objs {
			what += " " + fmt.Sprint(o)
		}
		return fmt.Sprintf("Run `%s`? This cannot be undone.", what)
	}
	if !strings.Contains(c.Op.Confirm.Question, "%") {
		return c.Op.Confirm.Question
	}
	return fmt.Sprintf(c.Op.Confirm.Question, objs...)
}

// refuseUnattended refuses a destructive call that nobody can confirm.
// Arguments given by name (refs not yet looked up) are shown as typed.
func (e *Engine) refuseUnattended(c *Call, refs []send.Ref) error {
	if e.f.CanPrompt() {
		return nil
	}
	typed := map[int]string{}
	for _, ref := range refs {
		if ref.Flag == "" {
			typed[ref.Arg] = ref.Text
		}
	}
	what := c.Command
	for i, a := range c.Op.Args.Params {
		if l, ok := typed[i]; ok {
			what += " " + l
		} else if l, ok := c.Labels.Args[i]; ok {
			what += " " + l
		} else if v, ok := c.Req.Params[a]; ok {
			what += " " + v
		}
	}
	return cli.Unconfirmed("run `"+what+"`", "", "")
}

// planned is one request of a dry run.
type planned struct {
	req  client.Request
	note string // what the request is for, when it is not the main one
	then bool   // a follow-up built from an answer: its body is not known yet
}

// DryRun prints the requests a call would send, their cost and how long the
// budget would make them wait, and sends nothing.
func (e *Engine) DryRun(c *Call) error {
	return e.printPlan(callPlan(nil, c), nil)
}

// callPlan is what a call sends, after the lookups (if any) before it.
func callPlan(plan []planned, c *Call) []planned {
	for _, r := range c.Reads {
		plan = append(plan, planned{req: r, note: "reads the current state first"})
	}
	main := c.Request()
	if c.Summary != nil {
		main.Body = c.Summary
	}
	plan = append(plan, planned{req: main})
	for _, t := range c.Then {
		plan = append(plan, planned{req: client.Request{Path: t.Path}, note: t.What, then: true})
	}
	return plan
}

// printPlan prices and prints a dry run's requests; names maps the
// stand-in ids of names not yet looked up to how they are shown.
func (e *Engine) printPlan(plan []planned, names map[string]string) error {
	wait := "unknown (not logged in)"
	var waitSeconds *float64
	var cl *client.Client
	if conn, err := e.f.Connection(); err == nil {
		cl = conn.Client
		paths := make([]string, 0, len(plan))
		for _, p := range plan {
			paths = append(paths, p.req.Path)
		}
		if d, err := conn.Ledger.Estimate(paths); err == nil {
			s := d.Seconds()
			waitSeconds = &s
			wait = "would be sent now"
			if d > 0 {
				wait = fmt.Sprintf("would wait %s for budget", d.Round(100*time.Millisecond))
			}
		}
	}
	docs, total := e.planDocs(plan, names, cl)
	if e.Printer.Opts.Structured() {
		var out map[string]any
		if len(docs) == 1 {
			out = docs[0]
		} else {
			out = map[string]any{"requests": docs, "cost": total}
		}
		if waitSeconds != nil {
			out["wait_seconds"] = *waitSeconds
		}
		b, err := output.MarshalText(out)
		if err != nil {
			return err
		}
		return e.Printer.Print(b, nil)
	}
	return e.printPlanText(plan, docs, total, wait, len(names) > 0)
}

// planDocs describes each planned request as the structured dry run prints
// it, with its price; total is the plan's cost.
func (e *Engine) planDocs(plan []planned, names map[string]string, cl *client.Client) (docs []map[string]any, total int) {
	bc := e.cfg.Budget
	docs = make([]map[string]any, 0, len(plan))
	for _, p := range plan {
		cost := bc.Cost(p.req.Path)
		total += cost
		doc := map[string]any{"cost": cost, "family": ratebudget.Family(p.req.Path)}
		if p.then {
			doc["then"] = p.note
			docs = append(docs, doc)
			continue
		}
		path := "/api/v2" + p.req.Path
		if len(p.req.Query) > 0 {
			path += "?" + url.Values(p.req.Query).Encode()
		}
		doc["method"], doc["path"] = p.req.Method, showNames(path, names)
		if cl != nil {
			doc["url"] = showNames(cl.URL(p.req), names)
		}
		if p.req.Scope != "" {
			doc["scope"] = p.req.Scope
		}
		if p.req.Body != nil {
			doc["body"] = showNamesIn(p.req.Body, names)
		}
		if p.note != "" {
			doc["note"] = p.note
		}
		docs = append(docs, doc)
	}
	return docs, total
}

// printPlanText prints a dry run for a person: each request, its body,
// the main request's scope, then the cost and the wait.
func (e *Engine) printPlanText(plan []planned, docs []map[string]any, total int, wait string, named bool) error {
	w := e.f.IO.Out
	var mainFamily any
	for i, p := range plan {
		doc := docs[i]
		if p.then {
			fmt.Fprintf(w, "then: %s (%d points, built from the answer)\n", p.note, doc["cost"])
			continue
		}
		if p.note == "" {
			mainFamily = doc["family"]
		}
		target := doc["path"]
		if u, ok := doc["url"]; ok {
			target = u
		}
		if p.note != "" {
			fmt.Fprintf(w, "%s %s   (%s; %d points)\n", p.req.Method, target, p.note, doc["cost"])
		} else {
			fmt.Fprintf(w, "%s %s\n", p.req.Method, target)
		}
		if body, ok := doc["body"]; ok {
			b, err := output.MarshalText(body)
			if err != nil {
				return err
			}
			var ind bytes.Buffer
			json.Indent(&ind, b, "", "  ")
			fmt.Fprintf(w, "%s\n", ind.Bytes())
		}
	}
	for _, p := range plan {
		if !p.then && p.note == "" {
			scope := p.req.Scope
			if scope == "" {
				scope = "unknown for this path"
			}
			fmt.Fprintf(w, "scope: %s\n", scope)
		}
	}
	if len(plan) == 1 {
		fmt.Fprintf(w, "cost: %d points (%s); %s; nothing sent (--dry-run)\n", total, mainFamily, wait)
	} else {
		fmt.Fprintf(w, "cost: %s in %d requests; %s; nothing sent (--dry-run)\n", bulkjob.CountOf(total, "point"), len(plan), wait)
	}
	if named {
		fmt.Fprintln(w, "<NAME> stands for the id its lookup finds when the command runs")
	}
	return nil
}

// showNames puts names back where their stand-in ids are in a path.
func showNames(s string, names map[string]string) string {
	for stand, name := range names {
		s = strings.ReplaceAll(s, stand, name)
	}
	return s
}

// showNamesIn does the same inside a body, for values equal to a stand-in.
func showNamesIn(v any, names map[string]string) any {
	if len(names) == 0 {
		return v
	}
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = showNamesIn(e, names)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = showNamesIn(e, names)
		}
		return out
	case string:
		if n, ok := names[t]; ok {
			return n
		}
	case json.Number:
		if n, ok := names[t.String()]; ok {
			return n
		}
	}
	return v
}

// namesShown reports a terminal table with columns of ids that show as
// names (output.Column.Names, also through Terminal).
func (e *Engine) namesShown(c *Call) bool {
	if !e.f.IO.OutTTY || e.Printer.Opts.Structured() {
		return false
	}
	for _, col := range c.Columns {
		if col.Terminal != nil {
			col = *col.Terminal
		}
		if col.Names != "" {
			return true
		}
	}
	return false
}

// seedNames gives the resolver the list a call just fetched whole (a list
// of folders names the folders' parents), so naming ids costs nothing.
func (e *Engine) seedNames(c *Call, resp *client.Response) {
	req := c.Request()
	if req.Method != http.MethodGet || len(req.Query) > 0 || c.Pages.All {
		return
	}
	for _, k := range kinds.All() {
		if k.List == req.Path {
			if r, err := e.resolver(); err == nil {
				r.Seed(k, resp.Data)
			}
			return
		}
	}
}

// nameOf names ids for a terminal table: from the lists the resolver has
// (this answer, the names cache), else one list request per kind. kinds
// may list several ("groups,users"): only a kind whose ids look like this
// one is asked. A list that cannot be had leaves the ids, with one warning.
func (e *Engine) nameOf(ctx context.Context) func(kinds, id string) (string, bool) {
	names := map[string]map[string]string{}
	return func(kindList, id string) (string, bool) {
		for _, kind := range strings.Split(kindList, ",") {
			k, known := kinds.Lookup(kind)
			if !known || (k.ID != kinds.NoID && !k.IsID(id)) {
				continue
			}
			if n := e.nameIn(ctx, names, kind, id); n != "" {
				return n, true
			}
		}
		return "", false
	}
}

// nameIn is the name of id in kind's list, fetched into names once.
func (e *Engine) nameIn(ctx context.Context, names map[string]map[string]string, kind, id string) string {
	m, ok := names[kind]
	if !ok {
		m = map[string]string{}
		names[kind] = m
		r, err := e.resolver()
		var objs []resolve.Object
		if err == nil {
			k, _ := kinds.Lookup(kind)
			objs, err = r.All(ctx, k)
		}
		if err != nil {
			e.f.IO.Warn("could not look up %s names, showing ids: %v", kinds.Singular(kind), err)
		}
		for _, o := range objs {
			m[o.ID] = o.Key
		}
	}
	return m[id]
}

// namesOf lists every object of a kind through the engine's resolver: one
// request per kind at most, none when the name cache has the list.
func (e *Engine) namesOf(ctx context.Context) func(kind string) ([]resolve.Object, error) {
	return func(kind string) ([]resolve.Object, error) {
		r, err := e.resolver()
		if err != nil {
			return nil, err
		}
		k, _ := kinds.Lookup(kind)
		return r.All(ctx, k)
	}
}

// apiClient is the client the engine's requests go through.
func (e *Engine) apiClient() (*client.Client, error) { return e.f.Client() }
