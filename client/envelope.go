package client

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
)

// jsonScanner checks JSON text as encoding/json's Valid does and finds where
// values end, without decoding or copying: an answer of many megabytes is
// read once, and its data stays where it arrived.
type jsonScanner struct {
	b     []byte
	depth int
}

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

var errNotJSON = errors.New("not JSON")

// ws returns the first index at or after i that is not whitespace.
func (s *jsonScanner) ws(i int) int {
	for i < len(s.b) {
		switch s.b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// strPlain marks string bytes that need no check: anything but the quote,
// the backslash and control characters (encoding/json accepts any other
// byte in a string, invalid UTF-8 included).
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x100; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str checks the string starting at i ('"') and returns the index after it.
func (s *jsonScanner) str(i int) (int, error) {
	b := s.b
	for i++; ; {
		// Eight bytes at a time: either all need no look, or the lowest
		// flagged byte is the first that does (borrows only carry upward).
		for i+8 <= len(b) {
			if m := needsLook(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(b) && strPlain[b[i]] {
			i++
		}
		if i >= len(b) {
			return i, errNotJSON
		}
		switch b[i] {
		case '"':
			return i + 1, nil
		case '\\':
			if i+1 >= len(b) {
				return i, errNotJSON
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(b) || !isHex(b[i+k]) {
						return i, errNotJSON
					}
				}
				i += 6
			default:
				return i, errNotJSON
			}
		default: // a control character
			return i, errNotJSON
		}
	}
}

const (
	loBits = 0x0101010101010101
	hiBits = 0x8080808080808080
)

// needsLook sets the high bit of each of the eight bytes in x that is a
// quote, a backslash or a control character. Bits above the lowest may be
// set wrongly (a borrow carries into the next byte), never below it.
func needsLook(x uint64) uint64 {
	q := x ^ ('"' * loBits)
	b := x ^ ('\\' * loBits)
	return ((q-loBits)&^q | (b-loBits)&^b | (x-0x20*loBits)&^x) & hiBits
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func (s *jsonScanner) digits(i int) int {
	for i < len(s.b) && '0' <= s.b[i] && s.b[i] <= '9' {
		i++
	}
	return i
}

func (s *jsonScanner) number(i int) (int, error) {
	b := s.b
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = s.digits(i + 1)
	default:
		return i, errNotJSON
	}
	if i < len(b) && b[i] == '.' {
		j := s.digits(i + 1)
		if j == i+1 {
			return i, errNotJSON
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := s.digits(i)
		if j == i {
			return i, errNotJSON
		}
		i = j
	}
	return i, nil
}

// value checks the value starting at i (after any whitespace) and returns
// the index after it.
func (s *jsonScanner) value(i int) (int, error) {
	i = s.ws(i)
	if i >= len(s.b) {
		return i, errNotJSON
	}
	switch c := s.b[i]; c {
	case '{':
		return s.object(i, nil)
	case '[':
		return s.array(i, nil)
	case '"':
		return s.str(i)
	case 't', 'f', 'n':
		lit := "null"
		if c == 't' {
			lit = "true"
		} else if c == 'f' {
			lit = "false"
		}
		if !bytes.HasPrefix(s.b[i:], []byte(lit)) {
			return i, errNotJSON
		}
		return i + len(lit), nil
	default:
		return s.number(i)
	}
}

// object checks the object at i ('{'), calling member (when not nil) with
// each key's raw text (quotes included) and its value's span.
func (s *jsonScanner) object(i int, member func(key []byte, start, end int)) (int, error) {
	if s.depth++; s.depth > maxDepth {
		return i, errNotJSON
	}
	defer func() { s.depth-- }()
	i = s.ws(i + 1)
	if i < len(s.b) && s.b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(s.b) || s.b[i] != '"' {
			return i, errNotJSON
		}
		k, err := s.str(i)
		if err != nil {
			return k, err
		}
		key := s.b[i:k]
		i = s.ws(k)
		if i >= len(s.b) || s.b[i] != ':' {
			return i, errNotJSON
		}
		start := s.ws(i + 1)
		end, err := s.value(start)
		if err != nil {
			return end, err
		}
		if member != nil {
			member(key, start, end)
		}
		i = s.ws(end)
		if i >= len(s.b) {
			return i, errNotJSON
		}
		switch s.b[i] {
		case ',':
			i = s.ws(i + 1)
		case '}':
			return i + 1, nil
		default:
			return i, errNotJSON
		}
	}
}

// array checks the array at i ('['), calling elem (when not nil) with each
// element's span.
func (s *jsonScanner) array(i int, elem func(start, end int)) (int, error) {
	if s.depth++; s.depth > maxDepth {
		return i, errNotJSON
	}
	defer func() { s.depth-- }()
	i = s.ws(i + 1)
	if i < len(s.b) && s.b[i] == ']' {
		return i + 1, nil
	}
	for {
		start := s.ws(i)
		end, err := s.value(start)
		if err != nil {
			return end, err
		}
		if elem != nil {
			elem(start, end)
		}
		i = s.ws(end)
		if i >= len(s.b) {
			return i, errNotJSON
		}
		switch s.b[i] {
		case ',':
			i++
		case ']':
			return i + 1, nil
		default:
			return i, errNotJSON
		}
	}
}

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
	s := &jsonScanner{b: trimmed}
	var env envelope
	var dataSpan [2]int
	hasData, mistyped := false, false
	var end int
	var err error
	if trimmed[0] == '{' {
		end, err = s.object(0, func(rawKey []byte, start, end int) {
			field := envelopeField(rawKey)
			if field == "data" {
				dataSpan, hasData = [2]int{start, end}, true
			} else if field != "" && !mistyped {
				mistyped = json.Unmarshal(trimmed[start:end], envelopeTarget(&env, field)) != nil
			}
		})
	} else {
		end, err = s.value(0)
	}
	if err != nil || s.ws(end) != len(trimmed) {
		return nil, fmt.Errorf("API answered with something that is not JSON (%d bytes)", len(trimmed))
	}
	if trimmed[0] != '{' || mistyped || (env.Success == nil && !hasData) {
		// Not an envelope: treat the whole body as the data.
		out.Data = trimmed
		return out, nil
	}
	if data := trimmed[dataSpan[0]:dataSpan[1]]; hasData && !bytes.Equal(data, []byte("null")) {
		out.Data = data
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

// envelopeField names the envelope field a raw key (quotes included) sets,
// matched as encoding/json matches struct fields; "" for other keys.
func envelopeField(rawKey []byte) string {
	key := rawKey[1 : len(rawKey)-1]
	if bytes.IndexByte(key, '\\') >= 0 {
		var k string
		if json.Unmarshal(rawKey, &k) != nil {
			return ""
		}
		key = []byte(k)
	}
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
