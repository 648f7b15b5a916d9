package kinds

import (
	"slices"
	"testing"
)

func TestFolderPathsAreOneToOne(t *testing.T) {
	all := []map[string]any{
		{"id": "app_1", "name": "root", "folder_type": "app"},
		{"id": "app_2", "name": `A\`, "folder_type": "app", "parent_folder_id": "app_1"},
		{"id": "app_3", "name": "B", "folder_type": "app", "parent_folder_id": "app_2"},
		{"id": "app_4", "name": "A/B", "folder_type": "app", "parent_folder_id": "app_1"},
		{"id": "app_5", "name": `A\/B`, "folder_type": "app", "parent_folder_id": "app_1"},
		{"id": "app_6", "name": "A", "folder_type": "app", "parent_folder_id": "app_1"},
		{"id": "app_7", "name": `\B`, "folder_type": "app", "parent_folder_id": "app_6"},
	}
	paths := FolderPaths(all)
	want := []string{"app:/", `app:/A\\`, `app:/A\\/B`, `app:/A\/B`, `app:/A\\\/B`, "app:/A", `app:/A/\\B`}
	if !slices.Equal(paths, want) {
		t.Fatalf("paths\n got %q\nwant %q", paths, want)
	}
	names := map[string][]string{
		`A\\/B`:  {`A\`, "B"},
		`A\/B`:   {"A/B"},
		`A\\\/B`: {`A\/B`},
		`A/\\B`:  {"A", `\B`},
	}
	for p, w := range names {
		if got := SplitFolderNames(p); !slices.Equal(got, w) {
			t.Errorf("SplitFolderNames(%q) = %q, want %q", p, got, w)
		}
	}
}

func FuzzFolderNameEscaping(f *testing.F) {
	for _, s := range []string{"", "a", `\`, "/", `\/`, `a\\b/c`} {
		f.Add(s, "x")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		got := SplitFolderNames(EscapeFolderName(a) + "/" + EscapeFolderName(b))
		if !slices.Equal(got, []string{a, b}) {
			t.Fatalf("%q and %q came back as %q", a, b, got)
		}
	})
}
