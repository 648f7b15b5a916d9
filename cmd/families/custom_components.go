package families

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"path/filepath"

	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

// revisionForm builds the multipart body of a new revision from the flags.
func revisionForm(c *opdef.Call) error {
	path := c.LocalString("files")
	bump := c.LocalString("version-bump")
	version := c.LocalString("version")
	id := c.LocalString("id")
	if version != "" && bump != "specify_version" {
		return cli.UsageErrorf("--version needs --version-bump specify_version")
	}
	if bump == "specify_version" && version == "" {
		return cli.UsageErrorf("--version-bump specify_version needs --version")
	}
	if id != "" && !spec.IsUUID(id) {
		return cli.UsageErrorf("invalid --id %q: expected a UUID", id)
	}
	data, err := opdef.ReadBodyFile(path, nil, "--files "+path)
	if err != nil {
		return cli.UsageErrorf("%v", err)
	}
	summary := map[string]any{"version_bump": bump, "files": fmt.Sprintf("@%s (%d bytes)", path, len(data))}
	if version != "" {
		summary["version"] = version
	}
	if id != "" {
		summary["id"] = id
	}
	c.Summary = summary
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, k := range []string{"id", "version_bump", "version"} {
		if v, ok := summary[k].(string); ok {
			if err := w.WriteField(k, v); err != nil {
				return err
			}
		}
	}
	part, err := w.CreateFormFile("files", filepath.Base(path))
	if err != nil {
		return err
	}
	if _, err := part.Write(data); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	c.Req.RawBody = buf.Bytes()
	c.Req.ContentType = w.FormDataContentType()
	return nil
}

func customComponentsGroup() engine.Group {
	return engine.Group{
		Long: `Custom component libraries (Retool Cloud, self-hosted 3.41.0+) package React
components for apps. A library has revisions; each revision is a set of files.`,
		Example: `  orgctl custom-components list
  orgctl custom-components create --name charts --label "Charts" --description "Shared charts"
  orgctl custom-components revisions create LIB_ID --files dist.zip --version-bump minor
  orgctl custom-components revisions files LIB_ID REV_ID --jq '.[].filepath'`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "NAME", Field: "name"},
			{Header: "LABEL", Field: "label"},
			{Header: "DESCRIPTION", Field: "description"},
			{Header: "UPDATED", Field: "updated_at"},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/custom_component_libraries",
				Help: opdef.Help{
					Short: "List custom component libraries",
					Long: `The published API marks a libraryId query parameter as required on this list;
orgctl sends it only when --library-id is given.`,
					Example: "  orgctl custom-components list\n  orgctl custom-components list --library-id LIB_ID -o json",
				},
				Fields: []opdef.Field{
					{Flag: "library-id", Key: "libraryId", In: opdef.InQuery, Optional: true, Usage: "only this library `UUID`"},
				}},
			{Use: "get LIBRARY_ID", Method: http.MethodGet, Path: "/custom_component_libraries/{libraryId}",
				Help: opdef.Help{
					Short:   "Show a custom component library",
					Example: "  orgctl custom-components get LIB_ID",
				},
				Args: opdef.Args{Params: []string{"libraryId"}},
			},
			{Use: "create", Method: http.MethodPost, Path: "/custom_component_libraries", Body: true,
				Help: opdef.Help{
					Short: "Create a custom component library",
					Long:  "--name is how code refers to the library, --label how the editor shows it.",
					Example: `  orgctl custom-components create --name charts --label Charts
  orgctl custom-components create --name charts --label Charts --description "Shared charts" --id 0b9f6c1e-2f1a-4c62-9a57-4f0f0f5a3b11`,
				},
				Bulk: opdef.Bulk{Exists: opdef.LookFirst("custom-components", "name", "")},
				Fields: []opdef.Field{
					{Flag: "name", Key: "name", Usage: "name used in code"},
					{Flag: "label", Key: "label", Usage: "human-readable name shown in the editor"},
					{Flag: "description", Key: "description", Optional: true, Usage: "description (default: none)"},
					{Flag: "id", Key: "id", Usage: "use this `UUID` (to keep ids in sync across instances)"},
				},

				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						// description is required but nullable: absent means "none".
						if _, ok := c.BodyObject()["description"]; !ok {
							c.Req.Body["description"] = nil
						}
						return nil
					},
				},
			},
		},
		Groups: []engine.Group{{
			Name:  "revisions",
			Short: "List, create and inspect library revisions",
			Columns: []output.Column{
				{Header: "ID", Field: "id"},
				{Header: "VERSION", Field: "version"},
				{Header: "LIBRARY", Field: "custom_component_library_id"},
				{Header: "CREATED", Field: "created_at"},
			},
			Example: "  orgctl custom-components revisions list LIB_ID\n  orgctl custom-components revisions create LIB_ID --files dist.zip --version-bump minor",
			Ops: []opdef.Op{
				{Use: "list LIBRARY_ID", Method: http.MethodGet, Path: "/custom_component_libraries/{libraryId}/revisions",
					Help: opdef.Help{
						Short:   "List a library's revisions",
						Example: "  orgctl custom-components revisions list LIB_ID\n  orgctl custom-components revisions list LIB_ID --jq 'map(.version)'",
					},
					Args: opdef.Args{Params: []string{"libraryId"}},
				},
				{Use: "create LIBRARY_ID", Method: http.MethodPost, Path: "/custom_component_libraries/{libraryId}/revisions",
					Help: opdef.Help{
						Short: "Upload a new revision (multipart/form-data)",
						Long: `Uploads the library's files (one file, sent as the "files" form part) and bumps
the version: minor, major, dev, or specify_version with --version.`,
						Example: `  orgctl custom-components revisions create LIB_ID --files dist.zip --version-bump minor
  orgctl custom-components revisions create LIB_ID --files dist.zip --version-bump specify_version --version 2.0.0`,
					},
					Args: opdef.Args{Params: []string{"libraryId"}},
					Fields: []opdef.Field{
						{Flag: "files", In: opdef.InLocal, Required: true, Usage: "the revision's files, a `FILE` uploaded as is"},
						{Flag: "version-bump", In: opdef.InLocal, Required: true, Enum: []string{"minor", "major", "dev", "specify_version"}, Usage: "how the version changes"},
						{Flag: "version", In: opdef.InLocal, Usage: "exact version tag (with --version-bump specify_version)"},
						{Flag: "id", In: opdef.InLocal, Usage: "use this revision `UUID`"},
					},

					Hooks: opdef.Hooks{Shape: revisionForm},
				},
				{Use: "files LIBRARY_ID REVISION_ID", Method: http.MethodGet, Path: "/custom_component_libraries/{libraryId}/revisions/{revisionId}/files",
					Help: opdef.Help{
						Short:   "Show the files of a revision",
						Example: "  orgctl custom-components revisions files LIB_ID REV_ID\n  orgctl custom-components revisions files LIB_ID REV_ID --jq '.[] | select(.filepath==\"index.js\") | .file_contents' > index.js",
					},
					Args: opdef.Args{Params: []string{"libraryId", "revisionId"}},
					Columns: []output.Column{{Header: "PATH", Field: "filepath"}, {Header: "BYTES", Value: func(r map[string]any) string {
						s, _ := r["file_contents"].(string)
						return fmt.Sprint(len(s))
					}}, {Header: "UPDATED", Field: "updated_at"}},
				},
			},
		}},
	}
}
