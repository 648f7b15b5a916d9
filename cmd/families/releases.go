package families

import (
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/lazy"
)

var semver = lazy.Regexp{Expr: `^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$`}

// elementTypes are the values the description lists for the call's --type.
func elementTypes(c *opdef.Call) string {
	for _, fd := range c.Op.Fields {
		if fd.Flag == "type" {
			return strings.Join(fd.Enum, "|")
		}
	}
	return ""
}

const (
	// Deprecated per-app release endpoints, reached with --app.
	appReleasesPath = "/source_control/releases/apps/{appUuid}"
)

var commitMessage = opdef.Field{Flag: "message", Key: "commit_message", Usage: "commit message (default: one the service writes)"}

func checkRelease(flag string, allowLatest bool) func(c *opdef.Call) error {
	return func(c *opdef.Call) error {
		v, _ := c.BodyObject()[flag].(string)
		if semver.Get().MatchString(v) || (allowLatest && v == "latest") {
			return nil
		}
		want := "MAJOR.MINOR.PATCH, e.g. 1.2.0"
		if allowLatest {
			want += `, or "latest"`
		}
		return cli.UsageErrorf("invalid release %q: expected %s", v, want)
	}
}

// releaseTarget reads --element/--type or --app and points the call at the
// element endpoint or at the deprecated app endpoint.
func releaseTarget(c *opdef.Call) error {
	el, hasEl := c.Given.Local["element"].(string)
	app, hasApp := c.Given.Local["app"].(string)
	if len(c.Req.Body) == 0 {
		c.Req.Body = nil
	}
	switch {
	case hasEl && hasApp:
		return cli.UsageErrorf("%s: pass --element or --app, not both", c.Command)
	case hasEl:
		if c.Req.Query.Get("elementType") == "" {
			return cli.UsageErrorf("%s: --element needs --type {%s}", c.Command, elementTypes(c))
		}
		c.Req.Params["elementUuid"] = el
	case hasApp:
		if c.Req.Query.Has("elementType") {
			return cli.UsageErrorf("%s: --type goes with --element, not --app", c.Command)
		}
		c.Req.Path = appReleasesPath
		c.Req.Params["appUuid"] = app
	default:
		return cli.UsageErrorf("%s: pass --element UUID --type {%s} (or the deprecated --app UUID)", c.Command, elementTypes(c))
	}
	return nil
}

func releaseCreateFields(target bool) []opdef.Field {
	fs := []opdef.Field{
		{Flag: "version", Key: "release_version", Usage: "release version, MAJOR.MINOR.PATCH"},
		{Flag: "description", Key: "release_description", Usage: "what changed"},
		commitMessage,
	}
	if target {
		fs = append(fs, releaseTargetFields...)
	}
	return fs
}

var releaseTargetFields = []opdef.Field{
	{Flag: "element", In: opdef.InLocal, Usage: "page or workflow `UUID`"},
	{Flag: "type", Key: "elementType", In: opdef.InQuery, Optional: true, Usage: "the element's type"},
	{Flag: "app", In: opdef.InLocal, Complete: "apps", Usage: "the `APP` (UUID or name; deprecated endpoint; prefer --element --type PAGE)"},
}

var branchColumns = []output.Column{
	{Header: "BRANCH", Field: "branch_name"},
	{Header: "COMMIT", Field: "commit_sha"},
	{Header: "PULL REQUEST URL", Field: "url"},
}

func releasesGroup() engine.Group {
	releaseColumns := []output.Column{
		{Header: "VERSION", Field: "release_version"},
		{Header: "DESCRIPTION", Field: "release_description"},
		{Header: "CREATED", Field: "created_at"},
	}
	createOp := func(use, path string, args []string, hidden bool) opdef.Op {
		check := checkRelease("release_version", false)
		shape := func(c *opdef.Call) error {
			if err := check(c); err != nil {
				return err
			}
			if hidden {
				return nil
			}
			return releaseTarget(c)
		}
		return opdef.Op{Use: use, Method: http.MethodPost, Path: path,
			Help: opdef.Help{
				Short: "Create a release of an app, page or workflow",
				Long: `Pushes a branch that adds the release; merge its pull request (the answer's url)
to publish it. Use --element with --type; --app uses the deprecated app endpoint.`,
				Example: `  orgctl releases create --element 2ab90f76-c234-428e-9896-40c3a9bdbb2b --type PAGE --version 1.2.0 --description "Dark mode"
  orgctl releases create --app 2ab90f76-c234-428e-9896-40c3a9bdbb2b --version 1.2.0`,
				Hidden: hidden,
			},
			Args:    opdef.Args{Params: args},
			Columns: branchColumns, Fields: releaseCreateFields(!hidden),
			Hooks: opdef.Hooks{Shape: shape}}
	}
	return engine.Group{
		Long: `Releases are versions (MAJOR.MINOR.PATCH) of source-controlled pages and
workflows; release manifests name which version of each element to publish.
Every change pushes a branch to the repository and answers with its name,
commit and a URL to open the pull request: nothing is live until it is merged.

Elements are pages (apps) and workflows, named by the UUID in the repository
(which may differ from the org's app id) plus --type PAGE|WORKFLOW. The older
per-app endpoints are deprecated; they remain as --app, set-app and remove-app.`,
		Example: `  orgctl releases list --element 2ab90f76-c234-428e-9896-40c3a9bdbb2b --type PAGE
  orgctl releases create --element 2ab90f76-c234-428e-9896-40c3a9bdbb2b --type PAGE --version 1.3.0
  orgctl releases manifests set-element prod 2ab90f76-c234-428e-9896-40c3a9bdbb2b --type PAGE --release 1.3.0
  orgctl releases manifests get prod`,
		Columns: releaseColumns,
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/source_control/releases/{elementUuid}",
				Help: opdef.Help{
					Short: "List the releases of a page or workflow",
					Example: `  orgctl releases list --element 2ab90f76-c234-428e-9896-40c3a9bdbb2b --type PAGE
  orgctl releases list --app 2ab90f76-c234-428e-9896-40c3a9bdbb2b --jq '.[0].release_version'`,
				},
				Fields: releaseTargetFields,
				Hooks:  opdef.Hooks{Shape: releaseTarget},
			},
			createOp("create", "/source_control/releases/{elementUuid}", nil, false),
			{Use: "list-app APP_UUID", Method: http.MethodGet, Path: appReleasesPath,
				Help: opdef.Help{
					Short:   "List an app's releases (deprecated endpoint)",
					Example: "  orgctl releases list-app 2ab90f76-c234-428e-9896-40c3a9bdbb2b",
					Hidden:  true,
				},
				Args: opdef.Args{Params: []string{"appUuid"}},
			},
			createOp("create-app APP_UUID", appReleasesPath, []string{"appUuid"}, true),
		},
		Groups: []engine.Group{{
			Name:    "manifests",
			Aliases: []string{"manifest"},
			Short:   "Read and change release manifests",
			Long:    "A manifest (e.g. prod) lists apps and workflows with the release to publish; \"latest\"\nfollows the newest release. Changes push a branch, as with releases.",
			Columns: branchColumns,
			Ops: []opdef.Op{
				{Use: "list", Method: http.MethodGet, Path: "/source_control/manifests",
					Help: opdef.Help{
						Short:   "List release manifests",
						Example: "  orgctl releases manifests list\n  orgctl releases manifests list --jq '.manifests[].name'",
					},
					Columns: []output.Column{
						{Header: "NAME", Field: "name"},
						{Header: "APPS", Field: "apps"},
						{Header: "WORKFLOWS", Field: "workflows"},
					},

					Hooks: opdef.Hooks{View: printInner("manifests")},
				},
				{Use: "get NAME", Method: http.MethodGet, Path: "/source_control/manifests/{manifestName}",
					Help: opdef.Help{Short: "Show a release manifest", Example: "  orgctl releases manifests get prod -o yaml"},
					Args: opdef.Args{Params: []string{"manifestName"}},
					Columns: []output.Column{
						{Header: "NAME", Field: "name"},
						{Header: "APPS", Field: "apps"},
						{Header: "WORKFLOWS", Field: "workflows"},
					},

					Hooks: opdef.Hooks{View: printInner("manifest")},
				},
				{Use: "set NAME", Method: http.MethodPut, Path: "/source_control/manifests/{manifestName}", Body: true,
					Help: opdef.Help{
						Short: "Create or overwrite a release manifest",
						Example: `  orgctl releases manifests set prod --app 2ab90f76-c234-428e-9896-40c3a9bdbb2b=latest --workflow 8079edae-d5c2-46de-b5bb-153249e8463f=1.0.5
  orgctl releases manifests set prod --body manifest.json --message "Release 42"`,
					},
					Args: opdef.Args{Params: []string{"manifestName"}},
					Fields: []opdef.Field{
						{Flag: "app", In: opdef.InLocal, Type: opdef.TStrings, KeyKind: "apps", Usage: "`APP=RELEASE`, the app by UUID or name (repeatable; RELEASE is x.y.z or latest)"},
						{Flag: "workflow", In: opdef.InLocal, Type: opdef.TStrings, KeyKind: "workflows", Usage: "`WORKFLOW=RELEASE`, the workflow by UUID or name (repeatable)"},
						commitMessage,
					},

					Hooks: opdef.Hooks{
						Shape: func(c *opdef.Call) error {
							m, _ := c.BodyObject()["manifest"].(map[string]any)
							if m == nil {
								m = map[string]any{}
							}
							for _, kind := range []string{"apps", "workflows"} {
								entries, given := c.Given.Local[strings.TrimSuffix(kind, "s")].([]any)
								if !given {
									continue
								}
								var list []any
								for _, e := range entries {
									uuid, rel, ok := strings.Cut(e.(string), "=")
									if !ok || uuid == "" || (!semver.Get().MatchString(rel) && rel != "latest") {
										return cli.UsageErrorf("invalid --%s %q: expected UUID=RELEASE (x.y.z or latest)", strings.TrimSuffix(kind, "s"), e)
									}
									list = append(list, map[string]any{"uuid": uuid, "release": rel})
								}
								m[kind] = list
							}
							if len(m) == 0 {
								return cli.UsageErrorf("%s: pass --app/--workflow UUID=RELEASE or --body", c.Command)
							}
							c.Req.Body["manifest"] = m
							return nil
						},
					},
				},
				{Use: "delete NAME", Method: http.MethodPost, Path: "/source_control/manifests/{manifestName}/delete",
					Help: opdef.Help{
						Short:   "Delete a release manifest",
						Example: "  orgctl releases manifests delete staging --yes",
					},
					Args:    opdef.Args{Params: []string{"manifestName"}},
					Confirm: &opdef.Confirm{Question: "Delete release manifest %s? This cannot be undone."},
					Fields:  []opdef.Field{commitMessage},
				},
				{Use: "set-element NAME ELEMENT_UUID", Method: http.MethodPut, Path: "/source_control/manifests/{manifestName}/{elementUuid}",
					Help: opdef.Help{
						Short:   "Set one page's or workflow's release in a manifest",
						Example: "  orgctl releases manifests set-element prod 2ab90f76-c234-428e-9896-40c3a9bdbb2b --type PAGE --release 1.3.0",
						Done:    "Set %[2]s's release in manifest %[1]s",
					},
					Args: opdef.Args{Params: []string{"manifestName", "elementUuid"}},
					Fields: []opdef.Field{
						{Flag: "type", Key: "elementType", In: opdef.InQuery, Usage: "the element's type"},
						{Flag: "release", Key: "release", Usage: "release x.y.z or latest"},
						commitMessage,
					},

					Hooks: opdef.Hooks{Shape: checkRelease("release", true)},
				},
				{Use: "remove-element NAME ELEMENT_UUID", Method: http.MethodPost, Path: "/source_control/manifests/{manifestName}/{elementUuid}/delete",
					Help: opdef.Help{
						Short:   "Remove a page or workflow from a manifest",
						Example: "  orgctl releases manifests remove-element prod 8079edae-d5c2-46de-b5bb-153249e8463f --type WORKFLOW --yes",
						Done:    "Removed %[2]s from manifest %[1]s",
					},
					Args: opdef.Args{Params: []string{"manifestName", "elementUuid"}},
					Confirm: &opdef.Confirm{
						Question: "Remove %[2]s from manifest %[1]s? 'orgctl releases manifests set-element' adds it back.",
					},
					Fields: []opdef.Field{
						{Flag: "type", Key: "elementType", In: opdef.InQuery, Usage: "the element's type"},
						commitMessage,
					}},
				{Use: "set-app NAME APP_UUID", Method: http.MethodPut, Path: "/source_control/manifests/{manifestName}/apps/{appUuid}",
					Help: opdef.Help{
						Short:   "Set one app's release in a manifest (deprecated endpoint)",
						Long:    "Deprecated by the API: prefer set-element --type PAGE.",
						Example: "  orgctl releases manifests set-app prod 2ab90f76-c234-428e-9896-40c3a9bdbb2b --release latest",
						Done:    "Set app %[2]s's release in manifest %[1]s",
					},
					Args: opdef.Args{Params: []string{"manifestName", "appUuid"}},
					Fields: []opdef.Field{
						{Flag: "release", Key: "release", Usage: "release x.y.z or latest"},
						commitMessage,
					},

					Hooks: opdef.Hooks{Shape: checkRelease("release", true)},
				},
				{Use: "remove-app NAME APP_UUID", Method: http.MethodPost, Path: "/source_control/manifests/{manifestName}/apps/{appUuid}/delete",
					Help: opdef.Help{
						Short:   "Remove an app from a manifest (deprecated endpoint)",
						Long:    "Deprecated by the API: prefer remove-element --type PAGE.",
						Example: "  orgctl releases manifests remove-app prod 2ab90f76-c234-428e-9896-40c3a9bdbb2b --yes",
						Done:    "Removed app %[2]s from manifest %[1]s",
					},
					Args: opdef.Args{Params: []string{"manifestName", "appUuid"}},
					Confirm: &opdef.Confirm{
						Question: "Remove app %[2]s from manifest %[1]s? 'orgctl releases manifests set' adds it back.",
					},
					Fields: []opdef.Field{commitMessage},
				},
			},
		}},
	}
}
