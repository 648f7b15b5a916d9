package orgcode

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFileNamesAreDistinctAndPortable(t *testing.T) {
	groups := KindNamed("groups")
	long := strings.Repeat("é", 150) // 300 bytes
	docs := []*Doc{
		{Kind: groups, Key: "Support"}, {Kind: groups, Key: "support"},
		{Kind: groups, Key: long}, {Kind: groups, Key: long + "x"},
		{Kind: groups, Key: "tab\there"}, {Kind: groups, Key: "a:b?"}, {Kind: groups, Key: "trailing."},
	}
	names := FileNames(docs)
	seen := map[string]*Doc{}
	for d, n := range names {
		base := filepath.Base(n)
		if len(base) > 255 {
			t.Errorf("%q: file name of %d bytes", d.Key, len(base))
		}
		if strings.ContainsAny(base, "\t:?") || strings.HasSuffix(strings.TrimSuffix(base, ".yaml"), ".") {
			t.Errorf("%q: file name %q is refused by some file system", d.Key, base)
		}
		if prev := seen[strings.ToLower(n)]; prev != nil {
			t.Errorf("%q and %q share the file %s on a case-insensitive file system", prev.Key, d.Key, n)
		}
		seen[strings.ToLower(n)] = d
	}
	if names[docs[0]] != filepath.Join("groups", "Support.yaml") || names[docs[1]] == filepath.Join("groups", "support.yaml") {
		t.Errorf("case clash: %q, %q; want the first in byte order to keep its name", names[docs[0]], names[docs[1]])
	}
	// stable: the same documents, in another order, the same names
	again := FileNames([]*Doc{docs[6], docs[5], docs[4], docs[3], docs[2], docs[1], docs[0]})
	for d, n := range names {
		if again[d] != n {
			t.Errorf("%q: %q, then %q", d.Key, n, again[d])
		}
	}
	// each file reads back its real name
	if back := writeAndReadBack(t, docs); len(back) != len(docs) {
		t.Errorf("read back %d groups, want %d", len(back), len(docs))
	}
}

// writeAndReadBack exports docs to a new directory and reads it back: the
// keys read, by kind and key.
func writeAndReadBack(t *testing.T, docs []*Doc) map[string]bool {
	t.Helper()
	dir := t.TempDir()
	if err := WriteDir(dir, docs); err != nil {
		t.Fatal(err)
	}
	f, err := ReadDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for kind, ds := range f.Docs {
		for _, d := range ds {
			out[kind+" "+d.Key] = true
		}
	}
	return out
}

func TestFailedExportLeavesTheDirectoryAsItWas(t *testing.T) {
	groups := KindNamed("groups")
	dir := t.TempDir()
	if err := WriteDir(dir, []*Doc{{Kind: groups, Key: "ops", Fields: map[string]any{}}}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("mine"), 0o644)
	before := tree(t, dir)
	// three documents of one key: two share a file, and the export fails mid-way
	err := WriteDir(dir, []*Doc{{Kind: groups, Key: "a"}, {Kind: groups, Key: "b"}, {Kind: groups, Key: "b"}, {Kind: groups, Key: "b"}})
	if err == nil {
		t.Fatal("an export of two documents into one file succeeded")
	}
	if after := tree(t, dir); after != before {
		t.Errorf("a failed export changed the directory:\nbefore %s\nafter  %s", before, after)
	}
}

func TestReadDirRefusesSymlinksOutAndInterruptedExports(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "x.yaml"), []byte("name: x\n"), 0o644)
	dir := writeFiles(t, map[string]string{"groups/ops.yaml": "name: ops\n", "users/in.yaml": "email: in@x.example\n"})
	if err := os.Symlink(filepath.Join(outside, "x.yaml"), filepath.Join(dir, "groups", "x.yaml")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	os.Symlink(filepath.Join(dir, "users", "in.yaml"), filepath.Join(dir, "users", "alias.yaml"))
	os.Symlink(filepath.Join(dir, "groups"), filepath.Join(dir, "themes"))
	_, err := ReadDir(context.Background(), dir)
	var probs Problems
	if !errors.As(err, &probs) || len(probs) != 3 {
		t.Fatalf("err = %v; want the link out of the directory, the symlinked folder and the alias given twice", err)
	}
	if !strings.Contains(probs[0].Msg, "a symlink out of") || !strings.Contains(probs[1].Msg, "a symlinked folder") ||
		!strings.Contains(probs[2].Msg, "also defined") {
		t.Errorf("problems = %v", probs)
	}

	dir = writeFiles(t, map[string]string{"groups/ops.yaml": "name: ops\n"})
	os.Mkdir(filepath.Join(dir, interruptedPrefix+"old-1"), 0o755)
	if _, err := ReadDir(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "did not finish") {
		t.Errorf("an interrupted export's leftovers: err = %v", err)
	}
}

// tree lists every path under dir with its bytes.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b.WriteString(rel)
		if !fi.IsDir() {
			data, _ := os.ReadFile(p)
			b.WriteString("=" + string(data))
		}
		b.WriteString(";")
		return nil
	})
	return b.String()
}

func TestFileNamesOfTwinsAndDeviceNamesArePortable(t *testing.T) {
	groups, folders := KindNamed("groups"), KindNamed("folders")
	nfc, nfd := "Caf\u00e9", "Cafe\u0301"
	var docs []*Doc
	for _, k := range []string{nfc, nfd, "caf\u00e9", "CON", "con", "nul", "aux.txt", "COM1", "lpt9.tar.gz", "Prn ", "COM10", "console", "LPT"} {
		docs = append(docs, &Doc{Kind: groups, Key: k, Fields: map[string]any{}})
	}
	docs = append(docs, &Doc{Kind: folders, Key: "app:/AUX/" + nfd, Fields: map[string]any{}},
		&Doc{Kind: folders, Key: "app:/AUX/" + nfc, Fields: map[string]any{}})
	names := FileNames(docs)
	// a case-insensitive, normalising file system holds each in its own file
	held := map[string]*Doc{}
	for d, n := range names {
		f := PortableFold(n)
		if prev := held[f]; prev != nil {
			t.Errorf("%q and %q share the file %s on macOS and Windows", prev.Key, d.Key, n)
		}
		held[f] = d
		for _, el := range strings.Split(filepath.ToSlash(n), "/") {
			if reservedName(el) {
				t.Errorf("%q: path element %q is a device on Windows", d.Key, el)
			}
		}
	}
	for _, d := range docs[10:13] { // not device names: kept as they are
		if want := filepath.Join("groups", d.Key+".yaml"); names[d] != want {
			t.Errorf("%q: %q, want %q", d.Key, names[d], want)
		}
	}
	if names[docs[3]] != filepath.Join("groups", "%43ON.yaml") {
		t.Errorf("CON: %q, want groups/%%43ON.yaml", names[docs[3]])
	}
	// stable in any order
	rev := append([]*Doc(nil), docs...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	for d, n := range FileNames(rev) {
		if names[d] != n {
			t.Errorf("%q: %q, then %q", d.Key, names[d], n)
		}
	}
	// each file reads back its real name, byte for byte
	back := writeAndReadBack(t, docs)
	for _, d := range docs {
		if !back[d.Kind.Name+" "+d.Key] {
			t.Errorf("%q did not read back", d.Key)
		}
	}
}
