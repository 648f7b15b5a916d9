// Package yamlvalue turns a parsed YAML node tree into Go values (maps,
// slices, scalars) in time linear in its size, and reads YAML files people
// write (the config file, org-as-code files) with a size cap.
//
// go.yaml.in/yaml/v3's own Decode checks a mapping for duplicate keys by
// comparing every key with every later one: 80,000 keys took seconds, a
// 27 MB file over ten minutes. Value finds duplicates with a map instead,
// and decodes only scalars with the library, so every scalar means what
// Decode would make of it.
//
// It is a leaf: it imports only the standard library and the YAML parser.
package yamlvalue
