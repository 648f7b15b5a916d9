package families

import (
	"slices"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/ratebudget"
)

// Family is an API family as the root lists it. Its commands are
// declared by build, which runs only for the family a command line names
// (or for the whole tree, which man pages document): declaring every
// operation of every family costs more than a short command's run.
type Family struct {
	Name    string
	Aliases []string
	short   string
	build   func() engine.Group
}

// Group is the family's full declaration.
func (fm Family) Group() engine.Group {
	g := fm.build()
	g.Name, g.Aliases, g.Short = fm.Name, fm.Aliases, fm.short
	return g
}

// IsNamed reports whether word is the family's name or one of its aliases,
// as cobra finds its command.
func (fm Family) IsNamed(word string) bool {
	return fm.Name == word || slices.Contains(fm.Aliases, word)
}

// Stub is the family's command before its subcommands are built: enough
// for the root's help and for cobra to find it by name or alias.
func (fm Family) Stub() *cobra.Command {
	return engine.Group{Name: fm.Name, Aliases: fm.Aliases, Short: fm.short}.Stub()
}

// registry is every API family, sorted by name for a stable help page. A
// table of constants and top-level functions, which the compiler lays out:
// no code runs for it before main, and a family's operations are declared
// only when its build runs.
var registry = []Family{
	{Name: "access-requests", Aliases: []string{"access-request"}, build: accessRequestsGroup,
		short: "Review requests to join the organization"},
	{Name: "apps", Aliases: []string{"app"}, build: appsGroup,
		short: "List, create, clone and delete apps"},
	{Name: "config-vars", Aliases: []string{"config-var", "configuration-variables"}, build: configVarsGroup,
		short: "Manage configuration variables and their per-environment values"},
	{Name: "custom-components", Aliases: []string{"custom-component", "ccl"}, build: customComponentsGroup,
		short: "Manage custom component libraries and their revisions"},
	{Name: "environments", Aliases: []string{"environment", "env"}, build: environmentsGroup,
		short: "List, create, update and delete environments"},
	{Name: "folders", Aliases: []string{"folder"}, build: foldersGroup,
		short: "List, create, rename, move and delete folders"},
	{Name: "groups", Aliases: []string{"group"}, build: groupsGroup,
		short: "Manage permission groups and their members"},
	{Name: "info", build: infoGroup,
		short: "Facts about the platform itself"},
	{Name: "invites", Aliases: []string{"invite", "user-invites"}, build: invitesGroup,
		short: "Invite people and manage pending invites"},
	{Name: "observability", build: observabilityGroup,
		short: "Send the org's app errors to Sentry or Datadog"},
	{Name: "org", Aliases: []string{"organization"}, build: orgGroup,
		short: "Organization settings, AI settings and sessions"},
	{Name: "permissions", Aliases: []string{"permission", "perms"}, build: permissionsGroup,
		short: "See and change who can use, edit or own apps, folders and resources"},
	{Name: "releases", Aliases: []string{"release"}, build: releasesGroup,
		short: "Release apps and workflows through source control"},
	{Name: "resource-configs", Aliases: []string{"resource-config", "resource-configurations"}, build: resourceConfigsGroup,
		short: "Manage per-environment resource configurations"},
	{Name: "resources", Aliases: []string{"resource"}, build: resourcesGroup,
		short: "List, create, update and delete resources; audit them against announced type changes"},
	{Name: "source-control", Aliases: []string{"sc"}, build: sourceControlGroup,
		short: "Configure source control and deploy from it"},
	{Name: "spaces", Aliases: []string{"space"}, build: spacesGroup,
		short: "List, create, update, delete and copy between Spaces"},
	{Name: "sso", build: ssoGroup,
		short: "Read, set and remove the SSO configuration"},
	{Name: "themes", Aliases: []string{"theme", "app-themes"}, build: themesGroup,
		short: "List, create, update and delete app themes"},
	{Name: "tokens", Aliases: []string{"token", "access-tokens"}, build: tokensGroup,
		short: "List and create API access tokens"},
	{Name: "usage", build: usageGroup,
		short: "Usage analytics: page views, saves and active users"},
	{Name: "user-attributes", Aliases: []string{"user-attribute"}, build: userAttributesGroup,
		short: "Declare the user attributes of the organization"},
	{Name: "user-tasks", Aliases: []string{"user-task", "tasks"}, build: userTasksGroup,
		short: "List, submit, cancel and reassign workflow user tasks"},
	{Name: "users", Aliases: []string{"user"}, build: usersGroup,
		short: "List, create, update and disable users"},
	{Name: "workflows", Aliases: []string{"workflow", "wf"}, build: workflowsGroup,
		short: "List, update and delete workflows; inspect workflow runs"},
}

// List is every family, sorted by name, without building any.
func List() []Family { return registry }

// Called are the budget families of every operation's path.
func Called() []string {
	var out []string
	var walk func(gs []engine.Group)
	walk = func(gs []engine.Group) {
		for _, g := range gs {
			for _, op := range g.Ops {
				out = append(out, ratebudget.Family(op.Path))
			}
			walk(g.Groups)
		}
	}
	walk(All())
	return out
}

// All returns every family's full declaration, sorted by name.
func All() []engine.Group {
	fams := List()
	gs := make([]engine.Group, 0, len(fams))
	for _, fm := range fams {
		gs = append(gs, fm.Group())
	}
	return gs
}
