package families

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/output"
)

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
				types = access.ObjectTypes
			}
			for _, t := range types {
				if !slices.Contains(access.ObjectTypes, t) {
					return cli.UsageErrorf("invalid --type %q: allowed values are %s", t, strings.Join(access.ObjectTypes, ", "))
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
	fl.StringSliceVar(&types, "type", nil, "only objects of this `TYPE` (repeatable): "+strings.Join(access.ObjectTypes, ", "))
	fl.BoolVar(&direct, "direct", false, "only the subject's own grants (no groups, universal access or folders)")
	engine.AddJSONFields(c, "POST /permissions/listObjects", "")
	for flag, kind := range map[string]string{"user": "users", "group": "groups"} {
		c.RegisterFlagCompletionFunc(flag, func(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
			return engine.CompleteKind(f, kind, typed)
		})
	}
	c.RegisterFlagCompletionFunc("type", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return access.ObjectTypes, cobra.ShellCompDirectiveNoFileComp
	})
	engine.AcrossProfiles(c, engine.ProfilesRead)
	return c
}

func listObjectsRun(ctx context.Context, f *cli.Factory, user, group string, types []string, direct bool, sel []string) error {
	_, p, err := cli.PrinterFor(f)
	if err != nil {
		return err
	}
	cl, err := f.Client()
	if err != nil {
		return err
	}
	o := access.NewOrg(cl)
	subject, _, err := o.Subject(ctx, user, group)
	if err != nil {
		return err
	}
	var all []json.RawMessage
	for _, t := range types {
		items, err := o.ListObjects(ctx, subject, t, !direct)
		if err != nil {
			return err
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
	if err := o.LoadObjects(ctx, types...); err != nil {
		p.IO.Warn("could not list the objects' names, showing ids: %v", firstLine(err.Error()))
	}
	rows := make([]map[string]any, 0, len(all))
	for _, raw := range all {
		var it access.Object
		if json.Unmarshal(raw, &it) != nil {
			continue
		}
		id := string(it.ID)
		json.Unmarshal(it.ID, &id)
		rows = append(rows, map[string]any{"type": it.Type, "object": o.Name(it.Type, id), "level": it.Level})
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
