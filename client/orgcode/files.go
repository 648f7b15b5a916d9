package orgcode

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/output/lazy"
	"github.com/orgctl/orgctl/output/yamlvalue"
	"go.yaml.in/yaml/v3"
	unorm "golang.org/x/text/unicode/norm"
)

// Problem is something wrong in a file, at a line.
type Problem struct {
	File string
	Line int
	Msg  string

	// typo, when set, is a word that should have been one of a few
	// (a field's name): WithSuggestions turns it into a did-you-mean.
	typo *typo
}

type typo struct {
	word  string
	known []string
	// says is the message once the nearest known word is found.
	says func(near string) string
}

// WithSuggestions says, for each problem that is a word orgctl does not
// know (a field, a kind's folder, a value), which known word was likely
// meant, when nearest finds one close enough ("" for none). The distance
// is the caller's: this package knows no command line.
func (ps Problems) WithSuggestions(nearest func(word string, known []string) string) Problems {
	for i, p := range ps {
		if p.typo == nil {
			continue
		}
		if near := nearest(p.typo.word, p.typo.known); near != "" {
			ps[i].Msg = p.typo.says(near)
		}
	}
	return ps
}

func (p Problem) Error() string {
	if p.Line == 0 { // not from a file of the directory: a saved plan's
		return fmt.Sprintf("%s: %s", p.File, p.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
}

// Problems are every problem found, in file and line order.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

func (ps Problems) sorted() Problems {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].File != ps[j].File {
			return ps[i].File < ps[j].File
		}
		return ps[i].Line < ps[j].Line
	})
	return ps
}

// Files are the documents of a directory, by kind and key.
type Files struct {
	Dir  string
	Docs map[string][]*Doc // kind -> documents in key order
	// Kinds are the kinds whose folder is in Dir, with or without files.
	Kinds map[string]bool
}

// SecretForm is how a file holds a secret configuration variable's value
// in one environment, for help and messages: export writes it
// (SecretRef), apply reads that variable (secretRef).
const SecretForm = "${ORGCTL_SECRET_<NAME>_<ENVIRONMENT>}"

// SecretRef is what a file holds for the secret value of config var name
// in env: SecretForm with both filled in, as SecretVar spells a variable.
func SecretRef(name, env string) string { return "${" + SecretVar(name+"_"+env) + "}" }

// secretRef is how a file holds a secret: the name of the environment
// variable apply reads it from.
var secretRef = lazy.Regexp{Expr: `^\$\{(ORGCTL_SECRET_[A-Z0-9_]+)\}$`}

// SecretVar is the environment variable a secret of this name comes from:
// capitals, anything but a letter or digit as "_".
func SecretVar(name string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(name) {
		if (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return "ORGCTL_SECRET_" + b.String()
}

// maxFileSize caps one object's file: the largest (settings, a theme) take
// a few KiB; megabytes mean a wrong file and would only cost time.
const maxFileSize = 1 << 20

// ReadDir reads every kind's folder under dir. Files that are not YAML are
// skipped (a README beside them is fine); a YAML file outside a kind's
// folder, bad YAML, a file over 1 MiB, an unknown field or a value of the
// wrong type is a Problem. References are checked later, against the live
// org as well. A done ctx stops it between files.
func ReadDir(ctx context.Context, dir string) (*Files, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	out := &Files{Dir: dir, Docs: map[string][]*Doc{}, Kinds: map[string]bool{}}
	var probs Problems
	seen := map[string]*Doc{}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if path != dir && strings.HasPrefix(d.Name(), interruptedPrefix) {
			probs = append(probs, Problem{File: path, Line: 1, Msg: fmt.Sprintf("an export into %s did not finish: run `orgctl export --dir %s` again before planning", dir, dir)})
			return filepath.SkipDir
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if msg := linkProblem(dir, root, path); msg != "" {
				probs = append(probs, Problem{File: path, Line: 1, Msg: msg})
				return nil
			}
		}
		if d.IsDir() {
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir // .git and the like
			}
			if k := KindNamed(rel); k != nil {
				out.Kinds[k.Name] = true
			}
			return nil
		}
		ext := filepath.Ext(path)
		if ext != ".yaml" && ext != ".yml" {
			return nil
		}
		doc, k, ps, err := readDoc(path, rel)
		probs = append(probs, ps...)
		if err != nil || doc == nil {
			return err
		}
		id := k.Name + "\x00" + foldKey(k, doc.Key)
		if prev := seen[id]; prev != nil {
			probs = append(probs, Problem{File: path, Line: doc.Line, Msg: fmt.Sprintf("%s %q is also defined at %s", kinds.Singular(k.Name), doc.Key, prev.At(k.KeyField))})
			return nil
		}
		seen[id] = doc
		out.Docs[k.Name] = append(out.Docs[k.Name], doc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(probs) > 0 {
		return nil, probs.sorted()
	}
	for _, docs := range out.Docs {
		sort.Slice(docs, func(i, j int) bool { return docs[i].Key < docs[j].Key })
	}
	return out, nil
}

// linkProblem says why the symlink at path is not read, "" when it is: a
// link inside the directory is read; one out of it is not, since the
// directory is what is reviewed.
func linkProblem(dir, root, path string) string {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Sprintf("a symlink orgctl cannot follow: %v", err)
	}
	if r, err := filepath.Rel(root, target); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return fmt.Sprintf("a symlink out of %s (to %s): orgctl reads only what the directory holds; copy the file in instead", dir, target)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return "a symlinked folder: orgctl does not follow it; make it a folder"
	}
	return ""
}

// readDoc reads the object file at path (rel in the directory) as a
// document of the kind its folder names, or says why not; err is an error
// reading it that ends the whole read.
func readDoc(path, rel string) (*Doc, *FileKind, Problems, error) {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	k := KindNamed(parts[0])
	if len(parts) < 2 || k == nil {
		return nil, nil, Problems{{File: path, Line: 1, Msg: fmt.Sprintf("unknown kind %q: a file goes in one of the folders %s",
			parts[0], strings.Join(kindNames(), ", ")), typo: &typo{word: parts[0], known: kindNames(), says: func(near string) string {
			return fmt.Sprintf("unknown kind %q: did you mean the folder %s?", parts[0], near)
		}}}}, nil
	}
	b, err := yamlvalue.ReadFile(path, maxFileSize)
	var tl *yamlvalue.TooLargeError
	if errors.As(err, &tl) {
		return nil, nil, Problems{{File: path, Line: 1, Msg: fmt.Sprintf("larger than %d KiB, more than any object's file needs", maxFileSize>>10)}}, nil
	}
	var nr *yamlvalue.NotRegularError
	if errors.As(err, &nr) {
		return nil, nil, Problems{{File: path, Line: 1, Msg: nr.Kind + ", not a regular file: an object's file is a plain file"}}, nil
	}
	if err != nil {
		return nil, nil, nil, err
	}
	doc, ps := parseDoc(k, path, b)
	return doc, k, ps, nil
}

func foldKey(k *FileKind, key string) string { return k.reg.FoldKey(key) }

// parseDoc reads one file: a mapping with the kind's key field and any of
// its managed fields.
func parseDoc(k *FileKind, path string, b []byte) (*Doc, Problems) {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&root); err != nil {
		return nil, Problems{yamlProblem(path, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, Problems{{File: path, Line: extra.Line, Msg: "a file holds one document; put each object in its own file"}}
	}
	n := &root
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil, Problems{{File: path, Line: n.Line, Msg: fmt.Sprintf("expected a mapping of %s's fields (%s)", kinds.Singular(k.Name), strings.Join(k.fieldNames(), ", "))}}
	}
	doc := &Doc{Kind: k, File: path, Line: n.Line, Fields: map[string]any{}, Lines: map[string]int{}}
	var probs Problems
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		name := kn.Value
		if _, dup := doc.Lines[name]; dup {
			probs = append(probs, Problem{File: path, Line: kn.Line, Msg: fmt.Sprintf("field %q given twice", name)})
			continue
		}
		doc.Lines[name] = kn.Line
		if name == k.KeyField {
			if vn.Kind != yaml.ScalarNode || vn.Tag == "!!null" || strings.TrimSpace(vn.Value) == "" {
				probs = append(probs, Problem{File: path, Line: vn.Line, Msg: fmt.Sprintf("%s must be the %s's natural key, a non-empty string", name, kinds.Singular(k.Name))})
				continue
			}
			doc.Key = vn.Value
			continue
		}
		f := k.field(name)
		if f == nil {
			probs = append(probs, Problem{File: path, Line: kn.Line, Msg: fmt.Sprintf("unknown field %q for %s: expected %s", name, k.Name, strings.Join(k.fieldNames(), ", ")),
				typo: &typo{word: name, known: k.fieldNames(), says: func(near string) string {
					return fmt.Sprintf("unknown field %q for %s: did you mean %q?", name, k.Name, near)
				}}})
			continue
		}
		v, err := fieldValue(f, vn)
		if err != "" {
			p := Problem{File: path, Line: vn.Line, Msg: fmt.Sprintf("%s: %s", name, err)}
			if f.Type == tEnum && vn.Kind == yaml.ScalarNode {
				p.typo = &typo{word: vn.Value, known: f.Enum, says: func(near string) string {
					return fmt.Sprintf("%s: %q is not one of %s: did you mean %s?", name, vn.Value, strings.Join(f.Enum, ", "), near)
				}}
			}
			probs = append(probs, p)
			continue
		}
		doc.Fields[name] = v
		if f.Type == tLevelMap || f.Type == tEnvMap || f.Type == tScalarMap {
			for j := 0; j+1 < len(vn.Content); j += 2 {
				doc.Lines[name+"\x00"+vn.Content[j].Value] = vn.Content[j].Line
			}
		}
	}
	if doc.Key == "" && !hasKeyProblem(probs, k) {
		probs = append(probs, Problem{File: path, Line: n.Line, Msg: fmt.Sprintf("missing %s: every %s file names its %s", k.KeyField, kinds.Singular(k.Name), k.KeyField)})
	}
	if doc.Key != "" {
		if msg := checkKey(k, doc.Key); msg != "" {
			probs = append(probs, Problem{File: path, Line: doc.Lines[k.KeyField], Msg: msg})
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return doc, nil
}

func hasKeyProblem(ps Problems, k *FileKind) bool {
	for _, p := range ps {
		if strings.HasPrefix(p.Msg, k.KeyField+" ") {
			return true
		}
	}
	return false
}

// checkKey validates keys whose form carries meaning.
func checkKey(k *FileKind, key string) string {
	switch k.Name {
	case "folders":
		if _, _, ok := splitFolder(key); !ok || strings.HasSuffix(key, ":/") {
			return fmt.Sprintf("folder %q: expected TYPE:/PATH, e.g. app:/Finance/Reports", key)
		}
	case "organization":
		if key != orgKey {
			return fmt.Sprintf("organization %q: the file describes the org the token reaches: write organization: %s", key, orgKey)
		}
	case "grants":
		if _, _, ok := splitSubject(key); !ok {
			return fmt.Sprintf("subject %q: expected group:NAME or user:EMAIL", key)
		}
	}
	return ""
}

// splitFolder splits "app:/Finance/Reports" into its type and names.
func splitFolder(key string) (typ string, names []string, ok bool) {
	typ, path, ok := strings.Cut(key, ":/")
	if !ok || typ == "" {
		return "", nil, false
	}
	if path == "" {
		return typ, nil, true
	}
	names = kinds.SplitFolderNames(path)
	for _, n := range names {
		if n == "" {
			return "", nil, false
		}
	}
	return typ, names, true
}

func splitSubject(key string) (typ, name string, ok bool) {
	typ, name, ok = strings.Cut(key, ":")
	return typ, name, ok && (typ == "group" || typ == "user") && name != ""
}

func yamlProblem(path string, err error) Problem {
	msg := err.Error()
	line := 1
	if m := regexp.MustCompile(`^yaml: line (\d+): (.*)$`).FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	if errors.Is(err, errEmpty) || msg == "EOF" {
		msg = "the file is empty"
	}
	return Problem{File: path, Line: line, Msg: "invalid YAML: " + msg}
}

var errEmpty = errors.New("empty")

func fieldValue(f *FileField, n *yaml.Node) (any, string) {
	switch f.Type {
	case tAny:
		v, err := yamlvalue.Value(n)
		if err != nil {
			return nil, err.Error()
		}
		return norm(v), ""
	case tString, tSecret:
		return stringValue(f, n)
	case tBool:
		v, e := scalarValue(n)
		if b, ok := v.(bool); ok && e == "" {
			return b, ""
		}
		return nil, "expected true or false"
	case tEnum:
		v, e := scalarValue(n)
		if s, ok := v.(string); ok && e == "" && contains(f.Enum, s) {
			return s, ""
		}
		return nil, "expected one of " + strings.Join(f.Enum, ", ")
	case tRef:
		v, e := scalarValue(n)
		if e != "" {
			return nil, e
		}
		if v == nil {
			return nil, ""
		}
		return n.Value, ""
	case tScalarMap, tLevelMap, tEnvMap:
		return mapValue(f, n)
	}
	return nil, "unsupported field"
}

// scalarValue is a single value's decoding, or why it is not one.
func scalarValue(n *yaml.Node) (any, string) {
	if n.Kind != yaml.ScalarNode {
		return nil, "expected a single value"
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err.Error()
	}
	return norm(v), ""
}

// stringValue is a text field's value as written; a secret's must name
// a variable, never be the secret.
func stringValue(f *FileField, n *yaml.Node) (any, string) {
	v, e := scalarValue(n)
	if e != "" {
		return nil, e
	}
	if v == nil {
		return "", ""
	}
	if f.Type == tSecret {
		if s, _ := v.(string); !secretRef.Get().MatchString(s) {
			return nil, "a secret is written as " + SecretForm + ", never as its value"
		}
	}
	return n.Value, ""
}

// mapValue is a mapping field's value: of single values (a scalar map's
// may nest), of access levels, or of text per environment.
func mapValue(f *FileField, n *yaml.Node) (any, string) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return map[string]any{}, ""
	}
	if n.Kind != yaml.MappingNode {
		return nil, "expected a mapping"
	}
	m := map[string]any{}
	for j := 0; j+1 < len(n.Content); j += 2 {
		kn, vn := n.Content[j], n.Content[j+1]
		if _, dup := m[kn.Value]; dup {
			return nil, fmt.Sprintf("%q given twice", kn.Value)
		}
		v, e := mapEntry(f, kn, vn)
		if e != "" {
			return nil, e
		}
		m[kn.Value] = v
	}
	return m, ""
}

// mapEntry is the value of one entry (kn: vn) of a mapping field.
func mapEntry(f *FileField, kn, vn *yaml.Node) (any, string) {
	if vn.Kind != yaml.ScalarNode {
		if f.Type == tScalarMap && vn.Kind == yaml.MappingNode {
			return fieldValue(&FileField{Type: tScalarMap}, vn)
		}
		return nil, fmt.Sprintf("%s: expected a single value", kn.Value)
	}
	var v any
	if err := vn.Decode(&v); err != nil {
		return nil, err.Error()
	}
	v = norm(v)
	switch f.Type {
	case tLevelMap:
		if s, ok := v.(string); !ok || !contains(f.Enum, s) {
			return nil, fmt.Sprintf("%s: expected one of %s", kn.Value, strings.Join(f.Enum, ", "))
		}
	case tEnvMap:
		if v == nil {
			v = ""
		}
		v = fmt.Sprint(v)
	}
	return v, ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// FileName is where a document would live under the directory on its
// own: the kind's folder, then the key (folders: their type, then their
// path). FileNames settles names that clash.
func FileName(d *Doc) string {
	switch d.Kind.Name {
	case "folders":
		typ, names, _ := splitFolder(d.Key)
		parts := []string{"folders", safeName(typ, typ)}
		for _, n := range names {
			parts = append(parts, safeName(n, d.Key))
		}
		return filepath.Join(parts...) + ".yaml"
	case "grants":
		typ, name, _ := splitSubject(d.Key)
		return filepath.Join("grants", typ, safeName(name, d.Key)+".yaml")
	}
	return filepath.Join(d.Kind.Name, safeName(d.Key, d.Key)+".yaml")
}

// FileNames names every document's file. Names that differ only in case
// or in Unicode normalisation (Café as one code point é or as e and a
// combining accent) would be one file on macOS and Windows: the first in
// byte order keeps its name, each other one gets its key's hash, so that
// every object has its own file wherever the directory is checked out.
func FileNames(docs []*Doc) map[*Doc]string {
	out := make(map[*Doc]string, len(docs))
	byFold := map[string][]*Doc{}
	for _, d := range docs {
		out[d] = FileName(d)
		f := PortableFold(out[d])
		byFold[f] = append(byFold[f], d)
	}
	for _, ds := range byFold {
		if len(ds) < 2 {
			continue
		}
		sort.Slice(ds, func(i, j int) bool { return out[ds[i]] < out[ds[j]] })
		for _, d := range ds[1:] {
			out[d] = strings.TrimSuffix(out[d], ".yaml") + "~" + keyHash(d.Key) + ".yaml"
		}
	}
	return out
}

// PortableFold is a path as a case-insensitive, normalising file system
// (macOS's, Windows') compares it: two paths of one fold are one file there.
func PortableFold(path string) string { return strings.ToLower(unorm.NFC.String(path)) }

// reservedName reports a name Windows takes for a device whatever its
// extension or case: CON, PRN, AUX, NUL, COM1-9, LPT1-9 ("aux.txt", "nul").
func reservedName(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	base = strings.ToUpper(strings.TrimRight(base, " "))
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) > 3 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		switch base[3:] {
		case "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}

func keyHash(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:4])
}

// maxName is the longest path element written, with room for a hash and
// ".yaml" within the 255 bytes file systems allow.
const maxName = 200

// safeName makes one name (of the object whose key is key) a path
// element that every common file system takes: "/", "%", "\", control
// characters, the characters Windows refuses and leading dots are
// percent-escaped, so two keys never share a file, and so is the first
// letter of a name Windows keeps for a device (CON, aux.txt); a name too
// long for a file system is cut and given its key's hash.
func safeName(s, key string) string {
	var b strings.Builder
	reserved := reservedName(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte(`/%\<>:"|?*`, c) >= 0 || (i == 0 && (c == '.' || reserved)) ||
			(i == len(s)-1 && (c == ' ' || c == '.')) {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	out := b.String()
	if len(out) > maxName {
		cut := maxName - 9
		for cut > 0 && !utf8.RuneStart(out[cut]) {
			cut--
		}
		out = out[:cut] + "~" + keyHash(key)
	}
	return out
}

// Encode is a document's file: the key field, then the managed fields in
// the kind's order, maps sorted by key; the same document gives the same
// bytes.
func Encode(d *Doc) []byte {
	root := &yaml.Node{Kind: yaml.MappingNode}
	add := func(name string, v *yaml.Node) {
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: name}, v)
	}
	add(d.Kind.KeyField, scalarNode(d.Key))
	for _, f := range d.Kind.Fields {
		v, ok := d.Fields[f.Name]
		if !ok {
			continue
		}
		add(f.Name, valueNode(v))
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	enc.Encode(root)
	enc.Close()
	return buf.Bytes()
}

func scalarNode(v any) *yaml.Node {
	n := &yaml.Node{}
	n.Encode(v)
	return n
}

func valueNode(v any) *yaml.Node {
	switch t := v.(type) {
	case map[string]any:
		m := &yaml.Node{Kind: yaml.MappingNode}
		for _, k := range sortedKeys(t) {
			m.Content = append(m.Content, scalarNode(k), valueNode(t[k]))
		}
		return m
	case []any:
		s := &yaml.Node{Kind: yaml.SequenceNode}
		for _, x := range t {
			s.Content = append(s.Content, valueNode(x))
		}
		return s
	}
	return scalarNode(v)
}

// WriteDir writes every document under dir, replacing the kinds' folders
// so that an object gone from the org leaves no file behind; nothing else
// in dir is touched. The new folders are written in full under a
// temporary folder in dir first and swapped in only then: an export that
// fails (a full disk, a name the file system refuses) leaves dir as it was.
func WriteDir(dir string, docs []*Doc) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := clearInterrupted(dir); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(dir, interruptedPrefix+"new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	held := map[string]bool{}
	for d, name := range FileNames(docs) {
		p := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := writeNew(p, Encode(d)); err != nil {
			return err
		}
		held[d.Kind.Name] = true
	}
	// Every kind's folder exists, so that a plan manages the kind even with
	// no object of it (a grant made by hand later is then unmanaged, and
	// seen); git keeps no empty folder, so an empty one holds a KeepFile.
	for _, k := range Kinds() {
		if held[k.Name] {
			continue
		}
		if err := os.MkdirAll(filepath.Join(tmp, k.Name), 0o755); err != nil {
			return err
		}
		if err := writeNew(filepath.Join(tmp, k.Name, KeepFile), nil); err != nil {
			return err
		}
	}
	old, err := os.MkdirTemp(dir, interruptedPrefix+"old-")
	if err != nil {
		return err
	}
	for _, k := range Kinds() {
		// A kind's folder that is a symlink is moved aside as a link: its
		// target is never written.
		if err := os.Rename(filepath.Join(dir, k.Name), filepath.Join(old, k.Name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := os.Rename(filepath.Join(tmp, k.Name), filepath.Join(dir, k.Name)); err != nil {
			return err
		}
	}
	return os.RemoveAll(old)
}

// writeNew writes a file that must not exist yet: O_EXCL never follows a
// symlink, and two documents never share a file unseen.
func writeNew(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// interruptedPrefix names the temporary folders of an export in progress.
const interruptedPrefix = ".orgctl-export-"

// clearInterrupted removes what an export killed mid-way left: its
// temporary folders. One killed between moving a kind's folder aside and
// moving the new one in leaves the kind missing, which this export writes.
func clearInterrupted(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), interruptedPrefix) {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// KeepFile marks a kind's folder that holds no object, for git.
const KeepFile = ".keep"
