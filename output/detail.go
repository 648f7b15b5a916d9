package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/mattn/go-runewidth"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// Entry is one line of a key/value view: a key, its text, and the entries
// under it (an object's fields, a list's items), shown indented.
type Entry struct {
	Key   string
	Value string
	Sub   []Entry
}

// Entries turns an object into key/value entries in the order the API sent
// its keys: scalars as text, timestamps relative to now, null as "-",
// objects and lists as indented entries beneath their key. Text that is not
// an object gives nil.
func Entries(data json.RawMessage, now time.Time) ([]Entry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := orderedValue(dec)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(orderedObject)
	if !ok {
		return nil, nil
	}
	return objectEntries(obj, now), nil
}

// PrintEntries writes a key/value view: keys in a column, values beside
// them, each level's values aligned, on stdout.
func (p *Printer) PrintEntries(entries []Entry) error {
	w := bufio.NewWriterSize(p.IO.Out, outBufferSize)
	writeEntries(w, entries, "")
	return w.Flush()
}

func writeEntries(w *bufio.Writer, entries []Entry, indent string) {
	width := 0
	for _, e := range entries {
		width = max(width, runewidth.StringWidth(Safe(e.Key)))
	}
	for _, e := range entries {
		key := Safe(e.Key)
		w.WriteString(indent)
		w.WriteString(key)
		if e.Value != "" {
			w.WriteString(strings.Repeat(" ", max(0, width-runewidth.StringWidth(key))+2))
			w.WriteString(Safe(flatten(e.Value)))
		}
		w.WriteByte('\n')
		writeEntries(w, e.Sub, indent+"  ")
	}
}

type orderedField struct {
	key string
	val any
}

type orderedObject []orderedField

// orderedValue decodes one JSON value keeping objects' key order.
func orderedValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		var obj orderedObject
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := orderedValue(dec)
			if err != nil {
				return nil, err
			}
			obj = append(obj, orderedField{k.(string), v})
		}
		_, err := dec.Token()
		if obj == nil {
			obj = orderedObject{}
		}
		return obj, err
	case json.Delim('['):
		list := []any{}
		for dec.More() {
			v, err := orderedValue(dec)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.Token()
		return list, err
	}
	return t, nil
}

func objectEntries(obj orderedObject, now time.Time) []Entry {
	out := make([]Entry, 0, len(obj))
	for _, f := range obj {
		out = append(out, entry(f.key, f.val, now))
	}
	return out
}

func entry(key string, v any, now time.Time) Entry {
	switch t := v.(type) {
	case orderedObject:
		if len(t) == 0 {
			return Entry{Key: key, Value: "(none)"}
		}
		return Entry{Key: key, Sub: objectEntries(t, now)}
	case []any:
		if len(t) == 0 {
			return Entry{Key: key, Value: "(none)"}
		}
		scalars := true
		for _, e := range t {
			switch e.(type) {
			case orderedObject, []any:
				scalars = false
			}
		}
		if scalars {
			parts := make([]string, len(t))
			for i, e := range t {
				parts[i] = scalarText(e, now)
			}
			return Entry{Key: key, Value: strings.Join(parts, ", ")}
		}
		e := Entry{Key: key}
		for _, item := range t {
			if obj, ok := item.(orderedObject); ok {
				e.Sub = append(e.Sub, Entry{Key: "-", Value: itemLabel(obj, now)})
			} else {
				b, _ := json.Marshal(plain(item))
				e.Sub = append(e.Sub, Entry{Key: "-", Value: string(b)})
			}
		}
		return e
	}
	return Entry{Key: key, Value: scalarText(v, now)}
}

// itemLabel names an object in a list on one line: its email or name with
// its id, or its fields.
func itemLabel(obj orderedObject, now time.Time) string {
	get := func(k string) (string, bool) {
		for _, f := range obj {
			if f.key == k && f.val != nil {
				return scalarText(f.val, now), true
			}
		}
		return "", false
	}
	id, hasID := get("id")
	for _, k := range []string{"email", "name", "invited_email", "display_name"} {
		if s, ok := get(k); ok {
			if hasID {
				return s + " (" + id + ")"
			}
			return s
		}
	}
	parts := make([]string, 0, len(obj))
	for _, f := range obj {
		b, _ := json.Marshal(plain(f.val))
		if s, ok := f.val.(string); ok {
			b = []byte(s)
		}
		parts = append(parts, f.key+"="+string(b))
	}
	return strings.Join(parts, " ")
}

func scalarText(v any, now time.Time) string {
	switch t := v.(type) {
	case nil:
		return "-"
	case string:
		if ts, ok := ParseTime(t); ok {
			return Relative(ts, now)
		}
		if t == "" {
			return `""`
		}
		return t
	case orderedObject, []any:
		b, _ := json.Marshal(plain(t))
		return string(b)
	}
	return jsonscan.AsText(v)
}

// plain turns an ordered value back into one encoding/json can write.
func plain(v any) any {
	switch t := v.(type) {
	case orderedObject:
		m := make(map[string]any, len(t))
		for _, f := range t {
			m[f.key] = plain(f.val)
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = plain(e)
		}
		return out
	}
	return v
}
