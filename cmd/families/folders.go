package families

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

func foldersGroup() engine.Group {
	return engine.Group{
		Long: `Folders hold apps, workflows, resources, agents and libraries. Ids look like app_190.`,
		Example: `  orgctl folders list
  orgctl folders create --name Reports --type app --parent app_1
  orgctl folders update app:/Finance --name "Quarterly reports"
  orgctl folders delete app:/Finance --recursive --yes`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			// On a terminal a folder is its path, as admins name it (app:/Finance).
			{Header: "NAME", Field: "name", Terminal: &output.Column{Header: "PATH", Field: "id", Names: "folders", Key: true}},
			{Header: "TYPE", Field: "folder_type"},
			{Header: "PARENT", Field: "parent_folder_id", Names: "folders"},
			{Header: "SYSTEM", Field: "is_system_folder"},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/folders",
				Help: opdef.Help{
					Short:   "List folders",
					Example: "  orgctl folders list\n  orgctl folders list --jq '.[] | select(.folder_type == \"app\") | .id'",
				},
				Hooks: opdef.Hooks{View: foldersListView},
			},
			{Use: "get FOLDER_ID", Method: http.MethodGet, Path: "/folders/{folderId}",
				Help: opdef.Help{Short: "Show a folder", Example: "  orgctl folders get app:/Finance"},
				Args: opdef.Args{Params: []string{"folderId"}},
			},
			{
				Use: "create", Method: http.MethodPost, Path: "/folders", Body: true,
				Help: opdef.Help{
					Short:   "Create a folder",
					Example: "  orgctl folders create --name Reports --type app\n  orgctl folders create --name ETL --type workflow --parent workflow_4",
				},
				Bulk: opdef.Bulk{Exists: opdef.FolderExists},
				Fields: []opdef.Field{
					{Flag: "name", Key: "name", Usage: "folder name"},
					{Flag: "type", Key: "folder_type", Usage: "what the folder holds"},
					{Flag: "parent", Key: "parent_folder_id", Usage: "parent `FOLDER`, id or path (default: the root of its type)"},
				},
			},
			{
				Use: "update FOLDER_ID", Method: http.MethodPatch, Path: "/folders/{folderId}",
				Help: opdef.Help{
					Short:   "Rename or move a folder",
					Example: "  orgctl folders update app:/Finance --name Archive\n  orgctl folders update app:/Finance --parent app_1",
				},
				Args: opdef.Args{Params: []string{"folderId"}},
				Body: true, Patch: true,
				Fields: []opdef.Field{
					{Flag: "name", Key: "name", In: opdef.InPatch, Usage: "new name"},
					{Flag: "parent", Key: "parent_folder_id", In: opdef.InPatch, Usage: "move under this `FOLDER` (id or path)"},
				},
			},
			{
				Use: "delete FOLDER_ID", Method: http.MethodDelete, Path: "/folders/{folderId}",
				Help: opdef.Help{
					Short:   "Delete a folder",
					Example: "  orgctl folders delete app:/Finance --yes\n  orgctl folders delete app:/Finance --recursive --yes   # with its apps",
				},
				Args: opdef.Args{Params: []string{"folderId"}},
				Confirm: &opdef.Confirm{
					Question: "Delete folder %s? With --recursive, everything in it goes too; this cannot be undone.",
				},
				Fields: []opdef.Field{
					{Flag: "recursive", Key: "recursive", In: opdef.InQuery, Type: opdef.TBool, Usage: "also delete the folder's contents (app folders only)"},
				},
			},
		},
	}
}

// foldersListView prints the folder table in id order as people count
// (app_1, app_2, app_11): the API lists ids as text (app_1, app_11,
// app_2). -o json, yaml, --jq and --template print the answer as it came.
func foldersListView(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
	if p.Opts.Structured() {
		return p.Print(data, c.Columns)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return p.Print(data, c.Columns)
	}
	type entry struct {
		ID  string `json:"id"`
		raw json.RawMessage
	}
	entries := make([]entry, len(items))
	for i, item := range items {
		json.Unmarshal(item, &entries[i])
		entries[i].raw = item
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return naturalIDCompare(a.ID, b.ID) })
	sorted := make([]json.RawMessage, len(entries))
	for i, e := range entries {
		sorted[i] = e.raw
	}
	b, err := json.Marshal(sorted)
	if err != nil {
		return p.Print(data, c.Columns)
	}
	return p.Print(b, c.Columns)
}

// naturalIDCompare orders ids of the form PREFIX_N by prefix, then by N
// as a number ("app_2" before "app_11"); other ids as text.
func naturalIDCompare(a, b string) int {
	pa, na, oka := splitNumbered(a)
	pb, nb, okb := splitNumbered(b)
	if !oka || !okb || pa != pb {
		return strings.Compare(a, b)
	}
	return cmp.Or(cmp.Compare(na, nb), strings.Compare(a, b))
}

func splitNumbered(id string) (string, int, bool) {
	i := strings.LastIndexByte(id, '_')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(id[i+1:])
	return id[:i], n, err == nil
}
