package engine

import (
	"context"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/engine/send"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/completions"
	"github.com/orgctl/orgctl/ratebudget"
)

// objectKind is a kind of object completions offer: which list it comes
// from and what is typed and shown.
type objectKind struct {
	Path  string // list endpoint, fetched without a limit (one request for all)
	Scope string
	View  completions.View
}

// completionKind is the completion kind of that name (Field.Complete,
// Op.Args.Complete): the registry's view, with its kind's list; false for a
// name the registry has no view of. A kind's cache list is the budget
// family of its path, so a mutation of that family (Factory.OnChange)
// forgets it.
func completionKind(name string) (objectKind, bool) {
	v, ok := kinds.ViewOf(name)
	if !ok {
		return objectKind{}, false
	}
	return viewKind(v), true
}

func viewKind(v kinds.View) objectKind {
	k := kinds.Of(v.Kind)
	return objectKind{Path: k.List, Scope: k.Scope,
		View: completions.View{List: ratebudget.Family(k.List), Value: v.Value, Label: v.Label}}
}

// resolveKind is the registry kind whose names orgctl turns into ids for
// the completion kind of that name; false when it turns none.
func resolveKind(name string) (string, bool) { return send.ResolveKind(name) }

// ObjectTypeKinds are the permission API's object types whose names
// orgctl looks up ("folder" -> "folders"): the registry's kinds of an
// object type whose own view looks names up.
func ObjectTypeKinds() map[string]string {
	out := map[string]string{}
	for _, k := range kinds.All() {
		if v, ok := kinds.ViewOf(k.Name); ok && v.Names && k.ObjectType != "" {
			out[k.ObjectType] = k.Name
		}
	}
	return out
}

// CommandFlagKind wires a flag of a command that is not a declared Op to
// the completion kind it names.
type CommandFlagKind struct {
	Path string // the command's path below the root ("auth login")
	Flag string
	Kind string
}

// CommandFlagKinds are the flags of commands that are not declared Ops that
// complete object names.
var CommandFlagKinds = []CommandFlagKind{
	{Path: "auth login", Flag: "space", Kind: "space-names"},
}

// noCompletion turns inference off in Field.Complete and Op.Args.Complete.
const noCompletion = opdef.NoCompletion

// wireCompletion makes positional arguments and id flags complete from the
// org, and keeps everything else from completing file names.
func wireCompletion(op *Placed, f *cli.Factory, c *cobra.Command) {
	c.ValidArgsFunction = func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		in, _ := parseFlags(op, c, args)
		k := op.ArgKindIn(len(args), in)
		if len(args) >= len(op.Args.Params) || k == "" || k == noCompletion {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return CompleteKind(f, k, toComplete)
	}
	for i := range op.Fields {
		fd := &op.Fields[i]
		k := fd.ObjectKind()
		if len(fd.Enum) > 0 || (k == "" && fd.KindBy == nil) || k == noCompletion || fd.Type == opdef.TBool {
			continue
		}
		c.RegisterFlagCompletionFunc(fd.Flag, func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			in, _ := parseFlags(op, c, args)
			k := fd.KindIn(in)
			if k == "" || k == noCompletion {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return CompleteKind(f, k, toComplete)
		})
	}
}

// completionCache is the cache under $XDG_CACHE_HOME/orgctl/completions.
func completionCache(ttl time.Duration) *completions.Cache { return send.CompletionCache(ttl) }

// ForgetCompletions is the Factory's onChange: orgctl changed family, so its
// cached lists are gone before the next completion.
func ForgetCompletions(family string) {
	c := completionCache(0)
	_ = c.Forget(family)
	_ = c.Forget("names-" + family)
}

// CompleteKind lists kind's objects as completions. Nothing it meets may
// reach the command line: errors and panics end in an empty answer.
func CompleteKind(f *cli.Factory, kind, toComplete string) (out []string, dir cobra.ShellCompDirective) {
	dir = cobra.ShellCompDirectiveNoFileComp
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	ok, known := completionKind(kind)
	if !known {
		return nil, dir
	}
	cfg, err := f.Config()
	if err != nil {
		return nil, dir
	}
	deadline := cfg.CompletionTimeout
	src := &completions.Source{
		Cache:    completionCache(cfg.CompletionCacheTTL),
		Profile:  cfg.Profile,
		Origin:   completionOrigin(cfg),
		Deadline: deadline,
	}
	if rk, named := resolveKind(kind); named {
		// What orgctl resolves, it completes by name: the email, group name
		// or folder path the user would type, with the id beside it. The
		// list is the one name lookups keep, so either fills it for the other.
		k := kinds.Of(rk)
		view := completions.View{List: send.NameList(rk), Value: "key", Label: []string{"id"}}
		items := src.Items(context.Background(), view.List, func(ctx context.Context) ([]completions.Item, error) {
			return fetchNamesForCompletion(ctx, f, cfg, k, deadline)
		})
		if out := view.Candidates(items, toComplete); out != nil {
			return out, dir
		}
		// Typing an id still completes one.
		ids := completions.View{List: view.List, Value: "id", Label: []string{"key"}}
		return ids.Candidates(items, toComplete), dir
	}
	items := src.Items(context.Background(), ok.View.List, func(ctx context.Context) ([]completions.Item, error) {
		return fetchForCompletion(ctx, f, cfg, ok, deadline)
	})
	return ok.View.Candidates(items, toComplete), dir
}

// fetchNamesForCompletion lists a kind's objects as name lookups keep them
// (id, key and labels), under the same limits as fetchForCompletion.
func fetchNamesForCompletion(ctx context.Context, f *cli.Factory, cfg *settings.Config, k kinds.Kind, deadline time.Duration) ([]completions.Item, error) {
	data, err := completionGet(ctx, f, cfg, k.List, k.Scope, deadline)
	if err != nil {
		return nil, err
	}
	list, err := resolve.ListItems(k, data)
	if err != nil {
		return nil, err
	}
	items := make([]completions.Item, len(list))
	for i, it := range list {
		items[i] = it
	}
	return items, nil
}

// completionOrigin names the org a list belongs to without resolving the
// token (which may mean a slow keyring).
func completionOrigin(cfg *settings.Config) string { return send.Origin(cfg) }

// fetchForCompletion sends one GET of the kind's list: no retries, an
// attempt timeout of the completion deadline, and a budget ledger with
// MaxWait 0, which reserves points only when there is room right now.
func fetchForCompletion(ctx context.Context, f *cli.Factory, cfg *settings.Config, k objectKind, deadline time.Duration) ([]completions.Item, error) {
	data, err := completionGet(ctx, f, cfg, k.Path, k.Scope, deadline)
	if err != nil {
		return nil, err
	}
	return completions.ItemsFromJSON(data, listFields(k.View.List))
}

// completionGet sends the one GET a completion may send.
func completionGet(ctx context.Context, f *cli.Factory, cfg *settings.Config, path, scope string, deadline time.Duration) ([]byte, error) {
	t, err := cli.ResolveTarget(cfg, f.Tokens, f.Transport)
	if err != nil {
		return nil, err
	}
	bc := cfg.Budget
	bc.MaxWait = 0
	l, err := cli.OpenLedgerWith(cfg, t, bc, f.IO)
	if err != nil {
		return nil, err
	}
	cl, err := client.New(client.Options{
		BaseURL:      t.BaseURL,
		Token:        t.Token,
		UserAgent:    "orgctl/" + f.Version() + " (completion)",
		Timeout:      deadline,
		Pacer:        cli.LedgerPacer{Ledger: l},
		Transport:    t.Transport,
		InsecureHTTP: cfg.InsecureHTTP,
		RetryMax:     -1, // 0 would mean the default 3
	})
	if err != nil {
		return nil, err
	}
	resp, err := cl.Do(ctx, client.Request{Method: http.MethodGet, Path: path, Scope: scope})
	if err != nil {
		return nil, err
	}
	return resp.Data, nil
}

// listFields are the fields every kind of one list needs, so one fetch
// serves them all.
func listFields(list string) []string {
	seen := map[string]bool{}
	var fields []string
	for _, v := range kinds.Views() {
		k := viewKind(v)
		if k.View.List != list {
			continue
		}
		for _, fl := range k.View.Fields() {
			if !seen[fl] {
				seen[fl] = true
				fields = append(fields, fl)
			}
		}
	}
	return fields
}
