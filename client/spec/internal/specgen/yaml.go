package main

import (
	"fmt"
	"io"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// decodeYAML reads one YAML document (the 4.0 description is published as YAML) into the same
// ordered values decode gives for JSON: *object, []any, string, number, bool and nil. It goes
// through yaml.Node rather than a map so that properties keep the description's order.
func decodeYAML(r io.Reader) (any, error) {
	var root yaml.Node
	if err := yaml.NewDecoder(r).Decode(&root); err != nil {
		return nil, err
	}
	return fromNode(&root)
}

func fromNode(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return nil, fmt.Errorf("line %d: want one document", n.Line)
		}
		return fromNode(n.Content[0])
	case yaml.AliasNode:
		return fromNode(n.Alias)
	case yaml.MappingNode:
		o := &object{vals: map[string]any{}}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: a key that is not a scalar", k.Line)
			}
			v, err := fromNode(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			o.set(k.Value, v)
		}
		return o, nil
	case yaml.SequenceNode:
		a := []any{}
		for _, c := range n.Content {
			v, err := fromNode(c)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		return a, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil, nil
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return nil, err
			}
			return b, nil
		case "!!int", "!!float":
			return number(strings.ReplaceAll(n.Value, "_", "")), nil
		}
		return n.Value, nil
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node kind %d", n.Line, n.Kind)
}

// inline replaces every local {"$ref": "#/..."} in v by a copy of what it points at, so the rest
// of the generator reads the 4.0 description, which names its schemas in components, as it reads
// the 2.12 one, which writes them out. A reference back into its own chain (a recursive schema)
// becomes an empty schema, which checks nothing.
func inline(doc any) (any, error) {
	var walk func(v any, chain []string) (any, error)
	walk = func(v any, chain []string) (any, error) {
		switch t := v.(type) {
		case *object:
			if ref, ok := t.get("$ref"); ok {
				s, _ := ref.(string)
				for _, c := range chain {
					if c == s {
						return &object{}, nil
					}
				}
				target, err := pointer(doc, s)
				if err != nil {
					return nil, err
				}
				return walk(target, append(chain, s))
			}
			out := &object{}
			for _, k := range t.keys {
				w, err := walk(t.vals[k], chain)
				if err != nil {
					return nil, err
				}
				out.set(k, w)
			}
			return out, nil
		case []any:
			out := make([]any, len(t))
			for i, e := range t {
				w, err := walk(e, chain)
				if err != nil {
					return nil, err
				}
				out[i] = w
			}
			return out, nil
		}
		return v, nil
	}
	return walk(doc, nil)
}

// pointer resolves a local JSON pointer ("#/components/schemas/User").
func pointer(doc any, ref string) (any, error) {
	rest, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, fmt.Errorf("$ref %q is not local to the description", ref)
	}
	v := doc
	for _, seg := range strings.Split(rest, "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		o, ok := v.(*object)
		if !ok {
			return nil, fmt.Errorf("$ref %q: %q is not inside an object", ref, seg)
		}
		if v, ok = o.get(seg); !ok {
			return nil, fmt.Errorf("$ref %q: no %q", ref, seg)
		}
	}
	return v, nil
}
