package changes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Param is one supplied ODBC attribute, in the order given.
type Param struct{ Key, Value string }

// ValueText turns a JSON value into the ODBC attribute's text; only scalars make sense.
func ValueText(key string, v any) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	case json.Number:
		return t.String(), nil
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), nil
	case bool:
		return strconv.FormatBool(t), nil
	}
	return "", fmt.Errorf("ODBC parameter %q: the value must be a string, number or boolean", key)
}

// ParseParamsJSON reads a JSON object of scalars, keeping key order and refusing duplicate keys (which
// a plain decode would silently merge).
func ParseParamsJSON(b []byte) ([]Param, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out []Param
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("invalid JSON: %v", err)
		}
		k := t.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("invalid JSON: %v", err)
		}
		if seen[k] {
			return nil, fmt.Errorf("key %s appears twice", strconv.Quote(k))
		}
		seen[k] = true
		s, err := ValueText(k, v)
		if err != nil {
			return nil, err
		}
		out = append(out, Param{k, s})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("invalid JSON: data after the object")
	}
	return out, nil
}

// ParseConnectionString splits KEY=VALUE;KEY=VALUE the way ODBC does: a value that starts with '{'
// runs to the '}' that closes it ('}}' inside is a literal '}'), so ';' inside braces is part of it.
// The braces are kept, so the allowlist check sees exactly what would be passed on.
func ParseConnectionString(s string) ([]Param, error) {
	var out []Param
	i := 0
	for {
		for i < len(s) && (s[i] == ';' || isSpaceByte(s[i])) {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		eq := strings.IndexAny(s[i:], "=;")
		if eq < 0 || s[i+eq] == ';' {
			end := len(s)
			if eq >= 0 {
				end = i + eq
			}
			return nil, fmt.Errorf("%q has no '=': expected KEY=VALUE;KEY=VALUE", strings.TrimSpace(s[i:end]))
		}
		key := s[i : i+eq]
		j := i + eq + 1
		if end, ok := bracedEnd(s, j); ok {
			k := end
			for k < len(s) && isSpaceByte(s[k]) {
				k++
			}
			if k == len(s) || s[k] == ';' {
				out = append(out, Param{key, s[j:end]})
				i = k
				continue
			}
		} else if j < len(s) && s[j] == '{' {
			// Unclosed: the rest is the value, which the check rejects.
			out = append(out, Param{key, strings.TrimRightFunc(s[j:], unicode.IsSpace)})
			return out, nil
		}
		end := strings.IndexByte(s[j:], ';')
		if end < 0 {
			end = len(s) - j
		}
		out = append(out, Param{key, strings.TrimSpace(s[j : j+end])})
		i = j + end
	}
}

// bracedEnd returns the index just after the '}' closing a braced value that starts at s[j].
func bracedEnd(s string, j int) (int, bool) {
	if j >= len(s) || s[j] != '{' {
		return 0, false
	}
	for k := j + 1; k < len(s); k++ {
		if s[k] != '}' {
			continue
		}
		if k+1 < len(s) && s[k+1] == '}' {
			k++
			continue
		}
		return k + 1, true
	}
	return 0, false
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
