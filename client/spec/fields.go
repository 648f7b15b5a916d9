package spec

import (
	"bytes"
	"encoding/json"
)

// DataFields names the fields of what an operation answers with (one
// item's fields for a list), in the published description's order, from
// its example answer; nil when the operation is not published or answers
// with no object. --json offers these names.
func DataFields(method, path string) []string {
	o := Find(method, path)
	if o == nil {
		return nil
	}
	return exampleFields(o.Example)
}

// exampleFields reads the keys of the example's data (or of the example
// itself, for routes that publish bare objects) in order.
func exampleFields(resp string) []string {
	if resp == "" {
		return nil
	}
	var env map[string]json.RawMessage
	if json.Unmarshal([]byte(resp), &env) != nil {
		return nil
	}
	data := json.RawMessage(resp)
	if d, ok := env["data"]; ok && env["success"] != nil {
		data = d
	}
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var items []json.RawMessage
		if json.Unmarshal(data, &items) != nil || len(items) == 0 {
			return nil
		}
		data = bytes.TrimSpace(items[0])
	}
	return objectKeys(data)
}

// objectKeys lists an object's keys in document order (nil for a non-object).
func objectKeys(obj []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil
		}
	}
	return keys
}
