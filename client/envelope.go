package client

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/orgctl/orgctl/output/jsonscan"
)

type envelope struct {
	Success    *bool           `json:"success"`
	Data       json.RawMessage `json:"data"`
	TotalCount *json.Number    `json:"total_count"`
	NextToken  *string         `json:"next_token"`
	HasMore    *bool           `json:"has_more"`
	Message    *string         `json:"message"`
}

// decodeEnvelope reads a 2xx answer. It decodes as json.Unmarshal into
// envelope would (keys matched case-insensitively, the last of repeated keys
// winning, a mistyped field making the answer no envelope), but leaves data
// where it is: Response.Data is a sub-slice of b.
func decodeEnvelope(b []byte) (*Response, error) {
	out := &Response{TotalCount: -1}
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 {
		return out, nil
	}
	r := &jsonscan.Reader{Data: trimmed}
	var env envelope
	var dataSpan [2]int
	hasData, mistyped := false, false
	// Whether whitespace lies between tokens anywhere in the body, in the
	// member value being read, and in the data value.
	spaced, inValue, valueSpaced, dataSpaced := false, false, false, false
	r.Skipped = func(int, int) {
		spaced = true
		valueSpaced = valueSpaced || inValue
	}
	var scratch []byte
	var err error
	if trimmed[0] == '{' {
		err = r.Object(func(key []byte, plain bool) error {
			start := r.Pos
			inValue, valueSpaced = true, false
			value, err := r.Skip()
			inValue = false
			field := envelopeField(jsonscan.Text(key, plain, &scratch))
			if field == "data" {
				dataSpan, hasData, dataSpaced = [2]int{start, r.Pos}, true, valueSpaced
			} else if field != "" && !mistyped && err == nil {
				mistyped = json.Unmarshal(value, envelopeTarget(&env, field)) != nil
			}
			return err
		})
	} else {
		_, err = r.Skip()
	}
	if err == nil {
		err = r.End()
	}
	if err != nil {
		return nil, fmt.Errorf("API answered with something that is not JSON (%d bytes)", len(trimmed))
	}
	if trimmed[0] != '{' || mistyped || (env.Success == nil && !hasData) {
		// Not an envelope: treat the whole body as the data.
		out.Data = trimmed
		if !spaced {
			out.compact = out.Data
		}
		return out, nil
	}
	if data := trimmed[dataSpan[0]:dataSpan[1]]; hasData && !bytes.Equal(data, []byte("null")) {
		out.Data = data
		if !dataSpaced {
			out.compact = out.Data
		}
	}
	if env.TotalCount != nil {
		if n, err := env.TotalCount.Int64(); err == nil {
			out.TotalCount = n
		} else if f, err := env.TotalCount.Float64(); err == nil {
			out.TotalCount = int64(f)
		}
	}
	if env.NextToken != nil {
		out.NextToken = *env.NextToken
	}
	if env.HasMore != nil {
		out.HasMore = *env.HasMore
	}
	return out, nil
}

// envelopeField names the envelope field a decoded key sets, matched as
// encoding/json matches struct fields; "" for other keys.
func envelopeField(key []byte) string {
	for _, f := range [...]string{"success", "data", "total_count", "next_token", "has_more", "message"} {
		if bytes.EqualFold(key, []byte(f)) {
			return f
		}
	}
	return ""
}

func envelopeTarget(env *envelope, field string) any {
	switch field {
	case "success":
		return &env.Success
	case "total_count":
		return &env.TotalCount
	case "next_token":
		return &env.NextToken
	case "has_more":
		return &env.HasMore
	}
	return &env.Message
}
