package sandbox

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
)

// DataFields names the fields of what an operation answers with (one item's
// fields for a list), in the published spec's order, from the example
// response the sandbox serves; nil when the spec publishes no object there.
// orgctl's --json offers these names.
func DataFields(method, path string) []string {
	examplesOnce.Do(func() {
		examples = make(map[string]string, len(specOps))
		for _, op := range specOps {
			key := op.Method + " " + pathShape(op.Path)
			if _, dup := examples[key]; !dup {
				examples[key] = op.Resp
			}
		}
	})
	return exampleFields(examples[method+" "+pathShape(path)])
}

// examples are the published example answers by method and path shape,
// indexed on first use so commands that never ask pay nothing.
var (
	examplesOnce sync.Once
	examples     map[string]string
)

// pathShape is a path with its parameters blanked, so "/access_tokens/:accessTokenId",
// "/access_tokens/{id}" and "/organization/" compare as the spec means them.
func pathShape(p string) string {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	for i, s := range parts {
		if strings.HasPrefix(s, "{") || strings.HasPrefix(s, ":") {
			parts[i] = "{}"
		}
	}
	return "/" + strings.Join(parts, "/")
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
