package yamlvalue

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	yaml "go.yaml.in/yaml/v3"
)

// TooLargeError is a file over the cap ReadFile was given.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d KiB, more than any such file needs; is it the right file?", e.Path, e.Limit>>10)
}

// NotRegularError is a path that names a directory, a named pipe, a device
// or the like, where a file was expected.
type NotRegularError struct {
	Path string
	Kind string // "a directory", "a named pipe (FIFO)", ...
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, e.Kind)
}

// ReadFile reads path, refusing a file over limit bytes without reading
// more than that, and anything but a regular file without waiting on it:
// it opens without blocking, as opening a named pipe would wait for a
// writer that may never come.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Kind: fileKind(st.Mode())}
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return b, nil
}

// fileKind names what a path that is not a regular file is.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file (" + m.Type().String() + ")"
}

// ErrAliases is a document whose aliases expand to far more nodes than it
// holds (a "billion laughs").
var ErrAliases = errors.New("the document's aliases expand to too many values")

// Value returns the value of n as yaml's Decode into an any would: mappings
// as map[string]any (keys by their text), sequences as []any, scalars
// decoded by the library. A key given twice in one mapping is an error
// naming both lines, as Decode's is. Merge keys (<<) are honoured.
func Value(n *yaml.Node) (any, error) {
	c := &converter{budget: 10*count(n) + 1000}
	return c.value(n)
}

// Map is Value for a node that must be a mapping (or a document holding
// one, or empty).
func Map(n *yaml.Node) (map[string]any, error) {
	v, err := Value(n)
	if err != nil {
		return nil, err
	}
	switch m := v.(type) {
	case map[string]any:
		return m, nil
	case nil:
		return map[string]any{}, nil
	}
	return nil, fmt.Errorf("line %d: expected a mapping", n.Line)
}

// count is the number of nodes in the tree, aliases not followed.
func count(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	c := 1
	for _, ch := range n.Content {
		c += count(ch)
	}
	return c
}

type converter struct {
	budget int // nodes left to produce; aliases spend it again
}

func (c *converter) value(n *yaml.Node) (any, error) {
	if c.budget--; c.budget < 0 {
		return nil, ErrAliases
	}
	switch n.Kind {
	case 0: // an empty document
		return nil, nil
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0])
	case yaml.AliasNode:
		return c.value(n.Alias)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, ch := range n.Content {
			v, err := c.value(ch)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		return c.mapping(n)
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, err
		}
		return v, nil
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node", n.Line)
}

func (c *converter) mapping(n *yaml.Node) (map[string]any, error) {
	out := make(map[string]any, len(n.Content)/2)
	lines := make(map[string]int, len(n.Content)/2)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, vn := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			merges = append(merges, vn)
			continue
		}
		key := k.Value
		if k.Kind != yaml.ScalarNode {
			kv, err := c.value(k)
			if err != nil {
				return nil, err
			}
			key = fmt.Sprint(kv)
		}
		if line, dup := lines[key]; dup {
			return nil, fmt.Errorf("line %d: mapping key %q already defined at line %d", k.Line, key, line)
		}
		lines[key] = k.Line
		v, err := c.value(vn)
		if err != nil {
			return nil, err
		}
		out[key] = v
	}
	// Keys of the mapping itself win over merged ones; earlier merges win
	// over later ones, as in yaml's own decoding.
	for _, m := range merges {
		srcs := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			srcs = m.Content
		}
		for _, src := range srcs {
			v, err := c.value(src)
			if err != nil {
				return nil, err
			}
			mm, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("line %d: a merge (<<) takes a mapping or a list of mappings", src.Line)
			}
			for k, v := range mm {
				if _, set := out[k]; !set {
					out[k] = v
				}
			}
		}
	}
	return out, nil
}
