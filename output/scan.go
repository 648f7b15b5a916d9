package output

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonReader walks JSON text in place and checks it as it goes, so a printer
// can stream a large answer element by element without decoding it whole or
// copying it. Its grammar is encoding/json's, nesting limit included.
type jsonReader struct {
	data  []byte
	pos   int
	depth int
}

// maxDepth is encoding/json's nesting limit: deeper input is invalid there.
const maxDepth = 10000

// syntaxError says what was wrong and where, like encoding/json's.
type syntaxError struct {
	msg    string
	offset int
}

func (e *syntaxError) Error() string { return fmt.Sprintf("%s at offset %d", e.msg, e.offset) }

func (r *jsonReader) fail(msg string) error { return &syntaxError{msg, r.pos} }

func (r *jsonReader) unexpected(context string) error {
	if r.pos >= len(r.data) {
		return &syntaxError{"unexpected end of JSON input", r.pos}
	}
	return &syntaxError{fmt.Sprintf("invalid character %q %s", r.data[r.pos], context), r.pos}
}

// ws skips insignificant whitespace.
func (r *jsonReader) ws() {
	if r.pos < len(r.data) && r.data[r.pos] > ' ' {
		return // the usual case: an answer without whitespace
	}
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// peek skips whitespace and returns the next byte, 0 at the end (and at a
// NUL byte, which is never valid outside a string either).
func (r *jsonReader) peek() byte {
	r.ws()
	if r.pos < len(r.data) {
		return r.data[r.pos]
	}
	return 0
}

// end checks that nothing but whitespace follows the value.
func (r *jsonReader) end() error {
	if r.ws(); r.pos < len(r.data) {
		return r.unexpected("after top-level value")
	}
	return nil
}

// strPlain marks string bytes that need no attention: printable ASCII
// other than the quote and the backslash.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads a string at pos (which must be '"') and returns its raw
// contents between the quotes. plain is true when the contents are the
// decoded string as is: no escapes and nothing but ASCII.
func (r *jsonReader) str() (raw []byte, plain bool, err error) {
	d := r.data
	i := r.pos + 1
	start := i
	plain = true
	for {
		// Eight bytes at a time: either all need no look, or the lowest
		// flagged byte is the first that does (borrows only carry upward).
		for i+8 <= len(d) {
			if m := needsLook(binary.LittleEndian.Uint64(d[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(d) && strPlain[d[i]] {
			i++
		}
		if i >= len(d) {
			r.pos = i
			return nil, false, r.unexpected("in string literal")
		}
		switch c := d[i]; {
		case c == '"':
			r.pos = i + 1
			return d[start:i], plain, nil
		case c == '\\':
			plain = false
			if i+1 >= len(d) {
				r.pos = i + 1
				return nil, false, r.unexpected("in string escape code")
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(d) || !isHex(d[i+k]) {
						r.pos = i + k
						return nil, false, r.unexpected("in \\u hexadecimal character escape")
					}
				}
				i += 6
			default:
				r.pos = i + 1
				return nil, false, r.unexpected("in string escape code")
			}
		case c < 0x20:
			r.pos = i
			return nil, false, r.unexpected("in string literal")
		default: // non-ASCII: decoding checks it is UTF-8
			plain = false
			i++
		}
	}
}

const (
	loBits = 0x0101010101010101
	hiBits = 0x8080808080808080
)

// needsLook sets the high bit of each of the eight bytes in x that is a
// quote, a backslash, a control character or not ASCII. Bits above the
// lowest may be set wrongly (a borrow carries into the next byte), never
// below it.
func needsLook(x uint64) uint64 {
	q := x ^ ('"' * loBits)
	b := x ^ ('\\' * loBits)
	return ((q-loBits)&^q | (b-loBits)&^b | (x-0x20*loBits)&^x | x) & hiBits
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// number reads a number at pos and returns its text.
func (r *jsonReader) number() ([]byte, error) {
	d := r.data
	start := r.pos
	i := start
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		for i++; i < len(d) && '0' <= d[i] && d[i] <= '9'; i++ {
		}
	default:
		r.pos = i
		return nil, r.unexpected("in numeric literal")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			r.pos = i
			return nil, r.unexpected("after decimal point in numeric literal")
		}
		for i++; i < len(d) && '0' <= d[i] && d[i] <= '9'; i++ {
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			r.pos = i
			return nil, r.unexpected("in exponent of numeric literal")
		}
		for i++; i < len(d) && '0' <= d[i] && d[i] <= '9'; i++ {
		}
	}
	r.pos = i
	return d[start:i], nil
}

// literal reads true, false or null at pos.
func (r *jsonReader) literal() ([]byte, error) {
	var want string
	switch r.data[r.pos] {
	case 't':
		want = "true"
	case 'f':
		want = "false"
	default:
		want = "null"
	}
	start := r.pos
	for k := 0; k < len(want); k++ {
		if r.pos >= len(r.data) || r.data[r.pos] != want[k] {
			return nil, r.unexpected("in literal " + want)
		}
		r.pos++
	}
	return r.data[start:r.pos], nil
}

// enter counts one level of nesting.
func (r *jsonReader) enter() error {
	r.depth++
	if r.depth > maxDepth {
		return r.fail("exceeded max depth")
	}
	return nil
}

// skip reads one value of any kind, checking it, and returns its text.
func (r *jsonReader) skip() ([]byte, error) {
	start := r.pos
	var err error
	switch r.peek() {
	case '{':
		start = r.pos
		err = r.object(func([]byte, bool) error { _, err := r.skip(); return err })
	case '[':
		start = r.pos
		err = r.array(func() error { _, err := r.skip(); return err })
	case '"':
		start = r.pos
		_, _, err = r.str()
	case 't', 'f', 'n':
		start = r.pos
		_, err = r.literal()
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		start = r.pos
		_, err = r.number()
	default:
		return nil, r.unexpected("looking for beginning of value")
	}
	if err != nil {
		return nil, err
	}
	return r.data[start:r.pos], nil
}

// object reads an object at pos ('{'), calling member with each key's raw
// contents and plainness, positioned at the key's value, which member must
// read.
func (r *jsonReader) object(member func(key []byte, plain bool) error) error {
	if err := r.enter(); err != nil {
		return err
	}
	r.pos++
	if r.peek() == '}' {
		r.pos++
		r.depth--
		return nil
	}
	for {
		if r.peek() != '"' {
			return r.unexpected("looking for beginning of object key string")
		}
		key, plain, err := r.str()
		if err != nil {
			return err
		}
		if r.peek() != ':' {
			return r.unexpected("after object key")
		}
		r.pos++
		r.ws()
		if err := member(key, plain); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.pos++
		case '}':
			r.pos++
			r.depth--
			return nil
		default:
			return r.unexpected("after object key:value pair")
		}
	}
}

// array reads an array at pos ('['), calling elem positioned at each
// element, which elem must read.
func (r *jsonReader) array(elem func() error) error {
	if err := r.enter(); err != nil {
		return err
	}
	r.pos++
	if r.peek() == ']' {
		r.pos++
		r.depth--
		return nil
	}
	for {
		r.ws()
		if err := elem(); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.pos++
		case ']':
			r.pos++
			r.depth--
			return nil
		default:
			return r.unexpected("after array element")
		}
	}
}

// member reads the object at pos ('{') and returns where the value of key
// starts and ends, the last one when the key repeats (as in a decoded
// map); start is -1 when the key is missing.
func (r *jsonReader) member(key string, scratch *[]byte) (start, end int, err error) {
	start, end = -1, -1
	err = r.object(func(k []byte, plain bool) error {
		s := r.pos
		_, err := r.skip()
		if string(text(k, plain, scratch)) == key {
			start, end = s, r.pos
		}
		return err
	})
	return start, end, err
}

// unquote appends the decoded form of a string's raw contents (as str
// returned them) to dst, as encoding/json decodes it: invalid UTF-8 and
// unpaired surrogates become U+FFFD.
func unquote(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			switch raw[i+1] {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				rr := hex4(raw[i+2:])
				i += 6
				if utf16.IsSurrogate(rr) {
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						if dec := utf16.DecodeRune(rr, hex4(raw[i+2:])); dec != utf8.RuneError {
							dst = utf8.AppendRune(dst, dec)
							i += 6
							continue
						}
					}
					rr = utf8.RuneError
				}
				dst = utf8.AppendRune(dst, rr)
				continue
			default: // '"', '\\', '/'
				dst = append(dst, raw[i+1])
			}
			i += 2
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(raw) && raw[j] < utf8.RuneSelf && raw[j] != '\\' {
				j++
			}
			dst = append(dst, raw[i:j]...)
			i = j
		default:
			rr, size := utf8.DecodeRune(raw[i:])
			if rr == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, raw[i:i+size]...)
			}
			i += size
		}
	}
	return dst
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// text returns a string's decoded contents, using scratch when decoding is
// needed; the result is only valid until scratch is reused.
func text(raw []byte, plain bool, scratch *[]byte) []byte {
	if plain {
		return raw
	}
	*scratch = unquote((*scratch)[:0], raw)
	return *scratch
}

// value reads one value into the types encoding/json decodes into `any` with
// UseNumber: map[string]any, []any, string, json.Number, bool and nil.
func (r *jsonReader) value(scratch *[]byte) (any, error) {
	switch r.peek() {
	case '{':
		m := map[string]any{}
		err := r.object(func(key []byte, plain bool) error {
			k := string(text(key, plain, scratch))
			v, err := r.value(scratch)
			m[k] = v
			return err
		})
		return m, err
	case '[':
		a := []any{}
		err := r.array(func() error {
			v, err := r.value(scratch)
			a = append(a, v)
			return err
		})
		return a, err
	case '"':
		raw, plain, err := r.str()
		if err != nil {
			return nil, err
		}
		return string(text(raw, plain, scratch)), nil
	case 't', 'f', 'n':
		lit, err := r.literal()
		if err != nil {
			return nil, err
		}
		switch lit[0] {
		case 't':
			return true, nil
		case 'f':
			return false, nil
		}
		return nil, nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		num, err := r.number()
		return json.Number(num), err
	}
	return nil, r.unexpected("looking for beginning of value")
}

// decodeValue decodes one whole JSON text the way decode does.
func decodeValue(data []byte) (any, error) {
	r := &jsonReader{data: data}
	var scratch []byte
	v, err := r.value(&scratch)
	if err == nil {
		err = r.end()
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}
