package families

import (
	"fmt"
	"net/http"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// branchesGroup is "source-control branches create|reset": Retool branches
// of API 4.0.
func branchesGroup() engine.Group {
	return engine.Group{
		Name:    "branches",
		Aliases: []string{"branch"},
		Short:   "Create Retool branches and reset them from the remote",
		Long:    "Retool branches of a source-controlled org (API 4.0, Retool 4.0; classic apps only).",
		Example: "  orgctl source-control branches create fix-header\n  orgctl source-control branches reset hotfix --remote-branch main",
		Ops: []opdef.Op{
			{Use: "create BRANCH", Method: http.MethodPost, Path: "/source_control/branches", Body: true,
				Args: opdef.Args{Params: []string{"branch"}},
				Help: opdef.Help{Short: "Create a Retool branch",
					Long: `Creates the branch, optionally holding one element (an app's page, a workflow,
...) given by --element and --element-type.`,
					Example: "  orgctl source-control branches create fix-header\n  orgctl source-control branches create refund-v2 --element 'Refund Console' --element-type PAGE --shared"},
				Fields: []opdef.Field{
					{Flag: "element", Key: "element_id", Complete: "apps", Usage: "put this element on the branch (`ID`; apps by id or name)"},
					{Flag: "element-type", Key: "element_type", Usage: "the kind of --element (default PAGE)"},
					{Flag: "shared", Key: "shared", Type: opdef.TBool, Usage: "share the branch with other editors"},
				},
				Columns: []output.Column{{Header: "ID", Field: "branch_id"}, {Header: "NAME", Field: "branch_name"}, {Header: "SHARED", Field: "shared"}, {Header: "ELEMENT", Field: "element.element_name"}},
				Hooks: opdef.Hooks{DoneLine: saidBranch("Created branch %s"), Shape: func(c *opdef.Call) error {
					if err := argToBody("branch", "branch_name")(c); err != nil {
						return err
					}
					if c.Has("element-type") && !c.Has("element") {
						return cli.UsageErrorf("%s: --element-type needs --element", c.Command)
					}
					return nil
				}}},
			{Use: "reset BRANCH", Method: http.MethodPost, Path: "/source_control/branches/reset", Body: true,
				Args:    opdef.Args{Params: []string{"branch"}},
				Confirm: &opdef.Confirm{Question: "Reset branch %s from the remote? Its Retool-only changes are discarded; this cannot be undone."},
				Help: opdef.Help{Short: "Reset a branch from its remote Git branch",
					Long: `Discards the branch's Retool-local changes and reloads its apps from the remote
Git branch (--remote-branch; default: the branch of the same name). Changes to
elements other than pages are not kept.`,
					Example: "  orgctl source-control branches reset hotfix --yes\n  orgctl source-control branches reset hotfix --remote-branch main --yes"},
				Fields: []opdef.Field{
					{Flag: "remote-branch", Key: "remote_branch_name", Usage: "the remote Git `BRANCH` to reset from (default: the same name)"},
				},
				Columns: []output.Column{{Header: "BRANCH", Field: "branch_name"}, {Header: "REMOTE", Field: "remote_branch_name"}, {Header: "STATUS", Field: "status"}, {Header: "APPS", Field: "updated_apps"}},
				Hooks:   opdef.Hooks{DoneLine: saidBranch("Reset branch %s from the remote"), Shape: argToBody("branch", "branch_name")}},
		},
	}
}

// saidBranch words a branch write's result with the branch's name, which
// travels in the body rather than the path.
func saidBranch(format string) func(c *opdef.Call) string {
	return func(c *opdef.Call) string { return fmt.Sprintf(format, c.BodyObject()["branch_name"]) }
}
