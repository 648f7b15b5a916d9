package output

import (
	"bytes"
	"encoding/json"
)

// SelectFields keeps the named fields of each record of data (the elements
// of a top-level array, or data itself), in the order named, for --json
// FIELDS. A record without a field gets null, so every record has the same
// shape; values are copied as received. What is not an object is kept whole.
func SelectFields(data json.RawMessage, fields []string) (json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return data, nil
	}
	if data[0] != '[' {
		return selectOne(data, fields)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		one, err := selectOne(bytes.TrimSpace(it), fields)
		if err != nil {
			return nil, err
		}
		b.Write(one)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

func selectOne(rec []byte, fields []string) ([]byte, error) {
	if len(rec) == 0 || rec[0] != '{' {
		return rec, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(rec, &m); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f)
		b.Write(k)
		b.WriteByte(':')
		if v, ok := m[f]; ok {
			b.Write(bytes.TrimSpace(v))
		} else {
			b.WriteString("null")
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
