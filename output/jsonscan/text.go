package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// AsText is a JSON value as text, the one way orgctl writes a value it read
// as JSON where text goes (an id, key, label, flag or query value): a
// string as itself, a number as written, true or false, null as ""; an
// object or array as compact JSON. A json.RawMessage is decoded first, so
// an id reads the same whether the API sent "7" or 7.
func AsText(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case json.Number:
		return t.String()
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	case json.RawMessage:
		return rawText(t)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// rawText is AsText of an undecoded value; ids, the values it mostly
// sees, are read without a decoder, as they come once per row of a report.
func rawText(raw json.RawMessage) string {
	b := bytes.TrimSpace(raw)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if json.Unmarshal(b, &s) == nil {
			return s
		}
	}
	if len(b) > 0 && (b[0] == '-' || b[0] >= '0' && b[0] <= '9') && json.Valid(b) {
		return string(b) // a number, as written
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var x any
	if dec.Decode(&x) != nil || dec.More() {
		return string(b)
	}
	return AsText(x)
}
