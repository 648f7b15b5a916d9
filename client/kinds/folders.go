package kinds

import "strings"

// Folder paths name every folder once. Each folder type has parentless
// system folders: "root", which holds the org's folders, and on live orgs
// "personalRoot", which holds each user's Drafts (and in it their Trash).
// A path is the folder's type and the names from the top down:
//
//	app:/                       the type's root
//	app:/Finance/Reports        a folder under the root
//	app:~/                      personalRoot
//	app:~/(1) Ada's Drafts      a folder under personalRoot
//	app:~NAME/                  any other parentless folder named NAME
//
// A path under the root always starts TYPE:/ and any other TYPE:~, so no
// folder outside the root can be taken for one inside it, whatever its
// name: a folder named "~" under the root is app:/~. Inside a name, a
// backslash is written as two and "/" as backslash-slash, so a path splits
// one way only and two folders never share a path: a folder "A\" holding
// "B" is app:/A\\/B, a folder named "A/B" is app:/A\/B.
const (
	rootName         = "root"
	personalRootName = "personalRoot"
)

// FolderPath is a folder's natural key, its path (see above), derived from
// the whole list of folders all.
func FolderPath(obj map[string]any, all []map[string]any) string {
	return folderPath(obj, foldersByID(all), len(all))
}

// FolderPaths are the paths of every folder of a list, in its order: one
// index for all, where FolderPath builds one per folder (a live org has
// a Drafts and a Trash per user, so its list runs to thousands).
func FolderPaths(all []map[string]any) []string {
	byID := foldersByID(all)
	out := make([]string, len(all))
	for i, o := range all {
		out[i] = folderPath(o, byID, len(all))
	}
	return out
}

func foldersByID(all []map[string]any) map[string]map[string]any {
	byID := make(map[string]map[string]any, len(all))
	for _, o := range all {
		if id, ok := o["id"].(string); ok {
			byID[id] = o
		}
	}
	return byID
}

func folderPath(obj map[string]any, byID map[string]map[string]any, n int) string {
	var names []string
	// top is the parentless folder the path starts from, when not the root.
	top, underRoot := "", true
	cur := obj
	for range n + 1 { // a cycle in the data must not loop forever
		name, _ := cur["name"].(string)
		parent, _ := cur["parent_folder_id"].(string)
		if parent == "" {
			top, underRoot = name, name == rootName
			break
		}
		names = append(names, EscapeFolderName(name))
		next, ok := byID[parent]
		if !ok {
			break // a parent the list lacks: shown as under the root
		}
		cur = next
	}
	var b strings.Builder
	t, _ := obj["folder_type"].(string)
	b.WriteString(t)
	switch {
	case underRoot:
		b.WriteString(":/")
	case top == personalRootName:
		b.WriteString(":~/")
	default:
		b.WriteString(":~" + EscapeFolderName(top) + "/")
	}
	for i := len(names) - 1; i >= 0; i-- {
		b.WriteString(names[i])
		if i > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// EscapeFolderName is a folder's name as written in a path.
// Backslashes first, so the ones escaping a slash stay single. No
// package-level replacer: that would be init work before every command.
func EscapeFolderName(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, `\`, `\\`), "/", `\/`)
}

// SplitFolderNames splits the part of a path after TYPE:/ (or TYPE:~) into
// the names it holds, undoing EscapeFolderName: the one reading of a path.
// A backslash before any other character is kept as it is.
func SplitFolderNames(path string) []string {
	var names []string
	var cur strings.Builder
	for i := 0; i < len(path); i++ {
		switch {
		case path[i] == '\\' && i+1 < len(path) && (path[i+1] == '/' || path[i+1] == '\\'):
			cur.WriteByte(path[i+1])
			i++
		case path[i] == '/':
			names = append(names, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(path[i])
		}
	}
	return append(names, cur.String())
}

// UnderRoot reports a folder path under (or at) its type's root, where the
// org's own folders live, as opposed to personal and other system trees.
func UnderRoot(path string) bool {
	_, rest, ok := strings.Cut(path, ":")
	return ok && strings.HasPrefix(rest, "/")
}

// IsRoot reports the path of a type's root ("app:/").
func IsRoot(path string) bool {
	typ, ok := strings.CutSuffix(path, ":/")
	return ok && typ != "" && !strings.Contains(typ, ":")
}

// systemFolder says why a listed folder is one the org cannot do without.
func systemFolder(obj map[string]any) string {
	if obj["is_system_folder"] == true {
		return "it is a system folder"
	}
	return ""
}

// systemFolderKey says it from the path where the path decides it: a
// type's root and the top of every other tree are system folders.
func systemFolderKey(path string) string {
	typ, rest, ok := strings.Cut(path, ":")
	if !ok || typ == "" {
		return ""
	}
	if rest == "/" || (strings.HasPrefix(rest, "~") && len(SplitFolderNames(rest)) == 2 && strings.HasSuffix(rest, "/")) {
		return "it is a system folder"
	}
	return ""
}

// FolderTypes are the folder types the API creates; others (file
// folders) are read, shown and referred to, but not managed.
var FolderTypes = []string{"app", "workflow", "resource", "agent", "library"}

// CreatableFolderType reports a folder type the API creates.
func CreatableFolderType(typ string) bool {
	for _, t := range FolderTypes {
		if t == typ {
			return true
		}
	}
	return false
}
