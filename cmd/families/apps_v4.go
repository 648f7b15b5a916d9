package families

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// appsListFields narrow apps list on the server (API 4.0): by a resource
// the apps use, and by a part of their name.
var appsListFields = []opdef.Field{
	{Flag: "using-resource", Key: "using_resource", In: opdef.InQuery, Complete: "resource-ids", Usage: "only apps that use this `RESOURCE` (id or name; API 4.0)"},
	{Flag: "name-contains", Key: "name_contains", In: opdef.InQuery, Usage: "only apps whose name contains `TEXT` (any case; API 4.0)"},
}

// validateGroup is "apps validate toolscript": a check of Toolscript files
// by the service, before they reach a branch.
func validateGroup() engine.Group {
	return engine.Group{
		Name:    "validate",
		Short:   "Check app source before it is deployed",
		Example: "  orgctl apps validate toolscript --file apps/refund-console",
		Ops: []opdef.Op{
			{Use: "toolscript", Method: http.MethodPost, Path: "/apps/toolscript/validate", Body: true,
				Help: opdef.Help{Short: "Check that Toolscript files deserialize", Done: "The Toolscript is valid",
					Long: `Sends the files (--file, repeatable: a file, or a directory whose files are all
sent, with their paths relative to it) and prints the service's diagnostics.
Exits 7 when the Toolscript is invalid, so CI can stop a bad change. Needs API
4.0 (Retool 4.0).`,
					Example: "  orgctl apps validate toolscript --file apps/refund-console\n  orgctl apps validate toolscript --file main.rsx --file lib/util.rsx -o json"},
				Fields: []opdef.Field{
					{Flag: "file", In: opdef.InLocal, Type: opdef.TTexts, Complete: "-", Usage: "a Toolscript `FILE` or directory (repeatable)"},
				},
				Columns: []output.Column{{Header: "SEVERITY", Field: "severity"}, {Header: "FILE", Field: "filename"}, {Header: "LINE", Field: "fromLoc.line"}, {Header: "COLUMN", Field: "fromLoc.column"}, {Header: "MESSAGE", Field: "message"}},
				Hooks:   opdef.Hooks{Shape: toolscriptFiles, View: toolscriptResult},
				Bulk:    opdef.Bulk{Idempotent: true}},
		},
	}
}

// toolscriptFiles reads --file into the body: each file with its path as
// given, a directory's files relative to it.
func toolscriptFiles(c *opdef.Call) error {
	if _, given := c.BodyObject()["toolscript"]; given {
		return nil
	}
	var files []any
	add := func(path, name string) error {
		b, err := opdef.ReadBodyFile(path, nil, "--file "+path)
		if err != nil {
			return cli.UsageErrorf("%v", err)
		}
		files = append(files, map[string]any{"path": filepath.ToSlash(name), "contents": string(b)})
		return nil
	}
	for _, p := range c.LocalStrings("file") {
		st, err := os.Stat(p)
		if err != nil {
			return cli.UsageErrorf("--file %s: %v", p, err)
		}
		if !st.IsDir() {
			if err := add(p, filepath.Base(p)); err != nil {
				return err
			}
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				if d != nil && d.IsDir() && path != p && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir // .git and the like are not Toolscript
				}
				return err
			}
			rel, _ := filepath.Rel(p, path)
			return add(path, rel)
		})
		if err != nil {
			return err
		}
	}
	if len(files) == 0 {
		return cli.UsageErrorf("%s: pass --file FILE (or a directory), or the files in --body", c.Command)
	}
	c.Req.Body["toolscript"] = files
	return nil
}

// toolscriptResult prints the diagnostics (the whole answer in the
// structured formats) and exits 7 when the service found the files invalid.
func toolscriptResult(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
	var r struct {
		Valid       bool            `json:"valid"`
		Diagnostics json.RawMessage `json:"diagnostics"`
		Error       string          `json:"error"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("unexpected answer validating Toolscript: %w", err)
	}
	var err error
	if p.Opts.Structured() {
		err = p.Print(data, nil)
	} else if len(r.Diagnostics) > 0 && string(r.Diagnostics) != "[]" && string(r.Diagnostics) != "null" {
		err = p.Print(r.Diagnostics, c.Columns)
	}
	if err != nil {
		return err
	}
	if !r.Valid {
		msg := "the Toolscript is invalid"
		if r.Error != "" {
			msg += ": " + r.Error
		}
		return &cli.ExitError{Code: cli.ExitFindings, Err: fmt.Errorf("%s", msg)}
	}
	return nil // the done line says it is valid
}
