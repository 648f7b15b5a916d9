package families

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/output"
)

// listObjectTypes are the types POST /permissions/listObjects answers for.
var listObjectTypes = []string{"folder", "app", "resource", "resource_configuration"}

var objectRowColumns = []output.Column{
	{Header: "TYPE", Field: "type"},
	{Header: "OBJECT", Field: "object"},
	{Header: "LEVEL", Field: "level"},
}

// newListObjectsCmd answers "what can this person (or group) reach?": one
// listObjects per type, with access through groups, universal access and
// folders included, and the ids named.
func newListObjectsCmd(f *cli.Factory) *cobra.Command {
	var user, group string
	var types []string
	var direct bool
	c := &cobra.Command{
		Use:   "list-objects (--user USER | --group GROUP)",
		Short: "List the objects a user or group can access",
		Long: `Every object the subject can reach, with its effective level: through its own
grants, its groups (for a user), universal access and the folders above an
object. --direct keeps only the subject's own grants.

USER is an email or id, GROUP a name or id. By default every type listObjects
answers for (folder, app, resource, resource_configuration); --type narrows
(repeatable). Objects are named: folders by path (app:/Finance), apps and
resources by name, resource configurations by resource and environment.
Workflows are not among the types listObjects answers for: 'access-list
workflow NAME' says who reaches one.

Requests: one POST /permissions/listObjects per type (10 points each), the
subject's list if named (users 2, groups 5) and one list per type to name the
objects. -o json prints the API's items as received, the types one after the
other. 'permissions access-list' says why a subject has its access.`,
		Example: `  orgctl permissions list-objects --user ana.viewer@sandbox.example
  orgctl permissions list-objects --group support --type app
  orgctl permissions list-objects --user ana.viewer@sandbox.example --direct -o json`,
		Args:        cli.NoArgsGroup,
		Annotations: map[string]string{"scope": "Permissions > Read", "method": http.MethodPost, "path": "/permissions/listObjects", "cost": "10"},
		RunE: func(c *cobra.Command, _ []string) error {
			if (user == "") == (group == "") {
				return cli.UsageErrorf("%s: pass --user USER or --group GROUP (one of them)", c.CommandPath())
			}
			if len(types) == 0 {
				types = listObjectTypes
			}
			for _, t := range types {
				if !slices.Contains(listObjectTypes, t) {
					return cli.UsageErrorf("invalid --type %q: allowed values are %s", t, strings.Join(listObjectTypes, ", "))
				}
			}
			sel, err := engine.JSONSelection(c)
			if err != nil {
				return err
			}
			return listObjectsRun(c.Context(), f, user, group, types, direct, sel)
		},
	}
	fl := c.Flags()
	fl.StringVar(&user, "user", "", "the subject is this `USER` (email or id)")
	fl.StringVar(&group, "group", "", "the subject is this `GROUP` (name or id)")
	fl.StringSliceVar(&types, "type", nil, "only objects of this `TYPE` (repeatable): "+strings.Join(listObjectTypes, ", "))
	fl.BoolVar(&direct, "direct", false, "only the subject's own grants (no groups, universal access or folders)")
	engine.AddJSONFields(c, "POST /permissions/listObjects", "")
	for flag, kind := range map[string]string{"user": "users", "group": "groups"} {
		c.RegisterFlagCompletionFunc(flag, func(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
			return engine.CompleteKind(f, kind, typed)
		})
	}
	c.RegisterFlagCompletionFunc("type", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return listObjectTypes, cobra.ShellCompDirectiveNoFileComp
	})
	return c
}

// subjectOf resolves --user/--group into the API's subject object.
func (o *accessOrg) subjectOf(ctx context.Context, user, group string) (map[string]any, string, error) {
	if user != "" {
		if strings.HasPrefix(user, "user_") {
			return map[string]any{"type": "user", "id": user}, user, nil
		}
		if err := o.loadUsers(ctx); err != nil {
			return nil, "", err
		}
		u := o.userByMail[strings.ToLower(user)]
		if u == nil {
			return nil, "", &cli.NotFoundError{Err: fmt.Errorf("no user with email %q", user)}
		}
		return map[string]any{"type": "user", "id": u.ID}, u.Email, nil
	}
	if n, err := strconv.ParseUint(group, 10, 64); err == nil {
		return map[string]any{"type": "group", "id": json.Number(strconv.FormatUint(n, 10))}, group, nil
	}
	if err := o.loadGroups(ctx); err != nil {
		return nil, "", err
	}
	for _, g := range o.groups {
		if strings.EqualFold(g.Name, group) {
			return map[string]any{"type": "group", "id": json.Number(groupID(g))}, g.Name, nil
		}
	}
	return nil, "", &cli.NotFoundError{Err: fmt.Errorf("no group named %q", group)}
}

// listObjects sends one listObjects and returns its items as received.
func (o *accessOrg) listObjects(ctx context.Context, subject map[string]any, typ string, inherited bool) ([]json.RawMessage, error) {
	body := map[string]any{"subject": subject, "object_type": typ}
	if inherited {
		body["include_inherited_access"] = true
	}
	o.reqs++
	o.points += 10
	r, err := o.cl.Do(ctx, client.Request{Method: http.MethodPost, Path: "/permissions/listObjects", Scope: "Permissions > Read", Body: body})
	if err != nil {
		return nil, err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(r.Data, &items); err != nil {
		return nil, fmt.Errorf("POST /permissions/listObjects: unexpected answer: %w", err)
	}
	return items, nil
}

type listedObject struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id"`
	Level string          `json:"access_level"`
}

func listObjectsRun(ctx context.Context, f *cli.Factory, user, group string, types []string, direct bool, sel []string) error {
	cfg, p, err := cli.PrinterFor(f)
	if err != nil {
		return err
	}
	cl, err := f.Client()
	if err != nil {
		return err
	}
	o := newAccessOrg(cl)
	subject, _, err := o.subjectOf(ctx, user, group)
	if err != nil {
		return cli.Explain(cfg, err)
	}
	var all []json.RawMessage
	for _, t := range types {
		items, err := o.listObjects(ctx, subject, t, !direct)
		if err != nil {
			return cli.Explain(cfg, err)
		}
		all = append(all, items...)
	}
	if p.Opts.Structured() || sel != nil {
		if all == nil {
			all = []json.RawMessage{}
		}
		b, err := json.Marshal(all)
		if err != nil {
			return err
		}
		if sel != nil {
			return engine.PrintSelected(p, b, sel)
		}
		return p.Print(b, objectRowColumns)
	}
	if err := o.loadObjects(ctx, types...); err != nil {
		p.IO.Warn("could not list the objects' names, showing ids: %v", firstLine(cli.Explain(cfg, err).Error()))
	}
	rows := make([]map[string]any, 0, len(all))
	for _, raw := range all {
		var it listedObject
		if json.Unmarshal(raw, &it) != nil {
			continue
		}
		id := string(it.ID)
		json.Unmarshal(it.ID, &id)
		rows = append(rows, map[string]any{"type": it.Type, "object": o.name(it.Type, id), "level": it.Level})
	}
	sort.SliceStable(rows, func(i, j int) bool {
		ti, tj := rows[i]["type"].(string), rows[j]["type"].(string)
		if ti != tj {
			return slices.Index(types, ti) < slices.Index(types, tj)
		}
		return rows[i]["object"].(string) < rows[j]["object"].(string)
	})
	if len(rows) == 0 {
		if p.IO.ErrTTY {
			p.IO.Notice("no object of type %s is reachable", strings.Join(types, ", "))
		}
		return nil
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	return p.Print(b, objectRowColumns)
}
