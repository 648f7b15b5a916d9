package families

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

var scProviders = []string{"GitHub", "GitLab", "AWS CodeCommit", "Bitbucket", "Azure Repos"}

// scConfigFields are local options placed by needConfig, since --body may
// be wrapped ({"config": {...}}) or bare.
var scConfigFields = []opdef.Field{
	{Flag: "provider", In: opdef.InLocal, Enum: scProviders, Usage: "source control provider"},
	{Flag: "org", In: opdef.InLocal, Usage: "user or organization owning the repository"},
	{Flag: "repo", In: opdef.InLocal, Usage: "repository name"},
	{Flag: "default-branch", In: opdef.InLocal, Usage: "default branch, e.g. main"},
	{Flag: "repo-version", In: opdef.InLocal, Usage: "2.0.0 for Toolscript repositories, 1.0.0 for legacy YAML"},
	{Flag: "credential", In: opdef.InLocal, Type: opdef.TTexts, Usage: "provider setting `KEY=VALUE` (repeatable; e.g. type=Personal, personal_access_token=...)"},
}

// needConfig wraps a bare configuration, applies the flags over it and
// rejects it without the fields every provider needs.
func needConfig(c *opdef.Call) error {
	inner := c.Req.Body
	if inner == nil {
		inner = map[string]any{}
	}
	if wrapped, ok := inner["config"].(map[string]any); ok && len(inner) == 1 && wrapped["provider"] != nil {
		inner = wrapped
	}
	for _, f := range []struct{ flag, key string }{
		{"provider", "provider"}, {"org", "org"}, {"repo", "repo"}, {"default-branch", "default_branch"}, {"repo-version", "repo_version"},
	} {
		if v, ok := c.Given.Local[f.flag]; ok {
			inner[f.key] = v
		}
	}
	if creds := c.LocalStrings("credential"); len(creds) > 0 {
		cur, _ := inner["config"].(map[string]any)
		if cur == nil {
			cur = map[string]any{}
		}
		for _, kv := range creds {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return cli.UsageErrorf("invalid --credential %q: expected KEY=VALUE", kv)
			}
			// Credentials are strings in every provider's schema but these two.
			if k == "project_id" || k == "use_basic_auth" {
				cur[k] = opdef.LooseJSON(v)
			} else {
				cur[k] = v
			}
		}
		inner["config"] = cur
	}
	if len(inner) == 0 {
		return cli.UsageErrorf("%s: pass --body FILE or --provider, --org, --repo, --default-branch and --credential", c.Command)
	}
	names := map[string]string{"provider": "provider", "org": "org", "repo": "repo", "default_branch": "default-branch", "config": "credential"}
	for _, k := range []string{"provider", "org", "repo", "default_branch", "config"} {
		if inner[k] == nil {
			return cli.UsageErrorf("%s: missing %q: pass --%s or set it in --body", c.Command, k, names[k])
		}
	}
	c.Req.Body = map[string]any{"config": inner}
	return nil
}

var deploymentColumns = []output.Column{
	{Header: "ID", Field: "id"},
	{Header: "STATUS", Field: "status"},
	{Header: "COMMIT", Field: "commit_sha"},
	{Header: "TRIGGERED BY", Field: "triggered_by"},
	{Header: "CREATED", Field: "created_at"},
	{Header: "COMPLETED", Field: "completed_at"},
}

// printInner shows the array or object under key as the table, while the
// other formats keep the raw data.
func printInner(key string) func(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
	return func(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
		if !p.Opts.Structured() {
			var m map[string]json.RawMessage
			if json.Unmarshal(data, &m) == nil && m[key] != nil {
				data = m[key]
			}
		}
		return p.Print(data, c.Columns)
	}
}

func sourceControlGroup() engine.Group {
	return engine.Group{
		Long: `Source control links the organization (or Space) to a Git repository: apps and
workflows are committed there, and deploys bring the repository's state back in.
Deployment ids are UUIDs.

The configuration holds provider credentials, so keep it in a file:
  orgctl source-control config get -o json > sc.json   # edit, then
  orgctl source-control config set --body sc.json
--body takes {"config": {...}} or the inner object; flags override its fields.
Credentials passed with --credential end up in shell history; prefer --body.

Gotchas:
  - config create fails when a configuration exists; config set overwrites.
  - settings set replaces all settings: fields you leave out are reset.
  - deploy starts an asynchronous deployment; follow it with 'deployments get ID'.
  - Release manifests and releases are under 'orgctl releases'.`,
		Example: `  orgctl source-control config get
  orgctl source-control test-connection
  orgctl source-control deploy --jq .id
  orgctl source-control deployments get 5a4d...-uuid
  orgctl source-control settings set --version-control-locked --auto-branch-naming`,
		Ops: []opdef.Op{
			{Use: "test-connection", Method: http.MethodGet, Path: "/source_control/test_connection",
				Help: opdef.Help{
					Short:   "Check that the provider can be reached",
					Example: "  orgctl source-control test-connection\n  orgctl source-control test-connection --jq .success",
				},
				Columns: []output.Column{{Header: "SUCCESS", Field: "success"}, {Header: "MESSAGE", Field: "message"}}},
			{Use: "test-deploy", Method: http.MethodPost, Path: "/source_control/test_deploy",
				Help: opdef.Help{
					Short:   "Try a deploy of a commit without changing anything",
					Example: "  orgctl source-control test-deploy --commit 3f2a9c1e...full-sha\n  orgctl source-control test-deploy --commit $(git rev-parse HEAD) --full-sync",
					Done:    "Test deploy finished; nothing was changed",
				},
				Columns: []output.Column{{Header: "SUCCESS", Field: "success"}, {Header: "MESSAGE", Field: "message"}},
				Fields: []opdef.Field{
					{Flag: "commit", Key: "deploy_params.commit_sha", Required: true, Usage: "full commit `SHA` to test"},
					{Flag: "full-sync", Key: "deploy_params.is_full_sync", Type: opdef.TBool, Usage: "test a full sync"},
				}},
			{Use: "deploy", Method: http.MethodPost, Path: "/source_control/deploy",
				Help: opdef.Help{
					Short:   "Deploy the repository's latest changes",
					Long:    "Starts a deployment and prints it (status PENDING_START); poll with 'deployments get'.",
					Example: "  orgctl source-control deploy\n  id=$(orgctl source-control deploy --jq .id) && orgctl source-control deployments get $id",
					Done:    "Deployed the repository's latest changes",
				},
				Columns: deploymentColumns},
		},
		Groups: []engine.Group{
			branchesGroup(),
			{
				Name:  "config",
				Short: "Read and write the provider configuration",
				Columns: []output.Column{
					{Header: "PROVIDER", Field: "provider"},
					{Header: "ORG", Field: "org"},
					{Header: "REPO", Field: "repo"},
					{Header: "BRANCH", Field: "default_branch"},
					{Header: "REPO VERSION", Field: "repo_version"},
				},
				Ops: []opdef.Op{
					{Use: "get", Method: http.MethodGet, Path: "/source_control/config",
						Help: opdef.Help{
							Short:   "Show the provider configuration",
							Example: "  orgctl source-control config get\n  orgctl source-control config get -o json > sc.json",
						},
					},
					{Use: "create", Method: http.MethodPost, Path: "/source_control/config", Body: true,
						Help: opdef.Help{
							Short: "Create the provider configuration (fails if one exists)",
							Example: `  orgctl source-control config create --body sc.json
  orgctl source-control config create --provider GitHub --org acme --repo retool-apps --default-branch main --credential type=Personal --credential personal_access_token=$GH_TOKEN`,
						},
						Fields: scConfigFields,
						Hooks:  opdef.Hooks{Shape: needConfig},
					},
					{Use: "set", Method: http.MethodPut, Path: "/source_control/config", Body: true,
						Help: opdef.Help{
							Short:   "Create or overwrite the provider configuration",
							Example: "  orgctl source-control config set --body sc.json\n  orgctl source-control config set --body sc.json --default-branch release",
						},
						Fields: scConfigFields,
						Hooks:  opdef.Hooks{Shape: needConfig},
					},
					{Use: "delete", Method: http.MethodDelete, Path: "/source_control/config",
						Help: opdef.Help{
							Short:   "Remove the provider configuration",
							Example: "  orgctl source-control config delete --yes",
						},
						Confirm: &opdef.Confirm{
							Question: "Remove the source control configuration? Deploys stop until 'orgctl source-control config set' configures it again; the repository is untouched.",
						},
					},
				},
			},
			{
				Name:    "deployments",
				Short:   "Follow deployments",
				Columns: deploymentColumns,
				Ops: []opdef.Op{
					{Use: "list", Method: http.MethodGet, Path: "/source_control/deployments",
						Help: opdef.Help{
							Short:   "List deployments, newest first",
							Example: "  orgctl source-control deployments list\n  orgctl source-control deployments list --jq '.deployments[0].status'",
						},

						Hooks: opdef.Hooks{View: printInner("deployments")},
					},
					{Use: "get DEPLOYMENT_ID", Method: http.MethodGet, Path: "/source_control/deployment/{id}",
						Help: opdef.Help{
							Short:   "Show a deployment's status",
							Example: "  orgctl source-control deployments get 5a4d0000-0000-4000-8000-000000000001 --jq .status",
						},
						Args: opdef.Args{Params: []string{"id"}},
					},
				},
			},
			{
				Name:  "settings",
				Short: "Read and replace source control settings",
				Ops: []opdef.Op{
					{Use: "get", Method: http.MethodGet, Path: "/source_control/settings",
						Help: opdef.Help{
							Short:   "Show source control settings",
							Example: "  orgctl source-control settings get -o yaml",
						},
					},
					{Use: "set", Method: http.MethodPut, Path: "/source_control/settings", Body: true,
						Help: opdef.Help{
							Short: "Replace source control settings",
							Long:  "Replaces all settings; to change one, start from 'settings get -o json' and pass it\nwith --body (bare or as {\"settings\": {...}}).",
							Example: `  orgctl source-control settings set --version-control-locked=false --auto-branch-naming
  orgctl source-control settings get -o json > s.json && orgctl source-control settings set --body s.json --force-uuid-mapping`,
							Done: "Set the source control settings",
						},
						Fields: []opdef.Field{
							{Flag: "auto-branch-naming", Key: "settings.auto_branch_naming_enabled", Type: opdef.TBool, Usage: "suggest branch names"},
							{Flag: "custom-pull-request-template", Key: "settings.custom_pull_request_template", Usage: "pull request template text"},
							{Flag: "custom-pull-request-template-enabled", Key: "settings.custom_pull_request_template_enabled", Type: opdef.TBool, Usage: "use the pull request template"},
							{Flag: "version-control-locked", Key: "settings.version_control_locked", Type: opdef.TBool, Usage: "make the instance read-only (no app editing)"},
							{Flag: "force-uuid-mapping", Key: "settings.force_uuid_mapping", Type: opdef.TBool, Usage: "map protected elements by uuid in the repository"},
							{Flag: "auto-cleanup-branches", Key: "settings.auto_cleanup_branches_enabled", Type: opdef.TBool, Usage: "delete merged branches"},
						},

						Hooks: opdef.Hooks{
							Shape: func(c *opdef.Call) error {
								if c.Req.Body == nil {
									return cli.UsageErrorf("%s: nothing to set: pass setting flags or --body", c.Command)
								}
								if _, ok := c.Req.Body["settings"]; !ok || len(c.Req.Body) > 1 {
									inner, _ := c.Req.Body["settings"].(map[string]any)
									if inner == nil {
										inner = map[string]any{}
									}
									for k, v := range c.Req.Body {
										if _, set := inner[k]; k != "settings" && !set {
											inner[k] = v
										}
									}
									c.Req.Body = map[string]any{"settings": inner}
								}
								return nil
							},
						},
					},
				},
			},
		},
	}
}
