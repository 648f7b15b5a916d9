package jsonscan

import (
	"encoding/json"
	"testing"
)

func TestTextIsOneSpellingOfAJSONValue(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{nil, ""},
		{"user_a", "user_a"},
		{json.Number("12.50"), "12.50"},
		{float64(7), "7"},
		{1e21, "1000000000000000000000"},
		{true, "true"},
		{map[string]any{"team": "ops"}, `{"team":"ops"}`},
		{[]any{"a", json.Number("1")}, `["a",1]`},
		{json.RawMessage(`"7"`), "7"},
		{json.RawMessage(` 7 `), "7"},
		{json.RawMessage(`12345678901234567890`), "12345678901234567890"},
		{json.RawMessage(`null`), ""},
		{json.RawMessage(`{"b":1, "a":2}`), `{"a":2,"b":1}`},
		{json.RawMessage(`not json`), "not json"},
	} {
		if got := AsText(tc.v); got != tc.want {
			t.Errorf("AsText(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
