package families

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// themeFields are the flags of create and update; --theme takes the whole
// theme object, --set changes single keys of it.
var themeFields = []opdef.Field{
	{Flag: "name", Key: "name", Usage: "theme name (unique in the org)"},
	{Flag: "theme", Key: "theme", Type: opdef.TJSON, Optional: true, Usage: "the theme object as `JSON`"},
	{Flag: "set", In: opdef.InLocal, Type: opdef.TKV, Usage: "set one theme key, `KEY=VALUE` (repeatable; merged into --theme)"},
}

func mergeThemeSet(c *opdef.Call) {
	set, ok := c.Given.Local["set"].(map[string]any)
	c.BodyObject()
	if !ok {
		return
	}
	theme, _ := c.Req.Body["theme"].(map[string]any)
	if theme == nil {
		theme = map[string]any{}
	}
	for k, v := range set {
		theme[k] = v
	}
	c.Req.Body["theme"] = theme
}

func themesGroup() engine.Group {
	return engine.Group{
		Long: `App themes set the colors, fonts and shapes apps use. Theme ids are numbers;
the theme itself is a free-form JSON object (keys such as primary, canvas).

Gotchas:
  - create fails with 409 when a theme of that name exists; update creates the
    theme when the id is unknown ("create or update").
  - --set KEY=VALUE changes one key; values that parse as JSON stay typed.`,
		Example: `  orgctl themes list
  orgctl themes create --name Brand --set primary=#3C92DC --set canvas=#FFFFFF
  orgctl themes update 1 --name "Sandbox Dark" --theme '{"primary":"#FF6600"}'
  orgctl themes delete 1 --yes`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "NAME", Field: "name"},
			{Header: "THEME", Field: "theme"},
			{Header: "UPDATED", Field: "updated_at"},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/app_themes",
				Help: opdef.Help{
					Short:   "List app themes",
					Example: "  orgctl themes list\n  orgctl themes list --jq '.[].name'",
				},
			},
			{Use: "get THEME_ID", Method: http.MethodGet, Path: "/app_themes/{id}",
				Help: opdef.Help{Short: "Show an app theme", Example: "  orgctl themes get 1 -o json"},
				Args: opdef.Args{Params: []string{"id"}},
			},
			{Use: "create", Method: http.MethodPost, Path: "/app_themes", Body: true,
				Help: opdef.Help{
					Short: "Create an app theme",
					Example: `  orgctl themes create --name Brand --theme '{"primary":"#3C92DC"}'
  orgctl themes create --name Brand --set primary=#3C92DC --set borderRadius=4
  orgctl themes create --body brand.json`,
				},
				Bulk:   opdef.Bulk{Exists: opdef.ConflictKey("themes", "name", "update")},
				Fields: themeFields,

				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						mergeThemeSet(c)
						if c.Req.Body["theme"] == nil {
							return cli.UsageErrorf("%s: pass --theme JSON or --set KEY=VALUE", c.Command)
						}
						return nil
					},
				},
			},
			{Use: "update THEME_ID", Method: http.MethodPut, Path: "/app_themes", Body: true,
				Help: opdef.Help{
					Short: "Change (or create) an app theme",
					Long: `A full replacement (PUT): the theme gets exactly --name and --theme. To change
one key, start from the current theme: 'orgctl themes get 1 -o json > t.json',
edit it, then 'orgctl themes update 1 --body t.json'.`,
					Example: `  orgctl themes update 1 --name "Sandbox Dark" --theme '{"primary":"#FF6600","canvas":"#111111"}'
  orgctl themes get 1 -o json > t.json && orgctl themes update 1 --body t.json --set primary=#FF6600`,
				},
				Args:   opdef.Args{Params: []string{"id"}},
				Fields: themeFields,

				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						id, err := strconv.ParseUint(c.Req.Params["id"], 10, 64)
						if err != nil {
							return cli.UsageErrorf("invalid THEME_ID %q: expected a number", c.Req.Params["id"])
						}
						mergeThemeSet(c)
						if c.Req.Body["theme"] == nil {
							return cli.UsageErrorf("%s: pass --theme JSON, --set KEY=VALUE or --body", c.Command)
						}
						c.Req.Body["id"] = json.Number(strconv.FormatUint(id, 10))
						delete(c.Req.Params, "id")
						return nil
					},
				},
			},
			{Use: "delete THEME_ID", Method: http.MethodDelete, Path: "/app_themes/{id}",
				Help:    opdef.Help{Short: "Delete an app theme", Example: "  orgctl themes delete 1 --yes"},
				Args:    opdef.Args{Params: []string{"id"}},
				Confirm: &opdef.Confirm{Question: "Delete theme %s? This cannot be undone."},
			},
		},
	}
}
