package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf8"

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
	out, err := scanEnvelope(&jsonscan.Reader{Data: b}, nil)
	if err != nil {
		return nil, fmt.Errorf("API answered with something that is not JSON (%d bytes)", len(bytes.TrimSpace(b)))
	}
	return out, nil
}

// scanEnvelope is decodeEnvelope over a reader, which may be reading the
// answer while it arrives; when it returns without error, r.Data is the
// whole answer. Its errors say only that the answer is not JSON. render,
// when set, reads each data member's value in place of checking it (see
// Request.Render).
func scanEnvelope(r *jsonscan.Reader, render func(*jsonscan.Reader) any) (*Response, error) {
	out := &Response{TotalCount: -1}
	var env envelope
	var dataSpan [2]int
	hasData, mistyped := false, false
	// Whether whitespace lies between tokens anywhere in the body, in the
	// member value being read, and in the data value. Whitespace before and
	// after the value is not between tokens.
	spaced, inValue, valueSpaced, dataSpaced := false, false, false, false
	skipSpace(r)
	if r.Pos >= len(r.Data) {
		return out, nil // an empty answer
	}
	first, start := r.Data[r.Pos], r.Pos
	r.Skipped = func(int, int) {
		spaced = true
		valueSpaced = valueSpaced || inValue
	}
	var scratch []byte
	var rendered any
	var renderedSpan [2]int
	var err error
	if first == '{' {
		err = r.Object(func(key []byte, plain bool) error {
			start := r.Mark()
			inValue, valueSpaced = true, false
			field := envelopeField(jsonscan.Text(key, plain, &scratch))
			var value []byte
			var err error
			if made := renderData(r, field, render); made != nil {
				rendered, renderedSpan = made, [2]int{start.Pos(), r.Pos}
				// What the renderer told Skipped is not known to be all
				// the whitespace there was: take it that there was some.
				spaced, valueSpaced = true, true
			} else {
				r.Reset(start)
				value, err = r.Skip()
			}
			inValue = false
			if field == "data" {
				dataSpan, hasData, dataSpaced = [2]int{start.Pos(), r.Pos}, true, valueSpaced
			} else if field != "" && !mistyped && err == nil {
				mistyped = json.Unmarshal(value, envelopeTarget(&env, field)) != nil
			}
			return err
		})
	} else {
		_, err = r.Skip()
	}
	end := r.Pos
	r.Skipped = nil
	if err == nil {
		if skipSpace(r); r.Pos < len(r.Data) {
			err = r.Unexpected("after top-level value")
		}
	}
	if err != nil {
		return nil, err
	}
	if rendered != nil {
		out.rendered, out.renderedFrom = rendered, r.Data[renderedSpan[0]:renderedSpan[1]]
	}
	if first != '{' || mistyped || (env.Success == nil && !hasData) {
		// Not an envelope: treat the whole body as the data.
		out.Data = r.Data[start:end]
		if !spaced {
			out.compact = out.Data
		}
		return out, nil
	}
	if data := r.Data[dataSpan[0]:dataSpan[1]]; hasData && !bytes.Equal(data, []byte("null")) {
		out.Data = data
		if !dataSpaced {
			out.compact = out.Data
		}
	}
	out.paging(&env)
	return out, nil
}

// paging takes the envelope's paging members, those it has.
func (out *Response) paging(env *envelope) {
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
}

// renderData has render read a data member's value, and returns what it
// made; nil for other members, without render, or when rendering failed.
func renderData(r *jsonscan.Reader, field string, render func(*jsonscan.Reader) any) any {
	if field != "data" || render == nil {
		return nil
	}
	return render(r)
}

// skipSpace steps over what bytes.TrimSpace trims, as answers have always
// been trimmed so before decoding: JSON's whitespace and Unicode's.
func skipSpace(r *jsonscan.Reader) {
	for {
		r.WS()
		if r.Pos >= len(r.Data) {
			return
		}
		if c := r.Data[r.Pos]; c == '\v' || c == '\f' {
			r.Pos++
			continue
		} else if c < utf8.RuneSelf {
			return
		}
		// A rune arrives whole or the answer ends first.
		for !utf8.FullRune(r.Data[r.Pos:]) && r.More != nil && r.More() {
		}
		c, size := utf8.DecodeRune(r.Data[r.Pos:])
		if !unicode.IsSpace(c) {
			return
		}
		r.Pos += size
	}
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
