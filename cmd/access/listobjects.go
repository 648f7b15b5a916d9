package access

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
	"github.com/orgctl/orgctl/output/jsonscan"
)

var objectRowColumns = []output.Column{
	{Header: "TYPE", Field: "type"},
	{Header: "OBJECT", Field: "object", Key: true}, // what the row is about: shown whole, as a list's key is
	{Header: "LEVEL", Field: "level"},
}

// ListObjectsOptions are one 'permissions list-objects', parsed and
// checked: the subject (User or Group), the types, and --json's fields.
type ListObjectsOptions struct {
	Factory     *cli.Factory
	User, Group string
	Types       []string
	Direct      bool
	Selection   []string
}

// NewCmdListObjects answers "what can this person (or group) reach?": one
// listObjects per type, with access through groups, universal access and
// folders included, and the ids named. It parses into ListObjectsOptions
// for runF (listObjectsRun when nil).
func NewCmdListObjects(f *cli.Factory, runF func(*ListObjectsOptions) error) *cobra.Command {
	o := &ListObjectsOptions{Factory: f}
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

-o json prints the API's items as received, the types one after the other.
'permissions access-list' says why a subject has its access.`,
		Example: `  orgctl permissions list-objects --user ana.viewer@sandbox.example
  orgctl permissions list-objects --group support --type app
  orgctl permissions list-objects --user ana.viewer@sandbox.example --direct -o json`,
		Args: cli.NoArgsGroup,
		RunE: func(c *cobra.Command, _ []string) error {
			if (o.User == "") == (o.Group == "") {
				return cli.UsageErrorf("%s: pass --user USER or --group GROUP (one of them)", c.CommandPath())
			}
			if len(o.Types) == 0 {
				o.Types = access.ObjectTypes
			}
			for _, t := range o.Types {
				if !slices.Contains(access.ObjectTypes, t) {
					return cli.UsageErrorf("invalid --type %q: allowed values are %s", t, strings.Join(access.ObjectTypes, ", "))
				}
			}
			sel, err := engine.JSONSelection(c)
			if err != nil {
				return err
			}
			o.Selection = sel
			if runF != nil {
				return runF(o)
			}
			return listObjectsRun(c.Context(), o)
		},
	}
	engine.Describe(c, engine.Facts{Method: http.MethodPost, Path: "/permissions/listObjects", Scope: "Permissions > Read",
		Also: []string{"Users > Read or Groups > Read", "Folders > Read", "Apps > Read", "Resources > Read"},
		Requests: `one POST /permissions/listObjects per type (10 points each), the
subject's list if named (users 2, groups 5) and, for a table, one list per
type to name the objects (-o json, yaml and --json print ids, as the API does).`})
	fl := c.Flags()
	fl.StringVar(&o.User, "user", "", "the subject is this `USER` (email or id)")
	fl.StringVar(&o.Group, "group", "", "the subject is this `GROUP` (name or id)")
	fl.StringSliceVar(&o.Types, "type", nil, "only objects of this `TYPE` (repeatable): "+strings.Join(access.ObjectTypes, ", "))
	fl.BoolVar(&o.Direct, "direct", false, "only the subject's own grants (no groups, universal access or folders)")
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

// listObjectsRun reads what the subject reaches, type by type, and prints
// it with the objects named.
func listObjectsRun(ctx context.Context, o *ListObjectsOptions) error {
	f, types, sel := o.Factory, o.Types, o.Selection
	_, p, err := cli.PrinterFor(f)
	if err != nil {
		return err
	}
	cl, err := f.Client()
	if err != nil {
		return err
	}
	org := access.NewOrg(cl)
	subject, _, err := org.Subject(ctx, o.User, o.Group)
	if err != nil {
		return err
	}
	var all []json.RawMessage
	for _, t := range types {
		items, err := org.ListObjects(ctx, subject, t, !o.Direct)
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
	if err := org.LoadObjects(ctx, types...); err != nil {
		p.IO.Warn("could not list the objects' names, showing ids: %v", cli.FirstLine(err))
	}
	rows := make([]map[string]any, 0, len(all))
	for _, raw := range all {
		var it access.Object
		if json.Unmarshal(raw, &it) != nil {
			continue
		}
		rows = append(rows, map[string]any{"type": it.Type, "object": org.Name(it.Type, jsonscan.AsText(it.ID)), "level": it.Level})
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
